// SPDX-License-Identifier: MIT
// MultiReduceMultiblock: several reductions of the same x in one pass, with the reduced length
// split over a group of blocks per output tile (upstream's name). Meant for long reductions over
// few outputs, where one block per output tile leaves the GPU idle.
//
// x is a packed [outer, reduce_len, inner] tensor (as for Reduce / MultiReduce); op i writes an
// fp32 [outer, inner] result at p_y + i * output_tensor_offset. Reduce2dTilePartitioner picks the
// group: G blocks per output tile, each folding I * Block_N consecutive rows. A block
//   1. folds its rows with every op (reduce2d_block: thread, lanes, warps; padding rows are the
//      op's identity), giving a partial result per op in fp32,
//   2. applies op i's accumulator element-wise op to its partial (e.g. UnaryDivide{L}: each block
//      adds partial / L, so the mean comes out of the sum of the partials without a second pass),
//   3. adds the partial into y with fp32 atomic adds (atomic_add_tile; first replica only).
// The blocks of a group combine with Add (an op's combine op must be Add, as SquareAdd's is), so y
// must hold 0, Add's identity, before the launch: the caller clears it before each launch.
#pragma once
#include <type_traits>
#include "ck_tile/core.hpp"
#include "ck_tile/ops/reduce/kernel/multi_reduce2d_tile_partitioner.hpp"
#include "ck_tile/ops/reduce/kernel/reduce2d_kernel.hpp"

namespace ck_tile {

template <typename Problem_, typename Policy_ = Reduce2dDefaultPolicy>
struct MultiReduceMultiblock
{
    using Problem         = std::remove_cvref_t<Problem_>;
    using Policy          = std::remove_cvref_t<Policy_>;
    using XDataType       = typename Problem::XDataType;
    using ComputeDataType = typename Problem::ComputeDataType;
    using YDataType       = typename Problem::YDataType;
    using ReduceOps       = typename Problem::ReduceOp;
    using S               = typename Problem::BlockShape;
    using YTile           = typename Policy::template YBlockTile<Problem>;
    using TilePartitioner = Reduce2dTilePartitioner<S>;

    static constexpr index_t kNumOps    = ReduceOps::size();
    static constexpr index_t kBlockSize = S::BlockSize;

    static_assert(std::is_same_v<YDataType, float>, "MultiReduceMultiblock: the blocks combine with fp32 atomic adds");
    static_assert(
        []<index_t... Is>(sequence<Is...>) {
            return (std::is_same_v<detail::reduce_combine_op_t<std::decay_t<decltype(ReduceOps{}.at(number<Is>{}))>>,
                                   ReduceOp::Add> &&
                    ...);
        }(make_index_sequence<kNumOps>{}),
        "MultiReduceMultiblock: partial results combine with Add (atomic add)");

    CK_TILE_HOST static constexpr index_t BlockSize() { return kBlockSize; }
    // one group of blocks per outer index and Block_M columns of inner
    CK_TILE_HOST static constexpr index_t GridSize(index_t outer, index_t reduce_len, index_t inner)
    {
        return outer * integer_divide_ceil(inner, S::Block_M) *
               TilePartitioner{reduce_len}.GetBlockGroupParams().at(number<1>{});
    }
    // a vectorized instance needs inner to be a multiple of its vector (every row aligned)
    CK_TILE_HOST static constexpr bool IsSupportedArgument(index_t inner)
    {
        return !Problem::kVectorized || inner % S::ThreadTile_M == 0;
    }

    // acc_ops: one element-wise op per reduction, applied to each block's partial result
    template <typename... AccOps>
    CK_TILE_DEVICE void operator()(const XDataType* p_x, YDataType* p_y, index_t outer, index_t reduce_len,
                                   index_t inner, long_index_t output_tensor_offset, tuple<AccOps...> acc_ops) const
    {
        static_assert(sizeof...(AccOps) == kNumOps, "MultiReduceMultiblock: one accumulator op per reduction");
        (void)outer;
        const auto group      = TilePartitioner{reduce_len}.GetBlockGroupParams();
        const index_t iters   = group.at(number<0>{});
        const index_t g_size  = group.at(number<1>{});
        const auto tile_local = TilePartitioner::GetOutputTileIndexMultiBlock(get_block_id(), g_size);
        const index_t tile    = tile_local.at(number<0>{});
        const index_t tiles_m = integer_divide_ceil(inner, S::Block_M);
        const index_t o       = tile / tiles_m;
        const index_t m0      = (tile % tiles_m) * S::Block_M;
        const index_t r0      = TilePartitioner::GetInputRowOffset(tile_local.at(number<1>{}), iters);
        const index_t rows    = min(iters * S::Block_N, reduce_len - r0);

        __shared__ char smem[Policy::template GetSmemSize<Problem>() > 0 ? Policy::template GetSmemSize<Problem>() : 4];
        YTile ys[kNumOps];
        [&]<index_t... Is>(sequence<Is...>) {
            detail::reduce2d_block<Problem, Policy, std::decay_t<decltype(ReduceOps{}.at(number<Is>{}))>...>(
                p_x + (static_cast<long_index_t>(o) * reduce_len + r0) * inner, rows, inner, m0, smem, ys);
        }(make_index_sequence<kNumOps>{});

        if(!detail::is_first_replica<typename YTile::StaticTileDistribution>())
            return;
        static_for<0, kNumOps>{}([&](auto i) {
            tile_elementwise_inout([&](auto& v) { acc_ops.at(i)(v, v); }, ys[i]);
            const auto y_view =
                pad_tensor_view(make_naive_tensor_view<address_space_enum::global>(
                                    p_y + i * output_tensor_offset + static_cast<long_index_t>(o) * inner,
                                    make_tuple(inner), make_tuple(1), number<1>{}),
                                make_tuple(number<S::Block_M>{}), sequence<true>{});
            atomic_add_tile(make_tile_window(y_view, make_tuple(number<S::Block_M>{}), make_multi_index(m0)), ys[i]);
        });
    }
};

} // namespace ck_tile
