// SPDX-License-Identifier: MIT
// tile_example_batched_gemm: what the translation units share. batched_gemm.cpp parses the
// options, prepares and checks the data; batched_gemm_<prec>.cpp compiles the kernel instances of
// one data type (launch_batched_gemm, batched_gemm_instances.hpp).
#pragma once
#include <string>

#include "ck_tile/core.hpp"
#include "ck_tile/host.hpp"
#include "ck_tile/ops/epilogue.hpp"
#include "ck_tile/ops/gemm.hpp"
#include "ck_tile/ops/gemm/kernel/batched_gemm_kernel.hpp"

namespace batched_gemm_example {

// Block tile 128x128x32 (64 bytes of K) of 2x2 warps, warp tile 32x32x16 (gfx950: v_mfma_f32_32x32x16_{f16,bf16};
// gfx942: two v_mfma_f32_32x32x8 in a row), accumulated in fp32.
using Shape =
    ck_tile::TileGemmShape<ck_tile::sequence<128, 128, 32>, ck_tile::sequence<2, 2, 1>, ck_tile::sequence<32, 32, 16>>;

struct Fp16Types
{
    using ADataType                    = ck_tile::half_t;
    using BDataType                    = ck_tile::half_t;
    using AccDataType                  = float;
    using CDataType                    = ck_tile::half_t;
    static constexpr const char* name  = "fp16";
    static constexpr const char* types = "A fp16, B fp16, acc fp32, C fp16";
};
struct Bf16Types
{
    using ADataType                    = ck_tile::bf16_t;
    using BDataType                    = ck_tile::bf16_t;
    using AccDataType                  = float;
    using CDataType                    = ck_tile::bf16_t;
    static constexpr const char* name  = "bf16";
    static constexpr const char* types = "A bf16, B bf16, acc fp32, C bf16";
};

struct Config
{
    int M = 0, N = 0, K = 0;
    int stride_a = 0, stride_b = 0, stride_c = 0;                   // resolved (never 0)
    int batch_stride_a = 0, batch_stride_b = 0, batch_stride_c = 0; // resolved
    int batch_count = 1;
    int k_batch     = 1;
    int warmup = 0, repeat = 1;
};

struct LaunchResult
{
    float ms = 0;
    std::string instance; // what ran: kernel name, pipeline, tile, MFMA, access widths
    dim3 grid;
};

// Runs the instance that fits the arguments (vector accesses where sizes, strides and pointers
// allow, else element by element); C must be zero when k_batch > 1, and is zeroed again before
// every timed launch. Throws ck_tile::arg_error when no instance can run them.
template <typename Types>
LaunchResult launch_batched_gemm(const Config& cfg, const ck_tile::BatchedGemmHostArgs& args, std::size_t c_bytes);

extern template LaunchResult launch_batched_gemm<Fp16Types>(const Config&, const ck_tile::BatchedGemmHostArgs&,
                                                            std::size_t);
extern template LaunchResult launch_batched_gemm<Bf16Types>(const Config&, const ck_tile::BatchedGemmHostArgs&,
                                                            std::size_t);

} // namespace batched_gemm_example
