// SPDX-License-Identifier: MIT
// What the GEMM examples of 03_gemm share (layouts and strides are ArgParser's get_layout and
// get_leading_stride): the 32-bit span of a matrix, checked before anything is allocated (one
// ck_tile::arg_error line), the device reference for the run-time layouts, and the largest |C|
// the thresholds scale with.
#pragma once
#include <algorithm>
#include <cmath>
#include <string>
#include "ck_tile/host.hpp"
#include "ck_tile/host/reference/reference_gemm.hpp"

namespace gemm_args {

// the kernels address each matrix with 32-bit byte offsets: outer x inner elements, rows `stride`
// apart, of `bytes` each
inline void check_span(const char* name, long long outer, long long inner, long long stride, long long bytes)
{
    const long long span = ((outer - 1) * stride + inner) * bytes;
    if(span > 0x7fffffffll)
        throw ck_tile::arg_error(std::string("error: ") + name + " spans " + std::to_string(span) +
                                 " bytes; the kernel uses 32-bit offsets (at most 2^31 - 1 bytes per matrix)");
}

// reference_gemm_gpu for the layouts chosen at run time (C row-major)
template <typename A, typename B, typename Acc, typename C>
void reference_gemm_gpu(bool a_row_major, bool b_row_major, const void* a, const void* b, void* c, int M, int N, int K,
                        int stride_a, int stride_b, int stride_c)
{
    using Row      = ck_tile::tensor_layout::gemm::RowMajor;
    using Col      = ck_tile::tensor_layout::gemm::ColumnMajor;
    const auto run = [&](auto al, auto bl) {
        ck_tile::reference_gemm_gpu<A, B, Acc, C, decltype(al), decltype(bl), Row>(
            static_cast<const A*>(a), static_cast<const B*>(b), static_cast<C*>(c), M, N, K, stride_a, stride_b,
            stride_c);
    };
    if(a_row_major)
        b_row_major ? run(Row{}, Row{}) : run(Row{}, Col{});
    else
        b_row_major ? run(Col{}, Row{}) : run(Col{}, Col{});
}

// the largest |c(m, n)| of an M x N matrix (its stride gaps excluded)
template <typename C>
double max_abs(const ck_tile::HostTensor<C>& c, int M, int N)
{
    double m = 0;
    for(int i = 0; i < M; ++i)
        for(int j = 0; j < N; ++j)
            m = std::max(m, std::fabs(ck_tile::type_convert<double>(c(i, j))));
    return m;
}

} // namespace gemm_args
