// SPDX-License-Identifier: MIT
// Integer helpers: ceiling division, rounding up to a multiple, min/max, gcd/lcm, powers of two;
// and the float functions kernels need (sqrt, rsqrt, rint): clang builtins, which both backends
// lower (to v_sqrt_f32 / v_rndne_f32 on the GPU, to libm-free code on the host).
#pragma once
#include "ck_tile/core/config.hpp"
#include "ck_tile/core/numeric/integer.hpp"
#include "ck_tile/core/numeric/integral_constant.hpp"

namespace ck_tile {

template <typename X, typename Y>
CK_TILE_HOST_DEVICE constexpr auto integer_divide_ceil(X x, Y y)
{
    return (x + y - number<1>{}) / y;
}
template <typename X, typename Y>
CK_TILE_HOST_DEVICE constexpr auto integer_divide_floor(X x, Y y)
{
    return x / y;
}
template <typename X, typename Y>
CK_TILE_HOST_DEVICE constexpr auto integer_least_multiple(X x, Y y)
{
    return y * integer_divide_ceil(x, y);
}

template <typename T>
CK_TILE_HOST_DEVICE constexpr T max(T x)
{
    return x;
}
template <typename T, typename... Ts>
CK_TILE_HOST_DEVICE constexpr T max(T x, Ts... xs)
{
    T m = max(static_cast<T>(xs)...);
    return x > m ? x : m;
}
template <typename T>
CK_TILE_HOST_DEVICE constexpr T min(T x)
{
    return x;
}
template <typename T, typename... Ts>
CK_TILE_HOST_DEVICE constexpr T min(T x, Ts... xs)
{
    T m = min(static_cast<T>(xs)...);
    return x < m ? x : m;
}

CK_TILE_HOST_DEVICE constexpr index_t gcd(index_t x, index_t y)
{
    while(y != 0)
    {
        index_t t = x % y;
        x         = y;
        y         = t;
    }
    return x < 0 ? -x : x;
}
CK_TILE_HOST_DEVICE constexpr index_t lcm(index_t x, index_t y) { return x / gcd(x, y) * y; }

CK_TILE_HOST_DEVICE constexpr bool is_power_of_two_integer(index_t x) { return x > 0 && (x & (x - 1)) == 0; }

template <typename T>
CK_TILE_HOST_DEVICE constexpr T abs(T x)
{
    return x < T(0) ? -x : x;
}

CK_TILE_HOST_DEVICE float sqrt(float x) { return __builtin_sqrtf(x); }

// 1 / sqrt(x), correctly rounded steps (not the approximate v_rsq_f32): the norms' references
// compute it the same way, so kernel and reference agree to the last bit or two
CK_TILE_HOST_DEVICE float rsqrt(float x) { return 1.0f / __builtin_sqrtf(x); }

// round to the nearest integer, ties to even (the rounding of the quantizing conversions)
CK_TILE_HOST_DEVICE float rint(float x) { return __builtin_rintf(x); }

} // namespace ck_tile
