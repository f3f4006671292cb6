// SPDX-License-Identifier: MIT
// batched_transpose(trait, args, stream): the instance for the trait's type and pipeline.
#include <stdexcept>
#include "batched_transpose_example.hpp"

batched_transpose_result batched_transpose_fp16(int, const ck_tile::BatchedTransposeHostArgs&,
                                                const ck_tile::stream_config&);
batched_transpose_result batched_transpose_bf16(int, const ck_tile::BatchedTransposeHostArgs&,
                                                const ck_tile::stream_config&);
batched_transpose_result batched_transpose_fp8(int, const ck_tile::BatchedTransposeHostArgs&,
                                               const ck_tile::stream_config&);

batched_transpose_result batched_transpose(const batched_transpose_trait& t,
                                           const ck_tile::BatchedTransposeHostArgs& args,
                                           const ck_tile::stream_config& s)
{
    if(t.pipeline != 0 && t.pipeline != 1)
        throw std::invalid_argument("batched_transpose: no pipeline " + std::to_string(t.pipeline));
    if(t.type == "fp16")
        return batched_transpose_fp16(t.pipeline, args, s);
    if(t.type == "bf16")
        return batched_transpose_bf16(t.pipeline, args, s);
    if(t.type == "fp8")
        return batched_transpose_fp8(t.pipeline, args, s);
    throw std::invalid_argument("batched_transpose: no instance for type " + t.type);
}
