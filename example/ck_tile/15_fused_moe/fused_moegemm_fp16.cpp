// SPDX-License-Identifier: MIT
// The fp16 instances of the fused-MoE expert GEMMs.
#include "fused_moegemm_instance.hpp"

FUSED_MOEGEMM_INSTANCES(template, ck_tile::half_t)
