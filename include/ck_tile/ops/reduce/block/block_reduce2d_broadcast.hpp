// SPDX-License-Identifier: MIT
// Broadcasting a reduced tile back over the tile it came from: the row statistics of a norm
// (mean, inverse std, a row's scale) applied to every element of the row, or a per-column vector
// (gamma, beta, a smooth scale) applied to every row.
//
//   make_reduce_tile_distribution<XTile, ReduceDims>()
//       the distribution of XTile reduced along ReduceDims (sequence<1>: one value per row, as
//       BlockReduce2d makes it; sequence<0>: one value per column, the distribution to load a
//       per-column vector with, each lane holding the columns of its own elements);
//   reduced_register<XTile, ReduceDims>(d)
//       the register of that reduced tile that register d of XTile broadcasts from.
//
//   sweep_tile(x, [&](auto i) {
//       constexpr index_t r = reduced_register<decltype(x), sequence<1>>(i.d);
//       constexpr index_t c = reduced_register<decltype(x), sequence<0>>(i.d);
//       y[i.d] = (x[i.d] - mean[r]) * inv_std[r] * gamma[c];
//   });
#pragma once
#include "ck_tile/core.hpp"
#include "ck_tile/ops/reduce/block/block_reduce2d_detail.hpp"

namespace ck_tile {

template <typename XTile, typename ReduceDims>
CK_TILE_HOST_DEVICE constexpr auto make_reduce_tile_distribution()
{
    using XDstr = typename std::remove_cvref_t<XTile>::StaticTileDistribution;
    return make_static_tile_distribution(
        detail::make_reduce_tile_distribution_encoding(typename XDstr::Encoding{}, ReduceDims{}));
}

template <typename XTile, typename ReduceDims>
CK_TILE_HOST_DEVICE constexpr index_t reduced_register(index_t d)
{
    using XDstr = typename std::remove_cvref_t<XTile>::StaticTileDistribution;
    return detail::tile_reduce_map<XDstr, ReduceDims>::out_d(d);
}

} // namespace ck_tile
