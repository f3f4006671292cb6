// SPDX-License-Identifier: MIT
// philox: the Philox4x32 counter-based random number generator (Salmon, Moraes, Dror, Shaw,
// "Parallel random numbers: as easy as 1, 2, 3", SC 2011). A counter-based generator has no state
// to carry between calls: output = bijection(counter, key), so any thread can compute the random
// bits of any element directly from the element's coordinates, and the host can reproduce them.
//
// One call maps a 128-bit counter {c0, c1, c2, c3} and a 64-bit key {k0, k1} to 128 random bits.
// Each round multiplies c0 by 0xD2511F53 and c2 by 0xCD9E8D57 (full 64-bit products) and mixes
// the halves with c1, c3 and the key; between rounds the key is bumped by the Weyl constants
// 0x9E3779B9 and 0xBB67AE85. philox4x32_10 (10 rounds) is the variant whose known-answer vectors
// Random123 publishes; our tests check against them.
//
// The class keeps upstream CK Tile's name and accessors (get_philox_4x32, get_random_16x8/8x8/4x8)
// with the counter laid out as upstream does: {lo(offset), hi(offset), lo(subsequence),
// hi(subsequence)}, key {lo(seed), hi(seed)}, and upstream's 7 rounds (kRounds), so its bits are
// upstream's (FMHA dropout depends on that); philox4x32_10 is the standard 10-round function.
// Random123 publishes known answers for both; our tests check them. Everything is
// constexpr-friendly integer arithmetic, with no memory beyond the registers of the result.
#pragma once
#include "ck_tile/core/config.hpp"
#include "ck_tile/core/container/array.hpp"
#include "ck_tile/core/numeric/integer.hpp"

namespace ck_tile {

struct philox
{
    static constexpr uint32_t kMulA  = 0xD2511F53u; // multiplies counter word 0
    static constexpr uint32_t kMulB  = 0xCD9E8D57u; // multiplies counter word 2
    static constexpr uint32_t kWeylA = 0x9E3779B9u; // key word 0 increment (golden ratio)
    static constexpr uint32_t kWeylB = 0xBB67AE85u; // key word 1 increment (sqrt(3) - 1)

    // seed is the key; subsequence selects a stream (counter words 2-3) and offset the position
    // in it (counter words 0-1), counted in 128-bit blocks.
    CK_TILE_HOST_DEVICE philox(uint64_t seed, uint64_t subsequence, uint64_t offset)
        : seed_(seed), subsequence_(subsequence), offset_(offset)
    {}
    // upstream CK Tile's constructor: the subsequence is passed to each get_* call instead
    CK_TILE_HOST_DEVICE philox(uint64_t seed, uint64_t offset) : philox(seed, 0, offset) {}

    // One Philox round on counter ctr with round key key.
    CK_TILE_HOST_DEVICE static constexpr array<uint32_t, 4> round(const array<uint32_t, 4>& ctr,
                                                                  const array<uint32_t, 2>& key)
    {
        const uint64_t pa = static_cast<uint64_t>(kMulA) * ctr[0];
        const uint64_t pb = static_cast<uint64_t>(kMulB) * ctr[2];
        return array<uint32_t, 4>{{static_cast<uint32_t>(pb >> 32) ^ ctr[1] ^ key[0], static_cast<uint32_t>(pb),
                                   static_cast<uint32_t>(pa >> 32) ^ ctr[3] ^ key[1], static_cast<uint32_t>(pa)}};
    }

    // Philox4x32 with Rounds rounds (the key is bumped between rounds, Rounds - 1 times).
    template <index_t Rounds>
    CK_TILE_HOST_DEVICE static constexpr array<uint32_t, 4> philox4x32(array<uint32_t, 4> counter,
                                                                       array<uint32_t, 2> key)
    {
        static_assert(Rounds >= 1, "philox4x32: at least one round");
        counter = round(counter, key);
#pragma unroll
        for(index_t r = 1; r < Rounds; ++r)
        {
            key[0] += kWeylA;
            key[1] += kWeylB;
            counter = round(counter, key);
        }
        return counter;
    }

    CK_TILE_HOST_DEVICE static constexpr array<uint32_t, 4> philox4x32_10(array<uint32_t, 4> counter,
                                                                          array<uint32_t, 2> key)
    {
        return philox4x32<10>(counter, key);
    }

    // the accessors' rounds: upstream's
    static constexpr index_t kRounds = 7;

    // 128 random bits of block `offset` of stream `subsequence`.
    CK_TILE_HOST_DEVICE array<uint32_t, 4> get_philox_4x32(uint64_t subsequence) const
    {
        return philox4x32<kRounds>(
            array<uint32_t, 4>{{static_cast<uint32_t>(offset_), static_cast<uint32_t>(offset_ >> 32),
                                static_cast<uint32_t>(subsequence), static_cast<uint32_t>(subsequence >> 32)}},
            array<uint32_t, 2>{{static_cast<uint32_t>(seed_), static_cast<uint32_t>(seed_ >> 32)}});
    }
    CK_TILE_HOST_DEVICE array<uint32_t, 4> get_philox_4x32() const { return get_philox_4x32(subsequence_); }

    // The 128 bits as 16 bytes, little-endian within each word and word 0 first. Written with
    // shifts rather than a memory copy so that the byte order is the same on every host.
    CK_TILE_HOST_DEVICE void get_random_16x8(uint8_t* out, uint64_t subsequence) const
    {
        const array<uint32_t, 4> r = get_philox_4x32(subsequence);
#pragma unroll
        for(index_t i = 0; i < 16; ++i)
            out[i] = static_cast<uint8_t>(r[i / 4] >> (8 * (i % 4)));
    }
    // Bytes of words idx0 and idx1 only (8 bytes): for a thread that needs half a block.
    CK_TILE_HOST_DEVICE void get_random_8x8(uint8_t* out, uint64_t subsequence, index_t idx0, index_t idx1) const
    {
        const array<uint32_t, 4> r = get_philox_4x32(subsequence);
#pragma unroll
        for(index_t i = 0; i < 4; ++i)
        {
            out[i]     = static_cast<uint8_t>(r[idx0] >> (8 * i));
            out[4 + i] = static_cast<uint8_t>(r[idx1] >> (8 * i));
        }
    }
    // Bytes of word idx only (4 bytes).
    CK_TILE_HOST_DEVICE void get_random_4x8(uint8_t* out, uint64_t subsequence, index_t idx) const
    {
        const array<uint32_t, 4> r = get_philox_4x32(subsequence);
#pragma unroll
        for(index_t i = 0; i < 4; ++i)
            out[i] = static_cast<uint8_t>(r[idx] >> (8 * i));
    }

private:
    uint64_t seed_;
    uint64_t subsequence_;
    uint64_t offset_;
};

} // namespace ck_tile
