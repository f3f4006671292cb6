// SPDX-License-Identifier: MIT
// A tiled 2-D copy, y = x, written the CK Tile way:
//   problem  -> what is copied (data type) and the block shape
//   kernel   -> raw pointers -> tensor views -> padded views -> tile windows -> load_tile/store_tile
#pragma once
#include "ck_tile/core.hpp"

namespace ck_tile {

// The shape of the work of one block, fixed at compile time.
//   kVector        elements a thread moves with one 16-byte access
//   kThreadPerWarpN lanes side by side along N; the other lanes of the wave stack along M
//   kWarpPerBlockM  warps of the block, stacked along M
//   kRepeatM        how many times each thread repeats its pattern further down M
template <typename DataType_, index_t kBlockSize_ = 256, index_t kRepeatM_ = 2>
struct CopyShape
{
    using DataType                           = DataType_;
    static constexpr index_t kBlockSize      = kBlockSize_;
    static constexpr index_t kVector         = 16 / sizeof(DataType);
    static constexpr index_t kThreadPerWarpN = 64 / kVector; // one wave row covers 64 elements of N
    static constexpr index_t kThreadPerWarpM = get_warp_size() / kThreadPerWarpN;
    static constexpr index_t kWarpPerBlockM  = kBlockSize / get_warp_size();
    static constexpr index_t kRepeatM        = kRepeatM_;

    static constexpr index_t kMPerBlock = kRepeatM * kWarpPerBlockM * kThreadPerWarpM;
    static constexpr index_t kNPerBlock = kThreadPerWarpN * kVector;
};

template <typename Shape, bool kVectorized>
struct TileCopyKernel
{
    using DataType                      = typename Shape::DataType;
    static constexpr index_t kBlockSize = Shape::kBlockSize;

    // Which thread holds which element of the kMPerBlock x kNPerBlock tile:
    //   M = <kRepeatM, kWarpPerBlockM, kThreadPerWarpM>, N = <kThreadPerWarpN, kVector>
    //   P0 (warp id)  -> the warp's slab of M                      (H0 component 1)
    //   P1 (lane id)  -> merge(row in the slab, column group)      (H0 component 2, H1 component 0)
    //   Y0, Y1        -> the thread's repeats down M, and its kVector contiguous columns
    CK_TILE_HOST_DEVICE static constexpr auto MakeDistribution()
    {
        using S = Shape;
        return make_static_tile_distribution(
            tile_distribution_encoding<sequence<>,
                                       tuple<sequence<S::kRepeatM, S::kWarpPerBlockM, S::kThreadPerWarpM>,
                                             sequence<S::kThreadPerWarpN, S::kVector>>,
                                       tuple<sequence<1>, sequence<1, 2>>, tuple<sequence<1>, sequence<2, 0>>,
                                       sequence<1, 2>, sequence<0, 1>>{});
    }

    // Each block copies one row of tiles: rows [block*kMPerBlock, +kMPerBlock), all of N.
    CK_TILE_DEVICE void operator()(const DataType* p_x, DataType* p_y, index_t M, index_t N) const
    {
        constexpr auto tile = make_tuple(number<Shape::kMPerBlock>{}, number<Shape::kNPerBlock>{});
        // When N is a multiple of kVector every row starts 16-byte aligned and a thread's
        // kVector elements can move as one access; otherwise the views promise nothing.
        constexpr auto vec = number<kVectorized ? Shape::kVector : 1>{};

        // 1. raw pointers -> tensor views of the M x N row-major tensors
        const auto x_view =
            make_naive_tensor_view<address_space_enum::global>(p_x, make_tuple(M, N), make_tuple(N, 1), vec);
        const auto y_view =
            make_naive_tensor_view<address_space_enum::global>(p_y, make_tuple(M, N), make_tuple(N, 1), vec);

        // 2. pad both dimensions up to whole tiles: the padding reads 0 and its writes are dropped
        const auto x_padded = pad_tensor_view(x_view, tile, sequence<true, true>{});
        const auto y_padded = pad_tensor_view(y_view, tile, sequence<true, true>{});

        // 3. tile windows at this block's first tile; x's carries the distribution
        const index_t m0 = get_block_id() * Shape::kMPerBlock;
        auto x_window    = make_tile_window(x_padded, tile, make_multi_index(m0, 0), MakeDistribution());
        auto y_window    = make_tile_window(y_padded, tile, make_multi_index(m0, 0), MakeDistribution());

        // 4. walk along N: DRAM -> registers -> DRAM, one tile at a time
        const index_t num_tiles_n = integer_divide_ceil(N, Shape::kNPerBlock);
        for(index_t i = 0; i < num_tiles_n; ++i)
        {
            const auto x_tile = load_tile(x_window);
            store_tile(y_window, x_tile);
            move_tile_window(x_window, make_multi_index(0, Shape::kNPerBlock));
            move_tile_window(y_window, make_multi_index(0, Shape::kNPerBlock));
        }
    }
};

} // namespace ck_tile
