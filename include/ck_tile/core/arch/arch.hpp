// SPDX-License-Identifier: MIT
// Arch queries and synchronisation, the only place kernels learn who they are:
// get_thread_id, get_block_id, get_block_size, get_grid_size, get_lane_id, get_warp_id,
// get_warp_size, block_sync_lds, plus the wave-level operations (warp_shuffle, readfirstlane,
// ballot). Each backend implements them (core/arch/backend.hpp picks which); what is the same on
// every backend is here.
#pragma once
#include "ck_tile/core/config.hpp"
#include "ck_tile/core/numeric/integer.hpp"
#include "ck_tile/core/arch/arch_table.hpp"
#include "ck_tile/core/arch/backend.hpp"

namespace ck_tile {

enum struct address_space_enum
{
    generic,
    global,
    lds,
    sgpr,
    vgpr
};

// Lanes per wave: the arch's (arch_table.def); host code of a hip build gets the one all archs share.
CK_TILE_HOST_DEVICE constexpr index_t get_warp_size() { return common_wave_size; }

// Whether tile windows keep the calling thread's coordinates (computed once, when a window is made)
// rather than recompute them from the lane and warp id at every access. On the emulator an id is a
// thread-local lookup, so they keep them; on the GPU the ids are registers and recomputing them is
// a few ALU instructions, while keeping them holds registers for the window's whole life (SGPR
// spills in the smoothquant and layernorm kernels).
#if defined(CK_TILE_BACKEND_EMULATOR)
inline constexpr bool keep_thread_coordinates = true;
#else
inline constexpr bool keep_thread_coordinates = false;
#endif

// CK_TILE_ACCESS_INLINE: on the lambdas of the tile API's access loops (tile_window.hpp). The
// emulator needs them inlined, both the path with the access hooks and the one without, or the
// tile and the window are passed by address and live in memory instead of registers; on the GPU
// the compiler's own inlining gives the better register allocation (forcing it made the
// smoothquant two-pass kernels spill 12 SGPRs).
#if defined(CK_TILE_BACKEND_EMULATOR)
#define CK_TILE_ACCESS_INLINE __attribute__((always_inline))
#else
#define CK_TILE_ACCESS_INLINE
#endif

// v itself, but opaque to the compiler, in a vector register on the GPU: what is computed from it
// is neither hoisted out of a loop nor kept in scalar registers. For uniform values that would
// otherwise pile up in SGPRs inside a loop (Philox's key schedule: 18 loop-invariant words); an
// identity on the host and the emulator.
CK_TILE_HOST_DEVICE uint32_t opaque_vgpr_copy(uint32_t v)
{
#if defined(CK_TILE_BACKEND_HIP) && defined(__HIP_DEVICE_COMPILE__)
    uint32_t r;
    asm volatile("v_mov_b32 %0, %1" : "=v"(r) : "v"(v));
    return r;
#else
    return v;
#endif
}

// v itself (a wave-uniform value), opaque to the compiler, in a scalar register: what is computed
// from it after a loop is not merged with the same computation before the loop, which would keep
// the result live through it (e.g. a 64-bit size of both an input and the output tensor).
CK_TILE_HOST_DEVICE uint32_t opaque_sgpr_copy(uint32_t v)
{
#if defined(CK_TILE_BACKEND_HIP) && defined(__HIP_DEVICE_COMPILE__)
    uint32_t r;
    asm volatile("s_mov_b32 %0, %1" : "=s"(r) : "s"(v));
    return r;
#else
    return v;
#endif
}

} // namespace ck_tile

// CK_TILE_INDEX_IN_RANGE(i, begin, length): begin <= i < begin + length (length >= 0), the validity
// test of a padded coordinate, made on every access of every lane. The emulator makes it one
// unsigned comparison (half the host instructions of a padded global access). Device code keeps
// the two signed comparisons, written out where they are used: the unsigned form, or the same
// test behind a function call, changed the AMDGPU register allocation of some kernels enough to
// spill SGPRs (the batched transpose: 0 -> 90 spills).
#if defined(CK_TILE_BACKEND_EMULATOR)
#define CK_TILE_INDEX_IN_RANGE(i, begin, length)                                                                       \
    (static_cast<::ck_tile::uint32_t>((i) - (begin)) < static_cast<::ck_tile::uint32_t>(length))
#else
#define CK_TILE_INDEX_IN_RANGE(i, begin, length) ((i) >= (begin) && (i) < (begin) + (length))
#endif
