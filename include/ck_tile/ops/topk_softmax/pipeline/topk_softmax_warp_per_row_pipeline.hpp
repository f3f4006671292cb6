// SPDX-License-Identifier: MIT
// TopkSoftmaxWarpPerRowPipeline: a block's rows of logits -> each row's top k weights and experts.
//
// Each row lives in LanesPerRow neighbouring lanes of one wave (ElementsPerLane logits each, in
// registers), so everything about a row stays within its wave: no LDS, no barrier.
//   1. every logit becomes its ranking key (the policy's: value, then lower index first)
//   2. the row's largest key: a local maximum, then (LanesPerRow > 1) one xor butterfly
//   3. softmax only: the row's sum of exp(x - max): a local sum, then one butterfly
//   4. k times: the largest key below the previous one (a local maximum of the keys below it, then
//      one butterfly); the row's first lane stores its weight (exp(x - max) / sum, or sigmoid(x))
//      and its index in column i of the row's outputs
// The keys are distinct, so "below the previous" removes exactly the experts already taken; with
// LanesPerRow = 1 (whole rows per lane, e <= 64) no step talks to another lane.
#pragma once
#include "ck_tile/core.hpp"
#include "ck_tile/ops/topk_softmax/pipeline/topk_softmax_warp_per_row_policy.hpp"
#include "ck_tile/ops/topk_softmax/pipeline/topk_softmax_warp_per_row_problem.hpp"

namespace ck_tile {

template <typename Problem_, typename Policy_ = TopkSoftmaxWarpPerRowPolicy>
struct TopkSoftmaxWarpPerRowPipeline
{
    using Problem    = std::remove_cvref_t<Problem_>;
    using Policy     = std::remove_cvref_t<Policy_>;
    using InputType  = typename Problem::InputType;
    using WeightType = typename Problem::WeightType;
    using IndexType  = typename Problem::IndexType;

    static constexpr index_t kLanes = Problem::LanesPerRow;
    static constexpr index_t kVec   = Problem::Vector;
    static constexpr index_t kElems = Problem::ElementsPerLane;

    static constexpr const char* name = "warp_per_row";

    CK_TILE_HOST_DEVICE static constexpr index_t GetSmemSize() { return 0; }

    template <typename T, typename F>
    CK_TILE_DEVICE static T row_reduce(T v, const F& f)
    {
        if constexpr(kLanes > 1)
            return warp_butterfly(v, 1, kLanes, [&](const T& a, const T& b) { return f(a, b); });
        else
            return v;
    }

    // The largest of the lane's keys below `below` (0 if none): a plain loop over the registers
    // with a branch-free select, which the emulator's host compiler turns into SIMD min/max (the
    // unrolled compare-and-move chain was most of the emulator's time with k = 8).
    CK_TILE_DEVICE static uint32_t max_key_below(const thread_buffer<uint32_t, kElems>& keys, uint32_t below)
    {
        uint32_t m = 0;
        for(index_t i = 0; i < kElems; ++i)
        {
            const uint32_t key = keys[i];
            m                  = max(m, key & (0u - static_cast<uint32_t>(key < below)));
        }
        return m;
    }

    // in_window: [RowsPerBlock x Experts] of the logits at the block's first row (padded: rows
    // past `rows` and columns past `experts` read 0); out_view / idx_view: [rows x k] outputs.
    template <typename InWindow, typename OutView, typename IdxView>
    CK_TILE_DEVICE void operator()(const InWindow& in_window, const OutView& out_view, const IdxView& idx_view,
                                   index_t row0, index_t rows, index_t experts, index_t k,
                                   TopkSoftmaxActivation activation) const
    {
        const auto x   = load_tile(make_tile_window(in_window, Policy::template MakeInputDistribution<Problem>()));
        const auto& xb = x.get_thread_buffer();
        static_assert(std::remove_cvref_t<decltype(xb)>::size() == kElems, "one row's share per lane");

        const index_t lane   = get_lane_id();
        const index_t lane_n = lane % kLanes;
        const index_t row    = row0 + get_warp_id() * Problem::RowsPerWarp + lane / kLanes;

        // 1. keys: register i holds column ((i / kVec) * kLanes + lane_n) * kVec + i % kVec
        thread_buffer<uint32_t, kElems> keys;
        static_for<0, kElems>{}([&](auto i) {
            const index_t col = ((i / kVec) * kLanes + lane_n) * kVec + i % kVec;
            keys[i]           = col < experts ? Policy::make_key(xb[i], col) : 0u;
        });

        const auto max_u32 = [](uint32_t a, uint32_t b) { return a > b ? a : b; };
        // 2. the row's largest key
        uint32_t top = 0;
        for(index_t i = 0; i < kElems; ++i)
            top = max(top, keys[i]);
        top = row_reduce(top, max_u32);

        // 3. the softmax denominator
        const float x_max  = Policy::template key_value<InputType>(top);
        float inv_sum      = 1.f;
        const bool softmax = activation == TopkSoftmaxActivation::softmax;
        if(softmax)
        {
            float sum = 0.f;
            static_for<0, kElems>{}([&](auto i) {
                if(keys[i] != 0u)
                    sum += __builtin_expf(Policy::template key_value<InputType>(keys[i]) - x_max);
            });
            sum     = row_reduce(sum, [](float a, float b) { return a + b; });
            inv_sum = 1.f / sum;
        }

        // 4. the k largest keys in order
        const bool store = lane_n == 0 && row < rows;
        for(index_t j = 0; j < k; ++j)
        {
            if(j > 0)
            {
                const uint32_t below = top;
                top                  = row_reduce(max_key_below(keys, below), max_u32);
            }
            const float v = Policy::template key_value<InputType>(top);
            float w;
            if(softmax)
                w = __builtin_expf(v - x_max) * inv_sum;
            else
                w = 1.f / (1.f + __builtin_expf(-v));
            if(store)
            {
                out_view.set_element(make_multi_index(row, j), type_convert<WeightType>(w));
                idx_view.set_element(make_multi_index(row, j), static_cast<IndexType>(Policy::key_index(top)));
            }
        }
    }
};

} // namespace ck_tile
