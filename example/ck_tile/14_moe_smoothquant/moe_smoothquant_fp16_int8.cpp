// SPDX-License-Identifier: MIT
#include "moe_smoothquant_instances.hpp"

MOE_SMOOTHQUANT_DEFINE(fp16, int8, ck_tile::half_t, ck_tile::int8_t)
