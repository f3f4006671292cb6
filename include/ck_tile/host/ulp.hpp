// SPDX-License-Identifier: MIT
// ulp_at<T>(x): the spacing of T's representable values at magnitude x, for the tolerances derived
// from roundings (fused_moe_tolerance.hpp, fmha_tolerance.hpp). T is any floating type with
// numeric<T>::epsilon() (the spacing at 1) and min() (the smallest normal value): 2^floor(log2 x)
// epsilon for a normal x, epsilon min below min() (the subnormal spacing).
#pragma once
#include <cmath>
#include "ck_tile/core.hpp"

namespace ck_tile {

template <typename T>
double ulp_at(double x)
{
    const double eps  = static_cast<double>(type_convert<float>(numeric<T>::epsilon()));
    const double tiny = static_cast<double>(type_convert<float>(numeric<T>::min()));
    x                 = std::fabs(x);
    if(!(x >= tiny))
        return tiny * eps;
    int e = 0;
    std::frexp(x, &e); // x = f 2^e, f in [0.5, 1): x's binade starts at 2^(e - 1)
    return std::ldexp(eps, e - 1);
}

} // namespace ck_tile
