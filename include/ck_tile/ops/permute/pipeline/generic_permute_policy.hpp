// SPDX-License-Identifier: MIT
// GenericPermutePolicy: the choices the generic permute makes from its problem. A thread moves
// GetRunsPerThread() runs of GetVectorSize() consecutive elements: 16 bytes (one 128-bit load and
// store) when the problem keeps the innermost dimension innermost, otherwise one element, because
// consecutive output elements then come from input elements a stride apart.
#pragma once
#include "ck_tile/core.hpp"

namespace ck_tile {

struct GenericPermutePolicy
{
    template <typename Problem>
    CK_TILE_HOST_DEVICE static constexpr index_t GetVectorSize()
    {
        if constexpr(Problem::KeepLastDim)
            return 16 / static_cast<index_t>(sizeof(typename Problem::DataType));
        else
            return 1;
    }

    // runs of GetVectorSize() elements per thread: a block moves kBlockSize consecutive runs,
    // GetRunsPerThread() times over, which spreads a thread's start-up over several accesses
    // (and, on the emulator, its per-thread cost) without hurting coalescing
    template <typename Problem>
    CK_TILE_HOST_DEVICE static constexpr index_t GetRunsPerThread()
    {
        return 16;
    }
};

} // namespace ck_tile
