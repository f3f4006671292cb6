// SPDX-License-Identifier: MIT
#include "moe_smoothquant_instances.hpp"

MOE_SMOOTHQUANT_DEFINE(bf16, fp8, ck_tile::bf16_t, ck_tile::fp8_t)
