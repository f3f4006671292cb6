// SPDX-License-Identifier: MIT
// BatchedTransposePipeline: one block tile, transposed in registers.
//   DRAM [M x N] -> registers (input distribution) -> transpose_tile2d -> DRAM [N x M]
// Both DRAM sides move 16 bytes per access when the problem allows vector access.
#pragma once
#include "ck_tile/core.hpp"
#include "ck_tile/ops/batched_transpose/pipeline/batched_transpose_policy.hpp"

namespace ck_tile {

template <typename Problem_, typename Policy_ = BatchedTransposePolicy>
struct BatchedTransposePipeline
{
    using Problem   = Problem_;
    using Policy    = Policy_;
    using InputType = typename Problem::InputType;

    static constexpr const char* name = "register";
    // the register path runs on every arch
    static constexpr bool kSupportedOnCompiledArch = true;

    CK_TILE_HOST_DEVICE static constexpr index_t GetSmemSize() { return Policy::template GetSmemSize<Problem>(); }

    // in_window: [kMPerBlock x kNPerBlock] of the input; out_window: [kNPerBlock x kMPerBlock] of
    // the output (windows without distributions: the pipeline chooses them)
    template <typename InWindow, typename OutWindow>
    CK_TILE_DEVICE void operator()(const InWindow& in_window, const OutWindow& out_window, void* /*p_smem*/) const
    {
        const auto x = load_tile(make_tile_window(in_window, Policy::template MakeInputDistribution<Problem>()));
        auto y       = make_static_distributed_tensor<InputType>(Policy::template MakeOutputDistribution<Problem>());
        transpose_tile2d(y, x);
        store_tile(out_window, y);
    }
};

} // namespace ck_tile
