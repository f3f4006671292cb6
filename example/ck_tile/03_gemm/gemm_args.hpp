// SPDX-License-Identifier: MIT
// Option checks the GEMM examples of 03_gemm share: layouts, strides, and the 32-bit span of a
// matrix (checked before anything is allocated). Each throws ck_tile::arg_error with one line.
#pragma once
#include <string>
#include "ck_tile/host.hpp"

namespace gemm_args {

// -<name>=R|C: true for row-major
inline bool parse_layout(const ck_tile::ArgParser& p, const std::string& name)
{
    const std::string v = p.get_str(name);
    if(v == "R" || v == "r")
        return true;
    if(v == "C" || v == "c")
        return false;
    throw ck_tile::arg_error("error: option -" + name + ": '" + v +
                             "' is not a layout (R: row-major, C: column-major)");
}

// the leading-dimension stride: 0 means packed; otherwise at least the contiguous dimension
inline int resolve_stride(const ck_tile::ArgParser& p, const std::string& name, int inner, const char* inner_name,
                          const std::string& what)
{
    const int s = p.get_int_at_least(name, 0);
    if(s == 0)
        return inner;
    if(s < inner)
        throw ck_tile::arg_error("error: option -" + name + ": " + std::to_string(s) + " is smaller than " +
                                 inner_name + "=" + std::to_string(inner) + ", the contiguous dimension of " + what);
    return s;
}

// the kernels address each matrix with 32-bit byte offsets: outer x inner elements, rows `stride`
// apart, of `bytes` each
inline void check_span(const char* name, long long outer, long long inner, long long stride, long long bytes)
{
    const long long span = ((outer - 1) * stride + inner) * bytes;
    if(span > 0x7fffffffll)
        throw ck_tile::arg_error(std::string("error: ") + name + " spans " + std::to_string(span) +
                                 " bytes; the kernel uses 32-bit offsets (at most 2^31 - 1 bytes per matrix)");
}

} // namespace gemm_args
