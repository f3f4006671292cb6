// SPDX-License-Identifier: MIT
// The one-pass instances of tile_example_rmsnorm2d_fwd with bf16 input: output bf16, int8, fp8 (vector 8).
#include "rmsnorm2d_fwd_instance.hpp"

RMSNORM2D_FWD_INSTANCES(ck_tile::bf16_t, false)
