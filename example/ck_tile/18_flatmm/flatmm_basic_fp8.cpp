// SPDX-License-Identifier: MIT
// tile_example_flatmm_basic: the fp8 kernel instances.
#include "flatmm_instances.hpp"

namespace flatmm_example {
FLATMM_EXAMPLE_INSTANTIATE(Fp8Types)
} // namespace flatmm_example
