// SPDX-License-Identifier: MIT
// reference_fmha_bwd: the attention backward of one batch on the host, in float.
//
//   q [H, sq, d], k [H, sk, d], v [H, sk, dv]   K and V already per query head (GQA expanded)
//   o, dout [H, sq, dv]                         the forward's output (with dropout) and dO
//   s_add [H, sq, sk]                           what the forward adds to scale * Q K^T: bias or
//                                               ALiBi, and -inf where the mask hides a score
//   randval [H, sq, sk] (empty: no dropout)     the dropout bytes; kept iff <= p_undrop_in_uint8
//
//   S = scale Q K^T + s_add, P = softmax(S) (0 in a row with no visible score),
//   Pd = P keep rp_undrop, dV = Pd^T dO, dP = (dO V^T) keep rp_undrop, D = rowsum(dO * O),
//   dS = P (dP - D), dQ = scale dS K, dK = scale dS^T Q
//
// dq [H, sq, d], dk [H, sk, d], dv [H, sk, dv] are written (per query head; a GQA caller sums dk
// and dv over the query heads of a K/V head).
#pragma once
#include <cmath>
#include <limits>
#include <vector>
#include "ck_tile/core.hpp"
#include "ck_tile/host/host_tensor.hpp"

namespace ck_tile {

template <typename QDataType, typename KDataType, typename VDataType, typename ODataType, typename OGradDataType>
void reference_fmha_bwd(const HostTensor<QDataType>& q, const HostTensor<KDataType>& k, const HostTensor<VDataType>& v,
                        const HostTensor<ODataType>& o, const HostTensor<OGradDataType>& dout,
                        const HostTensor<float>& s_add, const HostTensor<uint8_t>& randval, uint8_t p_undrop_in_uint8,
                        float rp_undrop, float scale, HostTensor<float>& dq, HostTensor<float>& dk,
                        HostTensor<float>& dv)
{
    const std::size_t H = q.get_length(0), sq = q.get_length(1), d = q.get_length(2);
    const std::size_t sk = k.get_length(1), dvn = v.get_length(2);
    const bool dropout = randval.get_element_space_size() > 0;
    const auto f       = [](auto x) { return type_convert<float>(x); };
    std::fill(dq.begin(), dq.end(), 0.f);
    std::fill(dk.begin(), dk.end(), 0.f);
    std::fill(dv.begin(), dv.end(), 0.f);

    std::vector<float> p(sk), dp(sk);
    for(std::size_t h = 0; h < H; ++h)
        for(std::size_t i = 0; i < sq; ++i)
        {
            // S and its softmax (a row with every score -inf gets P = 0, as the forward's LSE = -inf)
            float m = -std::numeric_limits<float>::infinity();
            for(std::size_t j = 0; j < sk; ++j)
            {
                float s = 0.f;
                for(std::size_t c = 0; c < d; ++c)
                    s += f(q(h, i, c)) * f(k(h, j, c));
                p[j] = scale * s + s_add(h, i, j);
                m    = std::max(m, p[j]);
            }
            float l = 0.f;
            for(std::size_t j = 0; j < sk; ++j)
            {
                p[j] = m == -std::numeric_limits<float>::infinity() ? 0.f : std::exp(p[j] - m);
                l += p[j];
            }
            float dd = 0.f;
            for(std::size_t c = 0; c < dvn; ++c)
                dd += f(dout(h, i, c)) * f(o(h, i, c));
            for(std::size_t j = 0; j < sk; ++j)
            {
                p[j]            = l > 0.f ? p[j] / l : 0.f;
                const bool keep = !dropout || randval(h, i, j) <= p_undrop_in_uint8;
                const float r   = dropout ? (keep ? rp_undrop : 0.f) : 1.f;
                float dpd       = 0.f;
                for(std::size_t c = 0; c < dvn; ++c)
                {
                    dpd += f(dout(h, i, c)) * f(v(h, j, c));
                    dv(h, j, c) += p[j] * r * f(dout(h, i, c));
                }
                dp[j] = p[j] * (dpd * r - dd); // dS
            }
            for(std::size_t j = 0; j < sk; ++j)
                for(std::size_t c = 0; c < d; ++c)
                {
                    dq(h, i, c) += scale * dp[j] * f(k(h, j, c));
                    dk(h, j, c) += scale * dp[j] * f(q(h, i, c));
                }
        }
}

} // namespace ck_tile
