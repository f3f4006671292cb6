// SPDX-License-Identifier: MIT
// layernorm2d_fwd instances with fp16 input: output fp16, int8 or fp8; vector 8 and vector 1, each with the
// one-pass and the two-pass pipeline.
#include "layernorm2d_fwd_instance.hpp"

LAYERNORM2D_FWD_INSTANCE(ck_tile::half_t, ck_tile::half_t, 8, false)
LAYERNORM2D_FWD_INSTANCE(ck_tile::half_t, ck_tile::half_t, 8, true)
LAYERNORM2D_FWD_INSTANCE(ck_tile::half_t, ck_tile::half_t, 1, false)
LAYERNORM2D_FWD_INSTANCE(ck_tile::half_t, ck_tile::half_t, 1, true)
LAYERNORM2D_FWD_INSTANCE(ck_tile::half_t, ck_tile::int8_t, 8, false)
LAYERNORM2D_FWD_INSTANCE(ck_tile::half_t, ck_tile::int8_t, 8, true)
LAYERNORM2D_FWD_INSTANCE(ck_tile::half_t, ck_tile::int8_t, 1, false)
LAYERNORM2D_FWD_INSTANCE(ck_tile::half_t, ck_tile::int8_t, 1, true)
LAYERNORM2D_FWD_INSTANCE(ck_tile::half_t, ck_tile::fp8_t, 8, false)
LAYERNORM2D_FWD_INSTANCE(ck_tile::half_t, ck_tile::fp8_t, 8, true)
LAYERNORM2D_FWD_INSTANCE(ck_tile::half_t, ck_tile::fp8_t, 1, false)
LAYERNORM2D_FWD_INSTANCE(ck_tile::half_t, ck_tile::fp8_t, 1, true)
