// SPDX-License-Identifier: MIT
// layernorm2d_fwd(): picks the instance for the call's types and sizes (vector 8 when n and the
// strides allow: one pass up to n = 1024, two passes beyond; else vector 1: one pass up to
// n = 512, two passes beyond) and launches it.
#include "layernorm2d_fwd.hpp"

namespace {

template <typename In, typename Out>
float dispatch_n(const layernorm2d_fwd_args& a, const ck_tile::stream_config& s, std::string* name)
{
    using V8OnePass = layernorm2d_fwd_instance<In, Out, 8, false>;
    using V8TwoPass = layernorm2d_fwd_instance<In, Out, 8, true>;
    using V1OnePass = layernorm2d_fwd_instance<In, Out, 1, false>;
    using V1TwoPass = layernorm2d_fwd_instance<In, Out, 1, true>;
    if(a.n <= layernorm2d_block_n<8> && layernorm2d_fwd_supports<V8OnePass>(a))
        return layernorm2d_fwd_run<V8OnePass>(a, s, name);
    if(layernorm2d_fwd_supports<V8TwoPass>(a))
        return layernorm2d_fwd_run<V8TwoPass>(a, s, name);
    if(a.n <= layernorm2d_block_n<1> && layernorm2d_fwd_supports<V1OnePass>(a))
        return layernorm2d_fwd_run<V1OnePass>(a, s, name);
    if(layernorm2d_fwd_supports<V1TwoPass>(a))
        return layernorm2d_fwd_run<V1TwoPass>(a, s, name);
    return -1;
}

template <typename In>
float dispatch_out(const layernorm2d_fwd_traits& t, const layernorm2d_fwd_args& a, const ck_tile::stream_config& s,
                   std::string* name)
{
    if(t.prec_sm != "fp32" || t.prec_sy != "fp32")
        return -1;
    if(t.fused_quant == 0 && t.prec_o == t.prec_i)
        return dispatch_n<In, In>(a, s, name);
    if(t.fused_quant != 0 && t.prec_o == "int8")
        return dispatch_n<In, ck_tile::int8_t>(a, s, name);
    if(t.fused_quant != 0 && t.prec_o == "fp8")
        return dispatch_n<In, ck_tile::fp8_t>(a, s, name);
    return -1;
}

} // namespace

float layernorm2d_fwd(const layernorm2d_fwd_traits& t, const layernorm2d_fwd_args& a, const ck_tile::stream_config& s,
                      std::string* kernel_name)
{
    // the pointers must say what the traits say (IsSupportedArgument checks the rest)
    const bool consistent =
        (t.xbias == 1) == (a.p_x_bias != nullptr) && (t.fused_add != 0) == (a.p_x_residual != nullptr) &&
        (t.fused_add == 1) == (a.p_y_residual != nullptr) && (t.fused_quant == 1) == (a.p_sm_scale != nullptr) &&
        (t.fused_quant != 0) == (a.p_y_scale != nullptr) &&
        t.save_mean_var == (a.p_mean != nullptr && a.p_invStd != nullptr);
    if(!consistent)
        return -1;
    if(t.prec_i == "fp16")
        return dispatch_out<ck_tile::half_t>(t, a, s, kernel_name);
    if(t.prec_i == "bf16")
        return dispatch_out<ck_tile::bf16_t>(t, a, s, kernel_name);
    return -1;
}
