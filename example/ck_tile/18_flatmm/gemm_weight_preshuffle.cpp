// SPDX-License-Identifier: MIT
// tile_example_gemm_weight_preshuffle: flatmm_basic.cpp with upstream's weight-preshuffle options
// (see its header).
#define FLATMM_WEIGHT_PRESHUFFLE 1
#include "flatmm_basic.cpp"
