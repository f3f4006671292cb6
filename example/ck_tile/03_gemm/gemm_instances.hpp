// SPDX-License-Identifier: MIT
// The kernel instances of tile_example_gemm_basic and how one is picked. For a data type and a
// pipeline there is one instance per A layout x B layout x epilogue x access width (the ci set:
// the C-shuffle epilogue for A row-major / B column-major only):
//   - vector: 16-byte DRAM accesses of A, B and C along their contiguous dimensions;
//   - scalar: element-by-element accesses, for sizes, strides or pointers that are not multiples
//     of the vector (K = 17, stride_A = 65, ...).
// Every instance pads M, N and K (kPadM/N/K), so any positive size works. bf8 and int8 build the
// A row-major / B column-major layouts only, unless CK_TILE_INSTANCES=full. The vector instance runs
// when its IsSupportedArgument accepts the arguments, else the scalar one; the arguments the scalar
// one refuses (a stride smaller than its dimension, ...) are an error.
#pragma once
#include "gemm_basic.hpp"

namespace gemm_example {

template <typename Types, typename ALayout, typename BLayout, bool kPipelineV2, bool kCShuffle, bool kVector>
struct GemmInstance
{
    using A      = typename Types::ADataType;
    using B      = typename Types::BDataType;
    using Acc    = typename Types::AccDataType;
    using C      = typename Types::CDataType;
    using Shape  = typename Types::Shape;
    using Traits = ck_tile::TileGemmTraits<true, true, true, ALayout, BLayout, ck_tile::tensor_layout::gemm::RowMajor>;

    static constexpr ck_tile::index_t kVecA = kVector ? 16 / sizeof(A) : 1;
    static constexpr ck_tile::index_t kVecB = kVector ? 16 / sizeof(B) : 1;
    static constexpr ck_tile::index_t kVecC = kVector ? 16 / sizeof(C) : 1;

    using Problem  = ck_tile::GemmPipelineProblem<A, B, Acc, Shape, Traits, kVecA, kVecB>;
    using Pipeline = std::conditional_t<kPipelineV2, ck_tile::GemmPipelineAGmemBGmemCRegV2<Problem>,
                                        ck_tile::GemmPipelineAGmemBGmemCRegV1<Problem>>;
    using Epilogue = std::conditional_t<
        kCShuffle,
        ck_tile::CShuffleEpilogue<ck_tile::CShuffleEpilogueProblem<Acc, C, Shape::BlockSize, Shape::kM, Shape::kN, true,
                                                                   true, ElementwiseOp, kVecC>>,
        ck_tile::Default2DEpilogue<ck_tile::Default2DEpilogueProblem<Acc, C, true, true, ElementwiseOp, kVecC>>>;
    using Kernel = ck_tile::GemmKernel<ck_tile::TilePartitioner<Shape>, Pipeline, Epilogue>;

    static std::string describe(const std::string& access)
    {
        using WarpGemm = typename Pipeline::BlockGemm::WarpGemm;
        using Instr    = typename WarpGemm::WarpGemmAttribute::instr;
        using W        = typename Shape::BlockWarps;
        using T        = typename Shape::WarpTile;
        const auto s   = [](auto v) { return std::to_string(v); };
        return std::string("pipeline ") + Pipeline::description + ", epilogue " + Epilogue::name + "\nblock tile " +
               s(Shape::kM) + "x" + s(Shape::kN) + "x" + s(Shape::kK) + ", warps " + s(W::at(0)) + "x" + s(W::at(1)) +
               "x" + s(W::at(2)) + ", warp tile " + s(T::at(0)) + "x" + s(T::at(1)) + "x" + s(T::at(2)) + " (" +
               ck_tile::mfma_traits<Instr>::mnemonic + "), block " + s(Kernel::kBlockSize) + " threads, LDS " +
               s(Kernel::GetSmemSize()) + " B\naccess " + access;
    }

    static float launch(const Config& cfg, const ck_tile::GemmHostArgs& args)
    {
        const auto kargs = Kernel::MakeKernelArgs(args, cfg.op);
        const ck_tile::stream_config s{nullptr, true, 0, cfg.warmup, cfg.repeat};
        auto gemm = ck_tile::make_kernel<Kernel::kBlockSize>(Kernel{}, Kernel::GridSize(args.M, args.N, args.k_batch),
                                                             Kernel::BlockSize(), 0, kargs);
        if(args.k_batch == 1)
            return ck_tile::launch_kernel(s, gemm);
        // the K splits add into C: zero it before every launch (timed with it, as upstream)
        const std::size_t c_bytes = (static_cast<std::size_t>(args.M - 1) * args.stride_C + args.N) * sizeof(C);
        return ck_tile::launch_kernel(
            s, [&](const ck_tile::stream_config&) { HIP_CHECK_ERROR(hipMemset(args.c_ptr, 0, c_bytes)); }, gemm);
    }
};

template <typename Types, typename ALayout, typename BLayout, bool kPipelineV2, bool kCShuffle>
LaunchResult launch_gemm_instance(const Config& cfg, const ck_tile::GemmHostArgs& args)
{
    using Vector = GemmInstance<Types, ALayout, BLayout, kPipelineV2, kCShuffle, true>;
    using Scalar = GemmInstance<Types, ALayout, BLayout, kPipelineV2, kCShuffle, false>;

    const std::string vector_reason =
        Vector::Kernel::GetUnsupportedReason(Vector::Kernel::MakeKernelArgs(args, cfg.op));
    LaunchResult r;
    if(vector_reason.empty())
    {
        r.instance =
            Vector::describe("vector (A " + std::to_string(Vector::kVecA) + ", B " + std::to_string(Vector::kVecB) +
                             ", C " + std::to_string(Vector::kVecC) + " elements)");
        r.ms = Vector::launch(cfg, args);
        return r;
    }
    const std::string scalar_reason =
        Scalar::Kernel::GetUnsupportedReason(Scalar::Kernel::MakeKernelArgs(args, cfg.op));
    if(!scalar_reason.empty())
        throw ck_tile::arg_error("error: the GEMM kernel does not support these arguments: " + scalar_reason);
    r.instance = Scalar::describe("scalar (" + vector_reason + ")");
    r.ms       = Scalar::launch(cfg, args);
    return r;
}

#if defined(CK_TILE_INSTANCES_FULL)
inline constexpr bool kFullInstances = true;
#else
inline constexpr bool kFullInstances = false;
#endif

template <typename Types, bool kPipelineV2>
LaunchResult launch_gemm(const Config& cfg, const ck_tile::GemmHostArgs& args)
{
    using Row = ck_tile::tensor_layout::gemm::RowMajor;
    using Col = ck_tile::tensor_layout::gemm::ColumnMajor;
    // the one line for a kernel this build lacks (the ci instance set)
    const auto not_built = [&](const std::string& what) {
        return ck_tile::arg_error(std::string("error: this build has no ") + Types::name + " " + what +
                                  " for the layouts A=" + (cfg.a_row_major ? "R" : "C") +
                                  " B=" + (cfg.b_row_major ? "R" : "C") +
                                  " (the ci instance set: see the README; CK_TILE_INSTANCES=full builds them all)");
    };
    // layouts x epilogue: the compile-time choices of this data type and pipeline
    auto with_layouts = [&](auto a_layout, auto b_layout) -> LaunchResult {
        using AL = decltype(a_layout);
        using BL = decltype(b_layout);
        if(!cfg.cshuffle)
            return launch_gemm_instance<Types, AL, BL, kPipelineV2, false>(cfg, args);
        // the C-shuffle epilogue does not depend on A's and B's layouts: the ci set builds it for
        // A row-major / B column-major only
        if constexpr(kFullInstances || (std::is_same_v<AL, Row> && std::is_same_v<BL, Col>))
            return launch_gemm_instance<Types, AL, BL, kPipelineV2, true>(cfg, args);
        else
            throw not_built("instance of the cshuffle epilogue");
    };
    if(cfg.a_row_major && !cfg.b_row_major)
        return with_layouts(Row{}, Col{});
    if constexpr(Types::kAllLayouts || kFullInstances)
    {
        if(cfg.a_row_major)
            return with_layouts(Row{}, Row{});
        return cfg.b_row_major ? with_layouts(Col{}, Row{}) : with_layouts(Col{}, Col{});
    }
    else
        throw not_built("instance");
}

#define GEMM_EXAMPLE_INSTANTIATE(TYPES, V2)                                                                            \
    template LaunchResult launch_gemm<TYPES, V2>(const Config&, const ck_tile::GemmHostArgs&);

} // namespace gemm_example
