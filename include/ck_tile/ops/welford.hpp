// SPDX-License-Identifier: MIT
// Welford mean / variance: the per-value update and the count-weighted merge (thread), and the
// block-level steps (thread, warp, cross-warp) that layernorm-style kernels use.
#pragma once
#include "ck_tile/ops/welford/thread/thread_welford.hpp"
#include "ck_tile/ops/welford/block/block_welford_problem.hpp"
#include "ck_tile/ops/welford/block/block_welford.hpp"
