// SPDX-License-Identifier: MIT
// GemmKernel<TilePartitioner, GemmPipeline, EpiloguePipeline>: C = op(A * B) for one GEMM.
//
//   using Kernel = GemmKernel<TilePartitioner<Shape>, GemmPipelineAGmemBGmemCRegV1<Problem>,
//                             Default2DEpilogue<EpilogueProblem>>;
//   auto kargs = Kernel::MakeKernelArgs(GemmHostArgs{a, b, c, M, N, K, stride_A, stride_B, stride_C});
//   if(!Kernel::IsSupportedArgument(kargs)) ... Kernel::GetUnsupportedReason(kargs) says why ...
//   launch_kernel(s, make_kernel<Kernel::kBlockSize>(Kernel{}, Kernel::GridSize(M, N),
//                                                    Kernel::BlockSize(), 0, kargs));
//
// Layouts (upstream's convention): A is M x K, B is K x N, C is M x N (row-major); strides are the
// leading dimensions in elements. Each block: raw pointers -> naive tensor views along each
// operand's layout (A row-major: M x K; A column-major: K x M; B row-major: K x N; B column-major:
// N x K; the last dimension contiguous, with the pipeline's vector size as the alignment
// guarantee) -> pad_tensor_view up to the block tile where the problem pads -> tile windows at the
// block's tile -> the pipeline (K loop, C in VGPRs) -> the epilogue (op, convert, store to C).
//
// Padding. C is padded along M and N (kPadM, kPadN): stores outside C are dropped. A and B are
// padded along K (kPadK), so that both read 0 past K, and along their outer dimension. Their
// contiguous M (column-major A) or N (row-major B) dimension is left unpadded on purpose: a read
// past M takes whatever follows in memory (or 0 past the end of the buffer), and those values only
// reach rows of C past M, which the C window drops; it saves a bounds check per element.
#pragma once
#include <cstdint>
#include <limits>
#include <string>
#include "ck_tile/core.hpp"
#include "ck_tile/host/runtime/runtime.hpp"
#include "ck_tile/ops/gemm/kernel/gemm_tile_partitioner.hpp"

namespace ck_tile {

struct GemmHostArgs
{
    const void* a_ptr;
    const void* b_ptr;
    void* c_ptr;
    index_t M;
    index_t N;
    index_t K;
    index_t stride_A;
    index_t stride_B;
    index_t stride_C;
};

template <typename TilePartitioner_, typename GemmPipeline_, typename EpiloguePipeline_>
struct GemmKernel
{
    using TilePartitioner  = TilePartitioner_;
    using GemmPipeline     = GemmPipeline_;
    using EpiloguePipeline = EpiloguePipeline_;
    using ADataType        = typename GemmPipeline::ADataType;
    using BDataType        = typename GemmPipeline::BDataType;
    using AccDataType      = typename GemmPipeline::AccDataType;
    using CDataType        = typename EpiloguePipeline::ODataType;
    using ALayout          = typename GemmPipeline::ALayout;
    using BLayout          = typename GemmPipeline::BLayout;
    using CLayout          = typename GemmPipeline::CLayout;
    using ElementwiseOp    = typename EpiloguePipeline::ElementwiseOp;

    static constexpr index_t kBlockSize = GemmPipeline::BlockSize;
    static constexpr index_t kM         = TilePartitioner::MPerBlock;
    static constexpr index_t kN         = TilePartitioner::NPerBlock;
    static constexpr index_t kK         = TilePartitioner::KPerBlock;
    static constexpr bool kPadM         = GemmPipeline::kPadM;
    static constexpr bool kPadN         = GemmPipeline::kPadN;
    static constexpr bool kPadK         = GemmPipeline::kPadK;
    static constexpr index_t kVectorA   = GemmPipeline::GetVectorSizeA();
    static constexpr index_t kVectorB   = GemmPipeline::GetVectorSizeB();
    static constexpr index_t kVectorC   = EpiloguePipeline::GetVectorSizeC();

    static_assert(std::is_same_v<CLayout, tensor_layout::gemm::RowMajor>, "GemmKernel: C must be row-major");
    static_assert(std::is_same_v<AccDataType, typename EpiloguePipeline::AccDataType>,
                  "GemmKernel: the epilogue takes another accumulator type than the pipeline makes");
    static_assert(kM == GemmPipeline::MPerBlock && kN == GemmPipeline::NPerBlock && kK == GemmPipeline::KPerBlock,
                  "GemmKernel: the tile partitioner and the pipeline disagree on the block tile");

    struct GemmKernelArgs
    {
        const void* a_ptr;
        const void* b_ptr;
        void* c_ptr;
        index_t M;
        index_t N;
        index_t K;
        index_t stride_A;
        index_t stride_B;
        index_t stride_C;
        ElementwiseOp c_element_op;
    };
    using KernelArgs = GemmKernelArgs;

    CK_TILE_HOST static constexpr GemmKernelArgs MakeKernelArgs(const GemmHostArgs& h, const ElementwiseOp& op = {})
    {
        return GemmKernelArgs{h.a_ptr, h.b_ptr, h.c_ptr, h.M, h.N, h.K, h.stride_A, h.stride_B, h.stride_C, op};
    }

    CK_TILE_HOST static constexpr dim3 GridSize(index_t M, index_t N) { return TilePartitioner::GridSize(M, N); }
    CK_TILE_HOST static constexpr dim3 BlockSize() { return dim3(kBlockSize); }

    // LDS bytes: the pipeline's and the epilogue's share the same memory
    CK_TILE_HOST_DEVICE static constexpr index_t GetSmemSize()
    {
        return max(GemmPipeline::GetSmemSize(), EpiloguePipeline::GetSmemSize());
    }

    // "" if the kernel can run these arguments, else one line saying why not.
    CK_TILE_HOST static std::string GetUnsupportedReason(const GemmKernelArgs& k)
    {
        const auto s = [](long long v) { return std::to_string(v); };
        if(k.M <= 0 || k.N <= 0 || k.K <= 0)
            return "M, N and K must be positive (got " + s(k.M) + " x " + s(k.N) + " x " + s(k.K) + ")";
        if(k.a_ptr == nullptr || k.b_ptr == nullptr || k.c_ptr == nullptr)
            return "a null A, B or C pointer";

        // a matrix: outer x inner elements, inner contiguous, rows `stride` apart
        struct operand
        {
            const char* name; // "A (row-major)", ...
            const char* stride_name;
            const char* inner_name;
            const void* ptr;
            index_t outer, inner, stride, vector, elem_bytes;
        };
        constexpr index_t a_bytes = sizeof(ADataType), b_bytes = sizeof(BDataType), c_bytes = sizeof(CDataType);
        const operand ops[3] = {
            is_row_major_v<ALayout>
                ? operand{"A (row-major)", "stride_A", "K", k.a_ptr, k.M, k.K, k.stride_A, kVectorA, a_bytes}
                : operand{"A (column-major)", "stride_A", "M", k.a_ptr, k.K, k.M, k.stride_A, kVectorA, a_bytes},
            is_row_major_v<BLayout>
                ? operand{"B (row-major)", "stride_B", "N", k.b_ptr, k.K, k.N, k.stride_B, kVectorB, b_bytes}
                : operand{"B (column-major)", "stride_B", "K", k.b_ptr, k.N, k.K, k.stride_B, kVectorB, b_bytes},
            operand{"C (row-major)", "stride_C", "N", k.c_ptr, k.M, k.N, k.stride_C, kVectorC, c_bytes}};
        for(const operand& o : ops)
        {
            const std::string layout = o.name;
            if(o.stride < o.inner)
                return std::string(o.stride_name) + "=" + s(o.stride) + " is smaller than " + o.inner_name + "=" +
                       s(o.inner) + ", the contiguous dimension of " + layout;
            const long long bytes = ((long long)(o.outer - 1) * o.stride + o.inner) * o.elem_bytes;
            if(bytes > std::numeric_limits<int32_t>::max())
                return layout + " spans " + s(bytes) + " bytes; this kernel uses 32-bit offsets (at most 2^31 - 1)";
            if(o.vector > 1)
            {
                if(o.inner % o.vector != 0)
                    return layout + ": " + o.inner_name + "=" + s(o.inner) + " is not a multiple of the vector size " +
                           s(o.vector);
                if(o.stride % o.vector != 0)
                    return layout + ": " + o.stride_name + "=" + s(o.stride) +
                           " is not a multiple of the vector size " + s(o.vector);
                if(reinterpret_cast<std::uintptr_t>(o.ptr) % (std::uintptr_t)(o.vector * o.elem_bytes) != 0)
                    return layout + ": the pointer is not aligned to " + s(o.vector * o.elem_bytes) + " bytes";
            }
        }
        if(!kPadM && k.M % kM != 0)
            return "M=" + s(k.M) + " is not a multiple of the block tile's " + s(kM) +
                   " (this instance does not pad M)";
        if(!kPadN && k.N % kN != 0)
            return "N=" + s(k.N) + " is not a multiple of the block tile's " + s(kN) +
                   " (this instance does not pad N)";
        if(!kPadK && k.K % kK != 0)
            return "K=" + s(k.K) + " is not a multiple of the block tile's " + s(kK) +
                   " (this instance does not pad K)";
        if((long long)TilePartitioner::GetNumTilesM(k.M) * TilePartitioner::GetNumTilesN(k.N) >
           std::numeric_limits<int32_t>::max())
            return "too many C tiles for a 1-D grid";
        return {};
    }

    CK_TILE_HOST static bool IsSupportedArgument(const GemmKernelArgs& kargs)
    {
        return GetUnsupportedReason(kargs).empty();
    }

    // The block's DRAM windows at its tile (A and B at K = 0), along each operand's layout.
    CK_TILE_DEVICE static auto MakeGemmTileWindows(const GemmKernelArgs& kargs, index_t m0, index_t n0)
    {
        const auto* p_a = static_cast<const ADataType*>(kargs.a_ptr);
        const auto* p_b = static_cast<const BDataType*>(kargs.b_ptr);
        auto* p_c       = static_cast<CDataType*>(kargs.c_ptr);

        const auto a_window = [&] {
            if constexpr(is_row_major_v<ALayout>)
            {
                const auto v = make_naive_tensor_view<address_space_enum::global>(
                    p_a, make_tuple(kargs.M, kargs.K), make_tuple(kargs.stride_A, 1), number<kVectorA>{});
                const auto p = pad_tensor_view(v, make_tuple(number<kM>{}, number<kK>{}), sequence<kPadM, kPadK>{});
                return make_tile_window(p, make_tuple(number<kM>{}, number<kK>{}), make_multi_index(m0, 0));
            }
            else
            {
                const auto v = make_naive_tensor_view<address_space_enum::global>(
                    p_a, make_tuple(kargs.K, kargs.M), make_tuple(kargs.stride_A, 1), number<kVectorA>{});
                const auto p = pad_tensor_view(v, make_tuple(number<kK>{}, number<kM>{}), sequence<kPadK, false>{});
                return make_tile_window(p, make_tuple(number<kK>{}, number<kM>{}), make_multi_index(0, m0));
            }
        }();
        const auto b_window = [&] {
            if constexpr(is_row_major_v<BLayout>)
            {
                const auto v = make_naive_tensor_view<address_space_enum::global>(
                    p_b, make_tuple(kargs.K, kargs.N), make_tuple(kargs.stride_B, 1), number<kVectorB>{});
                const auto p = pad_tensor_view(v, make_tuple(number<kK>{}, number<kN>{}), sequence<kPadK, false>{});
                return make_tile_window(p, make_tuple(number<kK>{}, number<kN>{}), make_multi_index(0, n0));
            }
            else
            {
                const auto v = make_naive_tensor_view<address_space_enum::global>(
                    p_b, make_tuple(kargs.N, kargs.K), make_tuple(kargs.stride_B, 1), number<kVectorB>{});
                const auto p = pad_tensor_view(v, make_tuple(number<kN>{}, number<kK>{}), sequence<kPadN, kPadK>{});
                return make_tile_window(p, make_tuple(number<kN>{}, number<kK>{}), make_multi_index(n0, 0));
            }
        }();
        const auto c_window = [&] {
            const auto v = make_naive_tensor_view<address_space_enum::global>(
                p_c, make_tuple(kargs.M, kargs.N), make_tuple(kargs.stride_C, 1), number<kVectorC>{});
            const auto p = pad_tensor_view(v, make_tuple(number<kM>{}, number<kN>{}), sequence<kPadM, kPadN>{});
            return make_tile_window(p, make_tuple(number<kM>{}, number<kN>{}), make_multi_index(m0, n0));
        }();
        return make_tuple(a_window, b_window, c_window);
    }

    CK_TILE_DEVICE void operator()(GemmKernelArgs kargs) const
    {
        const auto tile  = TilePartitioner::GetOutputTileIndex(get_block_id(), kargs.N);
        const index_t m0 = tile.at(number<0>{}) * kM;
        const index_t n0 = tile.at(number<1>{}) * kN;

        const auto windows = MakeGemmTileWindows(kargs, m0, n0);
        __shared__ char p_smem[GetSmemSize()];

        const auto c_block_tile = GemmPipeline{}(windows.at(number<0>{}), windows.at(number<1>{}),
                                                 TilePartitioner::GetLoopNum(kargs.K), p_smem);
        EpiloguePipeline{}(windows.at(number<2>{}), c_block_tile, p_smem, kargs.c_element_op);
    }
};

} // namespace ck_tile
