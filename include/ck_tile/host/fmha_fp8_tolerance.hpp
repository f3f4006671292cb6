// SPDX-License-Identifier: MIT
// The check of the fp8 output of tile_example_fmha_fwd (static quantization) against its host
// reference, derived per element from the softmax and V instead of a flat |diff| <= 16 (32 with
// OCP fp8), which on data of small |V| accepted any output.
//
//   const HostTensor<double> e = fmha_fp8_o_bound<PDataType>(s_ref, v_ref, scale_p, scale_o);
//   bool pass = check_fmha_fp8_o(o_dev, o_ref, e, "OUT mismatch", &worst);
//
// Why this bound. O_id = scale_o sum_j P_ij V_jd with P the softmax of the fp32 scores s (scale,
// bias, mask applied) scaled by scale_p into fp8's range. Kernel and reference round P to fp8 at
// different points:
//   * the kernel (online softmax) rounds the unnormalised P_u,j = exp(s_ij - m) scale_p, m the
//     running row max, and divides by the row sum l (of the unrounded values, relative to the
//     final max, so l >= 1) at the end; a later larger max rescales earlier terms by a factor
//     below 1, which only shrinks their rounding errors;
//   * the reference rounds the normalised P_ij = Phat_ij scale_p.
// A rounding to fp8 (e4m3: 3 mantissa bits) is off by at most 2^-4 of the value in the normal
// range and by at most half the subnormal spacing, hs (FNUZ: 2^-11; OCP: 2^-10), below it. Summed
// over the keys and scaled, the two O values before their last rounding are at most
//   E_id = scale_o [2 (2^-4 + k) scale_p sum_j Phat_ij |V_jd| + hs (1 + 1 / l_i) sum_j |V_jd|]
// apart (j over the keys the mask leaves), Phat the exact softmax of the fp32 scores (computed
// here in double). k = 2^-10 covers what the fp32 arithmetic adds: scores of kernel and reference
// summed in different orders and exp2 against exp, a relative difference of P of about
// |s| 2^-24 sqrt(d), 1e-4 at the |s| ~ 100 of full-range fp8 data. Each side then rounds its O to
// fp8, at most half a step of its result away, so an element passes when
//   |o - r| <= E + (step(|o|) + step(|r|)) / 2.
// E is about 2^-3 of the weighted mean of |V| (times scale_o scale_p): for the example's full-range
// V (uniform up to 240) and spread attention ~15, no tighter than the former flat atol 16, which is
// one step at the top of FNUZ fp8's range; much tighter where |V| is small and on the small elements
// of one-hot rows. A bug that drops a block of keys or uses a wrong softmax scale then fails where
// the former check accepted any output: test/fmha_host/test_fmha_fp8_tolerance.cpp plants both.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <iostream>
#include <string>
#include <vector>
#include "ck_tile/core.hpp"
#include "ck_tile/host/host_tensor.hpp"
#include "ck_tile/host/ulp.hpp"

namespace ck_tile {

// see above: E [H, sq, dv] from the scores s [H, sq, sk] (-inf where masked) and V [H, dv, sk]
template <typename PDataType, typename VDataType>
HostTensor<double> fmha_fp8_o_bound(const HostTensor<float>& s, const HostTensor<VDataType>& v, double scale_p,
                                    double scale_o)
{
    constexpr double kFp32 = 0x1p-10;
    const double rel       = ulp_at<PDataType>(1.0) / 2 + kFp32; // half a step at 1, relative
    const double hs        = ulp_at<PDataType>(0.0) / 2;         // half the subnormal spacing
    const std::size_t H = s.get_length(0), SQ = s.get_length(1), SK = s.get_length(2), DV = v.get_length(1);
    HostTensor<double> e({H, SQ, DV});
    std::vector<double> p(SK);
    for(std::size_t h = 0; h < H; ++h)
        for(std::size_t i = 0; i < SQ; ++i)
        {
            double m = -INFINITY;
            for(std::size_t j = 0; j < SK; ++j)
                m = std::max(m, static_cast<double>(s(h, i, j)));
            double l = 0;
            for(std::size_t j = 0; j < SK; ++j)
                l += (p[j] = std::isfinite(m) ? std::exp(static_cast<double>(s(h, i, j)) - m) : 0.0);
            for(std::size_t d = 0; d < DV; ++d)
            {
                double weighted = 0, total = 0;
                for(std::size_t j = 0; j < SK; ++j)
                {
                    if(p[j] == 0 && !std::isfinite(s(h, i, j)))
                        continue; // a masked key: neither side reads it
                    const double av = std::fabs(static_cast<double>(type_convert<float>(v(h, d, j))));
                    weighted += p[j] / l * av;
                    total += av;
                }
                e(h, i, d) = l > 0 ? scale_o * (2 * rel * scale_p * weighted + hs * (1 + 1 / l) * total) : 0.0;
            }
        }
    return e;
}

// see above: every element of o within E plus the two final half steps of r; prints the first
// mismatches and returns false otherwise. worst (optional) gets the largest |o - r| / allowed.
template <typename ODataType>
bool check_fmha_fp8_o(const HostTensor<ODataType>& o, const HostTensor<ODataType>& r, const HostTensor<double>& e,
                      const std::string& msg, double* worst = nullptr)
{
    std::size_t n_err = 0;
    double w          = 0;
    for(std::size_t n = 0; n < r.mData.size(); ++n)
    {
        const double ov = type_convert<float>(o.mData[n]), rv = type_convert<float>(r.mData[n]);
        const double allowed = e.mData[n] + (ulp_at<ODataType>(ov) + ulp_at<ODataType>(rv)) / 2;
        const double err     = std::fabs(ov - rv);
        if(!(err <= allowed)) // NaN fails too
        {
            if(n_err++ == 0)
                std::cerr << msg << "\n";
            if(n_err <= 5)
                std::cerr << "  [" << n << "] out " << ov << ", ref " << rv << ", allowed " << allowed << "\n";
        }
        w = std::max(w, err / allowed);
    }
    if(n_err > 0)
        std::cerr << "check_fmha_fp8_o: " << n_err << " of " << r.mData.size() << " elements differ\n";
    if(worst != nullptr)
        *worst = w;
    return n_err == 0;
}

} // namespace ck_tile
