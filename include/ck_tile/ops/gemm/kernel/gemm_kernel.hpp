// SPDX-License-Identifier: MIT
// GemmKernel<TilePartitioner, GemmPipeline, EpiloguePipeline>: C = op(A * B) for one GEMM, the
// kernel of tile_example_gemm_basic. As upstream's, a facade over UniversalGemmKernel
// (universal_gemm_kernel.hpp: layouts, padding, split-K, the host arguments GemmHostArgs):
//
//   using Kernel = GemmKernel<TilePartitioner<Shape>, GemmPipelineAGmemBGmemCRegV1<Problem>,
//                             Default2DEpilogue<EpilogueProblem>>;
//   auto kargs = Kernel::MakeKernelArgs(GemmHostArgs{a, b, c, k_batch, M, N, K, sA, sB, sC});
//   if(!Kernel::IsSupportedArgument(kargs)) ... Kernel::GetUnsupportedReason(kargs) says why ...
//   launch_kernel(s, make_kernel<Kernel::kBlockSize>(Kernel{}, Kernel::GridSize(M, N, k_batch),
//                                                    Kernel::BlockSize(), 0, kargs));
#pragma once
#include "ck_tile/ops/gemm/kernel/universal_gemm_kernel.hpp"

namespace ck_tile {

template <typename TilePartitioner_, typename GemmPipeline_, typename EpiloguePipeline_>
struct GemmKernel : UniversalGemmKernel<TilePartitioner_, GemmPipeline_, EpiloguePipeline_>
{};

} // namespace ck_tile
