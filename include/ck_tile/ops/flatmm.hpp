// SPDX-License-Identifier: MIT
// The flatmm op: GEMM with B pre-shuffled on the host (shuffle_b) so that B goes from DRAM straight
// into the MFMA operand registers: the block GEMM, the pipeline (+ policy) and the kernel.
#pragma once
#include "ck_tile/ops/flatmm/block/block_flatmm_asmem_bsmem_creg_v1.hpp"
#include "ck_tile/ops/flatmm/pipeline/flatmm_pipeline_agmem_bgmem_creg_v1.hpp"
#include "ck_tile/ops/flatmm/kernel/flatmm_kernel.hpp"
