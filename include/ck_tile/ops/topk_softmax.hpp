// SPDX-License-Identifier: MIT
// The top-k softmax op (mixture-of-experts routing): problem, policy, pipeline and kernel.
#pragma once
#include "ck_tile/ops/topk_softmax/pipeline/topk_softmax_warp_per_row_problem.hpp"
#include "ck_tile/ops/topk_softmax/pipeline/topk_softmax_warp_per_row_policy.hpp"
#include "ck_tile/ops/topk_softmax/pipeline/topk_softmax_warp_per_row_pipeline.hpp"
#include "ck_tile/ops/topk_softmax/kernel/topk_softmax_kernel.hpp"
