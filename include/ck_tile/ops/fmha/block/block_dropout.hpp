// SPDX-License-Identifier: MIT
// FMHA dropout: which elements of the attention probabilities P (seqlen_q x seqlen_k per batch
// and query head) are kept, and the factor the kept ones are scaled by.
//
// The random stream is OUR definition, not upstream's. Upstream CK derives each byte from the
// wave lane and the warp-GEMM tile that happen to produce it, so its bits depend on the kernel's
// tiling; we index by element instead, so that
//   - the host reference reproduces every byte with a plain loop over (row, col), and
//   - a launch that covers only some heads (LLC head grouping) or only some rows/columns draws
//     exactly the bits an ungrouped launch draws for the same element: grouped and ungrouped
//     outputs agree bit for bit.
//
//   randval(row, col) of batch i_batch and GLOBAL query head i_head (of nhead_total heads) is
//   byte (col % 16) of philox4x32_10(counter, key), bytes little-endian within a word, word 0 first:
//     counter = {lo32(c), hi32(c), uint32(row), uint32(i_batch * nhead_total + i_head)},
//     c       = drop_offset + col / 16 (uint64 arithmetic),
//     key     = {lo32(seed), hi32(seed)}.
// One Philox call gives the 16 bytes of columns 16*j .. 16*j+15 of a row; a kernel fetches them
// with fmha_dropout_randval16 and picks the bytes its thread owns. This is philox(seed,
// offset + j).get_philox_4x32(subsequence = row | (head_index << 32)) in philox_rand.hpp's terms.
// Row and column are positions inside the (batch, head) slice: in group mode, relative to the
// batch's seqstart, not to the packed tensor.
//
// Keep rule and threshold, as upstream's FMHA (confirmed in its kernel arguments and host
// reference): p_undrop = 1 - p_drop, p_undrop_in_uint8_t = uint8_t(floor(p_undrop * 255)),
// an element is kept iff randval <= p_undrop_in_uint8_t, and kept elements are scaled by
// rp_undrop = 1 / p_undrop. The keep probability is therefore (threshold + 1) / 256, which is
// 1 - p_drop to within 1/256 (p_drop = 0 keeps everything).
#pragma once
#include "ck_tile/core/config.hpp"
#include "ck_tile/core/arch/arch.hpp"
#include "ck_tile/core/container/array.hpp"
#include "ck_tile/core/numeric/integer.hpp"
#include "ck_tile/core/utility/philox_rand.hpp"

namespace ck_tile {

// The counter of the Philox block that holds columns 16*col16 .. 16*col16+15 of row `row`.
CK_TILE_HOST_DEVICE constexpr array<uint32_t, 4> fmha_dropout_counter(uint64_t offset, index_t i_batch, index_t i_head,
                                                                      index_t nhead_total, index_t row, index_t col16)
{
    const uint64_t c = offset + static_cast<uint64_t>(static_cast<uint32_t>(col16));
    // unsigned arithmetic: wraps modulo 2^32 like the definition, never signed overflow
    const uint32_t head =
        static_cast<uint32_t>(i_batch) * static_cast<uint32_t>(nhead_total) + static_cast<uint32_t>(i_head);
    return array<uint32_t, 4>{
        {static_cast<uint32_t>(c), static_cast<uint32_t>(c >> 32), static_cast<uint32_t>(row), head}};
}

// Bytes of columns 16*col16 .. 16*col16+15 of row `row`: one Philox call.
CK_TILE_HOST_DEVICE array<uint8_t, 16> fmha_dropout_randval16(uint64_t seed, uint64_t offset, index_t i_batch,
                                                              index_t i_head, index_t nhead_total, index_t row,
                                                              index_t col16)
{
    // the key through opaque_vgpr_copy: else a kernel's loop keeps Philox's whole key schedule
    // (18 loop-invariant words) in scalar registers
    const array<uint32_t, 4> r =
        philox::philox4x32_10(fmha_dropout_counter(offset, i_batch, i_head, nhead_total, row, col16),
                              array<uint32_t, 2>{{opaque_vgpr_copy(static_cast<uint32_t>(seed)),
                                                  opaque_vgpr_copy(static_cast<uint32_t>(seed >> 32))}});
    array<uint8_t, 16> bytes{};
#pragma unroll
    for(index_t i = 0; i < 16; ++i)
        bytes[i] = static_cast<uint8_t>(r[i / 4] >> (8 * (i % 4)));
    return bytes;
}

// The byte of one element (a whole Philox call for one byte: for the host and for tests).
CK_TILE_HOST_DEVICE uint8_t fmha_dropout_randval(uint64_t seed, uint64_t offset, index_t i_batch, index_t i_head,
                                                 index_t nhead_total, index_t row, index_t col)
{
    const array<uint32_t, 4> r =
        philox::philox4x32_10(fmha_dropout_counter(offset, i_batch, i_head, nhead_total, row, col / 16),
                              array<uint32_t, 2>{{static_cast<uint32_t>(seed), static_cast<uint32_t>(seed >> 32)}});
    const index_t b = col % 16;
    return static_cast<uint8_t>(r[b / 4] >> (8 * (b % 4)));
}

// upstream's threshold: floor(p_undrop * 255) with p_undrop = 1 - p_drop, both in float as
// upstream computes them (in double, 0.2f would give 203, not upstream's 204). Clamped first
// (p_drop outside [0, 1] or NaN must not reach an undefined float-to-integer conversion); for
// values >= 0 the conversion's truncation is the floor.
CK_TILE_HOST_DEVICE constexpr uint8_t fmha_dropout_p_undrop_in_uint8(float p_drop)
{
    const float p_undrop = 1.0f - p_drop;
    const float v        = p_undrop * 255.0f;
    return static_cast<uint8_t>(!(v > 0.0f) ? 0.0f : (v > 255.0f ? 255.0f : v));
}

// The kernel's choice when dropout is compiled out.
struct NullBlockDropout
{
    static constexpr bool IsDropout = false;
};

// The dropout state of one (batch, global head): an aggregate, so a kernel fills it from its
// arguments; make() computes the derived fields from p_drop on the host.
struct BlockDropout
{
    static constexpr bool IsDropout = true;

    uint64_t seed;
    uint64_t offset;
    index_t i_batch;
    index_t i_head;      // global query head (head_start + local head in a grouped launch)
    index_t nhead_total; // all query heads of the problem, not just this launch's
    uint8_t p_undrop_in_uint8_t;
    float rp_undrop;

    CK_TILE_HOST_DEVICE static BlockDropout make(float p_drop, uint64_t seed, uint64_t offset, index_t i_batch,
                                                 index_t i_head, index_t nhead_total)
    {
        return BlockDropout{
            seed, offset, i_batch, i_head, nhead_total, fmha_dropout_p_undrop_in_uint8(p_drop), 1.0f / (1.0f - p_drop)};
    }

    CK_TILE_HOST_DEVICE uint8_t randval(index_t row, index_t col) const
    {
        return fmha_dropout_randval(seed, offset, i_batch, i_head, nhead_total, row, col);
    }
    CK_TILE_HOST_DEVICE array<uint8_t, 16> randval16(index_t row, index_t col16) const
    {
        return fmha_dropout_randval16(seed, offset, i_batch, i_head, nhead_total, row, col16);
    }
    CK_TILE_HOST_DEVICE bool keep(uint8_t rv) const { return rv <= p_undrop_in_uint8_t; }
    CK_TILE_HOST_DEVICE bool keep(index_t row, index_t col) const { return keep(randval(row, col)); }
};

} // namespace ck_tile
