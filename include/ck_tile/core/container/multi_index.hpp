// SPDX-License-Identifier: MIT
// multi_index<N>: an N-dimensional index or step (array of index_t).
#pragma once
#include "ck_tile/core/config.hpp"
#include "ck_tile/core/container/array.hpp"
#include "ck_tile/core/container/tuple.hpp"

namespace ck_tile {

template <index_t N>
using multi_index = array<index_t, N>;

template <typename... Xs>
CK_TILE_HOST_DEVICE constexpr auto make_multi_index(Xs... xs)
{
    return multi_index<sizeof...(Xs)>{{static_cast<index_t>(xs)...}};
}

template <index_t N>
CK_TILE_HOST_DEVICE constexpr auto make_zero_multi_index()
{
    return multi_index<N>{};
}

// a tuple of integers or number<>s as a run-time multi_index
template <typename... Xs>
CK_TILE_HOST_DEVICE constexpr auto to_multi_index(const tuple<Xs...>& t)
{
    return apply([](auto... xs) { return multi_index<sizeof...(Xs)>{{static_cast<index_t>(xs)...}}; }, t);
}
template <index_t N>
CK_TILE_HOST_DEVICE constexpr auto to_multi_index(const multi_index<N>& m)
{
    return m;
}
template <index_t... Is>
CK_TILE_HOST_DEVICE constexpr auto to_multi_index(sequence<Is...>)
{
    return multi_index<sizeof...(Is)>{{Is...}};
}

} // namespace ck_tile
