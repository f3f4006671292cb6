// SPDX-License-Identifier: MIT
#include "moe_smoothquant_instances.hpp"

MOE_SMOOTHQUANT_DEFINE(fp16, fp8, ck_tile::half_t, ck_tile::fp8_t)
