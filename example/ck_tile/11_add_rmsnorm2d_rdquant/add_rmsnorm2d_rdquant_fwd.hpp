// SPDX-License-Identifier: MIT
// The example's API, in upstream's style: add_rmsnorm2d_rdquant_fwd(traits, args, stream) picks
// the instance for the input type, the quantized type and the row length, launches it and returns
// its time. One translation unit per (input, quantized) type pair compiles that pair's instances.
#pragma once
#include <string>
#include "ck_tile/core.hpp"
#include "ck_tile/host.hpp"
#include "ck_tile/ops/add_rmsnorm2d_rdquant.hpp"

struct add_rmsnorm2d_rdquant_fwd_traits
{
    std::string input_data_type;     // fp16 or bf16
    std::string quantized_data_type; // int8 or fp8
};

struct add_rmsnorm2d_rdquant_fwd_result
{
    std::string kernel_name;
    float ms;
};

// Throws std::invalid_argument for a type pair without instances or arguments no instance supports.
add_rmsnorm2d_rdquant_fwd_result add_rmsnorm2d_rdquant_fwd(const add_rmsnorm2d_rdquant_fwd_traits& t,
                                                           const ck_tile::AddRmsnorm2dRdquantFwdHostArgs& a,
                                                           const ck_tile::stream_config& s);

#define ADD_RMSNORM2D_RDQUANT_DECLARE(IN, Q)                                                                           \
    add_rmsnorm2d_rdquant_fwd_result add_rmsnorm2d_rdquant_fwd_##IN##_##Q(                                             \
        const ck_tile::AddRmsnorm2dRdquantFwdHostArgs& a, const ck_tile::stream_config& s);
ADD_RMSNORM2D_RDQUANT_DECLARE(fp16, int8)
ADD_RMSNORM2D_RDQUANT_DECLARE(fp16, fp8)
ADD_RMSNORM2D_RDQUANT_DECLARE(bf16, int8)
ADD_RMSNORM2D_RDQUANT_DECLARE(bf16, fp8)
#undef ADD_RMSNORM2D_RDQUANT_DECLARE
