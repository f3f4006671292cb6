// SPDX-License-Identifier: MIT
// tile_example_flatmm_basic: the fp16 kernel instances.
#include "flatmm_instances.hpp"

namespace flatmm_example {
FLATMM_EXAMPLE_INSTANTIATE(Fp16Types)
} // namespace flatmm_example
