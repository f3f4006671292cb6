// SPDX-License-Identifier: MIT
// The warp GEMMs' tile distributions against the instruction's register layout: for every
// single-block instruction, standard and transposed C, the A, B and C encodings of
// WarpGemmAttributeMfma* must give every lane and register element the coordinate that
// mfma_traits' a_coord / b_coord / d_coord give it. Checked at compile time (static_assert) and
// again at run time, where a mismatch is reported with its lane and element.
#include <doctest/doctest.h>

#include <string>

#include "ck_tile/core.hpp"
#include "ck_tile/ops/gemm/warp/warp_gemm.hpp"

namespace {

using ck_tile::index_t;
namespace mi = ck_tile::mfma_instr;

template <typename... Is>
struct instr_list
{};

// Every single-block instruction (the warp GEMMs take no multi-block ones).
using single_block_instrs =
    instr_list<mi::v_mfma_f32_32x32x8_f16, mi::v_mfma_f32_16x16x16_f16, mi::v_mfma_f32_32x32x8_bf16,
               mi::v_mfma_f32_16x16x16_bf16, mi::v_mfma_i32_32x32x16_i8, mi::v_mfma_i32_16x16x32_i8,
               mi::v_mfma_f32_32x32x16_fp8_fp8, mi::v_mfma_f32_16x16x32_fp8_fp8, mi::v_mfma_f32_32x32x16_bf8_bf8,
               mi::v_mfma_f32_16x16x32_bf8_bf8, mi::v_mfma_f32_32x32x2_f32, mi::v_mfma_f32_16x16x4_f32,
               mi::v_mfma_f32_32x32x16_f16, mi::v_mfma_f32_16x16x32_f16, mi::v_mfma_f32_32x32x16_bf16,
               mi::v_mfma_f32_16x16x32_bf16, mi::v_mfma_i32_32x32x32_i8, mi::v_mfma_i32_16x16x64_i8,
               mi::v_mfma_f32_32x32x64_f8f6f4_fp8, mi::v_mfma_f32_16x16x128_f8f6f4_fp8,
               mi::v_mfma_f32_32x32x64_f8f6f4_bf8, mi::v_mfma_f32_16x16x128_f8f6f4_bf8>;

struct xy
{
    index_t x0; // first tile dimension (M of A and C, N of B)
    index_t x1; // second (K of A and B, N of C)
    friend constexpr bool operator==(const xy&, const xy&) = default;
};

// The first (lane * per_lane + e) whose coordinate through Encoding differs from want(lane, e),
// or -1 if none does (nor does the number of registers per lane).
template <typename Encoding, index_t PerLane, typename Want>
constexpr index_t first_mismatch(Want want)
{
    using dstr = decltype(ck_tile::make_static_tile_distribution(Encoding{}));
    if(dstr::get_thread_buffer_size() != PerLane)
        return 0;
    for(index_t lane = 0; lane < ck_tile::get_warp_size(); ++lane)
    {
        ck_tile::multi_index<1> ps{};
        ps[0]         = lane;
        const auto x0 = dstr::calculate_index(ps);
        for(index_t e = 0; e < PerLane; ++e)
        {
            const auto dx = dstr::d_to_x_offset(e);
            if(!(xy{x0[0] + dx[0], x0[1] + dx[1]} == want(lane, e)))
                return lane * PerLane + e;
        }
    }
    return -1;
}

// For the warp GEMM of I, standard or transposed C: the first mismatch of its A, B and C encodings.
template <typename I, bool Transposed>
struct warp_gemm_check
{
    using tr   = ck_tile::mfma_traits<I>;
    using attr = std::conditional_t<Transposed, ck_tile::WarpGemmAttributeMfmaTransposedCDistribution<I>,
                                    ck_tile::WarpGemmAttributeMfma<I>>;

    // The instruction's A as an M x K tile and its B as an N x K one (the warp GEMM's B is K-minor).
    static constexpr xy instr_a(index_t l, index_t e)
    {
        const auto c = tr::a_coord(l, e);
        return {c.row, c.col};
    }
    static constexpr xy instr_b(index_t l, index_t e)
    {
        const auto c = tr::b_coord(l, e);
        return {c.col, c.row};
    }
    static constexpr xy instr_d(index_t l, index_t e)
    {
        const auto c = tr::d_coord(l, e);
        return Transposed ? xy{c.col, c.row} : xy{c.row, c.col};
    }

    // Transposed, the warp GEMM's A is the instruction's B operand and its B the instruction's A.
    static constexpr index_t a = first_mismatch<typename attr::AWarpDstrEncoding, tr::a_per_lane>(
        [](index_t l, index_t e) { return Transposed ? instr_b(l, e) : instr_a(l, e); });
    static constexpr index_t b = first_mismatch<typename attr::BWarpDstrEncoding, tr::b_per_lane>(
        [](index_t l, index_t e) { return Transposed ? instr_a(l, e) : instr_b(l, e); });
    static constexpr index_t c = first_mismatch<typename attr::CWarpDstrEncoding, tr::c_per_lane>(
        [](index_t l, index_t e) { return instr_d(l, e); });
    static constexpr bool ok = a < 0 && b < 0 && c < 0;
};

template <typename... Is>
constexpr bool all_match(instr_list<Is...>)
{
    return ((warp_gemm_check<Is, false>::ok && warp_gemm_check<Is, true>::ok) && ...);
}
static_assert(all_match(single_block_instrs{}), "a warp GEMM encoding differs from its instruction's layout");

std::string where(index_t mismatch, index_t per_lane)
{
    return mismatch < 0
               ? "none"
               : "lane " + std::to_string(mismatch / per_lane) + " element " + std::to_string(mismatch % per_lane);
}

template <typename... Is>
void check_all(instr_list<Is...>)
{
    auto one = []<typename I, bool T>() {
        using chk              = warp_gemm_check<I, T>;
        using tr               = ck_tile::mfma_traits<I>;
        const std::string name = std::string(tr::mnemonic) + (T ? " transposed C" : "");
        CAPTURE(name);
        CHECK_MESSAGE(chk::a < 0, "A: first mismatch at " << where(chk::a, tr::a_per_lane));
        CHECK_MESSAGE(chk::b < 0, "B: first mismatch at " << where(chk::b, tr::b_per_lane));
        CHECK_MESSAGE(chk::c < 0, "C: first mismatch at " << where(chk::c, tr::c_per_lane));
    };
    (one.template operator()<Is, false>(), ...);
    (one.template operator()<Is, true>(), ...);
}

} // namespace

TEST_CASE("warp GEMM encodings reproduce the instruction's register layout") { check_all(single_block_instrs{}); }

TEST_CASE("a wrong encoding is caught")
{
    // the standard C encoding read as if it were the transposed layout
    using I        = mi::v_mfma_f32_32x32x8_f16;
    using tr       = ck_tile::mfma_traits<I>;
    using enc      = ck_tile::WarpGemmAttributeMfma<I>::CWarpDstrEncoding;
    const auto bad = first_mismatch<enc, tr::c_per_lane>([](index_t l, index_t e) {
        const auto c = tr::d_coord(l, e);
        return xy{c.col, c.row};
    });
    CHECK(bad == 1); // lane 0: element 0 is (0,0) either way, element 1 is (1,0) against (0,1)
}

namespace {
// WarpGemmAttributeMfmaIterateK<narrow instruction, n>: the operand layout of the instruction n
// times as deep (n x the K values per lane), standard and transposed C, with the C layout of the
// narrow one.
template <typename Half, typename Wide, bool Transposed>
struct iterate_k_check
{
    using wide                 = warp_gemm_check<Wide, Transposed>;
    using half                 = warp_gemm_check<Half, Transposed>;
    using wtr                  = ck_tile::mfma_traits<Wide>;
    using htr                  = ck_tile::mfma_traits<Half>;
    using attr                 = ck_tile::WarpGemmAttributeMfmaIterateK<Half, wtr::K / htr::K, Transposed>;
    static constexpr index_t a = first_mismatch<typename attr::AWarpDstrEncoding, wtr::a_per_lane>(
        [](index_t l, index_t e) { return Transposed ? wide::instr_b(l, e) : wide::instr_a(l, e); });
    static constexpr index_t b = first_mismatch<typename attr::BWarpDstrEncoding, wtr::b_per_lane>(
        [](index_t l, index_t e) { return Transposed ? wide::instr_a(l, e) : wide::instr_b(l, e); });
    static constexpr index_t c = first_mismatch<typename attr::CWarpDstrEncoding, htr::c_per_lane>(
        [](index_t l, index_t e) { return half::instr_d(l, e); });
    static constexpr bool ok = a < 0 && b < 0 && c < 0 && attr::kK == wtr::K;
};
static_assert(iterate_k_check<mi::v_mfma_f32_16x16x16_f16, mi::v_mfma_f32_16x16x32_f16, false>::ok &&
                  iterate_k_check<mi::v_mfma_f32_16x16x16_f16, mi::v_mfma_f32_16x16x32_f16, true>::ok &&
                  iterate_k_check<mi::v_mfma_f32_16x16x16_bf16, mi::v_mfma_f32_16x16x32_bf16, true>::ok &&
                  iterate_k_check<mi::v_mfma_f32_32x32x8_bf16, mi::v_mfma_f32_32x32x16_bf16, false>::ok &&
                  iterate_k_check<mi::v_mfma_f32_32x32x8_f16, mi::v_mfma_f32_32x32x16_f16, true>::ok &&
                  iterate_k_check<mi::v_mfma_i32_32x32x16_i8, mi::v_mfma_i32_32x32x32_i8, false>::ok &&
                  iterate_k_check<mi::v_mfma_i32_16x16x32_i8, mi::v_mfma_i32_16x16x64_i8, true>::ok &&
                  iterate_k_check<mi::v_mfma_f32_32x32x16_fp8_fp8, mi::v_mfma_f32_32x32x64_f8f6f4_fp8, false>::ok &&
                  iterate_k_check<mi::v_mfma_f32_16x16x32_fp8_fp8, mi::v_mfma_f32_16x16x128_f8f6f4_fp8, true>::ok &&
                  iterate_k_check<mi::v_mfma_f32_32x32x16_bf8_bf8, mi::v_mfma_f32_32x32x64_f8f6f4_bf8, true>::ok,
              "an IterateK warp GEMM's operand layout differs from the double-K instruction's");
} // namespace

TEST_CASE("narrow MFMAs in a row (WarpGemmAttributeMfmaIterateK) take the deeper instruction's operand layout")
{
    CHECK(iterate_k_check<mi::v_mfma_f32_16x16x32_bf8_bf8, mi::v_mfma_f32_16x16x128_f8f6f4_bf8, false>::ok);
    CHECK(iterate_k_check<mi::v_mfma_i32_16x16x32_i8, mi::v_mfma_i32_16x16x64_i8, false>::ok);
    CHECK(iterate_k_check<mi::v_mfma_f32_16x16x16_f16, mi::v_mfma_f32_16x16x32_f16, false>::ok);
    CHECK(iterate_k_check<mi::v_mfma_f32_16x16x16_bf16, mi::v_mfma_f32_16x16x32_bf16, true>::ok);
    CHECK(iterate_k_check<mi::v_mfma_f32_32x32x8_f16, mi::v_mfma_f32_32x32x16_f16, false>::ok);
    CHECK(iterate_k_check<mi::v_mfma_f32_32x32x8_bf16, mi::v_mfma_f32_32x32x16_bf16, true>::ok);
}

namespace {
// WarpGemmAttributeMfmaSwizzleK<Instr, kKIter>: K taken in runs of 4 (<runs, lane groups, 4>):
// lane l (group g = l / M) holds, for run r, the K values r * 4 G + 4 g .. + 3 of its row. That is
// (1) a permutation of K, the same for A and B, so the GEMM is unchanged, and (2) exactly the
// columns a lane holds in the transposed C layout of a square warp GEMM (C tile by C tile), which
// is what lets attention's P = softmax(Q K^T) feed the second GEMM from registers.
template <typename Instr, index_t KIter>
struct swizzle_k_check
{
    using attr                 = ck_tile::WarpGemmAttributeMfmaSwizzleK<Instr, KIter>;
    using tr                   = ck_tile::mfma_traits<Instr>;
    static constexpr index_t M = attr::kM, K = attr::kK, G = ck_tile::get_warp_size() / attr::kM;
    static constexpr index_t per_lane = attr::kPerLane;

    static constexpr xy want(index_t l, index_t e) { return {l % M, (e / 4) * 4 * G + 4 * (l / M) + e % 4}; }

    // every K value once per row
    static constexpr bool k_is_a_permutation()
    {
        for(index_t row = 0; row < M; ++row)
        {
            index_t seen[128] = {};
            for(index_t g = 0; g < G; ++g)
                for(index_t e = 0; e < per_lane; ++e)
                    ++seen[want(g * M + row, e).x1];
            for(index_t k = 0; k < K; ++k)
                if(seen[k] != 1)
                    return false;
        }
        return K <= 128;
    }

    // the transposed C tile (M x M) of the same instruction: lane l's columns for key chunk c
    static constexpr bool c_holds_every_a_value()
    {
        using cdstr = decltype(ck_tile::make_static_tile_distribution(typename attr::CWarpDstrEncoding{}));
        for(index_t l = 0; l < ck_tile::get_warp_size(); ++l)
        {
            ck_tile::multi_index<1> ps{};
            ps[0]         = l;
            const auto c0 = cdstr::calculate_index(ps);
            for(index_t chunk = 0; chunk < M / K; ++chunk)
                for(index_t e = 0; e < per_lane; ++e)
                {
                    const index_t col = chunk * K + want(l, e).x1;
                    bool held         = false;
                    for(index_t d = 0; d < cdstr::get_thread_buffer_size(); ++d)
                        held = held || (c0[0] + cdstr::d_to_x_offset(d)[0] == l % M &&
                                        c0[1] + cdstr::d_to_x_offset(d)[1] == col);
                    if(!held)
                        return false;
                }
        }
        return true;
    }
    static constexpr bool ok()
    {
        return first_mismatch<typename attr::AWarpDstrEncoding, per_lane>(want) < 0 &&
               first_mismatch<typename attr::BWarpDstrEncoding, per_lane>(want) < 0 && k_is_a_permutation() &&
               c_holds_every_a_value();
    }
};
} // namespace

TEST_CASE("WarpGemmAttributeMfmaSwizzleK: K in runs of 4, a permutation that matches the transposed C layout")
{
    CHECK(swizzle_k_check<mi::v_mfma_f32_32x32x8_f16, 2>::ok());  // gfx942's 32x32x16 fp16
    CHECK(swizzle_k_check<mi::v_mfma_f32_32x32x16_f16, 1>::ok()); // gfx950's
    CHECK(swizzle_k_check<mi::v_mfma_f32_32x32x8_bf16, 2>::ok());
    CHECK(swizzle_k_check<mi::v_mfma_f32_16x16x16_f16, 2>::ok());
    CHECK(swizzle_k_check<mi::v_mfma_f32_16x16x32_bf16, 1>::ok());
    CHECK(swizzle_k_check<mi::v_mfma_f32_32x32x16_fp8_fp8, 1>::ok());
    CHECK(swizzle_k_check<mi::v_mfma_f32_16x16x32_fp8_fp8, 1>::ok());
    // the plain K order (IterateK's) is not that layout: P would not feed it from registers
    using plain = ck_tile::WarpGemmAttributeMfmaIterateK<mi::v_mfma_f32_32x32x8_f16, 2, true>;
    CHECK(first_mismatch<plain::AWarpDstrEncoding, 8>(swizzle_k_check<mi::v_mfma_f32_32x32x8_f16, 2>::want) >= 0);
}
