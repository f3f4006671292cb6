// SPDX-License-Identifier: MIT
// Arch queries and synchronisation, the only place kernels learn who they are:
// get_thread_id, get_block_id, get_block_size, get_grid_size, get_lane_id, get_warp_id,
// get_warp_size, block_sync_lds, plus the wave-level operations (warp_shuffle, readfirstlane,
// ballot). The hip backend maps them to clang's amdgcn builtins; the emulator to its runtime.
#pragma once
#include "ck_tile/core/config.hpp"
#include "ck_tile/core/numeric/integer.hpp"
#include "ck_tile/core/arch/arch_table.hpp"

#if defined(CK_TILE_BACKEND_EMULATOR)
#include "ck_tile/core/arch/emulator/emulator.hpp"
// device printf: each workgroup's output comes out in one piece (see the header for how)
#include "ck_tile/core/arch/emulator/device_printf_macro.hpp"
#endif

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

#if defined(CK_TILE_BACKEND_EMULATOR)

CK_TILE_DEVICE index_t get_thread_id() { return static_cast<index_t>(emu::thread_idx_x()); }
CK_TILE_DEVICE index_t get_block_id() { return static_cast<index_t>(emu::block_idx_x()); }
CK_TILE_DEVICE index_t get_block_size() { return static_cast<index_t>(emu::block_dim_x()); }
CK_TILE_DEVICE index_t get_grid_size() { return static_cast<index_t>(emu::grid_dim_x()); }
CK_TILE_DEVICE index_t get_lane_id() { return static_cast<index_t>(emu::lane_id()); }
CK_TILE_DEVICE index_t get_warp_id() { return static_cast<index_t>(emu::warp_id()); }
CK_TILE_DEVICE void block_sync_lds() { emu::barrier(); }
CK_TILE_DEVICE void block_sync() { emu::barrier(); }

template <typename T>
CK_TILE_DEVICE T warp_shuffle(const T& v, index_t src_lane)
{
    return emu::shuffle(v, static_cast<int>(src_lane));
}
template <typename T>
CK_TILE_DEVICE T readfirstlane(const T& v)
{
    return emu::readfirstlane(v);
}
CK_TILE_DEVICE uint64_t ballot(bool pred) { return emu::ballot(pred); }

#else // hip

CK_TILE_DEVICE index_t get_thread_id() { return static_cast<index_t>(__builtin_amdgcn_workitem_id_x()); }
CK_TILE_DEVICE index_t get_block_id() { return static_cast<index_t>(__builtin_amdgcn_workgroup_id_x()); }
CK_TILE_DEVICE index_t get_block_size() { return static_cast<index_t>(__builtin_amdgcn_workgroup_size_x()); }
CK_TILE_DEVICE index_t get_grid_size()
{
    return static_cast<index_t>(__builtin_amdgcn_grid_size_x() / __builtin_amdgcn_workgroup_size_x());
}
CK_TILE_DEVICE index_t get_lane_id()
{
    return static_cast<index_t>(__builtin_amdgcn_mbcnt_hi(~0u, __builtin_amdgcn_mbcnt_lo(~0u, 0u)));
}
CK_TILE_DEVICE index_t get_warp_id() { return __builtin_amdgcn_readfirstlane(get_thread_id() / get_warp_size()); }
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

#endif

} // namespace ck_tile
