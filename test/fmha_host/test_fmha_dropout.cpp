// SPDX-License-Identifier: MIT
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include "ck_tile/host/host_tensor.hpp"
#include "ck_tile/host/reference/reference_fmha_dropout_randval.hpp"
#include "ck_tile/ops/fmha/block/block_dropout.hpp"

using namespace ck_tile;

TEST_CASE("randval follows its definition: byte col%16 of philox4x32_10 at counter offset + col/16")
{
    const uint64_t seed = 0x0123456789abcdefull, offset = 0xfffffffffffffff0ull; // c crosses 2^64
    const index_t b = 3, h = 5, nh = 7, row = 1234;
    for(index_t col = 0; col < 1024; col += 7)
    {
        const uint64_t c = offset + uint64_t(col / 16);
        const auto r     = philox::philox4x32_10(
            array<uint32_t, 4>{{uint32_t(c), uint32_t(c >> 32), uint32_t(row), uint32_t(b * nh + h)}},
            array<uint32_t, 2>{{uint32_t(seed), uint32_t(seed >> 32)}});
        const int k = col % 16;
        CHECK(fmha_dropout_randval(seed, offset, b, h, nh, row, col) == uint8_t(r[k / 4] >> (8 * (k % 4))));
    }
}

TEST_CASE("randval16 agrees with randval, and the philox object gives the same block")
{
    const uint64_t seed = 1, offset = 0;
    for(index_t row : {0, 1, 63, 4095})
        for(index_t col16 : {0, 1, 2, 100})
        {
            const auto bytes = fmha_dropout_randval16(seed, offset, 1, 2, 8, row, col16);
            for(index_t j = 0; j < 16; ++j)
                CHECK(bytes[j] == fmha_dropout_randval(seed, offset, 1, 2, 8, row, col16 * 16 + j));
            uint8_t ph[16];
            philox(seed, offset + col16).get_random_16x8(ph, uint64_t(row) | (uint64_t(1 * 8 + 2) << 32));
            for(index_t j = 0; j < 16; ++j)
                CHECK(bytes[j] == ph[j]);
        }
}

TEST_CASE("randval: the stream depends on seed, offset, row and the global head index only")
{
    // batch 1 head 2 of 8 and batch 0 head 10 of 8 name the same slice index (1*8+2 = 10)
    CHECK(fmha_dropout_randval16(9, 0, 1, 2, 8, 5, 3) == fmha_dropout_randval16(9, 0, 0, 10, 8, 5, 3));
    // offset shifts the column blocks: offset 1 at block 0 is offset 0 at block 1
    CHECK(fmha_dropout_randval16(9, 1, 0, 0, 1, 5, 0) == fmha_dropout_randval16(9, 0, 0, 0, 1, 5, 1));
    int differ = 0;
    differ += !(fmha_dropout_randval16(9, 0, 0, 0, 1, 5, 0) == fmha_dropout_randval16(10, 0, 0, 0, 1, 5, 0));
    differ += !(fmha_dropout_randval16(9, 0, 0, 0, 1, 5, 0) == fmha_dropout_randval16(9, 0, 0, 0, 1, 6, 0));
    differ += !(fmha_dropout_randval16(9, 0, 0, 0, 2, 5, 0) == fmha_dropout_randval16(9, 0, 0, 1, 2, 5, 0));
    CHECK(differ == 3);
}

TEST_CASE("threshold and scale as upstream: floor((1 - p) * 255), keep iff randval <= threshold")
{
    CHECK(fmha_dropout_p_undrop_in_uint8(0.0f) == 255);
    CHECK(fmha_dropout_p_undrop_in_uint8(1.0f) == 0);
    CHECK(fmha_dropout_p_undrop_in_uint8(0.2f) == 204);
    CHECK(fmha_dropout_p_undrop_in_uint8(0.5f) == 127);
    CHECK(fmha_dropout_p_undrop_in_uint8(0.1f) == 229);
    CHECK(fmha_dropout_p_undrop_in_uint8(-0.5f) == 255); // clamped, not undefined
    CHECK(fmha_dropout_p_undrop_in_uint8(1.5f) == 0);

    const BlockDropout d = BlockDropout::make(0.2f, 7, 3, 1, 2, 4);
    CHECK(BlockDropout::IsDropout);
    CHECK_FALSE(NullBlockDropout::IsDropout);
    CHECK(d.p_undrop_in_uint8_t == 204);
    CHECK(d.rp_undrop == doctest::Approx(1.25));
    CHECK(d.keep(uint8_t(204)));
    CHECK_FALSE(d.keep(uint8_t(205)));
    for(index_t col = 0; col < 64; ++col)
        CHECK(d.keep(9, col) == (fmha_dropout_randval(7, 3, 1, 2, 4, 9, col) <= 204));
}

TEST_CASE("keep rate is about 1 - p_drop")
{
    for(float p : {0.0f, 0.1f, 0.2f, 0.5f, 0.9f})
    {
        const BlockDropout d = BlockDropout::make(p, 0x5eedull, 17, 0, 3, 8);
        const int rows = 256, cols = 256;
        int kept = 0;
        for(index_t r = 0; r < rows; ++r)
            for(index_t c = 0; c < cols; ++c)
                kept += d.keep(r, c);
        const double rate     = double(kept) / (rows * cols);
        const double expected = (d.p_undrop_in_uint8_t + 1) / 256.0; // exact keep probability
        CHECK(std::abs(rate - expected) < 0.01);
        CHECK(std::abs(rate - (1.0 - p)) < 0.01 + 1.0 / 256);
    }
}

TEST_CASE("byte values are uniform over 0..255")
{
    int hist[256]  = {};
    const int rows = 128, cols = 1024;
    for(index_t r = 0; r < rows; ++r)
        for(index_t c16 = 0; c16 < cols / 16; ++c16)
            for(uint8_t v : fmha_dropout_randval16(42, 0, 0, 0, 1, r, c16))
                ++hist[v];
    const double mean = double(rows) * cols / 256; // 512 per value, sd ~ 22.6
    double chi2       = 0;
    for(int v = 0; v < 256; ++v)
        chi2 += (hist[v] - mean) * (hist[v] - mean) / mean;
    CHECK(chi2 < 350); // 255 degrees of freedom: p(chi2 > 350) is below 1e-4
}

TEST_CASE("fmha_dropout_fill_randval fills every element, including a ragged last block")
{
    HostTensor<uint8_t> rv({5, 37});
    fmha_dropout_fill_randval(rv, 11, 2, 1, 3, 6);
    for(std::size_t r = 0; r < 5; ++r)
        for(std::size_t c = 0; c < 37; ++c)
            CHECK(rv(r, c) == fmha_dropout_randval(11, 2, 1, 3, 6, index_t(r), index_t(c)));
    HostTensor<uint8_t> wrong({2, 3, 4});
    CHECK_THROWS_AS(fmha_dropout_fill_randval(wrong, 1, 0, 0, 0, 1), std::invalid_argument);
}
