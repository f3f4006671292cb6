// SPDX-License-Identifier: MIT
// moe_smoothquant(traits, args, stream): the instances of the traits' type pair.
#include <stdexcept>
#include "moe_smoothquant.hpp"

moe_smoothquant_result moe_smoothquant(const moe_smoothquant_traits& t, const ck_tile::MoeSmoothquantHostArgs& a,
                                       const ck_tile::stream_config& s)
{
    if(t.in_type == "fp16" && t.out_type == "int8")
        return moe_smoothquant_fp16_int8(a, s);
    if(t.in_type == "fp16" && t.out_type == "fp8")
        return moe_smoothquant_fp16_fp8(a, s);
    if(t.in_type == "bf16" && t.out_type == "int8")
        return moe_smoothquant_bf16_int8(a, s);
    if(t.in_type == "bf16" && t.out_type == "fp8")
        return moe_smoothquant_bf16_fp8(a, s);
    throw std::invalid_argument("moe_smoothquant: no instance for " + t.in_type + " -> " + t.out_type);
}
