// SPDX-License-Identifier: MIT
// The bf16 instances of the fused-MoE expert GEMMs.
#include "fused_moegemm_instance.hpp"

FUSED_MOEGEMM_INSTANCES(template, ck_tile::bf16_t)
