// SPDX-License-Identifier: MIT
// The kernel instances of tile_example_batched_gemm and how one is picked. Per data type, A
// row-major and B column-major (upstream's only layouts), two instances of the same kernel:
//   - vector: 16-byte DRAM accesses of A and B along K (C: its rows 16-byte aligned);
//   - scalar: element-by-element accesses, for sizes, strides or pointers that are not multiples
//     of the vector (K = 17, stride_A = 65, ...). Its C vector is 1, so it cannot add split-K
//     partial results (16-bit atomic adds come in pairs): split-K needs the vector instance.
// Both pad M, N and K, so any positive size works. The vector instance runs when its
// GetUnsupportedReason accepts the arguments, else the scalar one.
#pragma once
#include "batched_gemm.hpp"

namespace batched_gemm_example {

template <typename Types, bool kVector>
struct BatchedGemmInstance
{
    using A   = typename Types::ADataType;
    using B   = typename Types::BDataType;
    using Acc = typename Types::AccDataType;
    using C   = typename Types::CDataType;
    using Row = ck_tile::tensor_layout::gemm::RowMajor;
    using Col = ck_tile::tensor_layout::gemm::ColumnMajor;

    static constexpr ck_tile::index_t kVecA = kVector ? 16 / sizeof(A) : 1;
    static constexpr ck_tile::index_t kVecB = kVector ? 16 / sizeof(B) : 1;
    static constexpr ck_tile::index_t kVecC = kVector ? 16 / sizeof(C) : 1;

    using Traits   = ck_tile::TileGemmUniversalTraits<true, true, true, false, Row, Col, Row>;
    using Problem  = ck_tile::UniversalGemmPipelineProblem<A, B, Acc, Shape, Traits,
                                                           ck_tile::GemmPipelineScheduler::Intrawave, kVecA, kVecB>;
    using Pipeline = ck_tile::GemmPipelineAgBgCrCompV3<Problem>;
    // the C tile is stored from the MFMA's registers (no LDS): with the pipeline's 18 KiB of LDS,
    // three blocks fit gfx942's 64 KiB, so the compiler budgets registers for 2+ waves per SIMD
    using Epilogue = ck_tile::Default2DEpilogue<
        ck_tile::Default2DEpilogueProblem<Acc, C, true, true, ck_tile::element_wise::PassThrough, kVecC>>;
    using Partitioner = ck_tile::GemmSpatiallyLocalTilePartitioner<Shape, 8, 4>;
    using Kernel      = ck_tile::BatchedGemmKernel<Partitioner, Pipeline, Epilogue>;

    static std::string describe(const std::string& access)
    {
        using WarpGemm = typename Pipeline::BlockGemm::WarpGemm;
        using Attr     = typename WarpGemm::WarpGemmAttribute;
        using Instr    = typename Attr::instr;
        using W        = typename Shape::BlockWarps;
        using T        = typename Shape::WarpTile;
        const auto s   = [](auto v) { return std::to_string(v); };
        const int per  = Attr::kK / Attr::base::kK;
        return std::string("kernel ") + Kernel::GetName() + ", pipeline " + Pipeline::description + ", epilogue " +
               Epilogue::name + "\nblock tile " + s(Shape::kM) + "x" + s(Shape::kN) + "x" + s(Shape::kK) + ", warps " +
               s(W::at(0)) + "x" + s(W::at(1)) + "x" + s(W::at(2)) + ", warp tile " + s(T::at(0)) + "x" + s(T::at(1)) +
               "x" + s(T::at(2)) + " (" + (per > 1 ? s(per) + " x " : std::string()) +
               ck_tile::mfma_traits<Instr>::mnemonic + "), block " + s(Kernel::kBlockSize) + " threads, LDS " +
               s(Kernel::GetSmemSize()) + " B\naccess " + access;
    }

    static float launch(const Config& cfg, const ck_tile::BatchedGemmHostArgs& args, std::size_t c_bytes)
    {
        const auto kargs = Kernel::MakeKernelArgs(args);
        const ck_tile::stream_config s{nullptr, true, 0, cfg.warmup, cfg.repeat};
        auto gemm = ck_tile::make_kernel<Kernel::kBlockSize>(
            Kernel{}, Kernel::GridSize(args.M, args.N, args.k_batch, args.batch_count), Kernel::BlockSize(), 0, kargs);
        if(args.k_batch == 1)
            return ck_tile::launch_kernel(s, gemm);
        // split-K adds into C: every launch starts from a zeroed C (the time includes the zeroing)
        void* c           = args.c_ptr;
        const auto zero_c = [c, c_bytes](const ck_tile::stream_config&) { HIP_CHECK_ERROR(hipMemset(c, 0, c_bytes)); };
        return ck_tile::launch_kernel(s, zero_c, gemm);
    }
};

template <typename Types>
LaunchResult launch_batched_gemm(const Config& cfg, const ck_tile::BatchedGemmHostArgs& args, std::size_t c_bytes)
{
    using Vector = BatchedGemmInstance<Types, true>;
    using Scalar = BatchedGemmInstance<Types, false>;

    const std::string vector_reason = Vector::Kernel::GetUnsupportedReason(Vector::Kernel::MakeKernelArgs(args));
    LaunchResult r;
    if(vector_reason.empty())
    {
        r.instance =
            Vector::describe("vector (A " + std::to_string(Vector::kVecA) + ", B " + std::to_string(Vector::kVecB) +
                             ", C " + std::to_string(Vector::kVecC) + " elements)");
        r.grid = Vector::Kernel::GridSize(args.M, args.N, args.k_batch, args.batch_count);
        r.ms   = Vector::launch(cfg, args, c_bytes);
        return r;
    }
    const std::string scalar_reason = Scalar::Kernel::GetUnsupportedReason(Scalar::Kernel::MakeKernelArgs(args));
    if(!scalar_reason.empty())
        throw ck_tile::arg_error("error: the batched GEMM kernel does not support these arguments: " + scalar_reason);
    r.instance = Scalar::describe("scalar (" + vector_reason + ")");
    r.grid     = Scalar::Kernel::GridSize(args.M, args.N, args.k_batch, args.batch_count);
    r.ms       = Scalar::launch(cfg, args, c_bytes);
    return r;
}

} // namespace batched_gemm_example
