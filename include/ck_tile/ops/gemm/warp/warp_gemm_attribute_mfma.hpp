// SPDX-License-Identifier: MIT
// What a warp GEMM built on one MFMA instruction looks like to the tile world: the tile
// distributions of its A (M x K), B (N x K) and C (M x N) operands inside one wave, read off the
// instruction's register layout, and the call that runs it.
//
// Register layouts of the single-block wave64 MFMAs used here (facts of the hardware):
//   A: lane l holds A[l % M][(l / M) * a_per_lane + i], i < a_per_lane   (B the same with N)
//   C: lane l holds C[(r / 4) * (64 / N) * 4 + (l / N) * 4 + r % 4][l % N], r < c_per_lane
// In R/H/P/Y terms (P = lane id):
//   A: Hs = <M>, <64/M, a_per_lane>;  P = merge(K lanes, M);           Y = the a_per_lane K values
//   C: Hs = <c_per_lane/4, 64/N, 4>, <N>; P = merge(M lane group, N);  Y = (M groups of 4, 4 rows)
//
// The TransposedCDistribution variant feeds B where the instruction expects A and A where it
// expects B. The instruction then computes C transposed, so each lane holds 4 consecutive
// *columns* of one row of C: better for row-major C stores. Its C distribution is the standard
// one with M and N exchanged.
#pragma once
#include "ck_tile/core.hpp"
#include "ck_tile/core/arch/mfma.hpp"

namespace ck_tile {

template <typename Instr>
struct WarpGemmAttributeMfma
{
    using instr = Instr;
    using tr    = mfma_traits<Instr>;
    static_assert(tr::num_blocks == 1, "WarpGemmAttributeMfma: single-block instructions only");

    using ADataType = typename tr::a_type;
    using BDataType = typename tr::b_type;
    using CDataType = typename tr::c_type;

    static constexpr index_t kM = tr::M;
    static constexpr index_t kN = tr::N;
    static constexpr index_t kK = tr::K;

    static constexpr index_t kABKLane    = get_warp_size() / kM; // lanes along K
    static constexpr index_t kABKPerLane = tr::a_per_lane;       // K values per lane
    static constexpr index_t kCNLane     = kN;
    static constexpr index_t kCMLane     = get_warp_size() / kN;
    static constexpr index_t kCM1PerLane = 4;
    static constexpr index_t kCM0PerLane = tr::c_per_lane / kCM1PerLane;

    using AWarpDstrEncoding =
        tile_distribution_encoding<sequence<>, tuple<sequence<kM>, sequence<kABKLane, kABKPerLane>>,
                                   tuple<sequence<2, 1>>, tuple<sequence<0, 0>>, sequence<2>, sequence<1>>;
    using BWarpDstrEncoding =
        tile_distribution_encoding<sequence<>, tuple<sequence<kN>, sequence<kABKLane, kABKPerLane>>,
                                   tuple<sequence<2, 1>>, tuple<sequence<0, 0>>, sequence<2>, sequence<1>>;
    using CWarpDstrEncoding =
        tile_distribution_encoding<sequence<>, tuple<sequence<kCM0PerLane, kCMLane, kCM1PerLane>, sequence<kCNLane>>,
                                   tuple<sequence<1, 2>>, tuple<sequence<1, 0>>, sequence<1, 1>, sequence<0, 2>>;

    CK_TILE_DEVICE static void run(mfma_c_buffer<Instr>& c, const mfma_a_buffer<Instr>& a,
                                   const mfma_b_buffer<Instr>& b)
    {
        c = mfma<Instr>(a, b, c);
    }
};

template <typename Instr>
struct WarpGemmAttributeMfmaTransposedCDistribution
{
    using base  = WarpGemmAttributeMfma<Instr>;
    using instr = Instr;

    using ADataType = typename base::ADataType;
    using BDataType = typename base::BDataType;
    using CDataType = typename base::CDataType;

    static constexpr index_t kM = base::kN;
    static constexpr index_t kN = base::kM;
    static constexpr index_t kK = base::kK;

    // A and B keep their layouts (the instruction's A and B layouts are the same shape)
    using AWarpDstrEncoding = typename base::BWarpDstrEncoding;
    using BWarpDstrEncoding = typename base::AWarpDstrEncoding;
    // C transposed: N takes the M components and M the N component
    using CWarpDstrEncoding = tile_distribution_encoding<
        sequence<>, tuple<sequence<base::kCNLane>, sequence<base::kCM0PerLane, base::kCMLane, base::kCM1PerLane>>,
        tuple<sequence<2, 1>>, tuple<sequence<1, 0>>, sequence<2, 2>, sequence<0, 2>>;

    CK_TILE_DEVICE static void run(mfma_c_buffer<Instr>& c, const mfma_a_buffer<Instr>& a,
                                   const mfma_b_buffer<Instr>& b)
    {
        c = mfma<Instr>(b, a, c); // B where the instruction expects A: it computes C^T
    }
};

} // namespace ck_tile
