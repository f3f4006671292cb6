// SPDX-License-Identifier: MIT
// numeric<T>: limits of each numeric type (min, max, lowest, epsilon, infinity, quiet NaN), usable
// in device code where std::numeric_limits lacks the library's own types.
#pragma once
#include <cstdint>
#include <limits>
#include "ck_tile/core/config.hpp"
#include "ck_tile/core/numeric/half.hpp"
#include "ck_tile/core/numeric/bfloat16.hpp"
#include "ck_tile/core/numeric/float8.hpp"

namespace ck_tile {

template <typename T>
struct numeric
{
    CK_TILE_HOST_DEVICE static constexpr T min() { return std::numeric_limits<T>::min(); }
    CK_TILE_HOST_DEVICE static constexpr T max() { return std::numeric_limits<T>::max(); }
    CK_TILE_HOST_DEVICE static constexpr T lowest() { return std::numeric_limits<T>::lowest(); }
    CK_TILE_HOST_DEVICE static constexpr T epsilon() { return std::numeric_limits<T>::epsilon(); }
    CK_TILE_HOST_DEVICE static constexpr T infinity() { return std::numeric_limits<T>::infinity(); }
    CK_TILE_HOST_DEVICE static constexpr T quiet_NaN() { return std::numeric_limits<T>::quiet_NaN(); }
};

template <>
struct numeric<half_t>
{
    CK_TILE_HOST_DEVICE static constexpr half_t min() { return __builtin_bit_cast(half_t, uint16_t(0x0400)); }
    CK_TILE_HOST_DEVICE static constexpr half_t max() { return __builtin_bit_cast(half_t, uint16_t(0x7bff)); }
    CK_TILE_HOST_DEVICE static constexpr half_t lowest() { return __builtin_bit_cast(half_t, uint16_t(0xfbff)); }
    CK_TILE_HOST_DEVICE static constexpr half_t epsilon() { return __builtin_bit_cast(half_t, uint16_t(0x1400)); }
    CK_TILE_HOST_DEVICE static constexpr half_t infinity() { return __builtin_bit_cast(half_t, uint16_t(0x7c00)); }
    CK_TILE_HOST_DEVICE static constexpr half_t quiet_NaN() { return __builtin_bit_cast(half_t, uint16_t(0x7e00)); }
};

template <>
struct numeric<bf16_t>
{
    CK_TILE_HOST_DEVICE static constexpr bf16_t min() { return bf16_t::from_raw(0x0080); }
    CK_TILE_HOST_DEVICE static constexpr bf16_t max() { return bf16_t::from_raw(0x7f7f); }
    CK_TILE_HOST_DEVICE static constexpr bf16_t lowest() { return bf16_t::from_raw(0xff7f); }
    CK_TILE_HOST_DEVICE static constexpr bf16_t epsilon() { return bf16_t::from_raw(0x3c00); } // 2^-7
    CK_TILE_HOST_DEVICE static constexpr bf16_t infinity() { return bf16_t::from_raw(0x7f80); }
    CK_TILE_HOST_DEVICE static constexpr bf16_t quiet_NaN() { return bf16_t::from_raw(0x7fc0); }
};

// The 8-bit floats (see float8.hpp for the encodings). min() is the smallest normal value,
// epsilon() the distance from 1 to the next value. Encodings without an infinity (all but OCP
// E5M2) return their NaN from infinity(), as a marker; has_infinity() tells which is which.
template <fp8_encoding E>
struct numeric<float8<E>>
{
    using T  = float8<E>;
    using tr = fp8_encoding_traits<E>;
    CK_TILE_HOST_DEVICE static constexpr T min() { return T::from_raw(uint8_t(1u << tr::mant_bits)); }
    CK_TILE_HOST_DEVICE static constexpr T max() { return T::from_raw(tr::max_code); }
    CK_TILE_HOST_DEVICE static constexpr T lowest() { return T::from_raw(uint8_t(0x80u | tr::max_code)); }
    CK_TILE_HOST_DEVICE static constexpr T epsilon()
    {
        return T::from_raw(uint8_t((tr::bias - tr::mant_bits) << tr::mant_bits));
    }
    CK_TILE_HOST_DEVICE static constexpr T infinity() { return T::from_raw(tr::has_inf ? tr::inf_code : tr::nan_code); }
    CK_TILE_HOST_DEVICE static constexpr T quiet_NaN() { return T::from_raw(tr::nan_code); }
    CK_TILE_HOST_DEVICE static constexpr bool has_infinity() { return tr::has_inf; }
};

} // namespace ck_tile
