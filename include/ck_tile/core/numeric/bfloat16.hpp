// SPDX-License-Identifier: MIT
// bf16_t: bfloat16 (1 sign, 8 exponent, 7 mantissa bits), the upper half of an IEEE float.
// Stored as raw bits; arithmetic goes through float. float -> bf16 rounds to nearest even and keeps
// NaNs quiet, as the hardware's conversion does.
#pragma once
#include <cstdint>
#include "ck_tile/core/config.hpp"

namespace ck_tile {

CK_TILE_HOST_DEVICE uint32_t bit_cast_float_to_u32(float f) { return __builtin_bit_cast(uint32_t, f); }
CK_TILE_HOST_DEVICE float bit_cast_u32_to_float(uint32_t u) { return __builtin_bit_cast(float, u); }

struct bf16_t
{
    uint16_t data;

    bf16_t() = default;
    CK_TILE_HOST_DEVICE constexpr explicit bf16_t(uint16_t raw, int /*raw_tag*/) : data(raw) {}
    CK_TILE_HOST_DEVICE explicit bf16_t(float f) : data(from_float(f)) {}
    CK_TILE_HOST_DEVICE explicit bf16_t(double d) : data(from_float(static_cast<float>(d))) {}
    CK_TILE_HOST_DEVICE explicit bf16_t(int i) : data(from_float(static_cast<float>(i))) {}
    CK_TILE_HOST_DEVICE explicit operator float() const { return bit_cast_u32_to_float(uint32_t(data) << 16); }

    CK_TILE_HOST_DEVICE static constexpr bf16_t from_raw(uint16_t raw) { return bf16_t(raw, 0); }

    CK_TILE_HOST_DEVICE static uint16_t from_float(float f)
    {
        uint32_t u = bit_cast_float_to_u32(f);
        if((u & 0x7f800000u) == 0x7f800000u && (u & 0x007fffffu) != 0)
            return static_cast<uint16_t>((u >> 16) | 0x0040u); // NaN: keep it a (quiet) NaN
        u += 0x7fffu + ((u >> 16) & 1u);                       // round to nearest, ties to even
        return static_cast<uint16_t>(u >> 16);
    }

    CK_TILE_HOST_DEVICE friend bool operator==(bf16_t a, bf16_t b) { return float(a) == float(b); }
    CK_TILE_HOST_DEVICE friend bool operator!=(bf16_t a, bf16_t b) { return !(a == b); }
    CK_TILE_HOST_DEVICE friend bool operator<(bf16_t a, bf16_t b) { return float(a) < float(b); }
    CK_TILE_HOST_DEVICE friend bf16_t operator+(bf16_t a, bf16_t b) { return bf16_t(float(a) + float(b)); }
    CK_TILE_HOST_DEVICE friend bf16_t operator-(bf16_t a, bf16_t b) { return bf16_t(float(a) - float(b)); }
    CK_TILE_HOST_DEVICE friend bf16_t operator*(bf16_t a, bf16_t b) { return bf16_t(float(a) * float(b)); }
    CK_TILE_HOST_DEVICE friend bf16_t operator/(bf16_t a, bf16_t b) { return bf16_t(float(a) / float(b)); }
    CK_TILE_HOST_DEVICE friend bf16_t operator-(bf16_t a) { return from_raw(static_cast<uint16_t>(a.data ^ 0x8000u)); }
};

using bfloat16_t = bf16_t;

} // namespace ck_tile
