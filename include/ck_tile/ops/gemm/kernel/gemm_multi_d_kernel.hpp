// SPDX-License-Identifier: MIT
// GemmKernelMultiD<TilePartitioner, GemmPipeline, EpiloguePipeline>: E = cde_op(A * B, D0, D1, ...)
// with NumDTensor M x N tensors D (the epilogue's DsDataType / DsLayout: CShuffleEpilogue with a
// CShuffleEpilogueProblemWithDs), each row-major or column-major with its own stride.
//
//   using Kernel = GemmKernelMultiD<GemmSpatiallyLocalTilePartitioner<Shape, 8, 4>,
//                                   GemmPipelineAgBgCrCompV3<Problem>, CShuffleEpilogue<ProblemWithDs>>;
//   auto kargs = Kernel::MakeKernelArgs(GemmMultiDHostArgs<2>{a, b, {d0, d1}, e, k_batch, M, N, K,
//                                                              sA, sB, {sD0, sD1}, sE}, cde_op);
//   if(!Kernel::IsSupportedArgument(kargs)) ... Kernel::GetUnsupportedReason(kargs) says why ...
//   launch_kernel(s, make_kernel<Kernel::kBlockSize>(Kernel{}, Kernel::GridSize(M, N, k_batch),
//                                                    Kernel::BlockSize(), 0, kargs));
//
// Built on UniversalGemmKernel: its A/B/E windows, padding, split-K ranges, persistent loop and
// argument checks are reused as they are; this kernel adds the D windows (at the block's tile, along
// each D's layout, padded like E) and hands them to the epilogue.
//
// Split-K (k_batch > 1; E zeroed first, the splits add into it atomically) applies the op exactly
// once through get_splitk_apply(cde_op) (element_wise.hpp): an op linear in C (MultiplyMultiply) is
// applied by every split to its partial sum; an op adding the Ds (Add, AddAdd) by split 0 only, the
// other splits adding their raw partial C; any other op is refused with k_batch > 1.
#pragma once
#include <array>
#include <string>
#include "ck_tile/ops/epilogue/element_wise.hpp"
#include "ck_tile/ops/gemm/kernel/universal_gemm_kernel.hpp"

namespace ck_tile {

template <index_t NumDTensor = 0>
struct GemmMultiDHostArgs
{
    const void* a_ptr;
    const void* b_ptr;
    std::array<const void*, NumDTensor> ds_ptr;
    void* e_ptr;
    index_t k_batch;
    index_t M;
    index_t N;
    index_t K;
    index_t stride_A;
    index_t stride_B;
    std::array<index_t, NumDTensor> stride_Ds;
    index_t stride_E;
};

template <typename TilePartitioner_, typename GemmPipeline_, typename EpiloguePipeline_, index_t kBlockPerCu_ = 1>
struct GemmKernelMultiD : UniversalGemmKernel<TilePartitioner_, GemmPipeline_, EpiloguePipeline_, kBlockPerCu_>
{
    using Base             = UniversalGemmKernel<TilePartitioner_, GemmPipeline_, EpiloguePipeline_, kBlockPerCu_>;
    using TilePartitioner  = TilePartitioner_;
    using GemmPipeline     = GemmPipeline_;
    using EpiloguePipeline = EpiloguePipeline_;
    using EDataType        = typename Base::CDataType;
    using ELayout          = typename Base::CLayout;
    using DsDataType       = typename EpiloguePipeline::DsDataType;
    using DsLayout         = typename EpiloguePipeline::DsLayout;
    using CDEElementwise   = typename EpiloguePipeline::ElementwiseOp;

    static constexpr index_t NumDTensor = DsDataType::size();
    static constexpr index_t kVectorD   = EpiloguePipeline::GetVectorSizeD();
    using Base::kM;
    using Base::kN;
    using Base::kPadM;
    using Base::kPadN;
    using Base::kPersistent;
    using Base::kSplitKSupported;

    struct KernelArgs
    {
        typename Base::KernelArgs gemm; // A, B, E (as C), sizes, k_batch, the op
        std::array<const void*, NumDTensor> ds_ptr;
        std::array<index_t, NumDTensor> stride_Ds;
    };
    using GemmKernelArgs = KernelArgs;

    CK_TILE_HOST static constexpr KernelArgs MakeKernelArgs(const GemmMultiDHostArgs<NumDTensor>& h,
                                                            const CDEElementwise& op = {})
    {
        return KernelArgs{Base::MakeKernelArgs(GemmHostArgs{h.a_ptr, h.b_ptr, h.e_ptr, h.k_batch, h.M, h.N, h.K,
                                                            h.stride_A, h.stride_B, h.stride_E},
                                               op),
                          h.ds_ptr, h.stride_Ds};
    }

    CK_TILE_HOST static std::string GetName() { return Base::GetName() + "_multi_d" + std::to_string(NumDTensor); }

    // "" if the kernel can run these arguments, else one line saying why not.
    CK_TILE_HOST static std::string GetUnsupportedReason(const KernelArgs& k)
    {
        const std::string base = Base::GetUnsupportedReason(k.gemm);
        if(!base.empty())
            return base;
        const auto s = [](long long v) { return std::to_string(v); };
        if(k.gemm.k_batch > 1 && get_splitk_apply(k.gemm.c_element_op) == splitk_apply::unsupported)
            return "split-K (k_batch=" + s(k.gemm.k_batch) +
                   ") cannot apply this element-wise op exactly once (it is neither linear in C nor an addition of "
                   "the Ds)";
        std::string reason;
        static_for<0, NumDTensor>{}([&](auto j) {
            if(!reason.empty())
                return;
            using D             = std::remove_cvref_t<decltype(DsDataType{}.at(j))>;
            using L             = std::remove_cvref_t<decltype(DsLayout{}.at(j))>;
            constexpr bool row  = is_row_major_v<L>;
            const std::string d = "D" + s(j.value) + (row ? " (row-major)" : " (column-major)");
            const index_t inner = row ? k.gemm.N : k.gemm.M;
            const index_t outer = row ? k.gemm.M : k.gemm.N;
            const index_t ld    = k.stride_Ds[j];
            if(k.ds_ptr[j] == nullptr)
                reason = "a null " + d + " pointer";
            else if(ld < inner)
                reason = "stride_Ds[" + s(j.value) + "]=" + s(ld) + " is smaller than " + (row ? "N=" : "M=") +
                         s(inner) + ", the contiguous dimension of " + d;
            else if(((long long)(outer - 1) * ld + inner) * (long long)sizeof(D) > std::numeric_limits<int32_t>::max())
                reason = d + " spans more than 2^31 - 1 bytes; this kernel uses 32-bit offsets";
            else if(row && kVectorD > 1)
            {
                if(inner % kVectorD != 0)
                    reason = d + ": N=" + s(inner) + " is not a multiple of the vector size " + s(kVectorD);
                else if(ld % kVectorD != 0)
                    reason = d + ": stride_Ds[" + s(j.value) + "]=" + s(ld) + " is not a multiple of the vector size " +
                             s(kVectorD);
                else if(reinterpret_cast<std::uintptr_t>(k.ds_ptr[j]) % (kVectorD * sizeof(D)) != 0)
                    reason = d + ": the pointer is not aligned to " + s(kVectorD * sizeof(D)) + " bytes";
            }
        });
        return reason;
    }

    CK_TILE_HOST static bool IsSupportedArgument(const KernelArgs& kargs)
    {
        return GetUnsupportedReason(kargs).empty();
    }

    // the D windows of the block's tile (m0, n0): kM x kN each, along the D's layout, padded as E
    CK_TILE_DEVICE static auto MakeDsTileWindows(const KernelArgs& kargs, index_t m0, index_t n0)
    {
        return generate_tuple(
            [&](auto j) {
                using D         = std::remove_cvref_t<decltype(DsDataType{}.at(j))>;
                using L         = std::remove_cvref_t<decltype(DsLayout{}.at(j))>;
                const D* p      = static_cast<const D*>(kargs.ds_ptr[j]);
                const auto lens = make_tuple(number<kM>{}, number<kN>{});
                if constexpr(is_row_major_v<L>)
                {
                    const auto v = make_naive_tensor_view<address_space_enum::global>(
                        p, make_tuple(kargs.gemm.M, kargs.gemm.N), make_tuple(kargs.stride_Ds[j], 1),
                        number<kVectorD>{});
                    const auto pv = pad_tensor_view(v, lens, sequence<kPadM, kPadN>{});
                    return make_tile_window(pv, lens, make_multi_index(m0, n0));
                }
                else
                {
                    // M contiguous: read element by element in the epilogue's row-vector distribution
                    const auto v = make_naive_tensor_view<address_space_enum::global>(
                        p, make_tuple(kargs.gemm.M, kargs.gemm.N), make_tuple(1, kargs.stride_Ds[j]), number<1>{});
                    const auto pv = pad_tensor_view(v, lens, sequence<kPadM, kPadN>{});
                    return make_tile_window(pv, lens, make_multi_index(m0, n0));
                }
            },
            number<NumDTensor>{});
    }

    // One work item: E tile `tile_id` of K split `k_id`.
    CK_TILE_DEVICE static void RunGemm(const KernelArgs& kargs, index_t tile_id, index_t k_id, void* p_smem)
    {
        const auto& g      = kargs.gemm;
        const auto tile    = TilePartitioner::GetOutputTileIndex(tile_id, g.M, g.N);
        const index_t m0   = tile.at(number<0>{}) * kM;
        const index_t n0   = tile.at(number<1>{}) * kN;
        const index_t read = Base::GetKRead(g.K, g.k_batch);
        const index_t k0   = k_id * read;
        const index_t kLen = min(read, g.K - k0);
        if(kLen <= 0)
            return; // an empty K split: nothing to add (split 0 is never empty: it adds the Ds)

        const auto windows    = Base::MakeGemmTileWindows(g, m0, n0, k0, kLen);
        const auto ds_windows = MakeDsTileWindows(kargs, m0, n0);
        const auto c_block_tile =
            GemmPipeline{}(windows.at(number<0>{}), windows.at(number<1>{}), TilePartitioner::GetLoopNum(kLen), p_smem);
        if(g.k_batch == 1)
            EpiloguePipeline{}.template operator()<memory_operation_enum::set>(windows.at(number<2>{}), c_block_tile,
                                                                               ds_windows, p_smem, g.c_element_op);
        else if constexpr(kSplitKSupported)
        {
            // linear in C: every split; adding the Ds: split 0 alone (GetUnsupportedReason refused the rest)
            const bool apply = get_splitk_apply(g.c_element_op) == splitk_apply::each_split || k_id == 0;
            EpiloguePipeline{}.template operator()<memory_operation_enum::atomic_add>(
                windows.at(number<2>{}), c_block_tile, ds_windows, p_smem, g.c_element_op, apply);
        }
    }

    CK_TILE_DEVICE void operator()(KernelArgs kargs) const
    {
        __shared__ char p_smem[Base::GetSmemSize()];
        if constexpr(kPersistent)
        {
            const index_t tiles = TilePartitioner::GetNumTiles(kargs.gemm.M, kargs.gemm.N);
            const index_t items = tiles * kargs.gemm.k_batch;
            for(index_t item = get_block_id(); item < items; item += get_grid_size())
            {
                RunGemm(kargs, item % tiles, item / tiles, p_smem);
                block_sync_lds(); // the next item rewrites the LDS the epilogue may still read
            }
        }
        else
            RunGemm(kargs, get_block_id(), get_block_id_z(), p_smem);
    }
};

} // namespace ck_tile
