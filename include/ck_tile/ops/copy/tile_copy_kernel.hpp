// SPDX-License-Identifier: MIT
// Tile copies of an M x N row-major tensor, y = x. Each block owns rows
// [block id * BlockTile M, + BlockTile M) and walks along N one block tile at a time.
//
//   TileCopyKernel<Problem, Policy>      DRAM -> registers -> DRAM
//   TileCopyKernel_LDS<Problem, Policy>  DRAM -> registers -> LDS -> registers -> DRAM (a barrier
//                                        between the LDS write and read, and before LDS is reused)
//
// Both pad the views up to whole tiles, so any M and N work: padded reads give 0 and padded
// writes are dropped.
#pragma once
#include "ck_tile/core.hpp"
#include "ck_tile/host/runtime/runtime.hpp"
#include "ck_tile/ops/copy/tile_copy_policy.hpp"

namespace ck_tile {

struct TileCopyHostArgs
{
    const void* p_x;
    void* p_y;
    index_t m;
    index_t n;
};

template <typename Problem_, typename Policy_ = TileCopyPolicy<Problem_>>
struct TileCopyKernel
{
    using Problem   = Problem_;
    using Policy    = Policy_;
    using XDataType = typename Problem::XDataType;
    using S         = typename Problem::BlockShape;

    static constexpr index_t kBlockSize = Problem::kBlockSize;

    struct Kargs
    {
        const XDataType* p_x;
        XDataType* p_y;
        index_t m;
        index_t n;
    };

    CK_TILE_HOST static constexpr Kargs MakeKargs(const TileCopyHostArgs& h)
    {
        return {static_cast<const XDataType*>(h.p_x), static_cast<XDataType*>(h.p_y), h.m, h.n};
    }
    CK_TILE_HOST static dim3 GridSize(const TileCopyHostArgs& h) { return dim3(integer_divide_ceil(h.m, S::kBlockM)); }
    CK_TILE_HOST static constexpr dim3 BlockSize() { return dim3(kBlockSize); }
    CK_TILE_HOST_DEVICE static constexpr index_t GetSmemSize() { return 0; }

    // padded DRAM windows of x and y at this block's first tile
    template <typename T>
    CK_TILE_DEVICE static auto MakeDramWindow(T* p, const Kargs& k)
    {
        constexpr auto tile = make_tuple(number<S::kBlockM>{}, number<S::kBlockN>{});
        const auto view     = make_naive_tensor_view<address_space_enum::global>(
            p, make_tuple(k.m, k.n), make_tuple(k.n, 1), number<Problem::kVector>{});
        const auto padded = pad_tensor_view(view, tile, sequence<true, true>{});
        return make_tile_window(padded, tile, make_multi_index(get_block_id() * S::kBlockM, 0));
    }

    CK_TILE_DEVICE void operator()(Kargs k) const
    {
        auto x_window = make_tile_window(MakeDramWindow(k.p_x, k), Policy::MakeDistribution());
        auto y_window = MakeDramWindow(k.p_y, k);

        const index_t num_n = integer_divide_ceil(k.n, S::kBlockN);
        for(index_t i = 0; i < num_n; ++i)
        {
            store_tile(y_window, load_tile(x_window));
            move_tile_window(x_window, make_multi_index(0, S::kBlockN));
            move_tile_window(y_window, make_multi_index(0, S::kBlockN));
        }
    }
};

template <typename Problem_, typename Policy_ = TileCopyPolicy<Problem_>>
struct TileCopyKernel_LDS : TileCopyKernel<Problem_, Policy_>
{
    using base      = TileCopyKernel<Problem_, Policy_>;
    using Policy    = Policy_;
    using XDataType = typename base::XDataType;
    using S         = typename base::S;
    using Kargs     = typename base::Kargs;

    CK_TILE_HOST_DEVICE static constexpr index_t GetSmemSize() { return Policy::GetSmemSize(); }

    CK_TILE_DEVICE void operator()(Kargs k) const
    {
        __shared__ char p_smem[GetSmemSize()];
        constexpr auto tile = make_tuple(number<S::kBlockM>{}, number<S::kBlockN>{});

        auto x_window = make_tile_window(base::MakeDramWindow(k.p_x, k), Policy::MakeDistribution());
        auto y_window = base::MakeDramWindow(k.p_y, k);

        const auto lds       = make_tensor_view<address_space_enum::lds>(reinterpret_cast<XDataType*>(p_smem),
                                                                         Policy::MakeLdsBlockDescriptor());
        const auto lds_store = make_tile_window(lds, tile, make_multi_index(0, 0));
        const auto lds_load  = make_tile_window(lds, tile, make_multi_index(0, 0), Policy::MakeDistribution());

        const index_t num_n = integer_divide_ceil(k.n, S::kBlockN);
        for(index_t i = 0; i < num_n; ++i)
        {
            const auto x_tile = load_tile(x_window);
            block_sync_lds(); // the previous step's LDS reads are done before LDS is overwritten
            store_tile(lds_store, x_tile);
            block_sync_lds(); // every lane's part of the tile is in LDS before anyone reads it
            store_tile(y_window, load_tile(lds_load));
            move_tile_window(x_window, make_multi_index(0, S::kBlockN));
            move_tile_window(y_window, make_multi_index(0, S::kBlockN));
        }
    }
};

} // namespace ck_tile
