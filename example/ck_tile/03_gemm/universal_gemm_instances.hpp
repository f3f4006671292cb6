// SPDX-License-Identifier: MIT
// The kernel instances of tile_example_gemm_universal and how one is picked.
//
// Configurations (upstream's GemmConfig shapes, made to fit gfx942's 64 KiB of LDS and two waves
// per SIMD). The warp tile is 32 x 32 x (the K of gfx950's deepest MFMA for the type), which gfx942
// computes with its CDNA3 instruction two or four times in a row (WarpGemmMfmaDispatcher):
//   fp16, bf16  32x32x16: gfx950 v_mfma_f32_32x32x16_{f16,bf16}, gfx942 2 x 32x32x8
//   fp8, bf8    32x32x64: gfx950 v_mfma_f32_32x32x64_f8f6f4, gfx942 4 x v_mfma_f32_32x32x16_{fp8,bf8}
//   int8        32x32x32: gfx950 v_mfma_i32_32x32x32_i8, gfx942 2 x v_mfma_i32_32x32x16_i8
// Block tiles:
//   mem     128 x 32 x (128 B of K), 4 x 1 warps, two DRAM tiles prefetched in registers
//   compv3  256 x 256 x (64 B of K for 8-bit types, 32 B for 16-bit ones), 2 x 4 warps
//   compv4  256 x 256 x (32 B of K) for 16-bit types, 256 x 128 x (64 B) for 8-bit ones (two
//           buffers of a 256 x 256 x 64 B tile would need 80 KiB of LDS), 2 x 4 warps, two LDS
//           buffers
// every one with the GemmSpatiallyLocalTilePartitioner<8, 4>, the Default2DEpilogue (a 256 x 256
// C tile does not fit LDS for a C-shuffle) and padding of M, N and K (any size).
//
// Instance sets. The ci profile builds, per data type, the compv3
// and the mem (intrawave) kernels for the A row-major / B column-major layouts (vector accesses); fp16 adds the
// interwave scheduler, the compv4 pipeline and the persistent grid (A row-major / B column-major), the three other
// layouts (mem intrawave and compv3) and element-wise accesses (sizes and strides that are not multiples of the
// 16-byte vector). The full profile (CK_TILE_INSTANCES=full) builds
// every pipeline x layout x access x persistence for every data type.
#pragma once
#include "universal_gemm.hpp"

namespace universal_gemm {

using Row = ck_tile::tensor_layout::gemm::RowMajor;
using Col = ck_tile::tensor_layout::gemm::ColumnMajor;

template <typename T, Pipeline kPipe>
struct TileConfig
{
    static constexpr ck_tile::index_t kBytes = sizeof(typename T::ADataType);
    static constexpr ck_tile::index_t kM     = kPipe == Pipeline::mem ? 128 : 256;
    static constexpr ck_tile::index_t kN =
        kPipe == Pipeline::mem ? 32 : (kPipe == Pipeline::compv4 && sizeof(typename T::ADataType) == 1 ? 128 : 256);
    // the compute pipelines take 64 bytes of K for 8-bit types (at least one fp8 warp tile) and 32
    // for 16-bit ones (a 256 x 256 bf16 tile with 32 elements of K needs more than the 256
    // registers of two waves per SIMD)
    static constexpr ck_tile::index_t kKBytes = kPipe == Pipeline::mem ? 128 : (kBytes == 1 ? 64 : 32);
    static constexpr ck_tile::index_t kK      = kKBytes / kBytes;
    static constexpr ck_tile::index_t kWarpK =
        kBytes == 2 ? 16 : (std::is_same_v<typename T::ADataType, int8_t> ? 32 : 64);
    using Warps = std::conditional_t<kPipe == Pipeline::mem, ck_tile::sequence<4, 1, 1>, ck_tile::sequence<2, 4, 1>>;
    using Shape = ck_tile::TileGemmShape<ck_tile::sequence<kM, kN, kK>, Warps, ck_tile::sequence<32, 32, kWarpK>>;
};

template <typename T, Pipeline kPipe, bool kInterwave, typename ALayout, typename BLayout, bool kVector,
          bool kPersistent>
struct Instance
{
    using A      = typename T::ADataType;
    using B      = typename T::BDataType;
    using Acc    = typename T::AccDataType;
    using C      = typename T::CDataType;
    using Shape  = typename TileConfig<T, kPipe>::Shape;
    using Traits = ck_tile::TileGemmUniversalTraits<true, true, true, kPipe == Pipeline::compv4, ALayout, BLayout, Row,
                                                    kPersistent>;

    static constexpr ck_tile::index_t kVecA = kVector ? 16 / sizeof(A) : 1;
    static constexpr ck_tile::index_t kVecB = kVector ? 16 / sizeof(B) : 1;
    static constexpr ck_tile::index_t kVecC = kVector ? 16 / sizeof(C) : 1;
    static constexpr auto kScheduler =
        kInterwave ? ck_tile::GemmPipelineScheduler::Interwave : ck_tile::GemmPipelineScheduler::Intrawave;

    using Problem = ck_tile::UniversalGemmPipelineProblem<A, B, Acc, Shape, Traits, kScheduler, kVecA, kVecB>;
    using GemmPipeline =
        std::conditional_t<kPipe == Pipeline::mem, ck_tile::GemmPipelineAgBgCrMem<Problem>,
                           std::conditional_t<kPipe == Pipeline::compv3, ck_tile::GemmPipelineAgBgCrCompV3<Problem>,
                                              ck_tile::GemmPipelineAgBgCrCompV4<Problem>>>;
    using Epilogue = ck_tile::Default2DEpilogue<
        ck_tile::Default2DEpilogueProblem<Acc, C, true, true, ck_tile::element_wise::PassThrough, kVecC>>;
    using Partitioner = ck_tile::GemmSpatiallyLocalTilePartitioner<Shape, 8, 4>;
    using Kernel      = ck_tile::UniversalGemmKernel<Partitioner, GemmPipeline, Epilogue>;

    static std::string describe(const std::string& access, dim3 grid, int num_loop)
    {
        using WarpGemm = typename GemmPipeline::BlockGemm::WarpGemm;
        // the device's instruction (this pass may be a hip build's host pass, which has no arch)
        using Choice    = typename ck_tile::WarpGemmMfmaDispatcher<A, B, Acc, 32, 32, WarpGemm::kK, false>::select;
        const auto arch = ck_tile::get_device_arch();
        using W         = typename Shape::BlockWarps;
        const auto s    = [](auto v) { return std::to_string(v); };
        const auto tail = GemmPipeline::GetBlockLoopTailNum(num_loop);
        return std::string("kernel ") + Kernel::GetName() + ": pipeline " + GemmPipeline::description +
               "\nblock tile " + s(Shape::kM) + "x" + s(Shape::kN) + "x" + s(Shape::kK) + ", warps " + s(W::at(0)) +
               "x" + s(W::at(1)) + ", warp tile 32x32x" + s(WarpGemm::kK) + " (" + s(Choice::iterations_on(arch)) +
               " x " + Choice::mnemonic_on(arch) + "), block " + s(Kernel::kBlockSize) + " threads, LDS " +
               s(Kernel::GetSmemSize()) + " B, partitioner " + Partitioner::name + "\naccess " + access + "\ngrid " +
               s(grid.x) + "x" + s(grid.y) + "x" + s(grid.z) + ", K steps per split " + s(num_loop) + " (hot loop " +
               (GemmPipeline::BlockHasHotloop(num_loop) ? "yes" : "no") + ", tail " + ck_tile::tail_number_name(tail) +
               ")";
    }

    static LaunchResult launch(const Config& cfg, const ck_tile::GemmHostArgs& args, std::size_t c_bytes,
                               const std::string& access)
    {
        const auto kargs = Kernel::MakeKernelArgs(args);
        const dim3 grid = kPersistent ? Kernel::MaxOccupancyGridSize() : Kernel::GridSize(args.M, args.N, args.k_batch);
        const int loops = Kernel::TilePartitioner::GetLoopNum(Kernel::GetKRead(args.K, args.k_batch));
        LaunchResult r;
        r.instance = describe(access, grid, loops);
        const ck_tile::stream_config s{nullptr, true, 0, cfg.warmup, cfg.repeat};
        auto gemm = ck_tile::make_kernel<Kernel::kBlockSize>(Kernel{}, grid, Kernel::BlockSize(), 0, kargs);
        if(args.k_batch > 1) // the splits add into C: zero it before every launch (timed with it, as upstream)
            r.ms = ck_tile::launch_kernel(
                s, [&](const ck_tile::stream_config&) { HIP_CHECK_ERROR(hipMemset(args.c_ptr, 0, c_bytes)); }, gemm);
        else
            r.ms = ck_tile::launch_kernel(s, gemm);
        return r;
    }
};

// The vector instance when it accepts the arguments, else the element-wise one where this build
// has it; an argument both refuse is an error.
template <typename T, Pipeline kPipe, bool kInterwave, typename ALayout, typename BLayout, bool kPersistent,
          bool kHasScalar>
LaunchResult launch_with_access(const Config& cfg, const ck_tile::GemmHostArgs& args, std::size_t c_bytes)
{
    using Vector                    = Instance<T, kPipe, kInterwave, ALayout, BLayout, true, kPersistent>;
    const std::string vector_reason = Vector::Kernel::GetUnsupportedReason(Vector::Kernel::MakeKernelArgs(args));
    if(vector_reason.empty())
        return Vector::launch(cfg, args, c_bytes,
                              "vector (A " + std::to_string(Vector::kVecA) + ", B " + std::to_string(Vector::kVecB) +
                                  ", C " + std::to_string(Vector::kVecC) + " elements)");
    if constexpr(kHasScalar)
    {
        using Scalar                    = Instance<T, kPipe, kInterwave, ALayout, BLayout, false, kPersistent>;
        const std::string scalar_reason = Scalar::Kernel::GetUnsupportedReason(Scalar::Kernel::MakeKernelArgs(args));
        if(!scalar_reason.empty())
            throw ck_tile::arg_error("error: the GEMM kernel does not support these arguments: " + scalar_reason);
        return Scalar::launch(cfg, args, c_bytes, "scalar (" + vector_reason + ")");
    }
    else
        throw ck_tile::arg_error("error: the GEMM kernel does not support these arguments: " + vector_reason +
                                 " (this build has vector-access instances only for " + T::name +
                                 "; CK_TILE_INSTANCES=full adds element-wise ones)");
}

#if defined(CK_TILE_INSTANCES_FULL)
inline constexpr bool kFullInstances = true;
#else
inline constexpr bool kFullInstances = false;
#endif

template <typename T>
LaunchResult launch_universal_gemm(const Config& cfg, const ck_tile::GemmHostArgs& args, std::size_t c_bytes)
{
    // the ci set: compv3 and mem RC for every type; the rest for fp16 (see the top of this file)
    constexpr bool kAll = kFullInstances || std::is_same_v<T, Fp16Types>;
    const auto missing  = [&](const std::string& what) {
        return ck_tile::arg_error("error: this build has no " + std::string(T::name) + " instance for " + what +
                                  " (the ci instance set: see the README; CK_TILE_INSTANCES=full builds them all)");
    };
    const auto with_layouts = [&](auto pipe, auto interwave, auto persistent) -> LaunchResult {
        constexpr Pipeline P = decltype(pipe)::value;
        constexpr bool I     = decltype(interwave)::value;
        constexpr bool Pers  = decltype(persistent)::value;
        if(cfg.a_row_major && !cfg.b_row_major)
            return launch_with_access<T, P, I, Row, Col, Pers, kAll>(cfg, args, c_bytes);
        // the other layouts: fp16's mem (intrawave) and compv3 kernels in the ci set (the layouts
        // change how A and B are read, which the scheduler, compv4's second LDS buffer and the
        // persistent grid do not)
        constexpr bool kLayouts = kFullInstances || (kAll && !I && !Pers && P != Pipeline::compv4);
        if constexpr(kLayouts)
        {
            if(cfg.a_row_major)
                return launch_with_access<T, P, I, Row, Row, Pers, kAll>(cfg, args, c_bytes);
            return cfg.b_row_major ? launch_with_access<T, P, I, Col, Row, Pers, kAll>(cfg, args, c_bytes)
                                   : launch_with_access<T, P, I, Col, Col, Pers, kAll>(cfg, args, c_bytes);
        }
        else
            throw missing("the layouts A=" + std::string(cfg.a_row_major ? "R" : "C") + " B=" +
                          (cfg.b_row_major ? "R" : "C") + (kAll ? " with this pipeline, scheduler and grid" : ""));
    };
    using ck_tile::bool_constant;
    using PipeC = std::integral_constant<Pipeline, Pipeline::compv3>;
    using PipeM = std::integral_constant<Pipeline, Pipeline::mem>;
    if(cfg.pipeline == Pipeline::compv3)
    {
        // compv3 (and the persistent grid, which runs it) only where T builds it
        if constexpr(!T::kCompute)
            throw missing("the compv3 pipeline");
        else if(!cfg.persistent)
            return with_layouts(PipeC{}, bool_constant<false>{}, bool_constant<false>{});
        else if constexpr(kAll)
            return with_layouts(PipeC{}, bool_constant<false>{}, bool_constant<true>{});
        else
            throw missing("the persistent grid");
    }
    if(cfg.persistent)
        throw ck_tile::arg_error(
            std::string("error: option -persistent: the persistent grid runs the compv3 pipeline, not ") +
            (cfg.pipeline == Pipeline::mem ? "mem" : "compv4"));
    if(cfg.pipeline == Pipeline::mem && !cfg.interwave)
        return with_layouts(PipeM{}, bool_constant<false>{}, bool_constant<false>{});
    if constexpr(kAll)
    {
        if(cfg.pipeline == Pipeline::compv4)
            return with_layouts(std::integral_constant<Pipeline, Pipeline::compv4>{}, bool_constant<false>{},
                                bool_constant<false>{});
        return with_layouts(PipeM{}, bool_constant<true>{}, bool_constant<false>{}); // mem, interwave
    }
    else
        throw missing(cfg.pipeline == Pipeline::mem ? std::string("the interwave scheduler")
                                                    : std::string("the compv4 pipeline"));
}

#define UNIVERSAL_GEMM_INSTANTIATE(TYPES)                                                                              \
    template LaunchResult launch_universal_gemm<TYPES>(const Config&, const ck_tile::GemmHostArgs&, std::size_t);

} // namespace universal_gemm
