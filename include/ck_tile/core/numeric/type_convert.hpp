// SPDX-License-Identifier: MIT
// type_convert<Y>(x): the one conversion between the library's numeric types. Everything that is
// not float goes through float, so a new type only needs to convert to and from float. To an 8-bit
// float (fp8_t, bf8_t, ...) the conversion rounds to nearest even and saturates (see float8.hpp).
#pragma once
#include <type_traits>
#include "ck_tile/core/config.hpp"
#include "ck_tile/core/numeric/half.hpp"
#include "ck_tile/core/numeric/bfloat16.hpp"
#include "ck_tile/core/numeric/float8.hpp"

namespace ck_tile {

template <typename Y, typename X>
CK_TILE_HOST_DEVICE constexpr Y type_convert(X x)
{
    if constexpr(std::is_same_v<Y, X>)
        return x;
    else if constexpr(std::is_same_v<Y, bf16_t>)
        return bf16_t(static_cast<float>(x));
    else if constexpr(std::is_same_v<Y, half_t>)
        return half_t(static_cast<float>(x));
    else if constexpr(is_float8_v<Y>) // rounds to nearest even, saturating (float8.hpp)
        return Y(static_cast<float>(x));
    else if constexpr(std::is_same_v<X, bf16_t> || std::is_same_v<X, half_t> || is_float8_v<X>)
        return static_cast<Y>(static_cast<float>(x));
    else
        return static_cast<Y>(x);
}

} // namespace ck_tile
