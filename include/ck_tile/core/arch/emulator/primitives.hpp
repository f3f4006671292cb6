// SPDX-License-Identifier: MIT
// emulator backend: the library's arch primitives (the set core/arch/backend.hpp lists, the same
// names and signatures as core/arch/hip/*.hpp) on the CPU emulator's runtime. Each is a call into
// the step of the emulator that implements it (emulator.hpp has the map).
#pragma once
#include <cstddef>

#include "ck_tile/core/config.hpp"
#include "ck_tile/core/numeric/integer.hpp"
#include "ck_tile/core/arch/emulator/emulator.hpp"

namespace ck_tile {

// ---- thread identity and workgroup barriers (workgroup.hpp, scheduler.hpp) ----------------------

CK_TILE_DEVICE index_t get_thread_id() { return static_cast<index_t>(emu::thread_idx_x()); }
CK_TILE_DEVICE index_t get_block_id() { return static_cast<index_t>(emu::block_idx_x()); }
CK_TILE_DEVICE index_t get_block_size() { return static_cast<index_t>(emu::block_dim_x()); }
CK_TILE_DEVICE index_t get_grid_size() { return static_cast<index_t>(emu::grid_dim_x()); }
CK_TILE_DEVICE index_t get_lane_id() { return static_cast<index_t>(emu::lane_id()); }
CK_TILE_DEVICE index_t get_warp_id() { return static_cast<index_t>(emu::warp_id()); }
// The emulator's barrier orders every memory access of the workgroup, so both are the same.
CK_TILE_DEVICE void block_sync_lds() { emu::barrier(); }
CK_TILE_DEVICE void block_sync() { emu::barrier(); }

// ---- wave operations (wave.hpp) -----------------------------------------------------------------

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

// ---- buffer accesses: the semantics of AMD buffer instructions, checked in C++ ------------------

template <typename T, index_t N>
CK_TILE_DEVICE void buffer_load_checked(T* dst, const T* base, long_index_t buffer_size, long_index_t i, bool valid)
{
    if(valid && i >= 0 && i + N <= buffer_size)
        __builtin_memcpy(dst, base + i, sizeof(T) * N);
    else
        __builtin_memset(static_cast<void*>(dst), 0, sizeof(T) * N);
}

template <typename T, index_t N>
CK_TILE_DEVICE void buffer_store_checked(const T* src, T* base, long_index_t buffer_size, long_index_t i, bool valid)
{
    if(valid && i >= 0 && i + N <= buffer_size)
        __builtin_memcpy(base + i, src, sizeof(T) * N);
}

// Any size is one access here: nothing to split.
template <typename T, index_t N>
inline constexpr bool is_native_buffer_access = true;

} // namespace ck_tile

// ---- LDS (lds.hpp) ------------------------------------------------------------------------------

// There is no per-workgroup storage class on the CPU: the array is a block of the workgroup's LDS
// arena, the same block for every thread of the workgroup, carved at first use (emu::lds_static).
#define CK_TILE_LDS_ARRAY(T, name, count)                                                                              \
    T* const name = ::ck_tile::emu::lds_static<T, static_cast<std::size_t>(count), decltype([] {})>()

// ---- device printf (printf.hpp) -----------------------------------------------------------------

// Buffered per workgroup and emitted in workgroup order; outside a kernel it prints at once.
#define CK_TILE_PRINTF(...) ::ck_tile::emu::device_printf(__VA_ARGS__)
