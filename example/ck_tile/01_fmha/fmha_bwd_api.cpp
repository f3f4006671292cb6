// SPDX-License-Identifier: MIT
// fmha_bwd over the hand-written instances (fmha_bwd_d*_*.cpp): the smallest head dim that holds
// both hdim_q and hdim_v. No instance computes the bias gradient or the deterministic dQ.
#include "fmha_bwd.hpp"

namespace {
template <typename F>
auto dispatch(const fmha_bwd_traits& t, F&& f) -> decltype(f(fmha_bwd_traits_<ck_tile::half_t, 32, false>{}))
{
    using ck_tile::bf16_t;
    using ck_tile::half_t;
    if(t.has_dbias || t.is_deterministic)
        return {};
    const int h        = std::max(t.hdim_q, t.hdim_v);
    const auto by_mode = [&](auto dtype, auto hdim) {
        using T             = decltype(dtype);
        constexpr int kHDim = decltype(hdim)::value;
        return t.is_group_mode ? f(fmha_bwd_traits_<T, kHDim, true>{}) : f(fmha_bwd_traits_<T, kHDim, false>{});
    };
    const auto by_hdim = [&](auto dtype) -> decltype(by_mode(dtype, std::integral_constant<int, 32>{})) {
        if(h <= 32)
            return by_mode(dtype, std::integral_constant<int, 32>{});
        if(h <= 64)
            return by_mode(dtype, std::integral_constant<int, 64>{});
        if(h <= 128)
            return by_mode(dtype, std::integral_constant<int, 128>{});
        return {};
    };
    if(t.data_type == "fp16")
        return by_hdim(half_t{});
    if(t.data_type == "bf16")
        return by_hdim(bf16_t{});
    return {};
}
} // namespace

float fmha_bwd(fmha_bwd_traits t, fmha_bwd_args a, const ck_tile::stream_config& s)
{
    struct R
    {
        float v = -1.f;
    };
    return dispatch(t, [&](auto tr) { return R{fmha_bwd_<decltype(tr)>(s, a)}; }).v;
}

std::string fmha_bwd_get_name(fmha_bwd_traits t)
{
    return dispatch(t, [&](auto tr) { return fmha_bwd_get_name_<decltype(tr)>(); });
}
