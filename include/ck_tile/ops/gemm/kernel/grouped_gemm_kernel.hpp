// SPDX-License-Identifier: MIT
// GroupedGemmKernel<TilePartitioner, GemmPipeline, EpiloguePipeline>: group_count GEMMs of
// different shapes, C_i = op(A_i * B_i), in one launch, built on UniversalGemmKernel (which does
// one C tile of one K split, with split-K and padding).
//
//   using Kernel = GroupedGemmKernel<GemmSpatiallyLocalTilePartitioner<Shape>, Pipeline, Epilogue>;
//   std::vector<GroupedGemmHostArgs> descs = {{a0, b0, c0, k_batch, M0, N0, K0, sA0, sB0, sC0}, ...};
//   if(!Kernel::IsSupportedArgument(descs)) ... Kernel::GetUnsupportedReason(descs) says why ...
//   auto kargs = Kernel::MakeKargs(descs);                        // one GemmTransKernelArg per group
//   DeviceMem ws(Kernel::GetWorkSpaceSize(descs));                // ... copied to the device
//   hipMemcpy(ws.GetDeviceBuffer(), kargs.data(), kargs.size() * sizeof(kargs[0]), ...);
//   launch_kernel(s, make_kernel<Kernel::kBlockSize>(Kernel{}, Kernel::GridSize(descs),  // or
//                 Kernel::BlockSize(), 0, ws.GetDeviceBuffer(), index_t(kargs.size())));
//                 // MaxOccupancyGridSize() for a persistent kernel (Traits::UsePersistentKernel)
//
// Work items. Group i has tiles(M_i, N_i) x k_batch_i blocks' worth of work, numbered
// [block_start_i, block_end_i) one group after the other; the host writes these ranges with each
// group's kernel arguments into GemmTransKernelArg descriptors in a device workspace. Work item w
// finds its group by a binary search over the ranges (FindGroupId), then computes C tile
// (w - block_start) % tiles of K split (w - block_start) / tiles with the universal kernel's
// RunGemm. A non-persistent grid has one block per work item; a persistent one (the tile loop:
// UsePersistentKernel) has MaxOccupancyGridSize() blocks, block b taking items b, b + grid, ...
//
// Empty groups. A group with M = 0 or N = 0 has no output and gets no work item (as upstream). A
// group with K = 0 has C = op(0): it gets one work item per C tile (whatever its k_batch), which
// stores the epilogue's op applied to a zero accumulator, so its C needs no zeroing beforehand
// (upstream skips such a group and leaves C as it was).
//
// k_batch > 1 adds a group's K splits into its C atomically: zero C first.
#pragma once
#include <limits>
#include <string>
#include <vector>
#include "ck_tile/ops/gemm/kernel/universal_gemm_kernel.hpp"

namespace ck_tile {

struct GroupedGemmHostArgs : GemmHostArgs
{
    CK_TILE_HOST GroupedGemmHostArgs() = default;
    CK_TILE_HOST GroupedGemmHostArgs(const void* a_ptr_, const void* b_ptr_, void* c_ptr_, index_t k_batch_, index_t M_,
                                     index_t N_, index_t K_, index_t stride_A_, index_t stride_B_, index_t stride_C_)
        : GemmHostArgs{a_ptr_, b_ptr_, c_ptr_, k_batch_, M_, N_, K_, stride_A_, stride_B_, stride_C_}
    {}
};

// One group's descriptor in the device workspace: its kernel arguments and its work items
// [block_start, block_end).
template <typename GemmKernelArgs>
struct GemmTransKernelArg
{
    GemmKernelArgs group_karg;
    index_t block_start;
    index_t block_end;
};

// The group whose [block_start, block_end) holds work item `block_id`: a binary search over
// descriptors in order of block_start, the first starting at 0 and each ending where the next
// starts. block_id must lie in [0, descs[group_count - 1].block_end).
template <typename Desc>
CK_TILE_HOST_DEVICE constexpr index_t FindGroupId(const Desc* descs, index_t group_count, index_t block_id)
{
    index_t lo = 0, hi = group_count; // the group is in [lo, hi)
    while(hi - lo > 1)
    {
        const index_t mid = lo + (hi - lo) / 2;
        if(descs[mid].block_start <= block_id)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

template <typename TilePartitioner_, typename GemmPipeline_, typename EpiloguePipeline_, index_t kBlockPerCu_ = 1>
struct GroupedGemmKernel : UniversalGemmKernel<TilePartitioner_, GemmPipeline_, EpiloguePipeline_, kBlockPerCu_>
{
    using Base             = UniversalGemmKernel<TilePartitioner_, GemmPipeline_, EpiloguePipeline_, kBlockPerCu_>;
    using TilePartitioner  = typename Base::TilePartitioner;
    using GemmPipeline     = typename Base::GemmPipeline;
    using EpiloguePipeline = typename Base::EpiloguePipeline;
    using CDataType        = typename Base::CDataType;
    using ElementwiseOp    = typename Base::ElementwiseOp;
    using GemmKernelArgs   = typename Base::KernelArgs;
    using TransKernelArg   = GemmTransKernelArg<GemmKernelArgs>;
    static constexpr index_t kBlockSize = Base::kBlockSize;
    static constexpr bool kPersistent   = Base::kPersistent;

    CK_TILE_HOST static std::string GetName()
    {
        return "gemm_grouped_" + Base::GetName().substr(5) + (kPersistent ? "" : "_nonpersistent");
    }

    // work items of one group: a block per C tile and K split; K = 0: a block per C tile
    CK_TILE_HOST static constexpr index_t GetGroupBlocks(const GemmHostArgs& h)
    {
        if(h.M <= 0 || h.N <= 0)
            return 0;
        return TilePartitioner::GetNumTiles(h.M, h.N) * (h.K == 0 ? 1 : h.k_batch);
    }

    // the descriptors of the non-empty groups, in order, with their work-item ranges
    CK_TILE_HOST static std::vector<TransKernelArg> MakeKargs(const std::vector<GroupedGemmHostArgs>& descs,
                                                              const ElementwiseOp& op = {})
    {
        std::vector<TransKernelArg> kargs;
        index_t start = 0;
        for(const GroupedGemmHostArgs& h : descs)
        {
            const index_t blocks = GetGroupBlocks(h);
            if(blocks == 0)
                continue;
            kargs.push_back(TransKernelArg{Base::MakeKernelArgs(h, op), start, start + blocks});
            start += blocks;
        }
        return kargs;
    }

    CK_TILE_HOST static std::size_t GetWorkSpaceSize(const std::vector<GroupedGemmHostArgs>& descs)
    {
        return descs.size() * sizeof(TransKernelArg);
    }
    CK_TILE_HOST static std::size_t GetWorkSpaceSize(index_t group_count)
    {
        return static_cast<std::size_t>(group_count) * sizeof(TransKernelArg);
    }

    // one block per work item of every group (non-persistent)
    CK_TILE_HOST static dim3 GridSize(const std::vector<GroupedGemmHostArgs>& descs)
    {
        long long blocks = 0;
        for(const GroupedGemmHostArgs& h : descs)
            blocks += GetGroupBlocks(h);
        return dim3(static_cast<unsigned>(blocks));
    }

    // "" if the kernel can run these groups, else one line naming the first group it cannot run.
    CK_TILE_HOST static std::string GetUnsupportedReason(const std::vector<GroupedGemmHostArgs>& descs)
    {
        const auto s     = [](long long v) { return std::to_string(v); };
        long long blocks = 0;
        for(std::size_t i = 0; i < descs.size(); ++i)
        {
            const GroupedGemmHostArgs& h = descs[i];
            const std::string group      = "group " + s(static_cast<long long>(i)) + ": ";
            if(h.M < 0 || h.N < 0 || h.K < 0)
                return group + "M, N and K must not be negative (got " + s(h.M) + " x " + s(h.N) + " x " + s(h.K) + ")";
            if(h.M == 0 || h.N == 0)
                continue; // no output
            std::string r =
                h.K == 0 ? GetZeroKUnsupportedReason(h) : Base::GetUnsupportedReason(Base::MakeKernelArgs(h));
            if(!r.empty())
                return group + r;
            blocks += GetGroupBlocks(h);
            if(blocks > std::numeric_limits<int32_t>::max())
                return group + "too many C tiles x K splits in all for the work-item numbers (32-bit)";
        }
        return {};
    }

    CK_TILE_HOST static bool IsSupportedArgument(const std::vector<GroupedGemmHostArgs>& descs)
    {
        return GetUnsupportedReason(descs).empty();
    }

    // A K = 0 group writes only C: the universal kernel's checks of C.
    CK_TILE_HOST static std::string GetZeroKUnsupportedReason(const GemmHostArgs& h)
    {
        const auto s = [](long long v) { return std::to_string(v); };
        if(h.c_ptr == nullptr)
            return "a null C pointer";
        if(h.stride_C < h.N)
            return "stride_C=" + s(h.stride_C) + " is smaller than N=" + s(h.N) +
                   ", the contiguous dimension of C (row-major)";
        const long long bytes = ((long long)(h.M - 1) * h.stride_C + h.N) * (long long)sizeof(CDataType);
        if(bytes > std::numeric_limits<int32_t>::max())
            return "C (row-major) spans " + s(bytes) + " bytes; this kernel uses 32-bit offsets (at most 2^31 - 1)";
        constexpr index_t v = Base::kVectorC;
        if(v > 1 && (h.N % v != 0 || h.stride_C % v != 0 ||
                     reinterpret_cast<std::uintptr_t>(h.c_ptr) % (std::uintptr_t)(v * sizeof(CDataType)) != 0))
            return "C (row-major): N=" + s(h.N) + ", stride_C=" + s(h.stride_C) +
                   " and the pointer must be multiples of the vector size " + s(v);
        if(!Base::kPadM && h.M % Base::kM != 0)
            return "M=" + s(h.M) + " is not a multiple of the block tile's " + s(Base::kM) +
                   " (this instance does not pad M)";
        if(!Base::kPadN && h.N % Base::kN != 0)
            return "N=" + s(h.N) + " is not a multiple of the block tile's " + s(Base::kN) +
                   " (this instance does not pad N)";
        return {};
    }

    // C tile `tile_id` of a K = 0 group: op(0), stored
    CK_TILE_DEVICE static void StoreZeroTile(const GemmKernelArgs& kargs, index_t tile_id, void* p_smem)
    {
        const auto tile  = TilePartitioner::GetOutputTileIndex(tile_id, kargs.M, kargs.N);
        const index_t m0 = tile.at(number<0>{}) * Base::kM;
        const index_t n0 = tile.at(number<1>{}) * Base::kN;
        const auto v     = make_naive_tensor_view<address_space_enum::global>(
            static_cast<CDataType*>(kargs.c_ptr), make_tuple(kargs.M, kargs.N), make_tuple(kargs.stride_C, 1),
            number<Base::kVectorC>{});
        const auto p = pad_tensor_view(v, make_tuple(number<Base::kM>{}, number<Base::kN>{}),
                                       sequence<Base::kPadM, Base::kPadN>{});
        auto c_window =
            make_tile_window(p, make_tuple(number<Base::kM>{}, number<Base::kN>{}), make_multi_index(m0, n0));
        auto acc = typename GemmPipeline::BlockGemm{}.MakeCBlockTile();
        clear_tile(acc);
        EpiloguePipeline{}.template operator()<memory_operation_enum::set>(c_window, acc, p_smem, kargs.c_element_op);
    }

    // work item `block_id` of the descriptors
    CK_TILE_DEVICE static void RunWorkItem(const TransKernelArg* descs, index_t group_count, index_t block_id,
                                           void* p_smem)
    {
        const index_t group        = FindGroupId(descs, group_count, block_id);
        const GemmKernelArgs kargs = descs[group].group_karg;
        const index_t local        = block_id - descs[group].block_start;
        const index_t tiles        = TilePartitioner::GetNumTiles(kargs.M, kargs.N);
        if(kargs.K == 0)
            StoreZeroTile(kargs, local, p_smem);
        else
            Base::RunGemm(kargs, local % tiles, local / tiles, p_smem);
    }

    // gemm_descs: the workspace of group_count descriptors (MakeKargs)
    CK_TILE_DEVICE void operator()(const void* gemm_descs, index_t group_count) const
    {
        __shared__ char p_smem[Base::GetSmemSize()];
        const auto* descs = static_cast<const TransKernelArg*>(gemm_descs);
        if(group_count <= 0)
            return;
        if constexpr(kPersistent)
        {
            const index_t items = descs[group_count - 1].block_end;
            for(index_t item = get_block_id(); item < items; item += get_grid_size())
            {
                RunWorkItem(descs, group_count, item, p_smem);
                block_sync_lds(); // the next item rewrites the LDS the epilogue may still read
            }
        }
        else if(get_block_id() < descs[group_count - 1].block_end)
            RunWorkItem(descs, group_count, get_block_id(), p_smem);
    }
};

} // namespace ck_tile
