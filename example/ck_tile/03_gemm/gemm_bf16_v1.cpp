// SPDX-License-Identifier: MIT
// tile_example_gemm_basic: the bf16 kernel instances of pipeline v1.
#include "gemm_instances.hpp"

namespace gemm_example {
GEMM_EXAMPLE_INSTANTIATE(Bf16Types, false)
} // namespace gemm_example
