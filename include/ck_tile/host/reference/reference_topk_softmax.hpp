// SPDX-License-Identifier: MIT
// Top-k softmax (mixture-of-experts routing) on the host, the check of TopkSoftmaxKernel
// (upstream's name). For each row of x [tokens, experts]:
//
//   activation "softmax": p = exp(x - max x) / sum exp(x - max x) over the row, then the k
//                         largest p
//   activation "sigmoid": the k largest x, then p = 1 / (1 + exp(-x)) of those
//
// y_values[row, i] = p and y_indices[row, i] = its expert, i < k = y_values' second length,
// largest first. The ranking is by the logits x themselves (softmax and sigmoid preserve their
// order; ranking before the rounding of exp keeps equal p of different x apart), and equal
// logits rank by the lower index (a stable sort): the same indices as the kernel on any backend.
// x, y_values and y_indices may have row strides; the arithmetic is fp32.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>
#include "ck_tile/core.hpp"
#include "ck_tile/host/check_err.hpp"
#include "ck_tile/host/host_tensor.hpp"

namespace ck_tile {

template <typename InputType, typename WeightType, typename IndexType>
void reference_topk_softmax(const HostTensor<InputType>& x, HostTensor<WeightType>& y_values,
                            HostTensor<IndexType>& y_indices, const std::string& activation = "softmax")
{
    if(x.get_num_of_dimension() != 2 || y_values.get_num_of_dimension() != 2 || y_indices.get_num_of_dimension() != 2 ||
       y_values.get_length(0) != x.get_length(0) || y_indices.get_length(0) != x.get_length(0) ||
       y_indices.get_length(1) != y_values.get_length(1))
        throw std::invalid_argument("reference_topk_softmax: x is tokens x experts, y_values and y_indices tokens x k");
    if(y_values.get_length(1) < 1 || y_values.get_length(1) > x.get_length(1))
        throw std::invalid_argument("reference_topk_softmax: k must be in [1, experts]");
    const bool softmax = activation == "softmax";
    if(!softmax && activation != "sigmoid")
        throw std::invalid_argument("reference_topk_softmax: activation must be softmax or sigmoid, not " + activation);

    const std::size_t experts = x.get_length(1), k = y_values.get_length(1);
    std::vector<float> v(experts);
    std::vector<std::size_t> order(experts);
    for(std::size_t r = 0; r < x.get_length(0); ++r)
    {
        for(std::size_t e = 0; e < experts; ++e)
            v[e] = type_convert<float>(x(r, e));
        std::iota(order.begin(), order.end(), std::size_t{0});
        std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return v[a] > v[b]; });

        const float max = v[order[0]];
        float sum       = 0.f;
        if(softmax)
            for(std::size_t e = 0; e < experts; ++e)
                sum += std::exp(v[e] - max);
        for(std::size_t i = 0; i < k; ++i)
        {
            const float xi  = v[order[i]];
            const float p   = softmax ? std::exp(xi - max) / sum : 1.f / (1.f + std::exp(-xi));
            y_values(r, i)  = type_convert<WeightType>(p);
            y_indices(r, i) = static_cast<IndexType>(order[i]);
        }
    }
}

// The check_err tolerance of a kernel's fp32 weights against reference_topk_softmax, from the
// arithmetic (u = 2^-24, fp32's unit roundoff; the errors of the two sides add):
//   * x - max: one rounding at most, an absolute error |x - max| u in the exponent, a relative
//     error |x - max| u of exp; only |x - max| < 88 matters (below, exp underflows into atol);
//   * exp: within 2 ulp (4 u) on the host's libm and in the device's expansion of expf;
//   * the sum of `experts` positive terms, added in another order: within (experts - 1) u
//     relative, whatever the order (no cancellation between positive terms);
//   * the division (or the multiply by the inverse sum, 2 roundings): 2 u; sigmoid's add and
//     divide are within the same budget.
// rtol = 2 (experts + 96) u, about 2e-5 for 64 experts, where the former 1e-3 let a weight rounded
// through fp16 on the way (2^-11 relative) pass (test/topk_softmax). atol: fp32's smallest normal,
// for the weights that underflow.
inline tolerance reference_topk_softmax_tolerance(std::size_t experts)
{
    constexpr double u = 0x1p-24;
    return {2.0 * (static_cast<double>(experts) + 96.0) * u, static_cast<double>(std::numeric_limits<float>::min())};
}

} // namespace ck_tile
