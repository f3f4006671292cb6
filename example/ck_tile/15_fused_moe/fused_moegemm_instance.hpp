// SPDX-License-Identifier: MIT
// The one tile configuration of tile_example_fused_moe's expert GEMMs, instantiated per data type
// (fused_moegemm_{bf16,fp16}.cpp) for gate only / gate + up and gelu / silu:
//   M 32 sorted rows x an N0 = 256 slice of the intermediate dimension per block, hidden in K0 = 64
//   steps, GEMM 1 over hidden in N1 = 64 chunks; 4 waves side by side along N (1 x 4);
//   warp tile 16 x 16 x 32 (one MFMA on gfx950, two 16x16x16 on gfx942).
#pragma once
#include "fused_moe.hpp"

template <typename T, bool kGateOnly, typename Activation>
fused_moe_launch fused_moegemm_make(const fused_moegemm_args& a)
{
    using Shape =
        ck_tile::FusedMoeGemmShape<ck_tile::sequence<32, fused_moegemm_block_n0, 64>, ck_tile::sequence<1, 4, 1>,
                                   ck_tile::sequence<16, 16, 32>, ck_tile::sequence<32, 64, fused_moegemm_block_n0>,
                                   ck_tile::sequence<1, 4, 1>, ck_tile::sequence<16, 16, 32>>;
    using Traits      = ck_tile::FusedMoeGemmTraits<kGateOnly, false, 1>;
    using Problem     = ck_tile::FusedMoeGemmPipelineProblem<T, T, T, float, T, float, float, float, float, float,
                                                             ck_tile::index_t, Activation, Shape, Traits>;
    using Pipeline    = ck_tile::FusedMoeGemmPipeline_Flatmm<Problem>;
    using Partitioner = ck_tile::FusedMoeGemmTilePartitioner_Linear<Shape>;
    using Kernel      = ck_tile::FusedMoeGemmKernel<Partitioner, Pipeline, void>;

    const std::string why = Kernel::GetUnsupportedReason(a);
    if(!why.empty())
        throw std::invalid_argument("fused_moegemm: " + why);
    const auto kargs = Kernel::MakeKargs(a);
    auto k = ck_tile::make_kernel<Kernel::kBlockSize>(Kernel{}, Kernel::GridSize(a), Kernel::BlockSize(), 0, kargs);
    return {Kernel::GetName(), [k](const ck_tile::stream_config& s) mutable { k(s); }};
}

// PREFIX: template (the instance files) or extern template (the API, which only calls them)
#define FUSED_MOEGEMM_INSTANCES(PREFIX, T)                                                                             \
    PREFIX fused_moe_launch fused_moegemm_make<T, true, ck_tile::element_wise::FastGelu>(const fused_moegemm_args&);   \
    PREFIX fused_moe_launch fused_moegemm_make<T, true, ck_tile::element_wise::Silu>(const fused_moegemm_args&);       \
    PREFIX fused_moe_launch fused_moegemm_make<T, false, ck_tile::element_wise::FastGelu>(const fused_moegemm_args&);  \
    PREFIX fused_moe_launch fused_moegemm_make<T, false, ck_tile::element_wise::Silu>(const fused_moegemm_args&);
