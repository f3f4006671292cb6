// SPDX-License-Identifier: MIT
// BatchedTransposeKernel<Pipeline>: `batch` independent transposes of [height x width] row-major
// matrices, dim_stride elements apart, into [width x height] row-major matrices at the same
// offsets. NCHW -> NHWC is batch = N, height = C, width = H * W; NHWC -> NCHW is height = H * W,
// width = C.
//
// One block per (batch, height tile, width tile), on a 1-D grid (width tiles fastest, then height
// tiles, then the batch). The views are padded up to whole tiles where the problem says so:
// padded reads give 0 and padded writes are dropped.
#pragma once
#include <string>
#include "ck_tile/core.hpp"
#include "ck_tile/host/runtime/runtime.hpp"

namespace ck_tile {

struct BatchedTransposeHostArgs
{
    const void* p_input;
    void* p_output;
    index_t batch;
    index_t height;
    index_t width;
    index_t dim_stride;  // elements from one batch's matrix to the next (height * width when packed)
    index_t dim_block_h; // the block tile's height (kMPerBlock), as upstream passes it
    index_t dim_block_w; // the block tile's width (kNPerBlock)
};

template <typename Pipeline_>
struct BatchedTransposeKernel
{
    using Pipeline  = Pipeline_;
    using Problem   = typename Pipeline::Problem;
    using InputType = typename Problem::InputType;

    static constexpr index_t kBlockSize = Problem::kBlockSize;
    static constexpr index_t kM         = Problem::kMPerBlock;
    static constexpr index_t kN         = Problem::kNPerBlock;

    struct Kargs
    {
        const InputType* p_input;
        InputType* p_output;
        index_t batch;
        index_t height;
        index_t width;
        index_t dim_stride;
        index_t tiles_h;
        index_t tiles_w;
    };

    CK_TILE_HOST static constexpr Kargs MakeKargs(const BatchedTransposeHostArgs& h)
    {
        return {static_cast<const InputType*>(h.p_input),
                static_cast<InputType*>(h.p_output),
                h.batch,
                h.height,
                h.width,
                h.dim_stride,
                integer_divide_ceil(h.height, kM),
                integer_divide_ceil(h.width, kN)};
    }
    CK_TILE_HOST static dim3 GridSize(const BatchedTransposeHostArgs& h)
    {
        return dim3(integer_divide_ceil(h.height, kM) * integer_divide_ceil(h.width, kN) * h.batch);
    }
    CK_TILE_HOST static constexpr dim3 BlockSize() { return dim3(kBlockSize); }
    CK_TILE_HOST_DEVICE static constexpr index_t GetSmemSize() { return Pipeline::GetSmemSize(); }

    CK_TILE_HOST static std::string GetName()
    {
        return std::string("batched_transpose_") + Pipeline::name + "_" + std::to_string(kM) + "x" +
               std::to_string(kN) + (Problem::kPadM || Problem::kPadN ? "_pad" : "") + "_vec" +
               std::to_string(Problem::kAlignment);
    }

    CK_TILE_DEVICE void operator()(Kargs k) const
    {
        const index_t bid = get_block_id();
        const index_t tw  = bid % k.tiles_w;
        const index_t th  = (bid / k.tiles_w) % k.tiles_h;
        const index_t b   = bid / (k.tiles_w * k.tiles_h);

        const long_index_t offset = static_cast<long_index_t>(b) * k.dim_stride;
        constexpr auto align      = number<Problem::kAlignment>{};

        const auto in_view = make_naive_tensor_view<address_space_enum::global>(
            k.p_input + offset, make_tuple(k.height, k.width), make_tuple(k.width, 1), align);
        const auto out_view = make_naive_tensor_view<address_space_enum::global>(
            k.p_output + offset, make_tuple(k.width, k.height), make_tuple(k.height, 1), align);

        const auto in_tile    = make_tuple(number<kM>{}, number<kN>{});
        const auto out_tile   = make_tuple(number<kN>{}, number<kM>{});
        const auto in_padded  = pad_tensor_view(in_view, in_tile, sequence<Problem::kPadM, Problem::kPadN>{});
        const auto out_padded = pad_tensor_view(out_view, out_tile, sequence<Problem::kPadN, Problem::kPadM>{});

        const auto in_window  = make_tile_window(in_padded, in_tile, make_multi_index(th * kM, tw * kN));
        const auto out_window = make_tile_window(out_padded, out_tile, make_multi_index(tw * kN, th * kM));

        if constexpr(GetSmemSize() > 0)
        {
            __shared__ char p_smem[GetSmemSize()];
            Pipeline{}(in_window, out_window, p_smem);
        }
        else
            Pipeline{}(in_window, out_window, nullptr);
    }
};

} // namespace ck_tile
