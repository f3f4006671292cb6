// SPDX-License-Identifier: MIT
// The fp8 O check of tile_example_fmha_fwd (fmha_o_bound + check_fmha_bound, the calls the
// example makes, against the example's reference: softmax with P scaled and rounded to fp8, then
// P V) on a host model of the kernel's arithmetic: an online softmax over blocks of 32 keys that
// rounds the unnormalised P (relative to the running max) to fp8 and divides by the row sum at the
// end. The correct model must pass; a kernel that skips one block of 32 keys and one that uses
// exp2 without the log2(e) factor (a softmax scale off by ln 2) must fail where V is of size 1 and
// the attention is not one-hot: there O is within [-1, 1] and the former check (within one fp8
// step or |diff| <= 16) accepted both bugs, as the test shows.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <vector>
#include "ck_tile/core.hpp"
#include "ck_tile/host.hpp"
#include "ck_tile/host/fmha_tolerance.hpp"
#include "ck_tile/host/reference/reference_batched_gemm.hpp"
#include "ck_tile/host/reference/reference_batched_softmax.hpp"
#include "fmha_fwd_host_model.hpp"

using namespace ck_tile;

namespace {

using F8 = fp8_t;

using fmha_test::Bug;

struct Problem
{
    std::size_t heads, sq, sk, d;
    float range_qk; // the example's -range_q = -range_k (16: its default)
    float v_max;    // V uniform in [-v_max, v_max] (fp8's max: the example's -init=3)
};

struct Data
{
    HostTensor<float> s;   // [H, sq, sk] scaled scores
    HostTensor<F8> v;      // [H, dv, sk]
    HostTensor<float> mag; // [H, sq, sk] scale_s sum |q k|
    double scale_p, scale_o, qmax;
};

// the example's static quantization: Q, K, V over fp8's whole range, scales from the ranges
Data make_data(const Problem& p)
{
    const float qmax = type_convert<float>(numeric<F8>::max());
    HostTensor<F8> q({p.heads, p.sq, p.d}), k({p.heads, p.sk, p.d});
    Data x{HostTensor<float>({p.heads, p.sq, p.sk}),
           HostTensor<F8>({p.heads, p.d, p.sk}),
           HostTensor<float>({p.heads, p.sq, p.sk}),
           qmax / 1.0,
           1.0 * 16.0 / (16.0 * qmax),
           qmax};
    FillUniformDistribution<F8>{-qmax, qmax, 11939}(q);
    FillUniformDistribution<F8>{-qmax, qmax, 11940}(k);
    FillUniformDistribution<F8>{-p.v_max, p.v_max, 11941}(x.v);
    reference_batched_gemm<F8, F8, float, float>(q, k, x.s);
    const float scale_s = 1.f / std::sqrt(static_cast<float>(p.d)) * (p.range_qk / qmax) * (p.range_qk / qmax);
    for(auto& v : x.s.mData)
        v *= scale_s;
    x.mag = fmha_score_magnitude(q, k, scale_s);
    return x;
}

HostTensor<F8> reference(const Data& x)
{
    const std::size_t H = x.s.get_length(0), SQ = x.s.get_length(1), SK = x.s.get_length(2), DV = x.v.get_length(1);
    HostTensor<F8> p({H, SQ, SK}), o({H, SQ, DV});
    const float sp = static_cast<float>(x.scale_p), so = static_cast<float>(x.scale_o);
    reference_batched_softmax<float, float, F8>(x.s, p, [&](float v) { return v * sp; });
    reference_batched_gemm<F8, F8, float, F8>(p, x.v, o, identity{}, identity{}, [&](float v) { return v * so; });
    return o;
}

// the kernel's arithmetic on the host (fmha_fwd_host_model.hpp), with `bug` planted
HostTensor<F8> host_kernel(const Data& x, Bug bug)
{
    return fmha_test::online_softmax_pv(x.s, x.v, bug, static_cast<float>(x.scale_p), static_cast<float>(x.scale_o));
}

struct Outcome
{
    bool correct, skip, exp2, skip_old, exp2_old;
};

Outcome run(const Problem& p)
{
    const Data x               = make_data(p);
    const HostTensor<F8> o_ref = reference(x);
    const HostTensor<double> e = fmha_o_bound<F8>(x.s, x.mag, x.v, FmhaFwdArith{p.d, x.scale_p, x.scale_o});
    const auto check           = [&](Bug bug) {
        return check_fmha_bound(host_kernel(x, bug), o_ref, e, "(a planted bug is expected to fail)");
    };
    // the former check: one fp8 step apart, or |diff| <= 16 (32 for OCP fp8, max 448)
    const auto check_old = [&](Bug bug) {
        return check_err(host_kernel(x, bug), o_ref, "(the former check)", 1, x.qmax > 240 ? 32.0 : 16.0);
    };
    return {check(Bug::none), check(Bug::skip_block), check(Bug::exp2_scale), check_old(Bug::skip_block),
            check_old(Bug::exp2_scale)};
}

} // namespace

TEST_CASE("fmha fp8 O check: V of size 1, a skipped key block and a wrong softmax scale fail")
{
    // -range_q = -range_k = 3: scores of size ~3, a handful of keys share each row's weight; V in
    // [-1, 1] (the size of the example's -init=2 and uf data): O within [-1, 1], where the former
    // atol 16 accepted any output
    for(std::size_t sk : {std::size_t(128), std::size_t(300)})
    {
        CAPTURE(sk);
        const Outcome o = run({2, 64, sk, 128, 3.f, 1.f});
        CHECK(o.correct);
        CHECK_FALSE(o.skip);
        CHECK_FALSE(o.exp2);
        CHECK(o.skip_old);
        CHECK(o.exp2_old);
    }
}

TEST_CASE("fmha fp8 O check: the example's full-range data, nearly one-hot attention")
{
    // -range_q = -range_k = 16 (the example's default), V over fp8's range: scores of size ~100,
    // one key takes nearly all of a row's weight; the correct model passes, a skipped block (where
    // some rows' maximum lies) fails
    const float qmax = type_convert<float>(numeric<F8>::max());
    const Outcome o  = run({2, 128, 256, 128, 16.f, qmax});
    CHECK(o.correct);
    CHECK_FALSE(o.skip);
}
