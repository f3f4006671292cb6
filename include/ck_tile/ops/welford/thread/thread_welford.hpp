// SPDX-License-Identifier: MIT
// Welford's running mean and variance, one value at a time, and the merge of two partial states
// (Chan et al.'s pairwise formula, weighted by the counts).
//
// The state is (mean, m2, count): m2 is the sum of squared deviations from the mean, so the
// population variance is m2 / count (block_tile_welford_post_scale_var does that division once at
// the end; upstream names the m2 argument `var`).
//
//   welford_update(mean, m2, x, count)   count is the number of values *including* x
//   welford_merge(mean_a, m2_a, count_a, mean_b, m2_b, count_b)
//       delta = mean_b - mean_a, n = count_a + count_b
//       mean  = mean_a + delta * count_b / n
//       m2    = m2_a + m2_b + delta^2 * count_a * count_b / n
//     An empty side (count 0) leaves the other unchanged; two empty sides stay empty.
#pragma once
#include "ck_tile/core.hpp"

namespace ck_tile {

template <typename T>
CK_TILE_HOST_DEVICE void welford_update(T& mean, T& var, T x, int count)
{
    const T delta = x - mean;
    mean += delta / type_convert<T>(count);
    var += delta * (x - mean); // the old deviation times the new one: the m2 increment
}

template <typename T>
CK_TILE_HOST_DEVICE void welford_merge(T& mean_a, T& var_a, int& count_a, T mean_b, T var_b, int count_b)
{
    const int count = count_a + count_b;
    // b's share of the merged count; 0 when both are empty (nothing moves)
    const T b_share = count == 0 ? T(0) : type_convert<T>(count_b) / type_convert<T>(count);
    const T delta   = mean_b - mean_a;
    mean_a += delta * b_share;
    var_a += var_b + delta * delta * type_convert<T>(count_a) * b_share;
    count_a = count;
}

} // namespace ck_tile
