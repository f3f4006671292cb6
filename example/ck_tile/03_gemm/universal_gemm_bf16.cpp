// SPDX-License-Identifier: MIT
// The bf16 instances of tile_example_gemm_universal (universal_gemm_instances.hpp).
#include "universal_gemm_instances.hpp"

namespace universal_gemm {
UNIVERSAL_GEMM_INSTANTIATE(Bf16Types)
} // namespace universal_gemm
