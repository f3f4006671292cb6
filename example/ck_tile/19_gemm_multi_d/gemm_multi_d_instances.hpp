// SPDX-License-Identifier: MIT
// The kernel instances of tile_example_gemm_multi_d_fp16 and how one is picked. For a number of Ds
// there is one instance per D layout (all Ds share it, -ds_layout) x access width:
//   - vector: 16-byte DRAM accesses of A, B, E and row-major Ds along their contiguous dimension
//     (a column-major D is read element by element in the epilogue's row-vector distribution);
//   - scalar: element-by-element accesses, for sizes, strides or pointers that are not multiples
//     of the vector (K = 17, N = 31, stride_e = 65, ...).
// A is row-major, B column-major and E row-major (upstream's only layouts). Every instance pads M,
// N and K, so any positive size works. The vector instance runs when its IsSupportedArgument
// accepts the arguments, else the scalar one; what the scalar one refuses is an error.
//
// Instance sets. The ci profile builds the vector instances of 1 to 4 Ds and the scalar ones of 1
// and 2 Ds (both D layouts each: 12 kernels; a K, N or stride that is not a
// multiple of 8 with 3 or 4 Ds is then refused with a line saying so); the full profile (CK_TILE_INSTANCES=full) adds
// the scalar ones of 3 and 4 Ds.
#pragma once
#include "gemm_multi_d_fp16.hpp"

namespace gemm_multi_d_example {

template <typename T, int N>
struct repeat_tuple
{
    template <std::size_t... I>
    static auto make(std::index_sequence<I...>) -> ck_tile::tuple<std::conditional_t<(I >= 0), T, T>...>;
    using type = decltype(make(std::make_index_sequence<N>{}));
};

template <int NumD, typename DsLayoutOne, bool kVector>
struct Instance
{
    using Row      = ck_tile::tensor_layout::gemm::RowMajor;
    using Col      = ck_tile::tensor_layout::gemm::ColumnMajor;
    using DsData   = typename repeat_tuple<DDataType, NumD>::type;
    using DsLayout = typename repeat_tuple<DsLayoutOne, NumD>::type;
    using Traits   = ck_tile::TileGemmUniversalTraits<true, true, true, false, Row, Col, Row>;

    static constexpr ck_tile::index_t kVecA = kVector ? 16 / sizeof(ADataType) : 1;
    static constexpr ck_tile::index_t kVecB = kVector ? 16 / sizeof(BDataType) : 1;
    static constexpr ck_tile::index_t kVecE = kVector ? 16 / sizeof(EDataType) : 1;
    static constexpr ck_tile::index_t kVecD = kVector ? 16 / sizeof(DDataType) : 1;

    using Problem  = ck_tile::UniversalGemmPipelineProblem<ADataType, BDataType, AccDataType, Shape, Traits,
                                                           ck_tile::GemmPipelineScheduler::Intrawave, kVecA, kVecB>;
    using Pipeline = ck_tile::GemmPipelineAgBgCrCompV3<Problem>;
    using Epilogue = ck_tile::CShuffleEpilogue<
        ck_tile::CShuffleEpilogueProblemWithDs<AccDataType, EDataType, DsData, DsLayout, Shape::BlockSize, Shape::kM,
                                               Shape::kN, true, true, CDEOp, kVecE, kVecD>>;
    using Partitioner = ck_tile::GemmSpatiallyLocalTilePartitioner<Shape, 8, 4>;
    using Kernel      = ck_tile::GemmKernelMultiD<Partitioner, Pipeline, Epilogue>;

    static ck_tile::GemmMultiDHostArgs<NumD> host_args(const Config& cfg, const DeviceArgs& dev)
    {
        ck_tile::GemmMultiDHostArgs<NumD> h{};
        h.a_ptr = dev.a;
        h.b_ptr = dev.b;
        h.e_ptr = dev.e;
        for(int j = 0; j < NumD; ++j)
        {
            h.ds_ptr[j]    = dev.ds[j];
            h.stride_Ds[j] = cfg.stride_ds;
        }
        h.k_batch  = cfg.k_batch;
        h.M        = cfg.M;
        h.N        = cfg.N;
        h.K        = cfg.K;
        h.stride_A = cfg.stride_a;
        h.stride_B = cfg.stride_b;
        h.stride_E = cfg.stride_e;
        return h;
    }

    static std::string describe(const std::string& access)
    {
        using WarpGemm = typename Pipeline::BlockGemm::WarpGemm;
        using Instr    = typename WarpGemm::WarpGemmAttribute::instr;
        using W        = typename Shape::BlockWarps;
        using T        = typename Shape::WarpTile;
        const auto s   = [](auto v) { return std::to_string(v); };
        return std::string("pipeline ") + Pipeline::name + ", epilogue cshuffle with " + s(NumD) + " Ds\nblock tile " +
               s(Shape::kM) + "x" + s(Shape::kN) + "x" + s(Shape::kK) + ", warps " + s(W::at(0)) + "x" + s(W::at(1)) +
               "x" + s(W::at(2)) + ", warp tile " + s(T::at(0)) + "x" + s(T::at(1)) + "x" + s(T::at(2)) + " (" +
               ck_tile::mfma_traits<Instr>::mnemonic + (WarpGemm::kK > ck_tile::mfma_traits<Instr>::K ? " x2" : "") +
               "), block " + s(Kernel::kBlockSize) + " threads, LDS " + s(Kernel::GetSmemSize()) + " B\naccess " +
               access;
    }

    static float launch(const Config& cfg, const DeviceArgs& dev)
    {
        const auto kargs = Kernel::MakeKernelArgs(host_args(cfg, dev), cfg.op);
        const ck_tile::stream_config s{nullptr, true, 0, cfg.warmup, cfg.repeat};
        const auto kernel = ck_tile::make_kernel<Kernel::kBlockSize>(
            Kernel{}, Kernel::GridSize(cfg.M, cfg.N, cfg.k_batch), Kernel::BlockSize(), 0, kargs);
        if(cfg.k_batch == 1)
            return ck_tile::launch_kernel(s, kernel);
        // split-K adds into E: every launch starts from a zeroed E (timed with it, as upstream)
        const auto zero_e = [&](const ck_tile::stream_config&) { dev.e_mem->SetZero(); };
        return ck_tile::launch_kernel(s, zero_e, kernel);
    }
};

#if defined(CK_TILE_INSTANCES_FULL)
inline constexpr bool kFullInstances = true;
#else
inline constexpr bool kFullInstances = false;
#endif

template <int NumD, typename DsLayoutOne>
LaunchResult launch_instance(const Config& cfg, const DeviceArgs& dev)
{
    using Vector = Instance<NumD, DsLayoutOne, true>;
    using Scalar = Instance<NumD, DsLayoutOne, false>;

    const std::string vector_reason =
        Vector::Kernel::GetUnsupportedReason(Vector::Kernel::MakeKernelArgs(Vector::host_args(cfg, dev), cfg.op));
    LaunchResult r;
    if(vector_reason.empty())
    {
        r.instance = Vector::describe("vector (A " + std::to_string(Vector::kVecA) + ", B " +
                                      std::to_string(Vector::kVecB) + ", E " + std::to_string(Vector::kVecE) + ", Ds " +
                                      (ck_tile::is_row_major_v<DsLayoutOne> ? "8" : "1") + " elements)");
        r.ms       = Vector::launch(cfg, dev);
        return r;
    }
    if constexpr(kFullInstances || NumD <= 2)
    {
        const std::string scalar_reason =
            Scalar::Kernel::GetUnsupportedReason(Scalar::Kernel::MakeKernelArgs(Scalar::host_args(cfg, dev), cfg.op));
        if(scalar_reason.empty())
        {
            r.instance = Scalar::describe("scalar (" + vector_reason + ")");
            r.ms       = Scalar::launch(cfg, dev);
        }
        else
            throw ck_tile::arg_error("error: the multiple-D GEMM kernel does not support these arguments: " +
                                     scalar_reason);
    }
    else
        throw ck_tile::arg_error("error: " + vector_reason + "; the element-wise instances of " + std::to_string(NumD) +
                                 " Ds are built with CK_TILE_INSTANCES=full only");
    return r;
}

template <int NumD>
LaunchResult launch_gemm_multi_d(const Config& cfg, const DeviceArgs& dev)
{
    if(cfg.ds_row_major)
        return launch_instance<NumD, ck_tile::tensor_layout::gemm::RowMajor>(cfg, dev);
    return launch_instance<NumD, ck_tile::tensor_layout::gemm::ColumnMajor>(cfg, dev);
}

#define GEMM_MULTI_D_INSTANTIATE(N) template LaunchResult launch_gemm_multi_d<N>(const Config&, const DeviceArgs&);

} // namespace gemm_multi_d_example
