// SPDX-License-Identifier: MIT
// tile_example_flatmm_basic: the bf8 kernel instances.
#include "flatmm_instances.hpp"

namespace flatmm_example {
FLATMM_EXAMPLE_INSTANTIATE(Bf8Types)
} // namespace flatmm_example
