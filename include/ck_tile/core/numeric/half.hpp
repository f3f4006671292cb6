// SPDX-License-Identifier: MIT
// half_t: IEEE-754 binary16.
//
// On the GPU it is the compiler's arithmetic type _Float16. On the emulator it is a 16-bit struct
// that converts through _Float16 (so rounding is the same: to nearest, ties to even) and computes
// in float, rounding every result back to half as the GPU's half instructions do. The struct
// exists for speed: x86 keeps each _Float16 in its own SSE register, so copying tiles of them
// costs an insert or extract per element, while the struct moves as plain 16-bit integers.
#pragma once
#include <cstdint>
#include <type_traits>
#include "ck_tile/core/config.hpp"

namespace ck_tile {

#if defined(CK_TILE_BACKEND_HIP)
using half_t = _Float16;
#else
struct half_t
{
    uint16_t data;

    half_t() = default;
    template <typename T, typename = std::enable_if_t<std::is_arithmetic_v<T>>>
    CK_TILE_HOST_DEVICE constexpr half_t(T x) : data(from(x))
    {}
    CK_TILE_HOST_DEVICE constexpr half_t(_Float16 x) : data(__builtin_bit_cast(uint16_t, x)) {}
    CK_TILE_HOST_DEVICE constexpr operator _Float16() const { return __builtin_bit_cast(_Float16, data); }
    CK_TILE_HOST_DEVICE constexpr explicit operator float() const
    {
#if defined(__F16C__)
        return static_cast<float>(__builtin_bit_cast(_Float16, data));
#else
        // Without F16C, _Float16 -> float is a libgcc call (__extendhfsf2), which dominated
        // fp16 reductions on the emulator. The same exact conversion inline: the exponent and
        // mantissa bits moved into float's places are the value times 2^-112 (bias 15 vs 127;
        // subnormals included), so one exact multiply rescales them; Inf and NaN keep their bits.
        const uint32_t em = data & 0x7fffu;
        float f           = __builtin_bit_cast(float, em << 13) * 0x1p112f;
        if(em >= 0x7c00u)
            f = __builtin_bit_cast(float, (em << 13) | 0x7f800000u);
        return __builtin_bit_cast(float, __builtin_bit_cast(uint32_t, f) | (uint32_t(data & 0x8000u) << 16));
#endif
    }
    // x rounded to the nearest half (ties to even), as static_cast<_Float16>. Without F16C that
    // cast is a libgcc call (__truncsfhf2) for float; the same rounding inline (F. Giesen's
    // float_to_half_fast3_rtne): subnormal results by an exact float addition that leaves the
    // rounded bits in place, normal ones by rebiasing the exponent and adding the rounding
    // increment to the bits (a carry into the exponent, up to Inf, is the right result).
    template <typename T>
    CK_TILE_HOST_DEVICE static constexpr uint16_t from(T x)
    {
#if defined(__F16C__)
        return __builtin_bit_cast(uint16_t, static_cast<_Float16>(x));
#else
        if constexpr(!std::is_same_v<T, float>)
            return __builtin_bit_cast(uint16_t, static_cast<_Float16>(x));
        else
        {
            uint32_t f          = __builtin_bit_cast(uint32_t, x);
            const uint32_t sign = f & 0x80000000u;
            f ^= sign;
            uint32_t o;
            if(f >= 0x47800000u) // |x| >= 2^16, Inf or NaN: Inf, or a quiet NaN keeping the high payload
                o = f > 0x7f800000u ? 0x7e00u | ((f >> 13) & 0x3ffu) : 0x7c00u;
            else if(f < 0x38800000u) // below half's smallest normal: 0.5f's ulp is half's subnormal step
                o = __builtin_bit_cast(uint32_t, __builtin_bit_cast(float, f) + 0.5f) - 0x3f000000u;
            else
            {
                const uint32_t odd = (f >> 13) & 1u;
                f += 0xc8000fffu + odd; // exponent 127 -> 15 bias, plus the round-to-nearest-even increment
                o = f >> 13;
            }
            return static_cast<uint16_t>(o | (sign >> 16));
        }
#endif
    }
    CK_TILE_HOST_DEVICE constexpr explicit operator double() const { return static_cast<double>(float(*this)); }

    CK_TILE_HOST_DEVICE friend constexpr half_t operator+(half_t a, half_t b) { return half_t(float(a) + float(b)); }
    CK_TILE_HOST_DEVICE friend constexpr half_t operator-(half_t a, half_t b) { return half_t(float(a) - float(b)); }
    CK_TILE_HOST_DEVICE friend constexpr half_t operator*(half_t a, half_t b) { return half_t(float(a) * float(b)); }
    CK_TILE_HOST_DEVICE friend constexpr half_t operator/(half_t a, half_t b) { return half_t(float(a) / float(b)); }
    CK_TILE_HOST_DEVICE friend constexpr half_t operator-(half_t a) { return half_t(-float(a)); }
    CK_TILE_HOST_DEVICE constexpr half_t& operator+=(half_t b) { return *this = *this + b; }
    CK_TILE_HOST_DEVICE constexpr half_t& operator-=(half_t b) { return *this = *this - b; }
    CK_TILE_HOST_DEVICE constexpr half_t& operator*=(half_t b) { return *this = *this * b; }
    CK_TILE_HOST_DEVICE friend constexpr bool operator==(half_t a, half_t b) { return float(a) == float(b); }
    CK_TILE_HOST_DEVICE friend constexpr bool operator!=(half_t a, half_t b) { return float(a) != float(b); }
    CK_TILE_HOST_DEVICE friend constexpr bool operator<(half_t a, half_t b) { return float(a) < float(b); }
    CK_TILE_HOST_DEVICE friend constexpr bool operator>(half_t a, half_t b) { return float(a) > float(b); }
    CK_TILE_HOST_DEVICE friend constexpr bool operator<=(half_t a, half_t b) { return float(a) <= float(b); }
    CK_TILE_HOST_DEVICE friend constexpr bool operator>=(half_t a, half_t b) { return float(a) >= float(b); }
};
static_assert(sizeof(half_t) == 2 && std::is_trivially_copyable_v<half_t>);
#endif

using fp16_t = half_t;

} // namespace ck_tile
