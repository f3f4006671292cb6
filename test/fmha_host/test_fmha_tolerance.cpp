// SPDX-License-Identifier: MIT
// The fp16 / bf16 O check of tile_example_fmha_fwd (fmha_score_magnitude + fmha_o_bound +
// check_fmha_bound, the calls the example makes, against the example's reference: softmax rounded
// to P's type, then P V in fp32 rounded to O's type) on a host model of the kernel's arithmetic: an
// online softmax over blocks of 32 keys that rounds the unnormalised P (relative to the running max)
// to P's type, accumulates in fp32 and divides by the row sum at the end. The correct model must
// pass; three planted bugs must fail, each on data where upstream's check (fp16: rtol = atol = 1e-3,
// bf16: 1e-2, atol times max(1, max |V|)) accepted it, as the test asserts:
//   * a skipped block of 32 keys, and exp2 without the log2(e) factor (a softmax scale off by ln 2),
//     on V of size 2^-9, where |O| < 2^-9 ~ 2e-3 and atol 1e-3 (1e-2) is most (all) of it;
//   * (fp16) P rounded through bf16 before fp16, 3 bits of P lost, on rows of few keys (where P's
//     rounding errors do not average out) and V of size 2^-6.
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

using fmha_test::Bug;

struct Problem
{
    std::size_t heads, sq, sk, d;
    float range_qk; // Q and K uniform in [-range_qk, range_qk]
    float v_max;    // V uniform in [-v_max, v_max]
};

template <typename T>
struct Data
{
    HostTensor<float> s;   // [H, sq, sk] scaled scores
    HostTensor<float> mag; // [H, sq, sk] scale_s sum |q k|
    HostTensor<T> v;       // [H, dv, sk]
};

template <typename T>
Data<T> make_data(const Problem& p)
{
    HostTensor<T> q({p.heads, p.sq, p.d}), k({p.heads, p.sk, p.d});
    Data<T> x{HostTensor<float>({p.heads, p.sq, p.sk}), HostTensor<float>({p.heads, p.sq, p.sk}),
              HostTensor<T>({p.heads, p.d, p.sk})};
    FillUniformDistribution<T>{-p.range_qk, p.range_qk, 5101}(q);
    FillUniformDistribution<T>{-p.range_qk, p.range_qk, 5102}(k);
    FillUniformDistribution<T>{-p.v_max, p.v_max, 5103}(x.v);
    reference_batched_gemm<T, T, float, float>(q, k, x.s);
    const float scale_s = 1.f / std::sqrt(static_cast<float>(p.d));
    for(auto& v : x.s.mData)
        v *= scale_s;
    x.mag = fmha_score_magnitude(q, k, scale_s);
    return x;
}

// the example's reference (P in T, as FmhaFwdTypeConfig's PDataType for fp16 / bf16)
template <typename T>
HostTensor<T> reference(const Data<T>& x)
{
    const std::size_t H = x.s.get_length(0), SQ = x.s.get_length(1), SK = x.s.get_length(2), DV = x.v.get_length(1);
    HostTensor<T> p({H, SQ, SK}), o({H, SQ, DV});
    reference_batched_softmax<float, float, T>(x.s, p);
    reference_batched_gemm<T, T, float, T>(p, x.v, o);
    return o;
}

// [0]: the new check's verdicts, [1]: upstream's, for none, skip_block, exp2_scale, p_bf16
template <typename T>
std::vector<std::vector<bool>> run(const Problem& p)
{
    const Data<T> x            = make_data<T>(p);
    const HostTensor<T> o_ref  = reference(x);
    const HostTensor<double> e = fmha_o_bound<T>(x.s, x.mag, x.v, FmhaFwdArith{p.d}); // P in T for fp16 / bf16
    const double tol           = std::is_same_v<T, half_t> ? 1e-3 : 1e-2;
    const double v1            = std::max(1.0, static_cast<double>(p.v_max));
    std::vector<std::vector<bool>> r(2);
    double worst = 0;
    for(Bug bug : {Bug::none, Bug::skip_block, Bug::exp2_scale, Bug::p_bf16})
    {
        const HostTensor<T> o = fmha_test::online_softmax_pv(x.s, x.v, bug);
        r[0].push_back(check_fmha_bound(o, o_ref, e, "(a planted bug is expected to fail)", &worst));
        if(bug == Bug::none)
            MESSAGE("correct model: largest error / allowed " << worst);
        r[1].push_back(check_err(o, o_ref, "(upstream's check)", tol, tol * v1));
    }
    return r;
}

} // namespace

TEST_CASE_TEMPLATE("fmha fp16/bf16 O check: V of size 2^-9, a skipped key block and a wrong softmax scale fail", T,
                   half_t, bf16_t)
{
    // scores of size ~1 over 128 or 300 keys: spread attention, O well below |V| <= 2^-9
    for(std::size_t sk : {std::size_t(128), std::size_t(300)})
    {
        CAPTURE(sk);
        const auto r = run<T>({2, 64, sk, 64, 2.f, 0x1p-9f});
        CHECK(r[0][0]);       // the correct model passes
        CHECK_FALSE(r[0][1]); // a skipped block fails
        CHECK_FALSE(r[0][2]); // a wrong softmax scale fails
        CHECK(r[1][1]);       // both passed upstream's check
        CHECK(r[1][2]);
    }
}

TEST_CASE("fmha fp16 O check: P rounded through bf16 fails on rows of few keys")
{
    // 6 keys, scores of size ~1: several keys share a row's weight and P's rounding errors do not
    // average out; upstream's atol 1e-3 is far above the error on V of size 2^-6
    const auto r = run<half_t>({4, 64, 6, 64, 2.f, 0x1p-6f});
    CHECK(r[0][0]);
    CHECK_FALSE(r[0][3]);
    CHECK(r[1][3]);
}

TEST_CASE_TEMPLATE("fmha fp16/bf16 O check: the correct model passes on larger data", T, half_t, bf16_t)
{
    // Q, K in [-3, 3] at d = 128 (scores up to ~25, nearly one-hot rows) and V in [-3, 3] (the
    // example's -init=ui size), 300 keys: the fp32 score terms of the bound matter here
    const auto r = run<T>({2, 64, 300, 128, 3.f, 3.f});
    CHECK(r[0][0]);
    CHECK_FALSE(r[0][1]);
}
