// SPDX-License-Identifier: MIT
// The instance set of tile_example_rmsnorm2d_fwd: per input type (fp16, bf16) and output type
// (the input type, int8, fp8), three instances:
//
//   vector 8, one pass   n <= kOnePassMaxN, n and every stride multiples of 8 (16-byte accesses):
//                        8 rows per block, 32 lanes per row, 8 elements x 8 repeats per lane
//   vector 8, two pass   n > kOnePassMaxN, the same alignment: 1 row per block, 4 warps along it,
//                        chunks of 2048 columns
//   vector 1, two pass   any other n or stride (one chunk when the row fits)
//
// Each instance can do every fusion (fused add and store, save_rms, T5-like rounding; with a
// quantized output smooth or plain dynamic quant and save_unquant): they are run-time switches,
// see Rmsnorm2dFwdTraits.
//
// rmsnorm2d_fwd_run<X, Y, kTwoPass, kVector> is defined in rmsnorm2d_fwd_instance.hpp and
// instantiated in the rmsnorm2d_fwd_<in>_<pass>.cpp files (they compile in parallel).
#pragma once
#include <string>
#include "ck_tile/core.hpp"
#include "ck_tile/host.hpp"
#include "ck_tile/ops/epilogue.hpp"
#include "ck_tile/ops/rmsnorm2d.hpp"

namespace rmsnorm2d_example {

inline constexpr ck_tile::index_t kOnePassMaxN = 2048;

struct run_result
{
    bool supported;   // IsSupportedArgument
    float ms;         // average time of a launch
    std::string name; // the kernel's name
};

template <typename XDataType, typename YDataType, bool kTwoPass, int kVector>
run_result rmsnorm2d_fwd_run(const ck_tile::Rmsnorm2dFwdHostArgs& args, const ck_tile::stream_config& cfg);

} // namespace rmsnorm2d_example
