// SPDX-License-Identifier: MIT
// tile_example_gemm_multi_d_fp16: what the translation units share. gemm_multi_d_fp16.cpp parses
// the options, prepares and checks the data; each gemm_multi_d_fp16_d<N>.cpp compiles the kernel
// instances of N Ds (gemm_multi_d_instances.hpp).
#pragma once
#include <array>
#include <string>

#include "ck_tile/core.hpp"
#include "ck_tile/host.hpp"
#include "ck_tile/ops/epilogue.hpp"
#include "ck_tile/ops/gemm.hpp"

namespace gemm_multi_d_example {

using ADataType   = ck_tile::half_t;
using BDataType   = ck_tile::half_t;
using DDataType   = ck_tile::half_t;
using EDataType   = ck_tile::half_t;
using AccDataType = float;

// 128x128x64 blocks of 2x2 warps, warp tile 32x32x16 (gfx950: one v_mfma_f32_32x32x16_f16; gfx942:
// two v_mfma_f32_32x32x8_f16), the CompV3 pipeline.
using Shape =
    ck_tile::TileGemmShape<ck_tile::sequence<128, 128, 64>, ck_tile::sequence<2, 2, 1>, ck_tile::sequence<32, 32, 16>>;

constexpr int kMaxNumD = 4;

// The CDE op (-op), chosen at run time so that one kernel instance serves all three:
// e = op(c, d0, d1, ...), see element_wise.hpp. Add takes exactly one D.
struct CDEOp
{
    enum kind_t : int
    {
        multiply_multiply,
        add_add,
        add
    };
    int kind = multiply_multiply;

    template <typename E, typename C, typename... Ds>
    CK_TILE_HOST_DEVICE void operator()(E& e, const C& c, const Ds&... ds) const
    {
        if(kind == add_add)
            ck_tile::element_wise::AddAdd{}(e, c, ds...);
        else if(kind == add)
        {
            if constexpr(sizeof...(Ds) == 1)
                ck_tile::element_wise::Add{}(e, c, ds...);
            else
                ck_tile::element_wise::AddAdd{}(e, c, ds...); // refused on the host: never runs
        }
        else
            ck_tile::element_wise::MultiplyMultiply{}(e, c, ds...);
    }
    // split-K: MultiplyMultiply in every split, the additions in split 0 only
    CK_TILE_HOST_DEVICE constexpr ck_tile::splitk_apply split_k() const
    {
        return kind == multiply_multiply ? ck_tile::splitk_apply::each_split : ck_tile::splitk_apply::first_split_only;
    }
    static const char* name(int k) { return k == add_add ? "AddAdd" : k == add ? "Add" : "MultiplyMultiply"; }
};

struct Config
{
    int M = 0, N = 0, K = 0;
    int num_d    = 2;
    int stride_a = 0, stride_b = 0, stride_ds = 0, stride_e = 0; // resolved (never 0)
    bool ds_row_major = true;
    CDEOp op;
    int k_batch = 1;
    bool verify = true;
    int warmup  = 0;
    int repeat  = 1;
};

struct LaunchResult
{
    float ms = 0;
    std::string instance; // what ran: tiles, MFMA, LDS, access widths
};

// Device buffers of one problem: A, B, the Ds (num_d of them) and E.
struct DeviceArgs
{
    const void* a;
    const void* b;
    std::array<const void*, kMaxNumD> ds;
    void* e;
    ck_tile::DeviceMem* e_mem; // zeroed before each launch when k_batch > 1
};

// Runs the instance of NumD Ds for cfg's D layout and alignment (gemm_multi_d_instances.hpp).
// Throws ck_tile::arg_error if no instance can run the arguments.
template <int NumD>
LaunchResult launch_gemm_multi_d(const Config& cfg, const DeviceArgs& dev);

#define GEMM_MULTI_D_DECLARE(N) extern template LaunchResult launch_gemm_multi_d<N>(const Config&, const DeviceArgs&);
GEMM_MULTI_D_DECLARE(1)
GEMM_MULTI_D_DECLARE(2)
GEMM_MULTI_D_DECLARE(3)
GEMM_MULTI_D_DECLARE(4)
#undef GEMM_MULTI_D_DECLARE

} // namespace gemm_multi_d_example
