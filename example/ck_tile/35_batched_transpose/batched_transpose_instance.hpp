// SPDX-License-Identifier: MIT
// The instances of one element type: a 64-lane block over an (8 x 16 bytes) square tile (64 x 64
// for fp16 / bf16, 128 x 128 for fp8), for each pipeline three variants:
//   whole tiles, 16-byte accesses  | padded, 16-byte accesses | padded, element accesses
// picked by whether height and width are multiples of the tile, and of the vector.
#pragma once
#include "batched_transpose_example.hpp"

template <typename Kernel>
batched_transpose_result batched_transpose_launch(const ck_tile::BatchedTransposeHostArgs& a,
                                                  const ck_tile::stream_config& s)
{
    const auto kargs = Kernel::MakeKargs(a);
    const float ms   = ck_tile::launch_kernel(
        s, ck_tile::make_kernel<Kernel::kBlockSize>(Kernel{}, Kernel::GridSize(a), Kernel::BlockSize(), 0, kargs));
    return {Kernel::GetName(), ms};
}

template <typename T, int kPipeline, bool kPad, bool kVector>
batched_transpose_result batched_transpose_instance(const ck_tile::BatchedTransposeHostArgs& a,
                                                    const ck_tile::stream_config& s)
{
    constexpr ck_tile::index_t v = 16 / sizeof(T);
    using BlockTile              = ck_tile::sequence<8 * v, 8 * v>;
    using WarpLayout             = ck_tile::sequence<1, 1>;
    if constexpr(kPipeline == 0)
    {
        using Problem = ck_tile::BatchedTransposeProblem<T, BlockTile, WarpLayout, kPad, kPad, kVector>;
        return batched_transpose_launch<ck_tile::BatchedTransposeKernel<ck_tile::BatchedTransposePipeline<Problem>>>(a,
                                                                                                                     s);
    }
    else
    {
        using Problem = ck_tile::BatchedTransposeLdsProblem<T, BlockTile, WarpLayout, kPad, kPad, kVector>;
        return batched_transpose_launch<ck_tile::BatchedTransposeKernel<ck_tile::BatchedTransposeLdsPipeline<Problem>>>(
            a, s);
    }
}

template <typename T>
ck_tile::index_t batched_transpose_tile()
{
    return 8 * 16 / sizeof(T);
}

template <typename T, int kPipeline>
batched_transpose_result batched_transpose_dispatch(const ck_tile::BatchedTransposeHostArgs& a,
                                                    const ck_tile::stream_config& s)
{
    constexpr ck_tile::index_t v = 16 / sizeof(T);
    const ck_tile::index_t tile  = batched_transpose_tile<T>();
    const bool whole_tiles       = a.height % tile == 0 && a.width % tile == 0;
    const bool vector_access     = a.height % v == 0 && a.width % v == 0;
    if(whole_tiles)
        return batched_transpose_instance<T, kPipeline, false, true>(a, s);
    if(vector_access)
        return batched_transpose_instance<T, kPipeline, true, true>(a, s);
    return batched_transpose_instance<T, kPipeline, true, false>(a, s);
}

// one translation unit per type compiles that type's instances
template <typename T>
batched_transpose_result batched_transpose_run(int pipeline, const ck_tile::BatchedTransposeHostArgs& a,
                                               const ck_tile::stream_config& s)
{
    return pipeline == 0 ? batched_transpose_dispatch<T, 0>(a, s) : batched_transpose_dispatch<T, 1>(a, s);
}
