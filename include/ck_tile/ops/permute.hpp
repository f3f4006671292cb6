// SPDX-License-Identifier: MIT
// The permute op: GenericPermute (any permutation of up to 8 dimensions), its problem and policy;
// matrix_core_swizzle_kernel (fp16 B x N x K into the MFMA operand order).
#pragma once
#include "ck_tile/ops/permute/pipeline/generic_petmute_problem.hpp"
#include "ck_tile/ops/permute/pipeline/generic_permute_policy.hpp"
#include "ck_tile/ops/permute/kernel/generic_permute_kernel.hpp"
#include "ck_tile/ops/permute/kernel/matrix_core_swizzle_kernel.hpp"
