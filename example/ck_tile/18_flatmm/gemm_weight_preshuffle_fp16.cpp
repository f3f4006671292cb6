// SPDX-License-Identifier: MIT
// The fp16 instances of tile_example_gemm_weight_preshuffle: flatmm_basic_fp16.cpp with the 16x16 warp
// tile only.
#define FLATMM_WEIGHT_PRESHUFFLE 1
#include "flatmm_basic_fp16.cpp"
