// SPDX-License-Identifier: MIT
#include <doctest/doctest.h>

#include <cstdint>
#include "ck_tile/core/utility/philox_rand.hpp"

using ck_tile::array;
using ck_tile::philox;
using u32x4 = array<uint32_t, 4>;
using u32x2 = array<uint32_t, 2>;

// Known-answer vectors of Random123's kat_vectors file: counter, key, expected output.
struct kat
{
    u32x4 ctr;
    u32x2 key;
    u32x4 out;
};

constexpr kat kat10[] = {
    {{{0, 0, 0, 0}}, {{0, 0}}, {{0x6627e8d5u, 0xe169c58du, 0xbc57ac4cu, 0x9b00dbd8u}}},
    {{{0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu}},
     {{0xffffffffu, 0xffffffffu}},
     {{0x408f276du, 0x41c83b0eu, 0xa20bc7c6u, 0x6d5451fdu}}},
    {{{0x243f6a88u, 0x85a308d3u, 0x13198a2eu, 0x03707344u}},
     {{0xa4093822u, 0x299f31d0u}},
     {{0xd16cfe09u, 0x94fdccebu, 0x5001e420u, 0x24126ea1u}}},
};

constexpr kat kat7[] = {
    {{{0, 0, 0, 0}}, {{0, 0}}, {{0x5f6fb709u, 0x0d893f64u, 0x4f121f81u, 0x4f730a48u}}},
    {{{0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu}},
     {{0xffffffffu, 0xffffffffu}},
     {{0x5207ddc2u, 0x45165e59u, 0x4d8ee751u, 0x8c52f662u}}},
    {{{0x243f6a88u, 0x85a308d3u, 0x13198a2eu, 0x03707344u}},
     {{0xa4093822u, 0x299f31d0u}},
     {{0x4dfccabau, 0x190a87f0u, 0xc47362bau, 0xb6b5242au}}},
};

// the generator is usable in constant expressions: the first vector checked at compile time
static_assert(philox::philox4x32_10(kat10[0].ctr, kat10[0].key) == kat10[0].out);
static_assert(philox::philox4x32_10(kat10[2].ctr, kat10[2].key) == kat10[2].out);

TEST_CASE("philox4x32_10 matches Random123's known answers")
{
    for(const kat& k : kat10)
    {
        const u32x4 r = philox::philox4x32_10(k.ctr, k.key);
        for(int i = 0; i < 4; ++i)
            CHECK(r[i] == k.out[i]);
    }
}

TEST_CASE("philox4x32<7> matches Random123's known answers (upstream CK's round count)")
{
    for(const kat& k : kat7)
        CHECK(philox::philox4x32<7>(k.ctr, k.key) == k.out);
}

TEST_CASE("philox object: counter = {offset, subsequence}, key = seed, 7 rounds as upstream")
{
    // the pi vector expressed as seed / subsequence / offset
    const uint64_t seed   = (uint64_t(0x299f31d0u) << 32) | 0xa4093822u;
    const uint64_t offset = (uint64_t(0x85a308d3u) << 32) | 0x243f6a88u;
    const uint64_t subseq = (uint64_t(0x03707344u) << 32) | 0x13198a2eu;
    CHECK(philox(seed, subseq, offset).get_philox_4x32() == kat7[2].out);
    CHECK(philox(seed, offset).get_philox_4x32(subseq) == kat7[2].out);
    CHECK(philox(seed, 12345, offset).get_philox_4x32(subseq) == kat7[2].out); // explicit wins

    uint8_t b16[16];
    philox(seed, offset).get_random_16x8(b16, subseq);
    for(int i = 0; i < 16; ++i)
        CHECK(b16[i] == uint8_t(kat7[2].out[i / 4] >> (8 * (i % 4))));
    CHECK(b16[0] == 0xba);
    CHECK(b16[3] == 0x4d);

    uint8_t b8[8];
    philox(seed, offset).get_random_8x8(b8, subseq, 3, 1);
    for(int i = 0; i < 4; ++i)
    {
        CHECK(b8[i] == b16[12 + i]);
        CHECK(b8[4 + i] == b16[4 + i]);
    }
    uint8_t b4[4];
    philox(seed, offset).get_random_4x8(b4, subseq, 2);
    for(int i = 0; i < 4; ++i)
        CHECK(b4[i] == b16[8 + i]);
}

TEST_CASE("philox: distinct counters give distinct, balanced bits")
{
    // a crude sanity check of the mixing: over 4096 blocks each output bit is set about half the time
    int ones[128] = {};
    for(uint32_t i = 0; i < 4096; ++i)
    {
        const u32x4 r = philox::philox4x32_10(u32x4{{i, 0, 7, 0}}, u32x2{{1, 0}});
        for(int b = 0; b < 128; ++b)
            ones[b] += (r[b / 32] >> (b % 32)) & 1u;
    }
    for(int b = 0; b < 128; ++b)
    {
        CHECK(ones[b] > 2048 - 200);
        CHECK(ones[b] < 2048 + 200);
    }
}
