// SPDX-License-Identifier: MIT
// FusedMoeGemmTraits<IsGateOnly, UseSmoothQuant, OAtomic>: the switches of a fused-MoE instance
// (upstream's first three).
//   IsGateOnly      true: G holds the gate only, Y = act(gate); false: G holds gate then up rows
//                   ([2 * experts, interm, hidden] as shuffled), Y = act(gate) * up
//   UseSmoothQuant  must be false (no quantized instances)
//   OAtomic         1: O is accumulated with atomic adds of O's type (packed pairs for 16-bit
//                   types); the only mode
#pragma once
#include "ck_tile/core.hpp"

namespace ck_tile {

template <bool IsGateOnly_, bool UseSmoothQuant_ = false, index_t OAtomic_ = 1>
struct FusedMoeGemmTraits
{
    static constexpr bool IsGateOnly     = IsGateOnly_;
    static constexpr bool UseSmoothQuant = UseSmoothQuant_;
    static constexpr index_t OAtomic     = OAtomic_;
    static_assert(!UseSmoothQuant, "FusedMoeGemmTraits: smooth quantization is not implemented");
    static_assert(OAtomic == 1, "FusedMoeGemmTraits: O is accumulated with atomic adds (OAtomic = 1)");
};

} // namespace ck_tile
