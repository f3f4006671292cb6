// SPDX-License-Identifier: MIT
// The FMHA dropout stream (block_dropout.hpp): upstream's definition, the threshold, keep rates,
// uniform bytes, and the host fill.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include "ck_tile/host/host_tensor.hpp"
#include "ck_tile/host/reference/reference_fmha_dropout_randval.hpp"
#include "ck_tile/ops/fmha/block/block_dropout.hpp"

using namespace ck_tile;

// The stream as upstream's host reference defines it (reference_batched_dropout_randval): per 32 x 32
// tile of P, 64 draws of Philox4x32 with 7 rounds, draw l at offset drop_offset + (b * nhead + h) *
// 64 + l and subsequence tile_row | tile_col << 32; byte k of draw l is element (16 (k / 8) + 8 (l /
// 32) + k % 8, l % 32) of the tile. Written out here with the philox class, independently of
// block_dropout.hpp's inversion.
TEST_CASE("randval is upstream's stream: 32x32 tiles, 64 seven-round Philox draws each")
{
    const uint64_t seed = 0x0123456789abcdefull, offset = 0xffffffffffffff00ull; // crosses 2^64
    const index_t b = 3, h = 5, nh = 7;
    for(index_t tr : {0, 1, 37})
        for(index_t tc : {0, 2, 101})
            for(index_t lane = 0; lane < 64; ++lane)
            {
                const uint64_t o  = offset + uint64_t(b * nh + h) * 64 + uint64_t(lane);
                const uint64_t ss = uint64_t(uint32_t(tr)) | (uint64_t(uint32_t(tc)) << 32);
                const auto w      = philox::philox4x32<7>(
                    array<uint32_t, 4>{{uint32_t(o), uint32_t(o >> 32), uint32_t(ss), uint32_t(ss >> 32)}},
                    array<uint32_t, 2>{{uint32_t(seed), uint32_t(seed >> 32)}});
                for(index_t k = 0; k < 16; ++k)
                {
                    const index_t row = 32 * tr + 16 * (k / 8) + 8 * (lane / 32) + k % 8;
                    const index_t col = 32 * tc + lane % 32;
                    CHECK(fmha_dropout_randval(seed, offset, b, h, nh, row, col) == uint8_t(w[k / 4] >> (8 * (k % 4))));
                }
            }
}

TEST_CASE("randval: the stream depends on seed, offset, the element and the global head index only")
{
    for(index_t row : {0, 9, 40})
        for(index_t col : {0, 31, 33})
        {
            // batch 1 head 2 of 8 and batch 0 head 10 of 8 name the same slice index (1*8+2 = 10)
            CHECK(fmha_dropout_randval(9, 0, 1, 2, 8, row, col) == fmha_dropout_randval(9, 0, 0, 10, 8, row, col));
            // the offset moves whole heads' draws: offset 64 at head 0 is offset 0 at head 1
            CHECK(fmha_dropout_randval(9, 64, 0, 0, 2, row, col) == fmha_dropout_randval(9, 0, 0, 1, 2, row, col));
        }
    int differ = 0;
    for(index_t col = 0; col < 8; ++col)
    {
        differ += fmha_dropout_randval(9, 0, 0, 0, 1, 5, col) != fmha_dropout_randval(10, 0, 0, 0, 1, 5, col);
        differ += fmha_dropout_randval(9, 0, 0, 0, 1, 5, col) != fmha_dropout_randval(9, 0, 0, 0, 1, 37, col);
        differ += fmha_dropout_randval(9, 0, 0, 0, 2, 5, col) != fmha_dropout_randval(9, 0, 0, 1, 2, 5, col);
    }
    CHECK(differ >= 20); // a byte repeats by chance with probability 1/256
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
        for(index_t c = 0; c < cols; ++c)
            ++hist[fmha_dropout_randval(42, 0, 0, 0, 1, r, c)];
    const double mean = double(rows) * cols / 256; // 512 per value, sd ~ 22.6
    double chi2       = 0;
    for(int v = 0; v < 256; ++v)
        chi2 += (hist[v] - mean) * (hist[v] - mean) / mean;
    CHECK(chi2 < 350); // 255 degrees of freedom: p(chi2 > 350) is below 1e-4
}

TEST_CASE("fmha_dropout_fill_randval (tile by tile) agrees with randval (element by element), ragged tiles too")
{
    HostTensor<uint8_t> rv({70, 37});
    fmha_dropout_fill_randval(rv, 11, 2, 1, 3, 6);
    for(std::size_t r = 0; r < 70; ++r)
        for(std::size_t c = 0; c < 37; ++c)
            CHECK(rv(r, c) == fmha_dropout_randval(11, 2, 1, 3, 6, index_t(r), index_t(c)));
    HostTensor<uint8_t> wrong({2, 3, 4});
    CHECK_THROWS_AS(fmha_dropout_fill_randval(wrong, 1, 0, 0, 0, 1), std::invalid_argument);
}
