// SPDX-License-Identifier: MIT
// add_rmsnorm2d_rdquant_fwd(traits, args, stream): the instances of the traits' type pair.
#include <stdexcept>
#include "add_rmsnorm2d_rdquant_fwd.hpp"

add_rmsnorm2d_rdquant_fwd_result add_rmsnorm2d_rdquant_fwd(const add_rmsnorm2d_rdquant_fwd_traits& t,
                                                           const ck_tile::AddRmsnorm2dRdquantFwdHostArgs& a,
                                                           const ck_tile::stream_config& s)
{
    const std::string& in = t.input_data_type;
    const std::string& q  = t.quantized_data_type;
    if(in == "fp16" && q == "int8")
        return add_rmsnorm2d_rdquant_fwd_fp16_int8(a, s);
    if(in == "fp16" && q == "fp8")
        return add_rmsnorm2d_rdquant_fwd_fp16_fp8(a, s);
    if(in == "bf16" && q == "int8")
        return add_rmsnorm2d_rdquant_fwd_bf16_int8(a, s);
    if(in == "bf16" && q == "fp8")
        return add_rmsnorm2d_rdquant_fwd_bf16_fp8(a, s);
    throw std::invalid_argument("add_rmsnorm2d_rdquant_fwd: no instance for " + in + " -> " + q);
}
