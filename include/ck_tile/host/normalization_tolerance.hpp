// SPDX-License-Identifier: MIT
// The check_err tolerance of the output of a row normalization (layernorm, rmsnorm and their
// fused variants), derived from the arithmetic instead of a fixed 1e-2, so that a kernel whose
// statistics are slightly wrong (a reduction that skips a column, a variance divided by n - 1)
// fails the check rather than hiding below it.
//
//   const double s     = normalization_scale(x, gamma, &beta, epsilon, /*centered=*/true);
//   const tolerance t  = normalization_tolerance<YDataType>(n, s);
//   check_err(y, y_ref, msg, t.rtol, t.atol);
//
// Why this bound. Kernel and reference evaluate the same fp32 formula; they differ only in the
// order of the row reduction (lanes, then a tree across lanes and warps, against the
// reference's column order), and each rounds its fp32 result once to Y:
//   * rounding: two round-to-nearest conversions of nearly equal fp32 values land at most one
//     unit in the last place of Y apart, i.e. at most 2^(1 - p) |y| for p significand bits
//     (fp16 2^-10, bf16 2^-7): rtol = roundings * numeric<Y>::epsilon(). A value in Y's
//     subnormal range rounds to a fixed absolute spacing instead: min() * epsilon() joins atol.
//   * accumulation: reordering an fp32 reduction of n terms changes it by about sqrt(n) u
//     (u = 2^-24) times the size of the terms, because the rounding errors of random data have
//     random signs (the probabilistic bound of Higham & Mary; the worst case, n u, needs
//     adversarial inputs and would hide an O(1/n) bug such as an n - 1 divisor beyond n ~ 2000).
//     The error of the mean and of 1/std (both relative to the row's largest |x| times
//     1 / std) reaches y multiplied by |gamma|; the factor kAccumulationSafety covers the
//     kernel and the reference erring in opposite directions, the merge of partial statistics
//     and the tail of the distribution. The few fp32 operations per element that follow (subtract,
//     two multiplies, add) add kElementwiseOps u of the same magnitude, and there |beta| counts too,
//     since y = t * gamma + beta can cancel: the error is relative to the terms, not to |y|.
//   atol = (kAccumulationSafety sqrt(n) + kElementwiseOps) u scale + Y's subnormal spacing,
//   scale = max over rows (max |x| / std) * max |gamma| + max |beta|  (normalization_scale).
// A bug that moves y by more than atol on any element whose |y| is small enough for rtol |y| to
// stay below it fails; the tests in test/layernorm2d and test/rmsnorm2d plant such bugs.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <iostream>
#include <string>
#include "ck_tile/core.hpp"
#include "ck_tile/host/check_err.hpp"
#include "ck_tile/host/host_tensor.hpp"

namespace ck_tile {

// see above: the check_err {rtol, atol} of a normalization output of type Y over rows of n
// elements; scale bounds the magnitude of the terms y is computed from (normalization_scale);
// roundings: how many times the value is rounded to Y on the way (2 for the T5-like rmsnorm,
// which rounds x / rms to the input type before multiplying by gamma)
template <typename YDataType>
tolerance normalization_tolerance(std::size_t n, double scale, int roundings = 1)
{
    constexpr double kAccumulationSafety = 8;
    constexpr double kElementwiseOps     = 4;
    constexpr double u                   = 0x1p-24; // fp32 unit roundoff
    const double ulp                     = static_cast<double>(type_convert<float>(numeric<YDataType>::epsilon()));
    const double subnormal_spacing       = static_cast<double>(type_convert<float>(numeric<YDataType>::min())) * ulp;
    return {roundings * ulp, (kAccumulationSafety * std::sqrt(static_cast<double>(n)) + kElementwiseOps) * u * scale +
                                 subnormal_spacing};
}

// max over rows m of max_n |x[m, n]| * inv[m], with inv[m] = 1 / sqrt(var[m] + epsilon) for a
// centered normalization (layernorm) or 1 / sqrt(mean of x^2 + epsilon) otherwise (rmsnorm): the
// largest normalized value a row could have, and the size of the reduction's terms relative to
// the row's spread. Computed here in double, independently of the reference under test.
template <typename XDataType>
double normalized_magnitude(const HostTensor<XDataType>& x, double epsilon, bool centered)
{
    const std::size_t M = x.get_length(0), N = x.get_length(1);
    double r = 0;
    for(std::size_t m = 0; m < M; ++m)
    {
        double sum = 0, sum_sq = 0, max_abs = 0;
        for(std::size_t n = 0; n < N; ++n)
        {
            const double v = static_cast<double>(type_convert<float>(x(m, n)));
            sum += v;
            sum_sq += v * v;
            max_abs = std::max(max_abs, std::fabs(v));
        }
        const double mean = centered ? sum / N : 0.0;
        const double den  = std::max(sum_sq / N - mean * mean, 0.0) + epsilon;
        if(den > 0)
            r = std::max(r, max_abs / std::sqrt(den));
    }
    return r;
}

// the scale of normalization_tolerance: normalized_magnitude(x) * max |gamma| + max |beta|
// (beta may be null)
template <typename XDataType, typename GammaDataType, typename BetaDataType = GammaDataType>
double normalization_scale(const HostTensor<XDataType>& x, const HostTensor<GammaDataType>& gamma,
                           const HostTensor<BetaDataType>* beta, double epsilon, bool centered)
{
    return normalized_magnitude(x, epsilon, centered) * max_abs_value(gamma.mData) +
           (beta != nullptr ? max_abs_value(beta->mData) : 0.0);
}

// check_unbiased_rounding(out, ref, n, msg): the second check of a purely multiplicative
// normalization (rmsnorm: y = x / rms * gamma, no beta to cancel against). A wrong statistic
// there (a sum of squares over n - 1, or one that skips a column) scales every y of a row by the
// same factor 1 + d with |d| ~ 1/(2n), below one ulp of fp16 beyond n ~ 512 and of bf16 beyond
// n ~ 64: no element moves by more than the ulp the element-wise check must allow. It does move
// them all the same way, though: the elements whose rounding differs from the reference's
// (|out| one step above or below |ref|) all step up, or all down. A correct kernel's fp32 results
// scatter around the reference's with no preferred direction (round to nearest is unbiased), so
// its up and down steps are two halves of a fair coin: their difference stays within 6 standard
// deviations, 6 sqrt(up + down), and within the share of elements a relative fp32 bias of the
// size normalization_tolerance allows could tip (kernels may use an rsqrt a few fp32 ulps off).
// Fails when the net share of steps is above both.
template <typename YDataType>
bool check_unbiased_rounding(const HostTensor<YDataType>& out, const HostTensor<YDataType>& ref, std::size_t n,
                             const std::string& msg)
{
    std::size_t up = 0, down = 0, count = 0;
    for(std::size_t i = 0; i < ref.mData.size(); ++i)
    {
        const double o = type_convert<float>(out.mData[i]), r = type_convert<float>(ref.mData[i]);
        if(r == 0 || !std::isfinite(r) || !std::isfinite(o))
            continue;
        ++count;
        if(std::fabs(o) > std::fabs(r) && o * r > 0)
            ++up;
        else if(std::fabs(o) < std::fabs(r) && o * r >= 0)
            ++down;
    }
    if(count == 0)
        return true;
    const double net   = std::fabs(static_cast<double>(up) - static_cast<double>(down));
    const tolerance t  = normalization_tolerance<YDataType>(n, 1.0);
    const double share = t.atol / (t.rtol / 2) * count; // fp32 relative bias over Y's half ulp
    if(net <= 6 * std::sqrt(static_cast<double>(up + down)) || net <= share)
        return true;
    std::cerr << msg << "\ncheck_unbiased_rounding: " << up << " of " << count << " elements round above the "
              << "reference in magnitude, " << down << " below: a systematic scaling of y\n";
    return false;
}

} // namespace ck_tile
