// SPDX-License-Identifier: MIT
// The emulator's own MFMA arithmetic paths, against each other (emulator backend): the baseline and
// the AVX2 arithmetic, the column-major D (the emulator's) and the row-major one (hip-cpu's), and
// the model's f16 conversion over every code.
#include <doctest/doctest.h>

#include "mfma_numeric_common.hpp"

using namespace mfma_test;
namespace emu = ck_tile::emu;

TEST_SUITE("mfma_arith")
{
#if CK_TILE_EMU_MFMA_AVX2_DISPATCH
    TEST_CASE("the baseline and the AVX2 arithmetic agree bit for bit")
    {
        if(!emu::detail::mfma_cpu_has_avx2())
        {
            MESSAGE("this CPU has no AVX2: only the baseline arithmetic runs");
            return;
        }
        unsigned seed = 500;
        auto check    = [&]<typename I>() {
            using P                = problem<I>;
            const std::string name = ck_tile::mfma_traits<I>::mnemonic;
            CAPTURE(name);
            const auto p = make_problem<I>(1, values::general, seed++);
            auto d1      = p.c;
            auto d2      = p.c;
            emu::detail::mfma_arith_default<typename P::A, typename P::B, typename P::C, P::nblk, P::M, P::N, P::K>(
                p.a.data(), p.b.data(), d1.data());
            emu::detail::mfma_arith_avx2<typename P::A, typename P::B, typename P::C, P::nblk, P::M, P::N, P::K>(
                p.a.data(), p.b.data(), d2.data());
            CHECK(std::memcmp(d1.data(), d2.data(), d1.size() * sizeof(d1[0])) == 0);
        };
        for_each_device_instr(check);
    }
#endif

    TEST_CASE("the row-major D arithmetic (hip-cpu's) gives the column-major one's bits")
    {
        unsigned seed = 600;
        auto check    = [&]<typename I>() {
            using P                = problem<I>;
            const std::string name = ck_tile::mfma_traits<I>::mnemonic;
            CAPTURE(name);
            const auto p = make_problem<I>(1, values::general, seed++);
            auto by_col  = p.c; // d[block][col][row]
            auto by_row  = p.c; // d[block][row][col]
            auto at_row  = [](index_t blk, index_t i, index_t j) { return (blk * P::M + i) * P::N + j; };
            auto at_col  = [](index_t blk, index_t i, index_t j) { return (blk * P::N + j) * P::M + i; };
            for(index_t blk = 0; blk < P::nblk; ++blk)
                for(index_t i = 0; i < P::M; ++i)
                    for(index_t j = 0; j < P::N; ++j)
                        by_row[at_row(blk, i, j)] = p.c[at_col(blk, i, j)];
            emu::detail::mfma_arith<typename P::A, typename P::B, typename P::C, P::nblk, P::M, P::N, P::K>(
                p.a.data(), p.b.data(), by_col.data());
            emu::detail::mfma_arith<typename P::A, typename P::B, typename P::C, P::nblk, P::M, P::N, P::K, true>(
                p.a.data(), p.b.data(), by_row.data());
            int differ = 0;
            for(index_t blk = 0; blk < P::nblk; ++blk)
                for(index_t i = 0; i < P::M; ++i)
                    for(index_t j = 0; j < P::N; ++j)
                        differ +=
                            std::memcmp(&by_row[at_row(blk, i, j)], &by_col[at_col(blk, i, j)], sizeof(by_col[0])) != 0;
            CHECK(differ == 0);
        };
        for_each_device_instr(check);
    }

    TEST_CASE("the model's f16 conversion is exact for all 65536 codes")
    {
        for(uint32_t h = 0; h < 0x10000u; ++h)
        {
            const float want = to_float(__builtin_bit_cast(half_t, static_cast<uint16_t>(h)));
            const float got  = emu::detail::mfma_f16_to_float(static_cast<uint16_t>(h));
            if(std::isnan(want))
                REQUIRE(std::isnan(got));
            else
                REQUIRE(std::memcmp(&want, &got, sizeof got) == 0);
        }
    }
}
