// SPDX-License-Identifier: MIT
// The fused-MoE ops: MoE sorting (single-workgroup and multi-phase kernels).
#pragma once
#include "ck_tile/ops/fused_moe/kernel/moe_sorting_problem.hpp"
#include "ck_tile/ops/fused_moe/kernel/moe_sorting_kernel.hpp"
