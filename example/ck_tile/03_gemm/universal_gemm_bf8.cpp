// SPDX-License-Identifier: MIT
// The bf8 instances of tile_example_gemm_universal (universal_gemm_instances.hpp).
#include "universal_gemm_instances.hpp"

namespace universal_gemm {
UNIVERSAL_GEMM_INSTANTIATE(Bf8Types)
} // namespace universal_gemm
