// SPDX-License-Identifier: MIT
// tile_example_gemm_universal: what the translation units share. universal_gemm.cpp parses the
// options and checks the result; each universal_gemm_<prec>.cpp compiles the kernel instances of
// one data type (launch_universal_gemm, universal_gemm_instances.hpp).
#pragma once
#include <string>
#include <type_traits>

#include "ck_tile/core.hpp"
#include "ck_tile/host.hpp"
#include "ck_tile/ops/epilogue.hpp"
#include "ck_tile/ops/gemm.hpp"

namespace universal_gemm {

// Data types per -prec (upstream's GemmTypeConfig): 8-bit floats give an fp16 C, int8 an int32 C.
// kCompute: the compv3 instances are built (the ci set's other pipeline is mem)
template <typename A, typename C, typename Acc, const char* Name, const char* CName, bool kCompute_ = true>
struct Types
{
    static constexpr bool kCompute      = kCompute_;
    using ADataType                     = A;
    using BDataType                     = A;
    using AccDataType                   = Acc;
    using CDataType                     = C;
    static constexpr const char* name   = Name;
    static constexpr const char* c_name = CName;
};
inline constexpr char fp16_name[]  = "fp16";
inline constexpr char bf16_name[]  = "bf16";
inline constexpr char fp8_name[]   = "fp8";
inline constexpr char bf8_name[]   = "bf8";
inline constexpr char int8_name[]  = "int8";
inline constexpr char int32_name[] = "int32";
using Fp16Types                    = Types<ck_tile::half_t, ck_tile::half_t, float, fp16_name, fp16_name>;
using Bf16Types                    = Types<ck_tile::bf16_t, ck_tile::bf16_t, float, bf16_name, bf16_name>;
using Fp8Types                     = Types<ck_tile::fp8_t, ck_tile::half_t, float, fp8_name, fp16_name>;
using Bf8Types                     = Types<ck_tile::bf8_t, ck_tile::half_t, float, bf8_name, fp16_name>;
using Int8Types                    = Types<int8_t, int32_t, int32_t, int8_name, int32_name>;

enum class Pipeline
{
    mem,
    compv3,
    compv4
};

struct Config
{
    int M = 0, N = 0, K = 0;
    int stride_a = 0, stride_b = 0, stride_c = 0; // resolved (never 0)
    bool a_row_major = true, b_row_major = false;
    Pipeline pipeline = Pipeline::compv3;
    bool interwave    = false; // the mem pipeline's scheduler
    bool persistent   = false;
    int k_batch       = 1;
    int warmup        = 0;
    int repeat        = 1;
};

struct LaunchResult
{
    float ms = 0;
    std::string instance; // what ran: kernel name, tiles, MFMA, LDS, access, grid, K loop
};

// Runs the instance for cfg's pipeline, layouts, persistence and alignment (C is zeroed before
// each launch when k_batch > 1). Throws ck_tile::arg_error if this build has no instance for the
// choice or none that can run the arguments.
template <typename T>
LaunchResult launch_universal_gemm(const Config& cfg, const ck_tile::GemmHostArgs& args, std::size_t c_bytes);

#define UNIVERSAL_GEMM_DECLARE(TYPES)                                                                                  \
    extern template LaunchResult launch_universal_gemm<TYPES>(const Config&, const ck_tile::GemmHostArgs&, std::size_t);
UNIVERSAL_GEMM_DECLARE(Fp16Types)
UNIVERSAL_GEMM_DECLARE(Bf16Types)
UNIVERSAL_GEMM_DECLARE(Fp8Types)
UNIVERSAL_GEMM_DECLARE(Bf8Types)
UNIVERSAL_GEMM_DECLARE(Int8Types)
#undef UNIVERSAL_GEMM_DECLARE

} // namespace universal_gemm
