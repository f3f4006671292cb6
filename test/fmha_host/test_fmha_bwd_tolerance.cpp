// SPDX-License-Identifier: MIT
// The dQ / dK / dV check of tile_example_fmha_bwd (fmha_bwd_bounds + check_fmha_bound_of<T>(..., 1),
// the calls the example makes, against reference_fmha_bwd) on a host model of the kernel's
// arithmetic: P recomputed in fp32 from the row's fp32 LSE, Pd and dS = P (dP - D) rounded to T
// before their sums, the sums in fp32, each gradient rounded to T once. The correct model must
// pass; planted bugs must fail, on data where upstream's check (rtol 1e-2, atol 1e-2 times
// max(1, max |ref|)) accepted them, as the test asserts: dO of size 2^-6, so every gradient is far
// below 1e-2 and upstream's atol is all of it.
//   * no_d:      dS = P dP, the row term D = rowsum(dO O) left out;
//   * lse_off:   P from an LSE 2^-6 too large (a forward whose row sum lost 1.6% of its weight);
//   * ds_bf16:   (fp16) dS rounded through bf16 before fp16, on rows of few keys.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <vector>
#include "ck_tile/core.hpp"
#include "ck_tile/host.hpp"
#include "ck_tile/host/fmha_tolerance.hpp"
#include "ck_tile/host/reference/reference_fmha_bwd.hpp"

using namespace ck_tile;

namespace {

enum class Bug
{
    none,
    no_d,
    lse_off,
    ds_bf16,
};

struct Problem
{
    std::size_t heads, sq, sk, d;
    float range;  // Q, K, V, O uniform in [-range, range]
    float do_max; // dO uniform in [-do_max, do_max]
};

template <typename T>
struct Data
{
    HostTensor<T> q, k, v, o, dout;
    HostTensor<float> s_add; // no bias, no mask
    float scale;
};

template <typename T>
Data<T> make_data(const Problem& p)
{
    Data<T> x{HostTensor<T>({p.heads, p.sq, p.d}),     HostTensor<T>({p.heads, p.sk, p.d}),
              HostTensor<T>({p.heads, p.sk, p.d}),     HostTensor<T>({p.heads, p.sq, p.d}),
              HostTensor<T>({p.heads, p.sq, p.d}),     HostTensor<float>({p.heads, p.sq, p.sk}),
              1.f / std::sqrt(static_cast<float>(p.d))};
    FillUniformDistribution<T>{-p.range, p.range, 7001}(x.q);
    FillUniformDistribution<T>{-p.range, p.range, 7002}(x.k);
    FillUniformDistribution<T>{-p.range, p.range, 7003}(x.v);
    FillUniformDistribution<T>{-p.range, p.range, 7004}(x.o); // any O: D = rowsum(dO O) is its own input
    FillUniformDistribution<T>{-p.do_max, p.do_max, 7005}(x.dout);
    std::fill(x.s_add.begin(), x.s_add.end(), 0.f);
    return x;
}

struct Grads
{
    HostTensor<float> dq, dk, dv;
};

// the kernel's arithmetic on the host, with `bug` planted; results rounded to T (held as float)
template <typename T>
Grads host_kernel(const Data<T>& x, Bug bug)
{
    const std::size_t H = x.q.get_length(0), SQ = x.q.get_length(1), D = x.q.get_length(2), SK = x.k.get_length(1);
    const auto f = [](auto v) { return type_convert<float>(v); };
    Grads g{HostTensor<float>({H, SQ, D}), HostTensor<float>({H, SK, D}), HostTensor<float>({H, SK, D})};
    std::fill(g.dq.begin(), g.dq.end(), 0.f);
    std::fill(g.dk.begin(), g.dk.end(), 0.f);
    std::fill(g.dv.begin(), g.dv.end(), 0.f);
    std::vector<float> s(SK);
    for(std::size_t h = 0; h < H; ++h)
        for(std::size_t i = 0; i < SQ; ++i)
        {
            // the forward's LSE, in fp32
            float m = -INFINITY;
            for(std::size_t j = 0; j < SK; ++j)
            {
                float acc = 0;
                for(std::size_t c = 0; c < D; ++c)
                    acc += f(x.q(h, i, c)) * f(x.k(h, j, c));
                s[j] = acc * x.scale;
                m    = std::max(m, s[j]);
            }
            float l = 0;
            for(std::size_t j = 0; j < SK; ++j)
                l += std::exp(s[j] - m);
            const float lse = m + std::log(l) + (bug == Bug::lse_off ? 0x1p-6f : 0.f);
            float dd        = 0;
            for(std::size_t c = 0; c < D; ++c)
                dd += f(x.dout(h, i, c)) * f(x.o(h, i, c));
            if(bug == Bug::no_d)
                dd = 0;
            for(std::size_t j = 0; j < SK; ++j)
            {
                const float p = std::exp(s[j] - lse);
                float dp      = 0;
                for(std::size_t c = 0; c < D; ++c)
                    dp += f(x.dout(h, i, c)) * f(x.v(h, j, c));
                const float pd = f(type_convert<T>(p));
                float ds       = p * (dp - dd);
                if(bug == Bug::ds_bf16)
                    ds = f(type_convert<bf16_t>(ds));
                ds = f(type_convert<T>(ds));
                for(std::size_t c = 0; c < D; ++c)
                {
                    g.dv(h, j, c) += pd * f(x.dout(h, i, c));
                    g.dq(h, i, c) += ds * f(x.k(h, j, c)) * x.scale;
                    g.dk(h, j, c) += ds * f(x.q(h, i, c)) * x.scale;
                }
            }
        }
    for(auto* t : {&g.dq, &g.dk, &g.dv})
        for(auto& v : t->mData)
            v = f(type_convert<T>(v));
    return g;
}

// [0]: the new check's verdicts (dQ, dK and dV all within their bounds), [1]: upstream's, for
// none, no_d, lse_off, ds_bf16
template <typename T>
std::vector<std::vector<bool>> run(const Problem& p)
{
    const Data<T> x     = make_data<T>(p);
    const std::size_t H = p.heads, SQ = p.sq, SK = p.sk, D = p.d;
    Grads r{HostTensor<float>({H, SQ, D}), HostTensor<float>({H, SK, D}), HostTensor<float>({H, SK, D})};
    const HostTensor<uint8_t> no_dropout({0, 0, 0});
    reference_fmha_bwd(x.q, x.k, x.v, x.o, x.dout, x.s_add, no_dropout, 255, 1.f, x.scale, r.dq, r.dk, r.dv);
    const FmhaBwdBounds e = fmha_bwd_bounds(x.q, x.k, x.v, x.o, x.dout, x.s_add, no_dropout, 255, 1.0, x.scale, 1);
    const auto upstream   = [](const HostTensor<float>& dev, const HostTensor<float>& ref) {
        double m = 1.0;
        for(const float v : ref)
            m = std::max(m, static_cast<double>(std::fabs(v)));
        return check_err(dev, ref, "(upstream's check)", 1e-2, 1e-2 * m);
    };
    std::vector<std::vector<bool>> out(2);
    for(Bug bug : {Bug::none, Bug::no_d, Bug::lse_off, Bug::ds_bf16})
    {
        const Grads g = host_kernel(x, bug);
        double w[3]   = {0, 0, 0};
        const char* m = "(a planted bug is expected to fail)";
        const bool ok = check_fmha_bound_of<T>(g.dq, r.dq, e.dq, m, &w[0], 1) &
                        check_fmha_bound_of<T>(g.dk, r.dk, e.dk, m, &w[1], 1) &
                        check_fmha_bound_of<T>(g.dv, r.dv, e.dv, m, &w[2], 1);
        if(bug == Bug::none)
            MESSAGE("correct model: largest error / allowed " << w[0] << ", " << w[1] << ", " << w[2]);
        out[0].push_back(ok);
        out[1].push_back(upstream(g.dq, r.dq) && upstream(g.dk, r.dk) && upstream(g.dv, r.dv));
    }
    return out;
}

} // namespace

TEST_CASE_TEMPLATE("fmha bwd check: dO of size 2^-6, D left out and a wrong LSE fail", T, half_t, bf16_t)
{
    // scores of size ~1 over 100 keys, 64 rows
    const auto r = run<T>({2, 64, 100, 64, 1.f, 0x1p-6f});
    CHECK(r[0][0]);       // the correct model passes
    CHECK_FALSE(r[0][1]); // D left out fails
    CHECK_FALSE(r[0][2]); // a wrong LSE fails
    CHECK(r[1][1]);       // both passed upstream's check
    CHECK(r[1][2]);
}

TEST_CASE("fmha bwd check (fp16): dS rounded through bf16 fails on rows of few keys")
{
    const auto r = run<half_t>({4, 64, 6, 64, 1.f, 0x1p-6f});
    CHECK(r[0][0]);
    CHECK_FALSE(r[0][3]);
    CHECK(r[1][3]);
}
