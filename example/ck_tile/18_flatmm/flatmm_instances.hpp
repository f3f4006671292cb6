// SPDX-License-Identifier: MIT
// The kernel instances of tile_example_flatmm_basic: per data type, one per warp tile (-warp_tile 0
// or 1, and for fp8 / bf8 in builds for gfx950 2 and 3) x access width of A and C:
//   - vector: 16-byte DRAM accesses of A (along K) and C (along N);
//   - scalar: element by element, for K, N, strides or pointers that are not multiples of them.
// The flat B is always read one 16-byte (or 8-byte) run per lane: shuffle_b pads N and K to whole
// warp tiles. Every instance pads M, N and K, so any positive size works. The vector instance runs
// when its IsSupportedArgument accepts the arguments, else the scalar one.
//
// Instance sets. The ci profile builds both instances for fp16 and bf16 and the vector ones for
// fp8 and bf8 (12 kernels; 8-bit A with K or stride_a not a multiple of 16, or a C with N or
// stride_c not a multiple of 8, is then refused with a line saying so); the full profile
// (CK_TILE_INSTANCES=full) adds the scalar 8-bit ones.
#pragma once
#include "flatmm_basic.hpp"

namespace flatmm_example {

template <typename T, int kWarpTile_, bool kVector>
struct Instance
{
    static constexpr int kWarpTile = kWarpTile_;
    using A                        = typename T::ADataType;
    using B                        = typename T::BDataType;
    using Acc                      = typename T::AccDataType;
    using C                        = typename T::CDataType;
    using Shape                    = typename T::template Shape<kWarpTile>;
    using Row                      = ck_tile::tensor_layout::gemm::RowMajor;
    using Col                      = ck_tile::tensor_layout::gemm::ColumnMajor;

    static constexpr ck_tile::index_t kVecA = kVector ? 16 / sizeof(A) : 1;
    static constexpr ck_tile::index_t kVecC = kVector ? 16 / sizeof(C) : 1;

    using Traits   = ck_tile::TileGemmUniversalTraits<true, true, true, false, Row, Col, Row>;
    using Problem  = ck_tile::UniversalGemmPipelineProblem<A, B, Acc, Shape, Traits,
                                                           ck_tile::GemmPipelineScheduler::Intrawave, kVecA, 1>;
    using Pipeline = ck_tile::FlatmmPipelineAGmemBGmemCRegV1<Problem>;
    using Epilogue =
        ck_tile::CShuffleEpilogue<ck_tile::CShuffleEpilogueProblem<Acc, C, Shape::BlockSize, Shape::kM, Shape::kN, true,
                                                                   true, ck_tile::element_wise::PassThrough, kVecC>>;
    using Partitioner = ck_tile::GemmSpatiallyLocalTilePartitioner<Shape, 8, 4>;
    using Kernel      = ck_tile::FlatmmKernel<Partitioner, Pipeline, Epilogue>;

    static ck_tile::FlatmmHostArgs host_args(const Config& cfg, const void* a, const void* b, void* c)
    {
        return {a, b, c, cfg.k_batch, cfg.M, cfg.N, cfg.K, cfg.stride_a, cfg.stride_b, cfg.stride_c};
    }

    static std::string describe(const std::string& access)
    {
        using WarpGemm = typename Pipeline::WarpGemm;
        // the device's instruction (this pass may be a hip build's host pass, which has no arch)
        using Choice    = typename ck_tile::WarpGemmMfmaDispatcher<A, B, Acc, WarpGemm::kM, WarpGemm::kN, WarpGemm::kK,
                                                                   false>::select;
        const auto arch = ck_tile::get_device_arch();
        using W         = typename Shape::BlockWarps;
        const auto s    = [](auto v) { return std::to_string(v); };
        const int iter  = Choice::iterations_on(arch);
        return std::string("pipeline ") + Pipeline::description + ", epilogue cshuffle\nblock tile " + s(Shape::kM) +
               "x" + s(Shape::kN) + "x" + s(Shape::kK) + ", warps " + s(W::at(0)) + "x" + s(W::at(1)) + "x" +
               s(W::at(2)) + ", warp tile " + s(WarpGemm::kM) + "x" + s(WarpGemm::kN) + "x" + s(WarpGemm::kK) + " (" +
               Choice::mnemonic_on(arch) + (iter > 1 ? " x" + s(iter) : std::string()) + "), block " +
               s(Kernel::kBlockSize) + " threads, LDS " + s(Kernel::GetSmemSize()) + " B\naccess " + access +
               ", flat B " + s(Kernel::kBPerLane * sizeof(B)) + " bytes per lane";
    }

    static float launch(const Config& cfg, const void* a, const void* b, void* c, ck_tile::DeviceMem& c_mem)
    {
        const auto kargs = Kernel::MakeKernelArgs(host_args(cfg, a, b, c));
        const ck_tile::stream_config s{nullptr, true, 0, cfg.warmup, cfg.repeat};
        const auto kernel = ck_tile::make_kernel<Kernel::kBlockSize>(
            Kernel{}, Kernel::GridSize(cfg.M, cfg.N, cfg.k_batch), Kernel::BlockSize(), 0, kargs);
        if(cfg.k_batch == 1)
            return ck_tile::launch_kernel(s, kernel);
        // split-K adds into C: every launch starts from a zeroed C (timed with it)
        const auto zero_c = [&](const ck_tile::stream_config&) { c_mem.SetZero(); };
        return ck_tile::launch_kernel(s, zero_c, kernel);
    }
};

#if defined(CK_TILE_INSTANCES_FULL)
inline constexpr bool kFullInstances = true;
#else
inline constexpr bool kFullInstances = false;
#endif

template <typename T, int kWarpTile>
LaunchResult launch_instance(const Config& cfg, const void* a, const void* b, void* c, ck_tile::DeviceMem& c_mem)
{
    using Vector = Instance<T, kWarpTile, true>;
    using Scalar = Instance<T, kWarpTile, false>;
    const std::string vector_reason =
        Vector::Kernel::GetUnsupportedReason(Vector::Kernel::MakeKernelArgs(Vector::host_args(cfg, a, b, c)));
    LaunchResult r;
    if(vector_reason.empty())
    {
        r.instance = Vector::describe("vector (A " + std::to_string(Vector::kVecA) + ", C " +
                                      std::to_string(Vector::kVecC) + " elements)");
        r.ms       = Vector::launch(cfg, a, b, c, c_mem);
        return r;
    }
    if constexpr(kFullInstances || sizeof(typename T::ADataType) == 2)
    {
        const std::string scalar_reason =
            Scalar::Kernel::GetUnsupportedReason(Scalar::Kernel::MakeKernelArgs(Scalar::host_args(cfg, a, b, c)));
        if(scalar_reason.empty())
        {
            r.instance = Scalar::describe("scalar (" + vector_reason + ")");
            r.ms       = Scalar::launch(cfg, a, b, c, c_mem);
        }
        else
            throw ck_tile::arg_error("error: the flatmm kernel does not support these arguments: " + scalar_reason);
    }
    else
        throw ck_tile::arg_error("error: " + vector_reason + "; the element-wise " + std::string(T::name) +
                                 " instances are built with CK_TILE_INSTANCES=full only");
    return r;
}

// Warp tiles 2 and 3 (gfx950's f8f6f4 MFMAs): for 8-bit types, in builds that may run on gfx950 (the
// host code of a hip build, an emulator build for gfx950). main() refuses them on other devices.
template <typename T>
inline constexpr bool kHasGfx950Tiles =
    sizeof(typename T::ADataType) == 1 &&
    (!ck_tile::has_compiled_arch || ck_tile::mfma_supported_v<ck_tile::mfma_instr::v_mfma_f32_32x32x64_f8f6f4_fp8>);

// Calls f(Instance<T, w, kVector>{}) for the run-time warp tile w.
template <typename T, bool kVector, typename F>
auto with_warp_tile(int warp_tile, F&& f)
{
    if constexpr(kHasGfx950Tiles<T>)
    {
        if(warp_tile == 2)
            return f(Instance<T, 2, kVector>{});
        if(warp_tile == 3)
            return f(Instance<T, 3, kVector>{});
    }
    if(warp_tile >= 2)
        throw ck_tile::arg_error("error: option -warp_tile: " + std::to_string(warp_tile) + " is not built for " +
                                 T::name + " (8-bit types on gfx950 only)");
    return warp_tile == 0 ? f(Instance<T, 0, kVector>{}) : f(Instance<T, 1, kVector>{});
}

template <typename T>
FlatBLayout flat_b_layout(int warp_tile)
{
    return with_warp_tile<T, true>(warp_tile, [](auto inst) {
        using K = typename decltype(inst)::Kernel;
        return FlatBLayout{K::kNWarpTile, K::kKWarpTile, K::kKLaneGroups};
    });
}

template <typename T>
LaunchResult launch_flatmm(const Config& cfg, const void* a, const void* b_flat, void* c, ck_tile::DeviceMem& c_mem)
{
#if defined(FLATMM_WEIGHT_PRESHUFFLE)
    // tile_example_gemm_weight_preshuffle: upstream's preshuffle configurations use the 16x16 warp tile
    return launch_instance<T, 0>(cfg, a, b_flat, c, c_mem);
#else
    return with_warp_tile<T, true>(cfg.warp_tile, [&](auto inst) {
        return launch_instance<T, decltype(inst)::kWarpTile>(cfg, a, b_flat, c, c_mem);
    });
#endif
}

#define FLATMM_EXAMPLE_INSTANTIATE(T)                                                                                  \
    template FlatBLayout flat_b_layout<T>(int);                                                                        \
    template LaunchResult launch_flatmm<T>(const Config&, const void*, const void*, void*, ck_tile::DeviceMem&);

} // namespace flatmm_example
