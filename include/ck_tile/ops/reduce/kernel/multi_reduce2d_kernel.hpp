// SPDX-License-Identifier: MIT
// MultiReduce: several reductions of the same x in one pass (upstream's name): Problem::ReduceOp
// is a tuple of ReduceOp::* operators. x is read once; each op keeps its own fp32 partial results
// and writes its own output, op i at p_y + i * output_tensor_offset (the [outer, inner] results
// of the ops one after the other). Layout, tiling and tails as in Reduce (reduce2d_kernel.hpp).
#pragma once
#include "ck_tile/core.hpp"
#include "ck_tile/ops/reduce/kernel/reduce2d_kernel.hpp"

namespace ck_tile {

template <typename Problem_, typename Policy_ = Reduce2dDefaultPolicy>
struct MultiReduce
{
    using Problem         = std::remove_cvref_t<Problem_>;
    using Policy          = std::remove_cvref_t<Policy_>;
    using XDataType       = typename Problem::XDataType;
    using ComputeDataType = typename Problem::ComputeDataType;
    using YDataType       = typename Problem::YDataType;
    using ReduceOps       = typename Problem::ReduceOp;
    using S               = typename Problem::BlockShape;
    using YTile           = typename Policy::template YBlockTile<Problem>;

    static constexpr index_t kNumOps    = ReduceOps::size();
    static constexpr index_t kBlockSize = S::BlockSize;
    CK_TILE_HOST static constexpr index_t BlockSize() { return kBlockSize; }
    CK_TILE_HOST static constexpr index_t GridSize(index_t outer, index_t inner)
    {
        return outer * integer_divide_ceil(inner, S::Block_M);
    }
    CK_TILE_HOST static constexpr bool IsSupportedArgument(index_t inner)
    {
        return !Problem::kVectorized || inner % S::ThreadTile_M == 0;
    }

    CK_TILE_DEVICE void operator()(const XDataType* p_x, YDataType* p_y, index_t outer, index_t reduce_len,
                                   index_t inner, long_index_t output_tensor_offset) const
    {
        (void)outer;
        const index_t tiles_m = integer_divide_ceil(inner, S::Block_M);
        const index_t o       = get_block_id() / tiles_m;
        const index_t m0      = (get_block_id() % tiles_m) * S::Block_M;
        __shared__ char smem[Policy::template GetSmemSize<Problem>() > 0 ? Policy::template GetSmemSize<Problem>() : 4];
        YTile ys[kNumOps];
        [&]<index_t... Is>(sequence<Is...>) {
            detail::reduce2d_block<Problem, Policy, std::decay_t<decltype(ReduceOps{}.at(number<Is>{}))>...>(
                p_x + static_cast<long_index_t>(o) * reduce_len * inner, reduce_len, inner, m0, smem, ys);
        }(make_index_sequence<kNumOps>{});
        static_for<0, kNumOps>{}([&](auto i) {
            detail::reduce2d_store<Problem>(p_y + i * output_tensor_offset + static_cast<long_index_t>(o) * inner,
                                            inner, m0, ys[i]);
        });
    }
};

} // namespace ck_tile
