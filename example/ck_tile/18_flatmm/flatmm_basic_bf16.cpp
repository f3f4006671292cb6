// SPDX-License-Identifier: MIT
// tile_example_flatmm_basic: the bf16 kernel instances.
#include "flatmm_instances.hpp"

namespace flatmm_example {
FLATMM_EXAMPLE_INSTANTIATE(Bf16Types)
} // namespace flatmm_example
