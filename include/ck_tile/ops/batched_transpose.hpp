// SPDX-License-Identifier: MIT
// The batched transpose op (NCHW <-> NHWC as batched 2-D transposes): problem, policies, the
// register and LDS pipelines, and the kernel.
#pragma once
#include "ck_tile/ops/batched_transpose/pipeline/batched_transpose_problem.hpp"
#include "ck_tile/ops/batched_transpose/pipeline/batched_transpose_common_policy.hpp"
#include "ck_tile/ops/batched_transpose/pipeline/batched_transpose_policy.hpp"
#include "ck_tile/ops/batched_transpose/pipeline/batched_transpose_lds_policy.hpp"
#include "ck_tile/ops/batched_transpose/pipeline/batched_transpose_pipeline.hpp"
#include "ck_tile/ops/batched_transpose/pipeline/batched_transpose_lds_pipeline.hpp"
#include "ck_tile/ops/batched_transpose/kernel/batched_transpose_kernel.hpp"
