// SPDX-License-Identifier: MIT
// Shared by the reduce and Welford tests: the tile distributions the block steps are tried on,
// a random fill, and the CPU reductions of a row-major M x N matrix along one dimension.
#pragma once
#include <cmath>
#include <random>
#include <vector>
#include "ck_tile/core.hpp"
#include "ck_tile/host.hpp"

namespace reduce_test {
using namespace ck_tile;

// One warp, no communication: 64 lanes down M, each thread holds 37 columns (odd).
//   X0 = <64 lanes>, X1 = <37 registers>
using ThreadOnly = tile_distribution_encoding<sequence<>, tuple<sequence<64>, sequence<37>>, tuple<sequence<1>>,
                                              tuple<sequence<0>>, sequence<2>, sequence<0>>;
constexpr index_t kThreadOnlyBlock = 64;

// One warp, lanes share rows: X0 = <2 registers, 8 lanes>, X1 = <8 lanes, 5 registers>; the lane
// id is merge(row lane, column lane), so reducing X1 combines lanes 1, 2, 4 apart.
using WarpLanes = tile_distribution_encoding<sequence<>, tuple<sequence<2, 8>, sequence<8, 5>>, tuple<sequence<1, 2>>,
                                             tuple<sequence<1, 0>>, sequence<1, 2>, sequence<0, 1>>;
constexpr index_t kWarpLanesBlock = 64;

// Four warps, 2 x 2: X0 = <2 warps, 16 lanes>, X1 = <2 warps, 4 lanes, 3 registers>; the warp id is
// merge(row warp, column warp) and the lane id merge(row lane, column lane).
using BlockWarps = tile_distribution_encoding<sequence<>, tuple<sequence<2, 16>, sequence<2, 4, 3>>,
                                              tuple<sequence<1, 2>, sequence<1, 2>>,
                                              tuple<sequence<0, 0>, sequence<1, 1>>, sequence<2>, sequence<2>>;
constexpr index_t kBlockWarpsBlock = 256;

inline std::vector<float> random_matrix(int M, int N, unsigned seed, float lo = -5.f, float hi = 5.f)
{
    std::mt19937 gen(seed);
    std::uniform_real_distribution<float> dist(lo, hi);
    std::vector<float> v(static_cast<std::size_t>(M) * N);
    for(auto& e : v)
        e = dist(gen);
    return v;
}

// op applied along dimension rdim (0: down the columns, 1: along the rows), in double
template <typename Op>
std::vector<double> cpu_reduce(const std::vector<float>& x, int M, int N, int rdim, Op op, double init)
{
    const int kept = rdim == 1 ? M : N, len = rdim == 1 ? N : M;
    std::vector<double> r(kept, init);
    for(int k = 0; k < kept; ++k)
        for(int i = 0; i < len; ++i)
            r[k] = op(r[k], double(rdim == 1 ? x[std::size_t(k) * N + i] : x[std::size_t(i) * N + k]));
    return r;
}

} // namespace reduce_test
