// SPDX-License-Identifier: MIT
// hip backend: operations across the lanes of a wave, through clang's amdgcn builtins.
// The primitive set and its other implementation: core/arch/backend.hpp.
#pragma once
#include "ck_tile/core/config.hpp"
#include "ck_tile/core/numeric/integer.hpp"

namespace ck_tile {

template <typename T>
CK_TILE_DEVICE T warp_shuffle(const T& v, index_t src_lane)
{
    static_assert(sizeof(T) % 4 == 0, "warp_shuffle: the type must be a multiple of 4 bytes");
    T r;
    const int* in = reinterpret_cast<const int*>(&v);
    int* out      = reinterpret_cast<int*>(&r);
    for(unsigned i = 0; i < sizeof(T) / 4; ++i)
        out[i] = __builtin_amdgcn_ds_bpermute(static_cast<int>(src_lane) << 2, in[i]);
    return r;
}
template <typename T>
CK_TILE_DEVICE T readfirstlane(const T& v)
{
    static_assert(sizeof(T) == 4, "readfirstlane: a 4-byte type");
    return __builtin_bit_cast(T, __builtin_amdgcn_readfirstlane(__builtin_bit_cast(int, v)));
}
CK_TILE_DEVICE uint64_t ballot(bool pred) { return __builtin_amdgcn_ballot_w64(pred); }
template <typename T, typename F>
CK_TILE_DEVICE T warp_butterfly(T v, index_t first_step, index_t end_step, const F& combine)
{
    const index_t lane = static_cast<index_t>(__builtin_amdgcn_mbcnt_hi(~0u, __builtin_amdgcn_mbcnt_lo(~0u, 0u)));
    for(index_t step = first_step; step < end_step; step *= 2)
        v = combine(v, warp_shuffle(v, lane ^ step));
    return v;
}

} // namespace ck_tile
