// SPDX-License-Identifier: MIT
// tile_example_fmha_bwd's instances for fp16, head dim 64 (batch and group mode): one file per
// (type, head dim) so that the build compiles them in parallel.
#include "fmha_bwd_instance.hpp"

FMHA_BWD_INSTANCES(ck_tile::half_t, 64)
