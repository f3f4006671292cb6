// SPDX-License-Identifier: MIT
// The reduce op: the reduction operators (ReduceOp::Add, SquareAdd, Max, AbsMax; in core), the
// block-level steps (thread, warp, cross-warp) and the Reduce / MultiReduce / MultiReduceMultiblock
// kernels with their problem, shape, policy and (multiblock) tile partitioner.
#pragma once
#include "ck_tile/core/utility/reduce_operator.hpp"
#include "ck_tile/ops/reduce/block/block_reduce2d_problem.hpp"
#include "ck_tile/ops/reduce/block/block_reduce2d_detail.hpp"
#include "ck_tile/ops/reduce/block/block_reduce2d.hpp"
#include "ck_tile/ops/reduce/block/block_reduce2d_broadcast.hpp"
#include "ck_tile/ops/reduce/pipeline/reduce2d_shape.hpp"
#include "ck_tile/ops/reduce/pipeline/reduce2d_problem.hpp"
#include "ck_tile/ops/reduce/pipeline/reduce2d_default_policy.hpp"
#include "ck_tile/ops/reduce/kernel/reduce2d_kernel.hpp"
#include "ck_tile/ops/reduce/kernel/multi_reduce2d_kernel.hpp"
#include "ck_tile/ops/reduce/kernel/multi_reduce2d_tile_partitioner.hpp"
#include "ck_tile/ops/reduce/kernel/multi_reduce2d_multiblock_kernel.hpp"
