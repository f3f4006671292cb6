// SPDX-License-Identifier: MIT
// The smoothquant op: problem, policy, the one- and two-pass pipelines and the kernel.
#pragma once
#include "ck_tile/ops/smoothquant/pipeline/smoothquant_pipeline_problem.hpp"
#include "ck_tile/ops/smoothquant/pipeline/smoothquant_pipeline_default_policy.hpp"
#include "ck_tile/ops/smoothquant/pipeline/smoothquant_pipeline_one_pass.hpp"
#include "ck_tile/ops/smoothquant/pipeline/smoothquant_pipeline_two_pass.hpp"
#include "ck_tile/ops/smoothquant/kernel/smoothquant_kernel.hpp"
