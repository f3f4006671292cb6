// SPDX-License-Identifier: MIT
// The example's API, in upstream's style: moe_smoothquant(traits, args, stream) picks the instance
// for the input type, the quantized type and the hidden size, launches it and returns its time.
// One translation unit per (input, quantized) type pair compiles that pair's instances.
#pragma once
#include <string>
#include "ck_tile/core.hpp"
#include "ck_tile/host.hpp"
#include "ck_tile/ops/smoothquant.hpp"

struct moe_smoothquant_traits
{
    std::string in_type;  // fp16 or bf16
    std::string out_type; // int8 or fp8
};

struct moe_smoothquant_result
{
    std::string kernel_name;
    float ms;
};

// Throws std::invalid_argument for a type pair without instances or arguments no instance supports.
moe_smoothquant_result moe_smoothquant(const moe_smoothquant_traits& t, const ck_tile::MoeSmoothquantHostArgs& a,
                                       const ck_tile::stream_config& s);

#define MOE_SMOOTHQUANT_DECLARE(IN, OUT)                                                                               \
    moe_smoothquant_result moe_smoothquant_##IN##_##OUT(const ck_tile::MoeSmoothquantHostArgs& a,                      \
                                                        const ck_tile::stream_config& s);
MOE_SMOOTHQUANT_DECLARE(fp16, int8)
MOE_SMOOTHQUANT_DECLARE(fp16, fp8)
MOE_SMOOTHQUANT_DECLARE(bf16, int8)
MOE_SMOOTHQUANT_DECLARE(bf16, fp8)
#undef MOE_SMOOTHQUANT_DECLARE
