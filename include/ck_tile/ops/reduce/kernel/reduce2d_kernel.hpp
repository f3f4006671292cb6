// SPDX-License-Identifier: MIT
// Reduce: a 2-D reduction kernel (upstream's name; `Reduce<Problem, Policy>`).
//
// x is a packed [outer, reduce_len, inner] tensor; y[outer, inner] = op over the middle dimension.
// That covers 05_reduce's NHWC cases with a contiguous kept dimension: a sum over N keeping
// (H, W, C) is outer = 1, reduce_len = N, inner = H*W*C; a reduction over H and W keeping (N, C) is
// outer = N, reduce_len = H*W, inner = C. One block handles Block_M columns of one outer index
// and walks down all reduce_len rows, Block_N at a time:
//   DRAM -> registers (load_tile, ThreadTile_M-element vectors) -> BlockReduce2d (fp32) -> ...
//   -> BlockReduce2dSync -> BlockReduce2dCrossWarpSync -> cast to Y -> DRAM (first replica).
// Any sizes: columns past `inner` are padding whose results are dropped; rows past reduce_len in
// the last step are set to the op's identity before they are folded in.
#pragma once
#include "ck_tile/core.hpp"
#include "ck_tile/ops/reduce/block/block_reduce2d.hpp"
#include "ck_tile/ops/reduce/pipeline/reduce2d_default_policy.hpp"
#include "ck_tile/ops/reduce/pipeline/reduce2d_problem.hpp"
#include "ck_tile/ops/reduce/pipeline/reduce2d_shape.hpp"

namespace ck_tile {

namespace detail {
// the op that combines two partial results of op
template <typename Op>
using reduce_combine_op_t = std::conditional_t<std::is_same_v<Op, ReduceOp::SquareAdd>, ReduceOp::Add, Op>;

// One block's share of a (possibly multi-op) reduction: folds rows [0, reduce_len) of columns
// [m0, m0 + Block_M) of the reduce_len x inner row-major matrix at p_x with each op, into ys[i].
template <typename Problem, typename Policy, typename... Ops, typename YTile>
CK_TILE_DEVICE void reduce2d_block(const typename Problem::XDataType* p_x, index_t reduce_len, index_t inner,
                                   index_t m0, void* p_smem, YTile* ys)
{
    using S                = typename Problem::BlockShape;
    using X                = typename Problem::XDataType;
    using Compute          = typename Problem::ComputeDataType;
    using Dstr             = decltype(Policy::template MakeXBlockTileDistribution<Problem>());
    constexpr index_t kOps = sizeof...(Ops);
    using OpList           = tuple<Ops...>;

    constexpr auto tile = make_tuple(number<S::Block_N>{}, number<S::Block_M>{});
    constexpr auto vec  = number<Problem::kVectorized ? S::ThreadTile_M : 1>{};
    const auto x_view   = pad_tensor_view(make_naive_tensor_view<address_space_enum::global>(
                                              p_x, make_tuple(reduce_len, inner), make_tuple(inner, 1), vec),
                                          tile, sequence<true, true>{});
    auto x_window       = make_tile_window(x_view, tile, make_multi_index(0, m0), Dstr{});

    const auto block_reduce = Policy::template GetBlockReduce2d<Problem>();
    static_for<0, kOps>{}([&](auto i) {
        using Op = std::decay_t<decltype(OpList{}.at(i))>;
        set_tile(ys[i], Op::template GetIdentityValue<Compute>());
    });

    const index_t num_full = reduce_len / S::Block_N;
    for(index_t it = 0; it < num_full; ++it)
    {
        const auto x = load_tile(x_window);
        static_for<0, kOps>{}([&](auto i) { block_reduce(x, ys[i], std::decay_t<decltype(OpList{}.at(i))>{}); });
        move_tile_window(x_window, make_multi_index(S::Block_N, 0));
    }
    if constexpr(S::Block_N > 1)
    {
        const index_t rest = reduce_len - num_full * S::Block_N;
        if(rest > 0)
        {
            // the padding rows read 0; give them each op's identity instead
            const auto x      = load_tile(x_window);
            const index_t row = Dstr::calculate_index()[0];
            static_for<0, kOps>{}([&](auto i) {
                using Op = std::decay_t<decltype(OpList{}.at(i))>;
                auto xm  = x;
                static_for<0, Dstr::thread_buffer_size>{}([&](auto d) {
                    if(row + Dstr::d_to_x_offset(d)[0] >= rest)
                        xm[d] = type_convert<X>(Op::template GetIdentityValue<Compute>());
                });
                block_reduce(xm, ys[i], Op{});
            });
        }
    }

    static_for<0, kOps>{}([&](auto i) {
        using Combine = reduce_combine_op_t<std::decay_t<decltype(OpList{}.at(i))>>;
        Policy::template GetBlockReduce2dSync<Problem>()(ys[i], Combine{});
        Policy::template GetBlockReduce2dCrossWarpSync<Problem>()(ys[i], p_smem, Combine{});
    });
}

// stores a reduced tile to y[m0, m0 + Block_M) of a length-`inner` row (first replica only)
template <typename Problem, typename YTile>
CK_TILE_DEVICE void reduce2d_store(typename Problem::YDataType* p_y, index_t inner, index_t m0, const YTile& y)
{
    using S             = typename Problem::BlockShape;
    constexpr auto tile = make_tuple(number<S::Block_M>{});
    constexpr auto vec  = number<Problem::kVectorized ? S::ThreadTile_M : 1>{};
    const auto y_view =
        pad_tensor_view(make_naive_tensor_view<address_space_enum::global>(p_y, make_tuple(inner), make_tuple(1), vec),
                        tile, sequence<true>{});
    if(is_first_replica<typename YTile::StaticTileDistribution>())
        store_tile(make_tile_window(y_view, tile, make_multi_index(m0)), cast_tile<typename Problem::YDataType>(y));
}
} // namespace detail

template <typename Problem_, typename Policy_ = Reduce2dDefaultPolicy>
struct Reduce
{
    using Problem         = std::remove_cvref_t<Problem_>;
    using Policy          = std::remove_cvref_t<Policy_>;
    using XDataType       = typename Problem::XDataType;
    using ComputeDataType = typename Problem::ComputeDataType;
    using YDataType       = typename Problem::YDataType;
    using S               = typename Problem::BlockShape;
    using YTile           = typename Policy::template YBlockTile<Problem>;

    static constexpr index_t kBlockSize = S::BlockSize;
    CK_TILE_HOST static constexpr index_t BlockSize() { return kBlockSize; }
    // one block per outer index and Block_M columns of inner
    CK_TILE_HOST static constexpr index_t GridSize(index_t outer, index_t inner)
    {
        return outer * integer_divide_ceil(inner, S::Block_M);
    }
    // a vectorized instance needs inner to be a multiple of its vector (every row aligned)
    CK_TILE_HOST static constexpr bool IsSupportedArgument(index_t inner)
    {
        return !Problem::kVectorized || inner % S::ThreadTile_M == 0;
    }

    CK_TILE_DEVICE void operator()(const XDataType* p_x, YDataType* p_y, index_t outer, index_t reduce_len,
                                   index_t inner) const
    {
        (void)outer;
        const index_t tiles_m = integer_divide_ceil(inner, S::Block_M);
        const index_t o       = get_block_id() / tiles_m;
        const index_t m0      = (get_block_id() % tiles_m) * S::Block_M;
        __shared__ char smem[Policy::template GetSmemSize<Problem>() > 0 ? Policy::template GetSmemSize<Problem>() : 4];
        YTile y[1];
        detail::reduce2d_block<Problem, Policy, typename Problem::ReduceOp>(
            p_x + static_cast<long_index_t>(o) * reduce_len * inner, reduce_len, inner, m0, smem, y);
        detail::reduce2d_store<Problem>(p_y + static_cast<long_index_t>(o) * inner, inner, m0, y[0]);
    }
};

} // namespace ck_tile
