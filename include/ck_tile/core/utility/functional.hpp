// SPDX-License-Identifier: MIT
// Compile-time loops: static_for calls f(number<i>{}) for i in [Begin, End) step Inc, so that the
// body can use i as a template argument (tuple element, register index) and is fully unrolled.
#pragma once
#include <utility>
#include "ck_tile/core/config.hpp"
#include "ck_tile/core/numeric/integral_constant.hpp"

namespace ck_tile {

namespace detail {
template <index_t Begin, index_t Inc, typename F, index_t... Is>
CK_TILE_HOST_DEVICE constexpr void static_for_impl(F&& f, std::integer_sequence<index_t, Is...>)
{
    (f(number<Begin + Is * Inc>{}), ...);
}
} // namespace detail

template <index_t Begin, index_t End, index_t Inc = 1>
struct static_for
{
    static_assert(Inc != 0, "static_for: the increment must not be 0");
    // the number of i in [Begin, End) (or (End, Begin] for a negative step) reached from Begin
    static constexpr index_t count = Inc > 0 ? (End > Begin ? (End - Begin + Inc - 1) / Inc : 0)
                                             : (Begin > End ? (Begin - End - Inc - 1) / -Inc : 0);

    template <typename F>
    CK_TILE_HOST_DEVICE constexpr void operator()(F&& f) const
    {
        detail::static_for_impl<Begin, Inc>(f, std::make_integer_sequence<index_t, count>{});
    }
};

struct identity
{
    template <typename T>
    CK_TILE_HOST_DEVICE constexpr T&& operator()(T&& x) const noexcept
    {
        return static_cast<T&&>(x);
    }
};

} // namespace ck_tile
