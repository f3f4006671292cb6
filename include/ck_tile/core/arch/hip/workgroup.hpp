// SPDX-License-Identifier: MIT
// hip backend: who a work-item is, and the workgroup barriers, through clang's amdgcn builtins
// (no HIP device headers needed, so a device-only compile works with clang alone).
// The primitive set and its other implementation: core/arch/backend.hpp.
#pragma once
#include "ck_tile/core/config.hpp"
#include "ck_tile/core/numeric/integer.hpp"
#include "ck_tile/core/arch/arch_table.hpp"

namespace ck_tile {

CK_TILE_DEVICE index_t get_thread_id() { return static_cast<index_t>(__builtin_amdgcn_workitem_id_x()); }
CK_TILE_DEVICE index_t get_block_id() { return static_cast<index_t>(__builtin_amdgcn_workgroup_id_x()); }
CK_TILE_DEVICE index_t get_block_id_y() { return static_cast<index_t>(__builtin_amdgcn_workgroup_id_y()); }
CK_TILE_DEVICE index_t get_block_id_z() { return static_cast<index_t>(__builtin_amdgcn_workgroup_id_z()); }
CK_TILE_DEVICE index_t get_block_size() { return static_cast<index_t>(__builtin_amdgcn_workgroup_size_x()); }
CK_TILE_DEVICE index_t get_grid_size()
{
    return static_cast<index_t>(__builtin_amdgcn_grid_size_x() / __builtin_amdgcn_workgroup_size_x());
}
CK_TILE_DEVICE index_t get_lane_id()
{
    return static_cast<index_t>(__builtin_amdgcn_mbcnt_hi(~0u, __builtin_amdgcn_mbcnt_lo(~0u, 0u)));
}
// readfirstlane: the wave id is uniform, so the compiler may keep it in a scalar register.
CK_TILE_DEVICE index_t get_warp_id() { return __builtin_amdgcn_readfirstlane(get_thread_id() / common_wave_size); }

CK_TILE_DEVICE void block_sync_lds()
{
    __builtin_amdgcn_s_waitcnt(0xc07f); // lgkmcnt(0): this thread's LDS operations are done
    __builtin_amdgcn_s_barrier();
}
CK_TILE_DEVICE void block_sync()
{
    __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
    __builtin_amdgcn_s_barrier();
    __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
}

// A kernel's own check failed: the wave traps (s_trap) and the launch fails. The message is the
// emulator's: here the source line that calls kernel_fail says which check it was.
[[noreturn]] CK_TILE_DEVICE void kernel_fail(const char*) { __builtin_trap(); }

} // namespace ck_tile
