// SPDX-License-Identifier: MIT
// FlatmmKernel<TilePartitioner, FlatmmPipeline, EpiloguePipeline>: C = A * B with B pre-shuffled on
// the host (shuffle_b, host/tensor_shuffle_utils.hpp), so that each warp reads its B warp tiles as
// contiguous runs straight into the MFMA operand registers (FlatmmPipelineAGmemBGmemCRegV1).
//
//   auto b_flat = ck_tile::shuffle_b(b_k_n, Kernel::kNWarpTile, Kernel::kKWarpTile, Kernel::kKLaneGroups);
//   auto kargs  = Kernel::MakeKernelArgs(FlatmmHostArgs{a, b_flat_dev, c, k_batch, M, N, K, sA, sB, sC});
//   if(!Kernel::IsSupportedArgument(kargs)) ... Kernel::GetUnsupportedReason(kargs) says why ...
//   launch_kernel(s, make_kernel<Kernel::kBlockSize>(Kernel{}, Kernel::GridSize(M, N, k_batch),
//                                                    Kernel::BlockSize(), 0, kargs));
//
// Built on UniversalGemmKernel: A (row-major) and C windows, padding, split-K K ranges (k_batch > 1:
// atomic adds into a zeroed C), the persistent loop and the argument checks are its own. The flat B
// is viewed as ceil(N / NW) rows (one per N warp tile) of ceil(K / KW) * KW * NW elements (NW x KW
// the warp tile): a K split starting at k0 starts k0 * NW elements into every row; reads past a
// row's end are padded with 0 (A is zero there too). stride_B is the unshuffled B's (K or more); the
// flat B has no stride of its own.
#pragma once
#include <string>
#include "ck_tile/ops/gemm/kernel/universal_gemm_kernel.hpp"

namespace ck_tile {

struct FlatmmHostArgs
{
    const void* a_ptr;
    const void* b_shuffle_ptr;
    void* c_ptr;
    index_t k_batch;
    index_t M;
    index_t N;
    index_t K;
    index_t stride_A;
    index_t stride_B;
    index_t stride_C;
};

template <typename TilePartitioner_, typename FlatmmPipeline_, typename EpiloguePipeline_, index_t kBlockPerCu_ = 1>
struct FlatmmKernel : UniversalGemmKernel<TilePartitioner_, FlatmmPipeline_, EpiloguePipeline_, kBlockPerCu_>
{
    using Base             = UniversalGemmKernel<TilePartitioner_, FlatmmPipeline_, EpiloguePipeline_, kBlockPerCu_>;
    using TilePartitioner  = TilePartitioner_;
    using FlatmmPipeline   = FlatmmPipeline_;
    using EpiloguePipeline = EpiloguePipeline_;
    using BDataType        = typename Base::BDataType;
    using KernelArgs       = typename Base::KernelArgs;
    using Base::kK;
    using Base::kM;
    using Base::kN;
    using Base::kPersistent;
    using Base::kSplitKSupported;

    static constexpr index_t kNWarpTile     = FlatmmPipeline::kNWarpTile;
    static constexpr index_t kKWarpTile     = FlatmmPipeline::kKWarpTile;
    static constexpr index_t kKLaneGroups   = FlatmmPipeline::kKLaneGroups;
    static constexpr index_t kBPerLane      = FlatmmPipeline::kBPerLane;
    static constexpr index_t kFlatKPerBlock = FlatmmPipeline::kFlatKPerBlock;
    static_assert(kN % kNWarpTile == 0, "FlatmmKernel: the N tile is a whole number of N warp tiles");

    CK_TILE_HOST static constexpr KernelArgs MakeKernelArgs(const FlatmmHostArgs& h,
                                                            const typename Base::ElementwiseOp& op = {})
    {
        return Base::MakeKernelArgs(GemmHostArgs{h.a_ptr, h.b_shuffle_ptr, h.c_ptr, h.k_batch, h.M, h.N, h.K,
                                                 h.stride_A, h.stride_B, h.stride_C},
                                    op);
    }

    CK_TILE_HOST static std::string GetName()
    {
        return std::string("flatmm_") + std::to_string(kM) + "x" + std::to_string(kN) + "x" + std::to_string(kK) +
               "_warp" + std::to_string(FlatmmPipeline::WarpGemm::kM) + "x" + std::to_string(kNWarpTile) + "x" +
               std::to_string(kKWarpTile);
    }

    // elements of the flat B that shuffle_b makes for N x K
    CK_TILE_HOST_DEVICE static constexpr long_index_t GetFlatBSize(index_t N, index_t K)
    {
        return static_cast<long_index_t>(integer_divide_ceil(N, kNWarpTile)) * integer_divide_ceil(K, kKWarpTile) *
               kKWarpTile * kNWarpTile;
    }

    CK_TILE_HOST static std::string GetUnsupportedReason(const KernelArgs& k)
    {
        std::string r = Base::GetUnsupportedReason(k);
        if(!r.empty())
            return r;
        if(GetFlatBSize(k.N, k.K) * (long_index_t)sizeof(BDataType) > std::numeric_limits<int32_t>::max())
            return "the pre-shuffled B spans more than 2^31 - 1 bytes; this kernel uses 32-bit offsets";
        if(reinterpret_cast<std::uintptr_t>(k.b_ptr) % (kBPerLane * sizeof(BDataType)) != 0)
            return "the pre-shuffled B is not aligned to " + std::to_string(kBPerLane * sizeof(BDataType)) + " bytes";
        return {};
    }
    CK_TILE_HOST static bool IsSupportedArgument(const KernelArgs& kargs)
    {
        return GetUnsupportedReason(kargs).empty();
    }

    // the flat-B window of the block's first N warp tile over K from k0 (a whole K tile)
    CK_TILE_DEVICE static auto MakeBFlatWindow(const KernelArgs& kargs, index_t n0, index_t k0)
    {
        const index_t k_padded = integer_divide_ceil(kargs.K, kKWarpTile) * kKWarpTile;
        const index_t rows     = integer_divide_ceil(kargs.N, kNWarpTile);
        const index_t row_len  = k_padded * kNWarpTile;
        const auto* p_b = static_cast<const BDataType*>(kargs.b_ptr) + static_cast<long_index_t>(k0) * kNWarpTile;
        const auto v    = make_naive_tensor_view<address_space_enum::global>(
            p_b, make_tuple(rows, row_len - k0 * kNWarpTile), make_tuple(row_len, 1), number<kBPerLane>{});
        const auto p = pad_tensor_view(v, make_tuple(number<1>{}, number<kFlatKPerBlock>{}), sequence<false, true>{});
        return make_tile_window(p, make_tuple(number<1>{}, number<kFlatKPerBlock>{}),
                                make_multi_index(n0 / kNWarpTile, 0));
    }

    // One work item: C tile `tile_id` of K split `k_id`.
    CK_TILE_DEVICE static void RunGemm(const KernelArgs& kargs, index_t tile_id, index_t k_id, void* p_smem)
    {
        const auto tile    = TilePartitioner::GetOutputTileIndex(tile_id, kargs.M, kargs.N);
        const index_t m0   = tile.at(number<0>{}) * kM;
        const index_t n0   = tile.at(number<1>{}) * kN;
        const index_t read = Base::GetKRead(kargs.K, kargs.k_batch);
        const index_t k0   = k_id * read;
        const index_t kLen = min(read, kargs.K - k0);
        if(kLen <= 0)
            return; // an empty K split: nothing to add

        const auto windows      = Base::MakeGemmTileWindows(kargs, m0, n0, k0, kLen);
        const auto c_block_tile = FlatmmPipeline{}(windows.at(number<0>{}), MakeBFlatWindow(kargs, n0, k0),
                                                   TilePartitioner::GetLoopNum(kLen), p_smem);
        if(kargs.k_batch == 1)
            EpiloguePipeline{}.template operator()<memory_operation_enum::set>(windows.at(number<2>{}), c_block_tile,
                                                                               p_smem, kargs.c_element_op);
        else if constexpr(kSplitKSupported)
            EpiloguePipeline{}.template operator()<memory_operation_enum::atomic_add>(
                windows.at(number<2>{}), c_block_tile, p_smem, kargs.c_element_op);
    }

    CK_TILE_DEVICE void operator()(KernelArgs kargs) const
    {
        __shared__ char p_smem[Base::GetSmemSize()];
        if constexpr(kPersistent)
        {
            const index_t tiles = TilePartitioner::GetNumTiles(kargs.M, kargs.N);
            const index_t items = tiles * kargs.k_batch;
            for(index_t item = get_block_id(); item < items; item += get_grid_size())
            {
                RunGemm(kargs, item % tiles, item / tiles, p_smem);
                block_sync_lds();
            }
        }
        else
            RunGemm(kargs, get_block_id(), get_block_id_z(), p_smem);
    }
};

} // namespace ck_tile
