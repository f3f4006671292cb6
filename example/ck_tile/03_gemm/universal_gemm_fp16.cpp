// SPDX-License-Identifier: MIT
// The fp16 instances of tile_example_gemm_universal (universal_gemm_instances.hpp).
#include "universal_gemm_instances.hpp"

namespace universal_gemm {
UNIVERSAL_GEMM_INSTANTIATE(Fp16Types)
} // namespace universal_gemm
