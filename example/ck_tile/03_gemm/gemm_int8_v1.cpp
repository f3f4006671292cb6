// SPDX-License-Identifier: MIT
// tile_example_gemm_basic: the int8 kernel instances of pipeline v1.
#include "gemm_instances.hpp"

namespace gemm_example {
GEMM_EXAMPLE_INSTANTIATE(Int8Types, false)
} // namespace gemm_example
