// SPDX-License-Identifier: MIT
// saturate_convert<T>(float x): the conversion of a quantizing kernel's output, x already scaled
// into T's range: rounded to nearest (ties to even) and clamped to [lowest, max] of T.
//   int8_t (and other integers): rint, then clamp (a plain cast would truncate toward zero and
//                                is undefined out of range);
//   8-bit floats:                type_convert, which already rounds to nearest even and saturates;
//   anything else:               type_convert.
// Kernels and host references call the same function, so they agree bit for bit.
#pragma once
#include <type_traits>
#include "ck_tile/core/config.hpp"
#include "ck_tile/core/numeric/math.hpp"
#include "ck_tile/core/numeric/numeric.hpp"
#include "ck_tile/core/numeric/type_convert.hpp"

namespace ck_tile {

template <typename T>
CK_TILE_HOST_DEVICE T saturate_convert(float x)
{
    if constexpr(std::is_integral_v<T>)
    {
        constexpr float lo = static_cast<float>(numeric<T>::lowest());
        constexpr float hi = static_cast<float>(numeric<T>::max());
        // a NaN would reach the cast: give 0 instead. One select per step and no nesting, so
        // that unrolled loops of it vectorise on the emulator's host
        float r = rint(x);
        r       = r != r ? 0.0f : r;
        r       = r < lo ? lo : r;
        r       = r > hi ? hi : r;
        return static_cast<T>(r);
    }
    else
        return type_convert<T>(x);
}

} // namespace ck_tile
