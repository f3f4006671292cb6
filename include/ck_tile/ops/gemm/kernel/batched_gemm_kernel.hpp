// SPDX-License-Identifier: MIT
// BatchedGemmKernel<TilePartitioner, GemmPipeline, EpiloguePipeline>: batch_count independent
// GEMMs C[b] = op(A[b] * B[b]) of one shape in one launch, built on UniversalGemmKernel (which
// does one C tile of one K split, with split-K and padding).
//
//   using Kernel = BatchedGemmKernel<GemmSpatiallyLocalTilePartitioner<Shape>, Pipeline, Epilogue>;
//   auto kargs = Kernel::MakeKernelArgs(BatchedGemmHostArgs{a, b, c, k_batch, M, N, K, sA, sB, sC,
//                                                           batch_stride_A, batch_stride_B,
//                                                           batch_stride_C, batch_count});
//   if(!Kernel::IsSupportedArgument(kargs)) ... Kernel::GetUnsupportedReason(kargs) says why ...
//   launch_kernel(s, make_kernel<Kernel::kBlockSize>(Kernel{}, Kernel::GridSize(M, N, k_batch,
//                 batch_count), Kernel::BlockSize(), 0, kargs));
//
// Grid (as upstream): x = the C tiles of one GEMM (the partitioner's order), y = the batch, z = the
// K split. Matrix b of A starts b * batch_stride_A elements after a_ptr (likewise B and C): the
// block moves the three pointers of a copy of its arguments by those offsets (64-bit, so the
// batches together may span more than the 2^31 bytes one matrix may) and runs the universal
// kernel's RunGemm on it. A or B may be shared by every batch (batch stride 0); C matrices must
// not overlap, as two blocks would then write the same element.
//
// k_batch > 1 adds the K splits' partial results into C atomically: zero C first.
#pragma once
#include <limits>
#include <string>
#include "ck_tile/ops/gemm/kernel/universal_gemm_kernel.hpp"

namespace ck_tile {

struct BatchedGemmHostArgs : GemmHostArgs
{
    CK_TILE_HOST BatchedGemmHostArgs() = default;
    CK_TILE_HOST BatchedGemmHostArgs(const void* a_ptr_, const void* b_ptr_, void* c_ptr_, index_t k_batch_, index_t M_,
                                     index_t N_, index_t K_, index_t stride_A_, index_t stride_B_, index_t stride_C_,
                                     index_t batch_stride_A_, index_t batch_stride_B_, index_t batch_stride_C_,
                                     index_t batch_count_)
        : GemmHostArgs{a_ptr_, b_ptr_, c_ptr_, k_batch_, M_, N_, K_, stride_A_, stride_B_, stride_C_},
          batch_stride_A(batch_stride_A_), batch_stride_B(batch_stride_B_), batch_stride_C(batch_stride_C_),
          batch_count(batch_count_)
    {}

    index_t batch_stride_A;
    index_t batch_stride_B;
    index_t batch_stride_C;
    index_t batch_count;
};

// Element offsets of batch `batch` in A, B and C.
struct BatchedGemmOffsets
{
    long_index_t a;
    long_index_t b;
    long_index_t c;
};

CK_TILE_HOST_DEVICE constexpr BatchedGemmOffsets GetBatchedGemmOffsets(index_t batch, index_t batch_stride_A,
                                                                       index_t batch_stride_B, index_t batch_stride_C)
{
    return {static_cast<long_index_t>(batch) * batch_stride_A, static_cast<long_index_t>(batch) * batch_stride_B,
            static_cast<long_index_t>(batch) * batch_stride_C};
}

template <typename TilePartitioner_, typename GemmPipeline_, typename EpiloguePipeline_, index_t kBlockPerCu_ = 1>
struct BatchedGemmKernel : UniversalGemmKernel<TilePartitioner_, GemmPipeline_, EpiloguePipeline_, kBlockPerCu_>
{
    using Base            = UniversalGemmKernel<TilePartitioner_, GemmPipeline_, EpiloguePipeline_, kBlockPerCu_>;
    using TilePartitioner = typename Base::TilePartitioner;
    using ADataType       = typename Base::ADataType;
    using BDataType       = typename Base::BDataType;
    using CDataType       = typename Base::CDataType;
    using ElementwiseOp   = typename Base::ElementwiseOp;
    using GemmKernelArgs  = typename Base::KernelArgs;
    static constexpr index_t kBlockSize = Base::kBlockSize;

    static_assert(!Base::kPersistent, "BatchedGemmKernel: one block per tile, batch and K split (no persistent grid)");

    struct BatchedGemmKernelArgs : GemmKernelArgs
    {
        index_t batch_stride_A;
        index_t batch_stride_B;
        index_t batch_stride_C;
        index_t batch_count;
    };
    using KernelArgs = BatchedGemmKernelArgs;

    CK_TILE_HOST static constexpr KernelArgs MakeKernelArgs(const BatchedGemmHostArgs& h, const ElementwiseOp& op = {})
    {
        return KernelArgs{Base::MakeKernelArgs(h, op), h.batch_stride_A, h.batch_stride_B, h.batch_stride_C,
                          h.batch_count};
    }

    CK_TILE_HOST static std::string GetName() { return "gemm_batched_" + Base::GetName().substr(5); }

    // x: the C tiles of one GEMM, y: the batch, z: the K split
    CK_TILE_HOST static constexpr dim3 GridSize(index_t M, index_t N, index_t k_batch, index_t batch_count)
    {
        return dim3(TilePartitioner::GridSize(M, N).x, static_cast<unsigned>(batch_count),
                    static_cast<unsigned>(k_batch));
    }

    // "" if the kernel can run these arguments, else one line saying why not.
    CK_TILE_HOST static std::string GetUnsupportedReason(const KernelArgs& k)
    {
        const auto s = [](long long v) { return std::to_string(v); };
        if(k.batch_count < 1)
            return "batch_count must be at least 1 (got " + s(k.batch_count) + ")";
        if(k.batch_count > 65535 || k.k_batch > 65535)
            return "batch_count and k_batch are grid dimensions y and z: at most 65535 each (got " + s(k.batch_count) +
                   " and " + s(k.k_batch) + ")";
        if(k.batch_stride_A < 0 || k.batch_stride_B < 0 || k.batch_stride_C < 0)
            return "batch strides must not be negative (got A " + s(k.batch_stride_A) + ", B " + s(k.batch_stride_B) +
                   ", C " + s(k.batch_stride_C) + ")";
        std::string r = Base::GetUnsupportedReason(k);
        if(!r.empty())
            return r;
        // each batch's C after the previous one's last element (C is row-major: M rows of stride_C)
        const long long c_span = (long long)(k.M - 1) * k.stride_C + k.N;
        if(k.batch_count > 1 && k.batch_stride_C < c_span)
            return "batch_stride_C=" + s(k.batch_stride_C) + " is smaller than one C matrix (" + s(c_span) +
                   " elements): the batches' outputs would overlap";
        // a batch's pointer keeps the vector alignment the operand's accesses need
        const auto misaligned = [](index_t stride, index_t vector) { return vector > 1 && stride % vector != 0; };
        if(k.batch_count > 1 &&
           (misaligned(k.batch_stride_A, Base::kVectorA) || misaligned(k.batch_stride_B, Base::kVectorB) ||
            misaligned(k.batch_stride_C, Base::kVectorC)))
            return "batch strides (A " + s(k.batch_stride_A) + ", B " + s(k.batch_stride_B) + ", C " +
                   s(k.batch_stride_C) + ") must be multiples of the vector sizes (A " + s(Base::kVectorA) + ", B " +
                   s(Base::kVectorB) + ", C " + s(Base::kVectorC) + ")";
        return {};
    }

    CK_TILE_HOST static bool IsSupportedArgument(const KernelArgs& kargs)
    {
        return GetUnsupportedReason(kargs).empty();
    }

    // The universal kernel's arguments for batch `batch`: the pointers moved to its matrices.
    CK_TILE_HOST_DEVICE static GemmKernelArgs GetBatchKernelArgs(const KernelArgs& kargs, index_t batch)
    {
        const BatchedGemmOffsets o =
            GetBatchedGemmOffsets(batch, kargs.batch_stride_A, kargs.batch_stride_B, kargs.batch_stride_C);
        GemmKernelArgs g = kargs;
        g.a_ptr          = static_cast<const ADataType*>(kargs.a_ptr) + o.a;
        g.b_ptr          = static_cast<const BDataType*>(kargs.b_ptr) + o.b;
        g.c_ptr          = static_cast<CDataType*>(kargs.c_ptr) + o.c;
        return g;
    }

    CK_TILE_DEVICE void operator()(KernelArgs kargs) const
    {
        __shared__ char p_smem[Base::GetSmemSize()];
        Base::RunGemm(GetBatchKernelArgs(kargs, get_block_id_y()), get_block_id(), get_block_id_z(), p_smem);
    }
};

} // namespace ck_tile
