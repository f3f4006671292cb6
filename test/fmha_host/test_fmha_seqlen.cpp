// SPDX-License-Identifier: MIT
#include <doctest/doctest.h>

#include <numeric>
#include <vector>
#include "example/ck_tile/01_fmha/utils.hpp"

using vec = std::vector<int32_t>;

static int64_t sum(const vec& v) { return std::accumulate(v.begin(), v.end(), int64_t(0)); }

TEST_CASE("to_seqstarts: prefix sums starting at 0")
{
    CHECK(to_seqstarts({}) == vec{0});
    CHECK(to_seqstarts({3, 0, 5}) == vec{0, 3, 3, 8});
}

TEST_CASE("generate_seqlens: batch mode is uniform, group mode keeps the sum and the bounds")
{
    CHECK(generate_seqlens(mode_enum::batch, 4, 100) == vec{100, 100, 100, 100});
    CHECK(generate_seqlens(mode_enum::batch, 2, 100, 1, 64) == vec{64, 64});
    CHECK(generate_seqlens(mode_enum::group, 1, 100, 1, -1, 3u) == vec{100});

    const vec a = generate_seqlens(mode_enum::group, 8, 100, 1, -1, 7u);
    CHECK(a.size() == 8);
    CHECK(sum(a) == 800);
    CHECK(a != vec(8, 100)); // reshaped
    for(int32_t x : a)
        CHECK(x >= 1);
    CHECK(generate_seqlens(mode_enum::group, 8, 100, 1, -1, 7u) == a); // a seed reproduces
    CHECK(generate_seqlens(mode_enum::group, 8, 100, 1, -1, 8u) != a);

    const vec b = generate_seqlens(mode_enum::group, 6, 20, 15, 25, 1u);
    CHECK(sum(b) == 120);
    for(int32_t x : b)
    {
        CHECK(x >= 15);
        CHECK(x <= 25);
    }
    const vec c = generate_seqlens(mode_enum::group, 5, 1, 1, -1, 1u); // nothing can move
    CHECK(c == vec(5, 1));
    CHECK_THROWS_AS(generate_seqlens(mode_enum::group, 0, 10), std::invalid_argument);
}

TEST_CASE("decode_seqlen: batch mode takes single values only")
{
    auto [q, k, kp] = decode_seqlen(mode_enum::batch, 3, "128", "-1");
    CHECK(q == vec{128, 128, 128});
    CHECK(k == vec{128, 128, 128});
    CHECK(kp == vec{-1, -1, -1});
    auto [q2, k2, kp2] = decode_seqlen(mode_enum::batch, 2, "64", "256");
    CHECK(q2 == vec{64, 64});
    CHECK(k2 == vec{256, 256});
    CHECK_THROWS_AS(decode_seqlen(mode_enum::batch, 3, "1,2,3", "-1"), std::invalid_argument);
    CHECK_THROWS_AS(decode_seqlen(mode_enum::batch, 3, "8", "1,2"), std::invalid_argument);
}

TEST_CASE("decode_seqlen: group mode lists, missing entries, sums")
{
    {
        auto [q, k, kp] = decode_seqlen(mode_enum::group, 3, "55,33,7", "-1", "-1", 1u);
        CHECK(q == vec{55, 33, 7});
        CHECK(k == vec{55, 33, 7});
        CHECK(kp == vec{-1, -1, -1});
    }
    {
        auto [q, k, kp] = decode_seqlen(mode_enum::group, 3, "55,33,7", "60,40,10", "-1", 1u);
        CHECK(k == vec{60, 40, 10});
    }
    {
        auto [q, k, kp] = decode_seqlen(mode_enum::group, 3, "55,33,7", "100", "-1", 1u);
        CHECK(k == vec{100, 100, 100}); // one -s_k entry applies to every given -s entry
    }
    {
        // one value for 5 batches: the first is kept, the other 4 start at it and are reshaped
        auto [q, k, kp] = decode_seqlen(mode_enum::group, 5, "100", "-1", "-1", 11u);
        CHECK(q.size() == 5);
        CHECK(q[0] == 100);
        CHECK(sum(q) == 500);
        CHECK(q != vec(5, 100));
        CHECK(k == q); // same start, same seed: same lengths
        for(int32_t x : q)
            CHECK(x >= 1);
        auto [q2, k2, kp2] = decode_seqlen(mode_enum::group, 5, "100", "-1", "-1", 11u);
        CHECK(q2 == q); // deterministic with a seed
    }
    {
        // 2 given of 6: the 4 missing start at the last given value (7)
        auto [q, k, kp] = decode_seqlen(mode_enum::group, 6, "40,7", "50,9", "-1", 5u);
        CHECK(q[0] == 40);
        CHECK(q[1] == 7);
        CHECK(sum(q) == 40 + 7 * 5);
        CHECK(k[0] == 50);
        CHECK(k[1] == 9);
        CHECK(sum(k) == 50 + 9 * 5);
    }
    {
        // padded K: generated K lengths stay within the pad
        auto [q, k, kp] = decode_seqlen(mode_enum::group, 6, "64", "64", "80", 2u);
        CHECK(kp == vec(6, 80));
        CHECK(sum(k) == 64 * 6);
        for(int32_t x : k)
            CHECK(x <= 80);
    }
}

TEST_CASE("decode_seqlen: malformed lists throw")
{
    for(const char* bad : {"", ",", "1,,2", "1,2,", ",1", "a", "12b", "-5", "-1", "1.5", " 1", "1 ", "9999999999"})
        CHECK_THROWS_AS(decode_seqlen(mode_enum::group, 4, bad, "-1"), std::invalid_argument);
    CHECK_THROWS_AS(decode_seqlen(mode_enum::group, 2, "1,2,3", "-1"), std::invalid_argument); // > batch
    CHECK_THROWS_AS(decode_seqlen(mode_enum::group, 4, "1,2,3", "4,5"), std::invalid_argument);
    CHECK_THROWS_AS(decode_seqlen(mode_enum::group, 4, "1,2", "-2"), std::invalid_argument);
    CHECK_THROWS_AS(decode_seqlen(mode_enum::group, 4, "10", "-1", "5"), std::invalid_argument); // pad < s_k
    CHECK_THROWS_AS(decode_seqlen(mode_enum::group, 0, "10", "-1"), std::invalid_argument);
    CHECK_NOTHROW(decode_seqlen(mode_enum::group, 4, "1,2", "-1,-1"));
}
