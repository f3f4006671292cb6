// SPDX-License-Identifier: MIT
// tile_example_gemm_basic: what the translation units share. gemm_basic.cpp parses the options,
// prepares and checks the data (run_gemm); each gemm_<prec>_<pipeline>.cpp compiles the kernel
// instances of one data type and one pipeline (launch_gemm, see gemm_instances.hpp).
#pragma once
#include <type_traits>
#include <string>

#include "ck_tile/core.hpp"
#include "ck_tile/host.hpp"
#include "ck_tile/ops/epilogue.hpp"
#include "ck_tile/ops/gemm.hpp"

namespace gemm_example {

// The fused element-wise op on C (-elementwise), chosen at run time so that one kernel instance
// serves every choice: y = op(acc), before the conversion to C's type.
struct ElementwiseOp
{
    enum kind_t : int
    {
        none,
        relu,
        scale,
        scale_relu
    };
    int kind    = none;
    float alpha = 1.f;

    template <typename Y, typename X>
    CK_TILE_HOST_DEVICE void operator()(Y& y, const X& x) const
    {
        if(kind == relu)
            ck_tile::element_wise::Relu{}(y, x);
        else if(kind == scale)
            ck_tile::element_wise::Scale{alpha}(y, x);
        else if(kind == scale_relu)
            ck_tile::element_wise::ScaleRelu{alpha}(y, x);
        else
            ck_tile::element_wise::PassThrough{}(y, x);
    }
    // the unary form, for the host reference
    template <typename X>
    X operator()(const X& x) const
    {
        X y{};
        (*this)(y, x);
        return y;
    }
};

// Data types and block tiles per precision. fp16/bf16: 128x128x32 blocks of 2x2 warps, warp tile
// 32x32x8 (MFMA 32x32x8); fp8: 128x128x64, warp tile 32x32x64 (gfx950: v_mfma_f32_32x32x64_f8f6f4,
// gfx942: four v_mfma_f32_32x32x16_fp8_fp8), C in fp16.
// fp8_t is the arch's encoding (FNUZ on gfx942, OCP on gfx950). kAllLayouts: the ci instance set
// has all four A/B layouts (else A row-major / B column-major only): fp16 for the 16-bit types,
// fp8 for the 8-bit ones.
struct Fp16Types
{
    using ADataType   = ck_tile::half_t;
    using BDataType   = ck_tile::half_t;
    using AccDataType = float;
    using CDataType   = ck_tile::half_t;
    using Shape       = ck_tile::TileGemmShape<ck_tile::sequence<128, 128, 32>, ck_tile::sequence<2, 2, 1>,
                                               ck_tile::sequence<32, 32, 8>>;
    static constexpr const char* name  = "fp16";
    static constexpr const char* types = "A fp16, B fp16, acc fp32, C fp16";
    static constexpr bool kAllLayouts  = true;
};
struct Bf16Types
{
    using ADataType   = ck_tile::bf16_t;
    using BDataType   = ck_tile::bf16_t;
    using AccDataType = float;
    using CDataType   = ck_tile::bf16_t;
    using Shape       = ck_tile::TileGemmShape<ck_tile::sequence<128, 128, 32>, ck_tile::sequence<2, 2, 1>,
                                               ck_tile::sequence<32, 32, 8>>;
    static constexpr const char* name  = "bf16";
    static constexpr const char* types = "A bf16, B bf16, acc fp32, C bf16";
    // bf16 moves through the same 16-bit paths as fp16, whose ci set has every layout
    static constexpr bool kAllLayouts = false;
};
struct Fp8Types
{
    using ADataType   = ck_tile::fp8_t;
    using BDataType   = ck_tile::fp8_t;
    using AccDataType = float;
    using CDataType   = ck_tile::half_t;
    using Shape       = ck_tile::TileGemmShape<ck_tile::sequence<128, 128, 64>, ck_tile::sequence<2, 2, 1>,
                                               ck_tile::sequence<32, 32, 64>>;
    static constexpr const char* name = "fp8";
    // named after fp8_t itself: on a hip build its encoding is chosen for the whole build
    static constexpr const char* types = std::is_same_v<ck_tile::fp8_t, ck_tile::fp8_ocp_t>
                                             ? "A fp8 (OCP e4m3), B fp8 (OCP e4m3), acc fp32, C fp16"
                                             : "A fp8 (FNUZ e4m3), B fp8 (FNUZ e4m3), acc fp32, C fp16";
    static constexpr bool kAllLayouts  = true;
};
// bf8 (E5M2, the arch's encoding like fp8) with an fp16 C: fp8's tiles; int8 with int32
// accumulation and C: 128x64x64 blocks, warp tile 32x32x32 (gfx950: v_mfma_i32_32x32x32_i8, gfx942:
// two v_mfma_i32_32x32x16_i8)
struct Bf8Types
{
    using ADataType                    = ck_tile::bf8_t;
    using BDataType                    = ck_tile::bf8_t;
    using AccDataType                  = float;
    using CDataType                    = ck_tile::half_t;
    using Shape                        = Fp8Types::Shape;
    static constexpr const char* name  = "bf8";
    static constexpr const char* types = std::is_same_v<ck_tile::bf8_t, ck_tile::bf8_ocp_t>
                                             ? "A bf8 (OCP e5m2), B bf8 (OCP e5m2), acc fp32, C fp16"
                                             : "A bf8 (FNUZ e5m2), B bf8 (FNUZ e5m2), acc fp32, C fp16";
    static constexpr bool kAllLayouts  = false;
};
struct Int8Types
{
    using ADataType   = int8_t;
    using BDataType   = int8_t;
    using AccDataType = int32_t;
    using CDataType   = int32_t;
    // half the N of the 8-bit float tile: a 128 x 128 int32 C-shuffle would need 67.5 KiB of LDS
    using Shape = ck_tile::TileGemmShape<ck_tile::sequence<128, 64, 64>, ck_tile::sequence<2, 2, 1>,
                                         ck_tile::sequence<32, 32, 32>>;
    static constexpr const char* name  = "int8";
    static constexpr const char* types = "A int8, B int8, acc int32, C int32";
    static constexpr bool kAllLayouts  = false;
};

struct Config
{
    int M = 0, N = 0, K = 0;
    int stride_a = 0, stride_b = 0, stride_c = 0; // resolved (never 0)
    bool a_row_major = true, b_row_major = false;
    bool pipeline_v2 = false;
    bool cshuffle    = false;
    ElementwiseOp op;
    std::string op_name = "none";
    int init            = 0;
    int verify          = 1; // 0 none, 1 CPU reference, 2 device reference
    int k_batch         = 1;
    int warmup          = 0;
    int repeat          = 1;
};

struct LaunchResult
{
    float ms = 0;
    std::string instance; // what ran: pipeline, epilogue, block tile, MFMA, access widths
};

// Runs the instance for cfg's layouts, epilogue and alignment (defined in gemm_instances.hpp,
// instantiated by the gemm_<prec>_<pipeline>.cpp files). Throws ck_tile::arg_error if no instance
// can run the arguments.
template <typename Types, bool kPipelineV2>
LaunchResult launch_gemm(const Config& cfg, const ck_tile::GemmHostArgs& args);

#define GEMM_EXAMPLE_DECLARE(TYPES)                                                                                    \
    extern template LaunchResult launch_gemm<TYPES, false>(const Config&, const ck_tile::GemmHostArgs&);               \
    extern template LaunchResult launch_gemm<TYPES, true>(const Config&, const ck_tile::GemmHostArgs&);
GEMM_EXAMPLE_DECLARE(Fp16Types)
GEMM_EXAMPLE_DECLARE(Bf16Types)
GEMM_EXAMPLE_DECLARE(Fp8Types)
GEMM_EXAMPLE_DECLARE(Bf8Types)
GEMM_EXAMPLE_DECLARE(Int8Types)
#undef GEMM_EXAMPLE_DECLARE

} // namespace gemm_example
