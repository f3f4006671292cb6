// SPDX-License-Identifier: MIT
// FMHA dropout: which elements of the attention probabilities P (seqlen_q x seqlen_k per batch
// and query head) are kept, and the factor the kept ones are scaled by.
//
// The random stream is upstream CK Tile's (its BlockDropout and its host reference
// reference_batched_dropout_randval): the same seed and offset give the same bytes, hence the same
// mask. P is cut into 32 x 32 tiles; tile (tr, tc) = (row / 32, col / 32) of batch b and GLOBAL
// query head h (of nhead_total heads) is filled by 64 Philox draws, "lanes" l = 0..63:
//
//   draw(l)  = philox4x32_7(counter = {lo(o), hi(o), tr, tc}, key = {lo(seed), hi(seed)}),
//              o = drop_offset + (b * nhead_total + h) * 64 + l          (uint64 arithmetic)
//   byte k (k = 0..15; little-endian within a word, word 0 first) of draw(l) is the element
//              row = 32 tr + 16 (k / 8) + 8 (l / 32) + k % 8,   col = 32 tc + l % 32
//
// i.e. philox(seed, o).get_random_16x8(subsequence = tr | tc << 32) (philox_rand.hpp, 7 rounds).
// The element's own draw and byte follow by inverting that: l = col % 32 + 32 ((row % 16) / 8),
// k = 8 ((row % 32) / 16) + row % 8 (fmha_dropout_randval). Row and column are positions inside
// the (batch, head) slice (group mode: relative to the batch's seqstart). Indexing by the global
// head makes a launch that covers some heads only (LLC head grouping) draw exactly the bits of an
// ungrouped launch. Upstream's kernels produce each draw's 16 bytes in one lane's registers (its
// warp GEMM's C layout); ours hold a row's runs of keys, so they draw once per element (the keep
// test is then 16 times the Philox work of upstream's: left as it is, see the README).
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

// The 16 bytes of draw `lane` of tile (tile_row, tile_col) (see above for the elements they fill).
// The key goes through opaque_vgpr_copy: else a kernel's loop keeps Philox's whole key schedule
// (loop-invariant words) in scalar registers.
CK_TILE_HOST_DEVICE array<uint32_t, 4> fmha_dropout_draw(uint64_t seed, uint64_t offset, index_t i_batch,
                                                         index_t i_head, index_t nhead_total, index_t tile_row,
                                                         index_t tile_col, index_t lane)
{
    const uint64_t head = static_cast<uint64_t>(static_cast<uint32_t>(i_batch) * static_cast<uint32_t>(nhead_total) +
                                                static_cast<uint32_t>(i_head));
    const uint64_t o    = offset + head * 64 + static_cast<uint64_t>(lane);
    return philox::philox4x32<philox::kRounds>(
        array<uint32_t, 4>{{static_cast<uint32_t>(o), static_cast<uint32_t>(o >> 32), static_cast<uint32_t>(tile_row),
                            static_cast<uint32_t>(tile_col)}},
        array<uint32_t, 2>{
            {opaque_vgpr_copy(static_cast<uint32_t>(seed)), opaque_vgpr_copy(static_cast<uint32_t>(seed >> 32))}});
}

// The byte of element (row, col): one draw. The byte is picked from the draw's words without
// indexing an array at run time (that would put it in scratch).
CK_TILE_HOST_DEVICE uint8_t fmha_dropout_randval(uint64_t seed, uint64_t offset, index_t i_batch, index_t i_head,
                                                 index_t nhead_total, index_t row, index_t col)
{
    const index_t i = row % 32, lane = col % 32 + 32 * ((i % 16) / 8), k = 8 * (i / 16) + i % 8;
    const array<uint32_t, 4> w =
        fmha_dropout_draw(seed, offset, i_batch, i_head, nhead_total, row / 32, col / 32, lane);
    const index_t word = k / 4;
    const uint32_t v   = word == 0 ? w[0] : word == 1 ? w[1] : word == 2 ? w[2] : w[3];
    return static_cast<uint8_t>(v >> (8 * (k % 4)));
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
    CK_TILE_HOST_DEVICE bool keep(uint8_t rv) const { return rv <= p_undrop_in_uint8_t; }
    CK_TILE_HOST_DEVICE bool keep(index_t row, index_t col) const { return keep(randval(row, col)); }
};

} // namespace ck_tile
