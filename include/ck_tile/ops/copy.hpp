// SPDX-License-Identifier: MIT
// The tile copy op: shape, problem, policy and the direct and LDS-staged copy kernels.
#pragma once
#include "ck_tile/ops/copy/tile_copy_shape.hpp"
#include "ck_tile/ops/copy/tile_copy_problem.hpp"
#include "ck_tile/ops/copy/tile_copy_policy.hpp"
#include "ck_tile/ops/copy/tile_copy_kernel.hpp"
