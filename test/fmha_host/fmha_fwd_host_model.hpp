// SPDX-License-Identifier: MIT
// A host model of the forward kernel's arithmetic for the tests of its O check
// (test_fmha_tolerance.cpp: fp16 / bf16; test_fmha_fp8_tolerance.cpp: fp8): an online softmax over
// blocks of 32 keys that rounds the unnormalised P (relative to the running max, times scale_p) to
// P's type before the row sum is known, accumulates P V in fp32 and divides by the row sum at the
// end (times scale_o), with one of the bugs the tests plant.
#pragma once
#include <algorithm>
#include <cmath>
#include <vector>
#include "ck_tile/core.hpp"
#include "ck_tile/host.hpp"

namespace fmha_test {

enum class Bug
{
    none,
    skip_block, // keys 32 .. 63 never visited
    exp2_scale, // P = exp2(s - m) where exp(s - m) is meant: the scale is off by ln 2
    p_bf16,     // P rounded to bf16 before P's type
};

// O [H, sq, dv] from the scaled scores s [H, sq, sk] and V [H, dv, sk]; P and O of type T
template <typename T>
ck_tile::HostTensor<T> online_softmax_pv(const ck_tile::HostTensor<float>& s, const ck_tile::HostTensor<T>& v, Bug bug,
                                         float scale_p = 1.f, float scale_o = 1.f)
{
    using ck_tile::type_convert;
    const std::size_t H = s.get_length(0), SQ = s.get_length(1), SK = s.get_length(2), DV = v.get_length(1);
    ck_tile::HostTensor<T> out({H, SQ, DV});
    std::vector<float> acc(DV);
    for(std::size_t h = 0; h < H; ++h)
        for(std::size_t i = 0; i < SQ; ++i)
        {
            float m = -INFINITY, l = 0;
            std::fill(acc.begin(), acc.end(), 0.f);
            for(std::size_t j0 = 0; j0 < SK; j0 += 32)
            {
                if(bug == Bug::skip_block && j0 == 32)
                    continue;
                const std::size_t j1 = std::min(SK, j0 + 32);
                float m_new          = m;
                for(std::size_t j = j0; j < j1; ++j)
                    m_new = std::max(m_new, s(h, i, j));
                const float rescale = std::isfinite(m) ? std::exp(m - m_new) : 0.f;
                l *= rescale;
                for(auto& a : acc)
                    a *= rescale;
                for(std::size_t j = j0; j < j1; ++j)
                {
                    const float t  = s(h, i, j) - m_new;
                    const float pu = bug == Bug::exp2_scale ? std::exp2(t) : std::exp(t);
                    l += pu;
                    // P rounded to P's type before the row sum is known
                    const float pr = bug == Bug::p_bf16 ? type_convert<float>(type_convert<ck_tile::bf16_t>(pu)) : pu;
                    const float pq = type_convert<float>(type_convert<T>(pr * scale_p));
                    for(std::size_t d = 0; d < DV; ++d)
                        acc[d] += pq * type_convert<float>(v(h, d, j));
                }
                m = m_new;
            }
            for(std::size_t d = 0; d < DV; ++d)
                out(h, i, d) = type_convert<T>(acc[d] / l * scale_o);
        }
    return out;
}

} // namespace fmha_test
