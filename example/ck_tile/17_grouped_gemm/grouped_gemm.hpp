// SPDX-License-Identifier: MIT
// tile_example_grouped_gemm and tile_example_grouped_gemm_tileloop: what the translation units
// share. run_grouped_gemm_example.hpp parses the options, prepares and checks the data;
// grouped_gemm[_tileloop]_<prec>.cpp compile the kernel instances of one data type
// (launch_grouped_gemm, grouped_gemm_instances.hpp), non-persistent or persistent.
#pragma once
#include <string>
#include <vector>

#include "ck_tile/core.hpp"
#include "ck_tile/host.hpp"
#include "ck_tile/ops/epilogue.hpp"
#include "ck_tile/ops/gemm.hpp"
#include "ck_tile/ops/gemm/kernel/grouped_gemm_kernel.hpp"

namespace grouped_gemm_example {

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

struct LaunchConfig
{
    int warmup = 0, repeat = 1;
};

struct LaunchResult
{
    float ms = 0;
    std::string instance; // what ran: kernel name, pipeline, tile, MFMA, access widths
    dim3 grid;
    int work_items = 0;
};

// Runs the instance that fits every group (vector accesses where all sizes, strides and pointers
// allow, else element by element), non-persistent (one block per work item) or persistent (the
// tile loop). C must be zero where k_batch > 1; c_buffers (pointer, bytes) are zeroed again
// before every timed launch then. Throws ck_tile::arg_error when no instance can run the groups.
template <typename Types, bool kPersistent>
LaunchResult launch_grouped_gemm(const LaunchConfig& cfg, const std::vector<ck_tile::GroupedGemmHostArgs>& descs,
                                 const std::vector<std::pair<void*, std::size_t>>& c_buffers);

#define GROUPED_GEMM_EXAMPLE_DECLARE(TYPES, PERSISTENT)                                                                \
    extern template LaunchResult launch_grouped_gemm<TYPES, PERSISTENT>(                                               \
        const LaunchConfig&, const std::vector<ck_tile::GroupedGemmHostArgs>&,                                         \
        const std::vector<std::pair<void*, std::size_t>>&);
GROUPED_GEMM_EXAMPLE_DECLARE(Fp16Types, false)
GROUPED_GEMM_EXAMPLE_DECLARE(Bf16Types, false)
GROUPED_GEMM_EXAMPLE_DECLARE(Fp16Types, true)
GROUPED_GEMM_EXAMPLE_DECLARE(Bf16Types, true)
#undef GROUPED_GEMM_EXAMPLE_DECLARE

} // namespace grouped_gemm_example
