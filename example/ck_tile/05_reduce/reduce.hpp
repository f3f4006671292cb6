// SPDX-License-Identifier: MIT
// What the 05_reduce examples share: the data types they name on the command line, the check of
// the tensor sizes the kernels can address, and the tolerances of an fp32 sum of `length` values
// rounded to the output type.
#pragma once
#include <algorithm>
#include <cmath>
#include <string>

#include "ck_tile/core.hpp"
#include "ck_tile/host.hpp"
#include "ck_tile/ops/reduce.hpp"

namespace reduce_example {

template <typename T>
struct DataTypeTraits;
template <>
struct DataTypeTraits<ck_tile::half_t>
{
    static constexpr const char* name = "fp16";
};
template <>
struct DataTypeTraits<ck_tile::bf16_t>
{
    static constexpr const char* name = "bf16";
};

// N, H, W and C, each >= 1, and an input the kernels address with 32-bit offsets
struct Nhwc
{
    int n, h, w, c;
    long long elements() const { return 1ll * n * h * w * c; }
};
inline Nhwc read_nhwc(const ck_tile::ArgParser& p)
{
    Nhwc s{p.get_int_at_least("n", 1), p.get_int_at_least("h", 1), p.get_int_at_least("w", 1),
           p.get_int_at_least("c", 1)};
    if(s.elements() * 2 > 0x7fffffffll)
        throw ck_tile::arg_error("error: the input has " + std::to_string(s.elements()) +
                                 " elements; the kernel addresses at most 2^31 - 1 bytes (-n x -h x -w x -c x 2)");
    return s;
}

// An fp32 sum of `length` values stored as Y: the kernel and the reference add in different
// orders (at most `length` fp32 roundings apart) and then round to Y (one unit roundoff each).
template <typename YDataType>
struct sum_tolerance
{
    double rtol, atol;
};
template <typename YDataType, typename Range>
sum_tolerance<YDataType> make_sum_tolerance(const Range& ref, int length)
{
    double max_ref = 0;
    for(const auto& v : ref)
        max_ref = std::max(max_ref, std::fabs(double(ck_tile::type_convert<float>(v))));
    return {ck_tile::get_relative_threshold<float, YDataType, float>(length),
            ck_tile::get_absolute_threshold<float, YDataType, float>(max_ref, length)};
}

} // namespace reduce_example
