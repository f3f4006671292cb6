// SPDX-License-Identifier: MIT
// tile_example_gemm_basic: the bf8 kernel instances of pipeline v2.
#include "gemm_instances.hpp"

namespace gemm_example {
GEMM_EXAMPLE_INSTANTIATE(Bf8Types, true)
} // namespace gemm_example
