// SPDX-License-Identifier: MIT
// The smoothquant op: problem, policy, the one- and two-pass pipelines, the kernel, and the
// mixture-of-experts kernel (one row per token and expert slot, the expert's smoothing scale).
#pragma once
#include "ck_tile/ops/smoothquant/pipeline/smoothquant_pipeline_problem.hpp"
#include "ck_tile/ops/smoothquant/pipeline/smoothquant_pipeline_default_policy.hpp"
#include "ck_tile/ops/smoothquant/pipeline/smoothquant_pipeline_one_pass.hpp"
#include "ck_tile/ops/smoothquant/pipeline/smoothquant_pipeline_two_pass.hpp"
#include "ck_tile/ops/smoothquant/kernel/smoothquant_kernel.hpp"
#include "ck_tile/ops/smoothquant/kernel/moe_smoothquant_kernel.hpp"
