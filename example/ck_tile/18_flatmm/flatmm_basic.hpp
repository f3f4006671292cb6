// SPDX-License-Identifier: MIT
// tile_example_flatmm_basic: what the translation units share. flatmm_basic.cpp parses the options,
// prepares and checks the data; each flatmm_basic_<prec>.cpp compiles the kernel instances of one
// data type (flatmm_instances.hpp).
#pragma once
#include <string>
#include <type_traits>
#include <vector>

#include "ck_tile/core.hpp"
#include "ck_tile/host.hpp"
#include "ck_tile/host/tensor_shuffle_utils.hpp"
#include "ck_tile/ops/epilogue.hpp"
#include "ck_tile/ops/flatmm.hpp"
#include "ck_tile/ops/gemm.hpp"

namespace flatmm_example {

// Data types and tiles per precision (upstream's FlatmmConfig16 / FlatmmConfig32): block tile
// 128 x 128 x (128 bytes of K), 1 x 4 warps (each warp owns all 128 rows and a quarter of the
// columns), warp tile 16x16 or 32x32 with K = 64 bytes (16x16) or 32 bytes (32x32) of the type.
// 8-bit types give fp16 C. fp8_t / bf8_t are the arch's encodings (FNUZ on gfx942, OCP on gfx950).
template <typename AB, typename C, const char* Name>
struct Types
{
    using ADataType                          = AB;
    using BDataType                          = AB;
    using AccDataType                        = float;
    using CDataType                          = C;
    static constexpr ck_tile::index_t kBytes = sizeof(AB);
    static constexpr ck_tile::index_t kK     = 128 / kBytes;
    static constexpr const char* name        = Name;

    // warp_tile 0: 16 x 16 x (64 bytes), 1: 32 x 32 x (32 bytes), and for 8-bit types gfx950's
    // deepest MFMAs, 2: 16 x 16 x 128 and 3: 32 x 32 x 64 (v_mfma_f32_{16x16x128,32x32x64}_f8f6f4)
    template <int kWarpTile>
    using WarpTile =
        std::conditional_t<kWarpTile == 0, ck_tile::sequence<16, 16, 64 / kBytes>,
                           std::conditional_t<kWarpTile == 1, ck_tile::sequence<32, 32, 32 / kBytes>,
                                              std::conditional_t<kWarpTile == 2, ck_tile::sequence<16, 16, 128>,
                                                                 ck_tile::sequence<32, 32, 64>>>>;
    template <int kWarpTile>
    using Shape =
        ck_tile::TileGemmShape<ck_tile::sequence<128, 128, kK>, ck_tile::sequence<1, 4, 1>, WarpTile<kWarpTile>>;
};
inline constexpr char kFp16Name[] = "fp16";
inline constexpr char kBf16Name[] = "bf16";
inline constexpr char kFp8Name[]  = "fp8";
inline constexpr char kBf8Name[]  = "bf8";
using Fp16Types                   = Types<ck_tile::half_t, ck_tile::half_t, kFp16Name>;
using Bf16Types                   = Types<ck_tile::bf16_t, ck_tile::bf16_t, kBf16Name>;
using Fp8Types                    = Types<ck_tile::fp8_t, ck_tile::half_t, kFp8Name>;
using Bf8Types                    = Types<ck_tile::bf8_t, ck_tile::half_t, kBf8Name>;

struct Config
{
    int M = 0, N = 0, K = 0;
    int stride_a = 0, stride_b = 0, stride_c = 0; // resolved (never 0)
    int warp_tile = 0;                            // 0: 16x16, 1: 32x32, 2: 16x16x128, 3: 32x32x64
    int k_batch   = 1;
    int verify    = 1; // 0 none, 1 CPU reference, 2 device reference (reference_gemm_gpu)
    int init      = 0;
    int warmup    = 0;
    int repeat    = 1;
};

// The flat-B layout of an instance (shuffle_b's arguments) and what ran.
struct FlatBLayout
{
    int n_warp_tile, k_warp_tile, k_lane_groups;
};

struct LaunchResult
{
    float ms = 0;
    std::string instance; // what ran: pipeline, tiles, MFMA, LDS, access widths
};

// Per data type (flatmm_instances.hpp, instantiated by the flatmm_basic_<prec>.cpp files):
// the flat-B layout of -warp_tile, and the run of the instance for cfg's alignment. b_flat is the
// device buffer shuffle_b's result was copied to. Throws ck_tile::arg_error if no instance can run
// the arguments.
template <typename T>
FlatBLayout flat_b_layout(int warp_tile);
template <typename T>
LaunchResult launch_flatmm(const Config& cfg, const void* a, const void* b_flat, void* c, ck_tile::DeviceMem& c_mem);

#define FLATMM_EXAMPLE_DECLARE(T)                                                                                      \
    extern template FlatBLayout flat_b_layout<T>(int);                                                                 \
    extern template LaunchResult launch_flatmm<T>(const Config&, const void*, const void*, void*, ck_tile::DeviceMem&);
FLATMM_EXAMPLE_DECLARE(Fp16Types)
FLATMM_EXAMPLE_DECLARE(Bf16Types)
FLATMM_EXAMPLE_DECLARE(Fp8Types)
FLATMM_EXAMPLE_DECLARE(Bf8Types)
#undef FLATMM_EXAMPLE_DECLARE

} // namespace flatmm_example
