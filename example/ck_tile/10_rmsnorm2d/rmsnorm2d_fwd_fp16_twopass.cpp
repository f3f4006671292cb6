// SPDX-License-Identifier: MIT
// The two-pass instances of tile_example_rmsnorm2d_fwd with fp16 input: output fp16, int8, fp8, with vector 8
// and with vector 1 (the fallback for any n and stride, whichever the row length).
#include "rmsnorm2d_fwd_instance.hpp"

RMSNORM2D_FWD_INSTANCES(ck_tile::half_t, true)
RMSNORM2D_FWD_INSTANCES_V1(ck_tile::half_t)
