// SPDX-License-Identifier: MIT
// What a warp GEMM built on one MFMA instruction looks like to the tile world: the tile
// distributions of its A (M x K), B (N x K) and C (M x N) operands inside one wave, read off the
// instruction's register layout, and the call that runs it.
//
// The encodings are read off the instruction's register layout (mfma_traits<Instr>, arch/mfma.hpp:
// a_coord / b_coord / d_coord and their parameters), for single-block instructions; in R/H/P/Y
// terms (P = lane id; G = k_lane_groups, R = d_rows_per_run):
//   A: Hs = <M>, <G, a_per_lane>;  P = merge(G, M);                  Y = the a_per_lane K values
//   B: the same with N
//   C: Hs = <d_runs, d_lane_groups, R>, <N>; P = merge(lane group, N);  Y = (run, R rows)
// test/mfma checks that each encoding gives every lane and register element the traits' coordinate.
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

    static_assert(tr::lanes == get_warp_size(), "WarpGemmAttributeMfma: the instruction's lanes are one wave");

    static constexpr index_t kABKLane    = tr::k_lane_groups;  // lane groups along K
    static constexpr index_t kABKPerLane = tr::a_per_lane;     // K values per lane
    static constexpr index_t kCNLane     = kN;                 // D: column = lane mod N
    static constexpr index_t kCMLane     = tr::d_lane_groups;  // lane groups along M
    static constexpr index_t kCM1PerLane = tr::d_rows_per_run; // consecutive rows per run
    static constexpr index_t kCM0PerLane = tr::d_runs;         // runs per lane
    static_assert(tr::b_per_lane == kABKPerLane && kABKLane * kM == tr::lanes && kABKLane * kN == tr::lanes);

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

    // run for N warp tiles in order, as one mfma_batch
    template <index_t N>
    CK_TILE_DEVICE static void run_batch(const array<mfma_c_buffer<Instr>*, N>& c,
                                         const array<const mfma_a_buffer<Instr>*, N>& a,
                                         const array<const mfma_b_buffer<Instr>*, N>& b)
    {
        array<mfma_operands<Instr>, N> ops;
        for(index_t i = 0; i < N; ++i)
            ops[i] = mfma_operands<Instr>{a[i], b[i], c[i]};
        mfma_batch<Instr, N>(ops);
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

    template <index_t N>
    CK_TILE_DEVICE static void run_batch(const array<mfma_c_buffer<Instr>*, N>& c,
                                         const array<const mfma_a_buffer<Instr>*, N>& a,
                                         const array<const mfma_b_buffer<Instr>*, N>& b)
    {
        base::template run_batch<N>(c, b, a); // B where the instruction expects A, as run
    }
};

} // namespace ck_tile

namespace ck_tile {

// WarpGemmAttributeMfmaIterateK<Instr, kKIter, kTransposeC>: a warp GEMM kKIter times as deep as
// the instruction, made of kKIter instructions in a row (upstream's ...IterateK). Each lane holds
// kKIter x a_per_lane consecutive K values of its row (one wide LDS read instead of kKIter
// narrow ones): K = <K lane groups, kKIter, a_per_lane>, and instruction i takes the i-th run of
// a_per_lane values of every lane. The instructions thus see K in another order than 0, 1, 2...,
// the same one for A and B, so the sum is the same. With kTransposeC the instructions compute C
// transposed, as in WarpGemmAttributeMfmaTransposedCDistribution, whose C distribution it has.
template <typename Instr, index_t kKIter, bool kTransposeC>
struct WarpGemmAttributeMfmaIterateK
{
    using base  = WarpGemmAttributeMfma<Instr>;
    using instr = Instr;
    using tr    = typename base::tr;

    using ADataType = typename base::ADataType;
    using BDataType = typename base::BDataType;
    using CDataType = typename base::CDataType;

    static constexpr index_t kM = kTransposeC ? base::kN : base::kM;
    static constexpr index_t kN = kTransposeC ? base::kM : base::kN;
    static constexpr index_t kK = base::kK * kKIter;

    static constexpr index_t kPerLane = base::kABKPerLane;

    template <index_t kRows>
    using ABEncoding =
        tile_distribution_encoding<sequence<>, tuple<sequence<kRows>, sequence<base::kABKLane, kKIter, kPerLane>>,
                                   tuple<sequence<2, 1>>, tuple<sequence<0, 0>>, sequence<2, 2>, sequence<1, 2>>;
    using AWarpDstrEncoding = ABEncoding<kM>;
    using BWarpDstrEncoding = ABEncoding<kN>;
    using CWarpDstrEncoding =
        std::conditional_t<kTransposeC, typename WarpGemmAttributeMfmaTransposedCDistribution<Instr>::CWarpDstrEncoding,
                           typename base::CWarpDstrEncoding>;

    CK_TILE_DEVICE static void run(mfma_c_buffer<Instr>& c, const thread_buffer<ADataType, kKIter * kPerLane>& a,
                                   const thread_buffer<BDataType, kKIter * kPerLane>& b)
    {
        static_for<0, kKIter>{}([&](auto i) {
            mfma_a_buffer<Instr> ai;
            mfma_b_buffer<Instr> bi;
            static_for<0, kPerLane>{}([&](auto j) {
                ai[j] = a[i * kPerLane + j];
                bi[j] = b[i * kPerLane + j];
            });
            if constexpr(kTransposeC)
                c = mfma<Instr>(bi, ai, c);
            else
                c = mfma<Instr>(ai, bi, c);
        });
    }
};

} // namespace ck_tile

namespace ck_tile {

// WarpGemmAttributeMfmaSwizzleK<Instr, kKIter>: a warp GEMM of kKIter instructions (or one with 8
// K values per lane) whose K order matches the *transposed C* layout of another warp GEMM, so that
// a C tile (e.g. attention's P = softmax(Q K^T)) can be the A operand without leaving registers.
// A transposed-C lane of lane group g holds runs of 4 consecutive columns at 4 g, 4 g + 4 G, ...
// (G lane groups). Here K = <runs, G, 4>: a lane's A and B values are those runs, in order, and
// the instructions see them as their own K (a permutation of K, the same for A and B, so the sum
// is unchanged). C is transposed as well (row = lane mod M, 4 consecutive columns per run).
template <typename Instr, index_t kKIter>
struct WarpGemmAttributeMfmaSwizzleK
{
    using base  = WarpGemmAttributeMfma<Instr>;
    using instr = Instr;

    using ADataType = typename base::ADataType;
    using BDataType = typename base::BDataType;
    using CDataType = typename base::CDataType;

    static constexpr index_t kM       = base::kN;
    static constexpr index_t kN       = base::kM;
    static constexpr index_t kK       = base::kK * kKIter;
    static constexpr index_t kPerLane = base::kABKPerLane * kKIter;
    static constexpr index_t kG       = base::kABKLane;
    static constexpr index_t kRuns    = kPerLane / 4;
    static_assert(kPerLane % 4 == 0 && base::kCM1PerLane == 4, "WarpGemmAttributeMfmaSwizzleK: runs of 4 values");

    template <index_t kRows>
    using ABEncoding =
        tile_distribution_encoding<sequence<>, tuple<sequence<kRows>, sequence<kRuns, kG, 4>>, tuple<sequence<2, 1>>,
                                   tuple<sequence<1, 0>>, sequence<2, 2>, sequence<0, 2>>;
    using AWarpDstrEncoding = ABEncoding<kM>;
    using BWarpDstrEncoding = ABEncoding<kN>;
    using CWarpDstrEncoding = typename WarpGemmAttributeMfmaTransposedCDistribution<Instr>::CWarpDstrEncoding;

    CK_TILE_DEVICE static void run(mfma_c_buffer<Instr>& c, const thread_buffer<ADataType, kPerLane>& a,
                                   const thread_buffer<BDataType, kPerLane>& b)
    {
        constexpr index_t n = base::kABKPerLane;
        static_for<0, kKIter>{}([&](auto i) {
            mfma_a_buffer<Instr> ai;
            mfma_b_buffer<Instr> bi;
            static_for<0, n>{}([&](auto j) {
                ai[j] = a[i * n + j];
                bi[j] = b[i * n + j];
            });
            c = mfma<Instr>(bi, ai, c); // B where the instruction expects A: C transposed
        });
    }
};

} // namespace ck_tile
