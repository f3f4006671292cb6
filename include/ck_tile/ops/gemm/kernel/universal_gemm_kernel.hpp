// SPDX-License-Identifier: MIT
// UniversalGemmKernel<TilePartitioner, GemmPipeline, EpiloguePipeline>: C = op(A * B) with split-K
// and an optional persistent grid; GemmKernel, BatchedGemmKernel and GroupedGemmKernel are built
// on it.
//
//   using Kernel = UniversalGemmKernel<GemmSpatiallyLocalTilePartitioner<Shape>,
//                                      GemmPipelineAgBgCrCompV3<Problem>, CShuffleEpilogue<...>>;
//   auto kargs = Kernel::MakeKernelArgs(GemmHostArgs{a, b, c, k_batch, M, N, K, sA, sB, sC});
//   if(!Kernel::IsSupportedArgument(kargs)) ... Kernel::GetUnsupportedReason(kargs) says why ...
//   (k_batch > 1: zero C first; the K splits add into it atomically)
//   launch_kernel(s, make_kernel<Kernel::kBlockSize>(Kernel{}, Kernel::GridSize(M, N, k_batch),
//                                                    Kernel::BlockSize(), 0, kargs));
//
// Layouts (upstream's convention): A is M x K, B is K x N, C is M x N (row-major); strides are the
// leading dimensions in elements. A block: raw pointers -> naive tensor views along each operand's
// layout (A row-major: M x K; A column-major: K x M; B row-major: K x N; B column-major: N x K;
// the last dimension contiguous, with the pipeline's vector size as the alignment guarantee) ->
// pad_tensor_view up to the block tile where the problem pads -> tile windows at the block's tile
// -> the pipeline (K loop, C in VGPRs) -> the epilogue (op, convert, store or atomic add to C).
//
// Split-K (k_batch > 1). Grid z is the K split. Split i reads K range [i * KRead, min(K, (i + 1) *
// KRead)) with KRead = ceil(K / (k_batch * kK)) * kK, so every split but the last starts and ends
// on a K tile (upstream rounds to the warp tile's K instead; a whole tile keeps every split's start
// aligned to the vector). A split whose range is empty (k_batch above the number of K tiles) has
// nothing to add and returns. The splits' partial results are added into C with atomic adds
// (memory_operation_enum::atomic_add), so C must be zeroed first and the element-wise op must be
// additive (PassThrough, or a scale); a 16-bit C is added in pairs, so its vector size must be even.
// k_batch == 1 stores C (memory_operation_enum::set). Both stores are compiled into the kernel; the
// run-time k_batch picks one.
//
// Persistent (Traits::UsePersistentKernel): the grid is MaxOccupancyGridSize() blocks, and block b
// computes work items b, b + grid, b + 2 grid, ... of the tiles x k_batch items.
//
// Padding. C is padded along M and N (kPadM, kPadN): stores outside C are dropped. A and B are
// padded along K (kPadK), so that both read 0 past K (and past a split's end), and along their
// outer dimension. Their contiguous M (column-major A) or N (row-major B) dimension is left
// unpadded on purpose: a read past M takes whatever follows in memory (or 0 past the end of the
// buffer), and those values only reach rows of C past M, which the C window drops.
#pragma once
#include <cstdint>
#include <limits>
#include <string>
#include "ck_tile/core.hpp"
#include "ck_tile/host/runtime/runtime.hpp"
#include "ck_tile/host/device_prop.hpp"
#include "ck_tile/host/stream_config.hpp"
#include "ck_tile/ops/gemm/kernel/gemm_tile_partitioner.hpp"

namespace ck_tile {

struct GemmHostArgs
{
    const void* a_ptr;
    const void* b_ptr;
    void* c_ptr;
    index_t k_batch;
    index_t M;
    index_t N;
    index_t K;
    index_t stride_A;
    index_t stride_B;
    index_t stride_C;
};

template <typename TilePartitioner_, typename GemmPipeline_, typename EpiloguePipeline_, index_t kBlockPerCu_ = 1>
struct UniversalGemmKernel
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

    static constexpr index_t kBlockSize  = GemmPipeline::BlockSize;
    static constexpr index_t kBlockPerCu = kBlockPerCu_;
    static constexpr index_t kM          = TilePartitioner::MPerBlock;
    static constexpr index_t kN          = TilePartitioner::NPerBlock;
    static constexpr index_t kK          = TilePartitioner::KPerBlock;
    static constexpr bool kPadM          = GemmPipeline::kPadM;
    static constexpr bool kPadN          = GemmPipeline::kPadN;
    static constexpr bool kPadK          = GemmPipeline::kPadK;
    static constexpr index_t kVectorA    = GemmPipeline::GetVectorSizeA();
    static constexpr index_t kVectorB    = GemmPipeline::GetVectorSizeB();
    static constexpr index_t kVectorC    = EpiloguePipeline::GetVectorSizeC();

    static constexpr bool kPersistent = [] {
        if constexpr(requires { GemmPipeline::Problem::UsePersistentKernel; })
            return GemmPipeline::Problem::UsePersistentKernel;
        else
            return false;
    }();

    // split-K adds partial results atomically: fp32 and int32 one by one, 16-bit types in pairs
    // where the C vector gives aligned pairs, else each element on its own (buffer_view::atomic_add),
    // so every size the unsplit kernel takes splits too
    static constexpr bool kSplitKSupported = std::is_same_v<CDataType, float> || std::is_same_v<CDataType, int32_t> ||
                                             std::is_same_v<CDataType, half_t> || std::is_same_v<CDataType, bf16_t>;

    static_assert(std::is_same_v<CLayout, tensor_layout::gemm::RowMajor>, "UniversalGemmKernel: C must be row-major");
    static_assert(std::is_same_v<AccDataType, typename EpiloguePipeline::AccDataType>,
                  "UniversalGemmKernel: the epilogue takes another accumulator type than the pipeline makes");
    static_assert(kM == GemmPipeline::MPerBlock && kN == GemmPipeline::NPerBlock && kK == GemmPipeline::KPerBlock,
                  "UniversalGemmKernel: the tile partitioner and the pipeline disagree on the block tile");

    struct KernelArgs
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
        index_t k_batch;
        ElementwiseOp c_element_op;
    };
    using GemmKernelArgs = KernelArgs;

    CK_TILE_HOST static constexpr KernelArgs MakeKernelArgs(const GemmHostArgs& h, const ElementwiseOp& op = {})
    {
        return KernelArgs{h.a_ptr, h.b_ptr, h.c_ptr, h.M, h.N, h.K, h.stride_A, h.stride_B, h.stride_C, h.k_batch, op};
    }

    CK_TILE_HOST static std::string GetName()
    {
        return std::string("gemm_") + GemmPipeline::name + "_" + std::to_string(kM) + "x" + std::to_string(kN) + "x" +
               std::to_string(kK) + (kPersistent ? "_persistent" : "");
    }

    // one block per C tile (x) and K split (z); a persistent kernel takes MaxOccupancyGridSize()
    CK_TILE_HOST static constexpr dim3 GridSize(index_t M, index_t N, index_t k_batch = 1)
    {
        return dim3(TilePartitioner::GridSize(M, N).x, 1, static_cast<unsigned>(k_batch));
    }
    // as many blocks as the device runs at once: compute units x blocks per CU
    CK_TILE_HOST static dim3 MaxOccupancyGridSize(const stream_config& = {})
    {
        return dim3(static_cast<unsigned>(get_device_cu_count() * kBlockPerCu));
    }
    CK_TILE_HOST static constexpr dim3 BlockSize() { return dim3(kBlockSize); }

    // LDS bytes: the pipeline's and the epilogue's share the same memory
    CK_TILE_HOST_DEVICE static constexpr index_t GetSmemSize()
    {
        return max(GemmPipeline::GetSmemSize(), EpiloguePipeline::GetSmemSize());
    }

    // K elements each split reads (the last split may read fewer): a whole number of K tiles
    CK_TILE_HOST_DEVICE static constexpr index_t GetKRead(index_t K, index_t k_batch)
    {
        return integer_divide_ceil(K, k_batch * kK) * kK;
    }

    // "" if the kernel can run these arguments, else one line saying why not.
    CK_TILE_HOST static std::string GetUnsupportedReason(const KernelArgs& k)
    {
        const auto s = [](long long v) { return std::to_string(v); };
        if(k.M <= 0 || k.N <= 0 || k.K <= 0)
            return "M, N and K must be positive (got " + s(k.M) + " x " + s(k.N) + " x " + s(k.K) + ")";
        if(k.a_ptr == nullptr || k.b_ptr == nullptr || k.c_ptr == nullptr)
            return "a null A, B or C pointer";
        if(k.k_batch < 1)
            return "k_batch must be at least 1 (got " + s(k.k_batch) + ")";
        if(k.k_batch > 1 && !kSplitKSupported)
            return "split-K (k_batch=" + s(k.k_batch) +
                   ") adds into C atomically, which a C of this type cannot do (fp32, int32, fp16 or bf16 can)";

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
        if(!kPadK && k.K % (kK * k.k_batch) != 0)
            return "K=" + s(k.K) + " is not a multiple of the block tile's " + s(kK) + " x k_batch " + s(k.k_batch) +
                   " (this instance does not pad K)";
        if((long long)TilePartitioner::GetNumTiles(k.M, k.N) * k.k_batch > std::numeric_limits<int32_t>::max())
            return "too many C tiles x K splits for the grid";
        return {};
    }

    CK_TILE_HOST static bool IsSupportedArgument(const KernelArgs& kargs)
    {
        return GetUnsupportedReason(kargs).empty();
    }

    // The block's DRAM windows at its tile: A and B over K range [k0, k0 + k_len) (k0 at the
    // window origin's K = 0), C at (m0, n0), along each operand's layout.
    CK_TILE_DEVICE static auto MakeGemmTileWindows(const KernelArgs& kargs, index_t m0, index_t n0, index_t k0,
                                                   index_t k_len)
    {
        const auto* p_a = static_cast<const ADataType*>(kargs.a_ptr);
        const auto* p_b = static_cast<const BDataType*>(kargs.b_ptr);
        auto* p_c       = static_cast<CDataType*>(kargs.c_ptr);

        const auto a_window = [&] {
            if constexpr(is_row_major_v<ALayout>)
            {
                const auto v = make_naive_tensor_view<address_space_enum::global>(
                    p_a + k0, make_tuple(kargs.M, k_len), make_tuple(kargs.stride_A, 1), number<kVectorA>{});
                const auto p = pad_tensor_view(v, make_tuple(number<kM>{}, number<kK>{}), sequence<kPadM, kPadK>{});
                return make_tile_window(p, make_tuple(number<kM>{}, number<kK>{}), make_multi_index(m0, 0));
            }
            else
            {
                const auto v = make_naive_tensor_view<address_space_enum::global>(
                    p_a + (long_index_t)k0 * kargs.stride_A, make_tuple(k_len, kargs.M), make_tuple(kargs.stride_A, 1),
                    number<kVectorA>{});
                const auto p = pad_tensor_view(v, make_tuple(number<kK>{}, number<kM>{}), sequence<kPadK, false>{});
                return make_tile_window(p, make_tuple(number<kK>{}, number<kM>{}), make_multi_index(0, m0));
            }
        }();
        const auto b_window = [&] {
            if constexpr(is_row_major_v<BLayout>)
            {
                const auto v = make_naive_tensor_view<address_space_enum::global>(
                    p_b + (long_index_t)k0 * kargs.stride_B, make_tuple(k_len, kargs.N), make_tuple(kargs.stride_B, 1),
                    number<kVectorB>{});
                const auto p = pad_tensor_view(v, make_tuple(number<kK>{}, number<kN>{}), sequence<kPadK, false>{});
                return make_tile_window(p, make_tuple(number<kK>{}, number<kN>{}), make_multi_index(0, n0));
            }
            else
            {
                const auto v = make_naive_tensor_view<address_space_enum::global>(
                    p_b + k0, make_tuple(kargs.N, k_len), make_tuple(kargs.stride_B, 1), number<kVectorB>{});
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

    // One work item: C tile `tile_id` of K split `k_id`.
    CK_TILE_DEVICE static void RunGemm(const KernelArgs& kargs, index_t tile_id, index_t k_id, void* p_smem)
    {
        const auto tile    = TilePartitioner::GetOutputTileIndex(tile_id, kargs.M, kargs.N);
        const index_t m0   = tile.at(number<0>{}) * kM;
        const index_t n0   = tile.at(number<1>{}) * kN;
        const index_t read = GetKRead(kargs.K, kargs.k_batch);
        const index_t k0   = k_id * read;
        const index_t kLen = min(read, kargs.K - k0);
        if(kLen <= 0)
            return; // an empty K split: nothing to add

        const auto windows = MakeGemmTileWindows(kargs, m0, n0, k0, kLen);
        const auto c_block_tile =
            GemmPipeline{}(windows.at(number<0>{}), windows.at(number<1>{}), TilePartitioner::GetLoopNum(kLen), p_smem);
        if(kargs.k_batch == 1)
            EpiloguePipeline{}.template operator()<memory_operation_enum::set>(windows.at(number<2>{}), c_block_tile,
                                                                               p_smem, kargs.c_element_op);
        else if constexpr(kSplitKSupported)
            EpiloguePipeline{}.template operator()<memory_operation_enum::atomic_add>(
                windows.at(number<2>{}), c_block_tile, p_smem, kargs.c_element_op);
    }

    CK_TILE_DEVICE void operator()(KernelArgs kargs) const
    {
        __shared__ char p_smem[GetSmemSize()];
        if constexpr(kPersistent)
        {
            const index_t tiles = TilePartitioner::GetNumTiles(kargs.M, kargs.N);
            const index_t items = tiles * kargs.k_batch;
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
