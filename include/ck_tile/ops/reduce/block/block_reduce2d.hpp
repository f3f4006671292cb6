// SPDX-License-Identifier: MIT
// The three steps of a block-level reduction of a distributed tile (upstream's names):
//
//   BlockReduce2d               each thread folds its own registers that differ only in a
//                               reduced X dimension (no communication);
//   BlockReduce2dSync           the lanes of a warp that hold parts of the same result combine
//                               them in log2 steps of an xor butterfly (warp_butterfly); after it
//                               every one of them holds the full warp result;
//   BlockReduce2dCrossWarpSync  the warps that hold parts of the same result combine them
//                               through LDS; every replica reads the parts in the same order, so
//                               all hold bit-identical results.
//
// The Sync steps combine partial results, so they take the op that combines two of them: the
// same op for Add, Max and AbsMax, but Add after a thread-level SquareAdd.
//
// The reduced tile's distribution is make_reduce_tile_distribution_encoding of the input's: the
// lanes and warps that spread a reduced dimension become replications (R). A step with nothing
// to combine (no such lanes, or no such warps) compiles to nothing.
#pragma once
#include "ck_tile/core.hpp"
#include "ck_tile/ops/reduce/block/block_reduce2d_detail.hpp"
#include "ck_tile/ops/reduce/block/block_reduce2d_problem.hpp"

namespace ck_tile {

template <typename Problem_, typename Policy_ = void>
struct BlockReduce2d
{
    using Problem         = std::remove_cvref_t<Problem_>;
    using XDataType       = typename Problem::XDataType;
    using ComputeDataType = typename Problem::ComputeDataType;
    using ReduceDims      = decltype(detail::problem_reduce_dims<Problem>());

    template <typename XDistributedTensor_>
    CK_TILE_HOST_DEVICE static constexpr auto MakeYBlockTile()
    {
        using XDstr         = typename XDistributedTensor_::StaticTileDistribution;
        constexpr auto dstr = make_static_tile_distribution(
            detail::make_reduce_tile_distribution_encoding(typename XDstr::Encoding{}, ReduceDims{}));
        return make_static_distributed_tensor<ComputeDataType>(dstr);
    }

    // y = reduce_func(y, x) for every register of x, into the register of y it reduces to
    template <typename XDistributedTensor_, typename YDistributedTensor_, typename ReduceFunc>
    CK_TILE_DEVICE void operator()(const XDistributedTensor_& x_tensor, YDistributedTensor_& y_tensor,
                                   const ReduceFunc& reduce_func) const
    {
        using Map = detail::tile_reduce_map<typename XDistributedTensor_::StaticTileDistribution, ReduceDims>;
        static_assert(Map::out_size == YDistributedTensor_::thread_buffer_size,
                      "BlockReduce2d: y is not the reduced tile of x (MakeYBlockTile)");
        static_for<0, Map::in_size>{}([&](auto d) {
            constexpr index_t o = Map::out_d(d);
            y_tensor[o]         = reduce_func(y_tensor[o], type_convert<ComputeDataType>(x_tensor[d]));
        });
    }

    // a new reduced tile, started at reduce_init
    template <typename XDistributedTensor_, typename ReduceFunc>
    CK_TILE_DEVICE auto operator()(const XDistributedTensor_& x_tensor, const ComputeDataType& reduce_init,
                                   const ReduceFunc& reduce_func) const
    {
        auto y_tensor = MakeYBlockTile<XDistributedTensor_>();
        set_tile(y_tensor, reduce_init);
        (*this)(x_tensor, y_tensor, reduce_func);
        return y_tensor;
    }
};

template <typename Problem_, typename Policy_ = void>
struct BlockReduce2dSync
{
    using Problem = std::remove_cvref_t<Problem_>;

    template <typename YDistributedTensor_, typename ReduceFunc>
    CK_TILE_DEVICE void operator()(YDistributedTensor_& y_tensor, const ReduceFunc& reduce_func) const
    {
        using E          = typename YDistributedTensor_::StaticTileDistribution::Encoding;
        using Lanes      = detail::p_replication<E, E::NDimP - 1>;
        constexpr auto t = Lanes::t;
        static_for<0, t.n>{}([&](auto c) {
            constexpr index_t len    = t.len[c];
            constexpr index_t stride = t.stride[c];
            static_assert(is_power_of_two_integer(len) && is_power_of_two_integer(stride),
                          "BlockReduce2dSync: the lanes to combine must be a power-of-two group (xor butterfly)");
            // every register in each step: one warp_butterfly of the whole thread buffer
            y_tensor.get_thread_buffer() =
                warp_butterfly(y_tensor.get_thread_buffer(), stride, stride * len, [&](auto a, const auto& b) {
                    static_for<0, YDistributedTensor_::thread_buffer_size>{}(
                        [&](auto i) { a[i] = reduce_func(a[i], b[i]); });
                    return a;
                });
        });
    }
};

template <typename Problem_, typename Policy_ = void>
struct BlockReduce2dCrossWarpSync
{
    using Problem = std::remove_cvref_t<Problem_>;

    template <typename YDistributedTensor_>
    using warps_of = detail::p_replication<typename YDistributedTensor_::StaticTileDistribution::Encoding,
                                           YDistributedTensor_::StaticTileDistribution::NDimP == 2 ? 0 : -1>;

    // how many warps combine into each result (1: nothing to do)
    template <typename YDistributedTensor_>
    CK_TILE_HOST_DEVICE static constexpr index_t GetReduceWarps()
    {
        return warps_of<YDistributedTensor_>::t.total;
    }

    // LDS bytes: every warp's lanes' registers (0 when there is nothing to combine)
    template <typename YDistributedTensor_>
    CK_TILE_HOST_DEVICE static constexpr index_t GetSmemSize()
    {
        using Dstr = typename YDistributedTensor_::StaticTileDistribution;
        if constexpr(GetReduceWarps<YDistributedTensor_>() == 1)
            return 0;
        else
            return Dstr::Encoding::get_p_length(0) * get_warp_size() * YDistributedTensor_::thread_buffer_size *
                   sizeof(typename YDistributedTensor_::DataType);
    }

    // p_smem: GetSmemSize() bytes of LDS, free for this call (it begins and ends with a barrier)
    template <typename YDistributedTensor_, typename ReduceFunc>
    CK_TILE_DEVICE void operator()(YDistributedTensor_& y_tensor, void* p_smem, const ReduceFunc& reduce_func) const
    {
        if constexpr(GetReduceWarps<YDistributedTensor_>() > 1)
        {
            using T              = typename YDistributedTensor_::DataType;
            using Warps          = warps_of<YDistributedTensor_>;
            constexpr index_t n  = YDistributedTensor_::thread_buffer_size;
            constexpr index_t ws = get_warp_size();
            T* smem              = static_cast<T*>(p_smem);
            const index_t warp   = get_warp_id();
            const index_t lane   = get_lane_id();

            block_sync_lds(); // the previous user of this LDS is done
            static_for<0, n>{}([&](auto i) { smem[(warp * ws + lane) * n + i] = y_tensor[i]; });
            block_sync_lds();
            // replica 0 first, then the others in order: every replica computes the same sums
            static_for<0, n>{}([&](auto i) { y_tensor[i] = smem[(Warps::replica(warp, 0) * ws + lane) * n + i]; });
            for(index_t c = 1; c < Warps::t.total; ++c)
            {
                const index_t w = Warps::replica(warp, c);
                static_for<0, n>{}(
                    [&](auto i) { y_tensor[i] = reduce_func(y_tensor[i], smem[(w * ws + lane) * n + i]); });
            }
            block_sync_lds(); // the LDS is free again when this returns
        }
    }
};

} // namespace ck_tile
