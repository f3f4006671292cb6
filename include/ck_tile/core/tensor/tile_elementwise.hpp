// SPDX-License-Identifier: MIT
// Element-wise work on distributed tiles, all in registers:
//   tile_elementwise_inout(f, t0, t1, ...)  calls f(t0[i], t1[i], ...) for every register i
//                                          (f may modify its arguments);
//   tile_elementwise_in(f, t0, t1, ...)     returns a new tile with f(t0[i], t1[i], ...);
//   cast_tile<T>(t)                         type_convert of every element;
//   set_tile(t, v) / clear_tile(t)          fill with a value / with zero.
#pragma once
#include "ck_tile/core/config.hpp"
#include "ck_tile/core/numeric/type_convert.hpp"
#include "ck_tile/core/tensor/static_distributed_tensor.hpp"

namespace ck_tile {

template <typename F, typename T0, typename... Ts>
CK_TILE_HOST_DEVICE constexpr void tile_elementwise_inout(const F& f, T0& t0, Ts&... ts)
{
    static_assert(((std::decay_t<T0>::thread_buffer_size == std::decay_t<Ts>::thread_buffer_size) && ...),
                  "tile_elementwise_inout: tiles of different distributions");
    static_for<0, std::decay_t<T0>::thread_buffer_size>{}(
        [&](auto i) { f(t0.get_thread_buffer()[i], ts.get_thread_buffer()[i]...); });
}

template <typename F, typename T0, typename... Ts>
CK_TILE_HOST_DEVICE constexpr auto tile_elementwise_in(const F& f, const T0& t0, const Ts&... ts)
{
    using Dstr = typename T0::StaticTileDistribution;
    using Out  = std::decay_t<decltype(f(t0.get_thread_buffer()[0], ts.get_thread_buffer()[0]...))>;
    static_distributed_tensor<Out, Dstr> r;
    static_for<0, T0::thread_buffer_size>{}(
        [&](auto i) { r.get_thread_buffer()[i] = f(t0.get_thread_buffer()[i], ts.get_thread_buffer()[i]...); });
    return r;
}

template <typename Out, typename T>
CK_TILE_HOST_DEVICE constexpr auto cast_tile(const T& t)
{
    return tile_elementwise_in([](const auto& x) { return type_convert<Out>(x); }, t);
}

template <typename T, typename V>
CK_TILE_HOST_DEVICE constexpr void set_tile(T& t, const V& v)
{
    tile_elementwise_inout([&](auto& x) { x = type_convert<typename T::DataType>(v); }, t);
}

template <typename T>
CK_TILE_HOST_DEVICE constexpr void clear_tile(T& t)
{
    t.clear();
}

} // namespace ck_tile
