// SPDX-License-Identifier: MIT
// reference_fmha_bwd against finite differences: with O = softmax(scale Q K^T + s_add) V (a
// causal mask in s_add, one fully masked row) and the loss L = sum(dO * O), the gradients of L
// with respect to Q, K and V are what the reference returns as dQ, dK, dV. The forward here is a
// plain double-precision loop, independent of the kernels' code; without dropout (its mask is a
// constant factor per score, covered by the example's cases).
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <random>
#include "ck_tile/core.hpp"
#include "ck_tile/host.hpp"
#include "ck_tile/host/reference/reference_fmha_bwd.hpp"

using namespace ck_tile;

namespace {
constexpr std::size_t H = 2, SQ = 5, SK = 7, D = 4, DV = 3;
constexpr float kScale = 0.6f;

// L = sum over h, i, c of dO * O, O from the attention of q, k, v in double
double loss(const HostTensor<float>& q, const HostTensor<float>& k, const HostTensor<float>& v,
            const HostTensor<float>& s_add, const HostTensor<float>& dout, HostTensor<float>* o_out = nullptr)
{
    double l_total = 0;
    for(std::size_t h = 0; h < H; ++h)
        for(std::size_t i = 0; i < SQ; ++i)
        {
            double s[SK], m = -std::numeric_limits<double>::infinity(), sum = 0;
            for(std::size_t j = 0; j < SK; ++j)
            {
                double x = 0;
                for(std::size_t c = 0; c < D; ++c)
                    x += double(q(h, i, c)) * k(h, j, c);
                s[j] = kScale * x + s_add(h, i, j);
                m    = std::max(m, s[j]);
            }
            for(std::size_t j = 0; j < SK; ++j)
            {
                s[j] = std::isinf(m) ? 0.0 : std::exp(s[j] - m);
                sum += s[j];
            }
            for(std::size_t c = 0; c < DV; ++c)
            {
                double o = 0;
                for(std::size_t j = 0; j < SK; ++j)
                    o += (sum > 0 ? s[j] / sum : 0.0) * v(h, j, c);
                if(o_out)
                    (*o_out)(h, i, c) = static_cast<float>(o);
                l_total += o * dout(h, i, c);
            }
        }
    return l_total;
}
} // namespace

TEST_CASE("reference_fmha_bwd: dQ, dK, dV are the finite-difference gradients of sum(dO * O)")
{
    std::mt19937 gen(7);
    std::uniform_real_distribution<float> u(-1.f, 1.f);
    HostTensor<float> q({H, SQ, D}), k({H, SK, D}), v({H, SK, DV}), dout({H, SQ, DV}), o({H, SQ, DV});
    HostTensor<float> s_add({H, SQ, SK});
    for(auto* t : {&q, &k, &v, &dout})
        for(auto& x : *t)
            x = u(gen);
    // a bottom-right causal mask plus a small bias; row 0 of head 1 sees nothing
    for(std::size_t h = 0; h < H; ++h)
        for(std::size_t i = 0; i < SQ; ++i)
            for(std::size_t j = 0; j < SK; ++j)
                s_add(h, i, j) =
                    (j > i + SK - SQ || (h == 1 && i == 0)) ? -std::numeric_limits<float>::infinity() : 0.1f * u(gen);
    loss(q, k, v, s_add, dout, &o);

    HostTensor<float> dq({H, SQ, D}), dk({H, SK, D}), dv({H, SK, DV});
    HostTensor<uint8_t> no_dropout(std::vector<std::size_t>{0, 0, 0});
    reference_fmha_bwd(q, k, v, o, dout, s_add, no_dropout, 255, 1.f, kScale, dq, dk, dv);

    const double eps = 1e-3;
    const auto check = [&](HostTensor<float>& x, const HostTensor<float>& grad, const char* what) {
        double worst = 0;
        for(std::size_t n = 0; n < x.get_element_space_size(); ++n)
        {
            // central differences over the float steps actually taken
            const float keep = x.data()[n];
            const float up = keep + float(eps), down = keep - float(eps);
            x.data()[n]     = up;
            const double lp = loss(q, k, v, s_add, dout);
            x.data()[n]     = down;
            const double lm = loss(q, k, v, s_add, dout);
            x.data()[n]     = keep;
            worst           = std::max(worst, std::abs((lp - lm) / (double(up) - double(down)) - grad.data()[n]));
        }
        CAPTURE(what);
        CHECK(worst < 1e-6); // seen: 1e-8 to 4e-8
    };
    check(q, dq, "dQ");
    check(k, dk, "dK");
    check(v, dv, "dV");
    // the fully masked row gets no gradient
    for(std::size_t c = 0; c < D; ++c)
        CHECK(dq(1, 0, c) == 0.f);
    // and a wrong scale is caught: the check is not vacuous
    HostTensor<float> dq_bad({H, SQ, D}), dk_bad({H, SK, D}), dv_bad({H, SK, DV});
    reference_fmha_bwd(q, k, v, o, dout, s_add, no_dropout, 255, 1.f, kScale * 1.05f, dq_bad, dk_bad, dv_bad);
    double diff = 0;
    for(std::size_t n = 0; n < dq.get_element_space_size(); ++n)
        diff = std::max(diff, double(std::abs(dq_bad.data()[n] - dq.data()[n])));
    CHECK(diff > 1e-3);
}
