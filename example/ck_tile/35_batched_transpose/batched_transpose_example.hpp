// SPDX-License-Identifier: MIT
// The example's API, as upstream shapes it: a trait (type, layout, pipeline) picks an instance;
// batched_transpose() launches it.
#pragma once
#include <string>
#include "ck_tile/core.hpp"
#include "ck_tile/host.hpp"
#include "ck_tile/ops/batched_transpose.hpp"

struct batched_transpose_trait
{
    std::string type;   // fp8, fp16 or bf16
    std::string layout; // the input layout, NCHW or NHWC (the output is the other one)
    int pipeline;       // 0 register transpose, 1 through LDS (gfx950)
};

// What batched_transpose ran: the kernel's name and the ms it took per launch.
struct batched_transpose_result
{
    std::string kernel_name;
    float ms;
};

batched_transpose_result batched_transpose(const batched_transpose_trait& t,
                                           const ck_tile::BatchedTransposeHostArgs& args,
                                           const ck_tile::stream_config& s);
