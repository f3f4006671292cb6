// SPDX-License-Identifier: MIT
// Reduction operators, namespace ck_tile::ReduceOp (upstream's names): y = op(y, x), starting
// from op.GetIdentityValue<T>(), the value that leaves any x unchanged.
//
//   Add        y + x              identity 0
//   SquareAdd  y + x * x          identity 0 (sum of squares; x itself is squared, y is not)
//   Max        max(y, x)          identity numeric<T>::lowest() (the most negative finite value)
//   AbsMax     max(y, |x|)        identity 0 (every |x| is at least 0)
//
// Upstream starts Max from numeric<T>::min(), the smallest *positive* normal value, which gives a
// wrong maximum for all-negative data; lowest() is the identity. The operators are meant for
// the compute type (float); half and bf16 arguments are combined in float and rounded back.
#pragma once
#include <type_traits>
#include "ck_tile/core/config.hpp"
#include "ck_tile/core/numeric/math.hpp"
#include "ck_tile/core/numeric/numeric.hpp"
#include "ck_tile/core/numeric/type_convert.hpp"

namespace ck_tile {
namespace ReduceOp {

namespace detail {
template <typename T>
inline constexpr bool is_narrow_float_v = std::is_same_v<T, half_t> || std::is_same_v<T, bf16_t>;

// applies f in float for the 16-bit floats, in T otherwise
template <typename T, typename F>
CK_TILE_HOST_DEVICE constexpr T apply(const T& y, const T& x, const F& f)
{
    if constexpr(is_narrow_float_v<T>)
        return type_convert<T>(f(type_convert<float>(y), type_convert<float>(x)));
    else
        return f(y, x);
}
} // namespace detail

struct Add
{
    template <typename T>
    CK_TILE_HOST_DEVICE static constexpr T GetIdentityValue()
    {
        return type_convert<T>(0.0f);
    }
    template <typename T>
    CK_TILE_HOST_DEVICE constexpr T operator()(const T& y, const T& x) const
    {
        return detail::apply(y, x, [](auto a, auto b) { return a + b; });
    }
};

struct SquareAdd
{
    template <typename T>
    CK_TILE_HOST_DEVICE static constexpr T GetIdentityValue()
    {
        return type_convert<T>(0.0f);
    }
    template <typename T>
    CK_TILE_HOST_DEVICE constexpr T operator()(const T& y, const T& x) const
    {
        return detail::apply(y, x, [](auto a, auto b) { return a + b * b; });
    }
};

struct Max
{
    template <typename T>
    CK_TILE_HOST_DEVICE static constexpr T GetIdentityValue()
    {
        return numeric<T>::lowest();
    }
    template <typename T>
    CK_TILE_HOST_DEVICE constexpr T operator()(const T& y, const T& x) const
    {
        return detail::apply(y, x, [](auto a, auto b) { return a < b ? b : a; });
    }
};

struct AbsMax
{
    template <typename T>
    CK_TILE_HOST_DEVICE static constexpr T GetIdentityValue()
    {
        return type_convert<T>(0.0f);
    }
    template <typename T>
    CK_TILE_HOST_DEVICE constexpr T operator()(const T& y, const T& x) const
    {
        return detail::apply(y, x, [](auto a, auto b) {
            const auto ab = b < decltype(b)(0) ? -b : b;
            return a < ab ? ab : a;
        });
    }
};

} // namespace ReduceOp
} // namespace ck_tile
