// SPDX-License-Identifier: MIT
// The bf16 instances (one translation unit per type, so a parallel build compiles them side by side).
#include "batched_transpose_instance.hpp"

batched_transpose_result batched_transpose_bf16(int pipeline, const ck_tile::BatchedTransposeHostArgs& a,
                                                const ck_tile::stream_config& s)
{
    return batched_transpose_run<ck_tile::bf16_t>(pipeline, a, s);
}
