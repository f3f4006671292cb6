// SPDX-License-Identifier: MIT
// emulator backend: the library's arch primitives (the set core/arch/backend.hpp lists, the same
// names and signatures as core/arch/hip/*.hpp) on the CPU emulator's runtime. Each is a call into
// the step of the emulator that implements it (emulator.hpp has the map).
#pragma once
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <source_location>
#include <type_traits>

#include "ck_tile/core/config.hpp"
#include "ck_tile/core/numeric/integer.hpp"
#include "ck_tile/core/numeric/half.hpp"
#include "ck_tile/core/numeric/bfloat16.hpp"
#include "ck_tile/core/container/array.hpp"
#include "ck_tile/core/container/thread_buffer.hpp"
#include "ck_tile/core/arch/arch_table.hpp"
#include "ck_tile/core/arch/emulator/emulator.hpp"

namespace ck_tile {

// ---- thread identity and workgroup barriers (workgroup.hpp, scheduler.hpp) ----------------------

CK_TILE_DEVICE index_t get_thread_id() { return static_cast<index_t>(emu::thread_idx_x()); }
CK_TILE_DEVICE index_t get_block_id() { return static_cast<index_t>(emu::block_idx_x()); }
CK_TILE_DEVICE index_t get_block_id_y() { return static_cast<index_t>(emu::block_idx_y()); }
CK_TILE_DEVICE index_t get_block_id_z() { return static_cast<index_t>(emu::block_idx_z()); }
CK_TILE_DEVICE index_t get_block_size() { return static_cast<index_t>(emu::block_dim_x()); }
CK_TILE_DEVICE index_t get_grid_size() { return static_cast<index_t>(emu::grid_dim_x()); }
CK_TILE_DEVICE index_t get_lane_id() { return static_cast<index_t>(emu::lane_id()); }
CK_TILE_DEVICE index_t get_warp_id() { return static_cast<index_t>(emu::warp_id()); }
// The emulator's barrier orders every memory access of the workgroup, so both are the same.
CK_TILE_DEVICE void block_sync_lds() { emu::barrier(); }
CK_TILE_DEVICE void block_sync() { emu::barrier(); }

// A kernel's own check failed (a precondition its types could not express): the workgroup ends and
// the launch throws launch_error with `what`, naming the kernel and the block.
[[noreturn]] CK_TILE_DEVICE void kernel_fail(const char* what)
{
    emu::detail::fail_workgroup([&] { return emu::detail::where(*emu::detail::t_wg) + ": " + what; });
}

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

// All steps of the butterfly in one wave collective (hip: one warp_shuffle per step): the
// emulator's cost is the lanes' arrival, so log2 steps of shuffles would cost log2 times more.
// The same combinations in the same order as the step-by-step form, so the results are the same.
template <typename T, typename F>
CK_TILE_DEVICE T warp_butterfly(const T& v, index_t first_step, index_t end_step, const F& combine)
{
    return emu::wave_collective<T, T>(
        v,
        [&](const T* in, T* out) {
            constexpr int n = emu::warp_size;
            for(int lane = 0; lane < n; ++lane)
                out[lane] = in[lane];
            // each step pairs lane with lane ^ step: both results of a pair are computed from the
            // pair's old values before either is written, so no second buffer is needed
            for(index_t step = first_step; step < end_step; step *= 2)
                for(int lane = 0; lane < n; ++lane)
                {
                    const int partner = lane ^ step;
                    if(partner < lane)
                        continue;
                    T lo         = combine(out[lane], out[partner]);
                    T hi         = combine(out[partner], out[lane]);
                    out[lane]    = std::move(lo);
                    out[partner] = std::move(hi);
                }
        },
        "warp_butterfly");
}

// ---- buffer accesses: the semantics of AMD buffer instructions, checked in C++ ------------------

// Elements i .. i+N-1 lie inside a buffer of buffer_size elements (i >= 0 and i + N <= buffer_size),
// as one unsigned comparison against a bound that depends on the buffer only (so the compiler
// computes it once, outside a loop of accesses): this test runs on every global access of every
// lane. The number of valid first elements is buffer_size - N + 1, or none when the buffer is
// shorter than one access; a negative i is a huge unsigned number, above any bound.
template <index_t N>
CK_TILE_DEVICE bool buffer_range_holds(long_index_t buffer_size, long_index_t i)
{
    const long_index_t first_elements = buffer_size - N + 1;
    const auto bound                  = static_cast<unsigned long long>(first_elements > 0 ? first_elements : 0);
    return static_cast<unsigned long long>(i) < bound;
}

template <typename T, index_t N>
CK_TILE_DEVICE void buffer_load_checked(T* dst, const T* base, long_index_t buffer_size, long_index_t i, bool valid)
{
    if(valid && buffer_range_holds<N>(buffer_size, i))
        __builtin_memcpy(dst, base + i, sizeof(T) * N);
    else
        __builtin_memset(static_cast<void*>(dst), 0, sizeof(T) * N);
}

template <typename T, index_t N>
CK_TILE_DEVICE void buffer_store_checked(const T* src, T* base, long_index_t buffer_size, long_index_t i, bool valid)
{
    if(valid && buffer_range_holds<N>(buffer_size, i))
        __builtin_memcpy(base + i, src, sizeof(T) * N);
}

// One element of a global fp32 or int32 buffer incremented atomically: workgroups run on several
// OS threads at once, so the add is a std::atomic_ref read-modify-write, as buffer_atomic_add_f32
// (or _add for int32) is one in memory on hardware. Dropped when invalid or out of range. Not a
// store for racecheck (atomic adds of several workgroups to one address are the point); the
// profile counts it as one.
template <typename T>
CK_TILE_DEVICE void buffer_atomic_add_checked(T v, T* base, long_index_t buffer_size, long_index_t i, bool valid)
{
    static_assert(std::is_same_v<T, float> || std::is_same_v<T, int32_t>,
                  "buffer_atomic_add_checked: fp32 or int32 (16-bit types: buffer_atomic_pk_add_checked)");
    const bool hit = valid && buffer_range_holds<1>(buffer_size, i);
    if(hit)
        std::atomic_ref<T>(base[i]).fetch_add(v, std::memory_order_relaxed);
    emu::global_note_atomic(base, i * long_index_t{sizeof(T)}, sizeof(T), hit); // profile.hpp
}

// Two neighbouring 16-bit elements base[i], base[i + 1] incremented by v0, v1 in one atomic
// (buffer_atomic_pk_add_f16 / global_atomic_pk_add_bf16): a compare-and-swap loop on their 32-bit
// word; each half is added in fp32 and rounded back, as the hardware does. The pair is one dword,
// so base + i must be 4-byte aligned: a misaligned pair is a kernel bug, reported (the hardware
// would silently add into the aligned dword).
template <typename T>
CK_TILE_DEVICE void buffer_atomic_pk_add_checked(T v0, T v1, T* base, long_index_t buffer_size, long_index_t i,
                                                 bool valid)
{
    static_assert(std::is_same_v<T, half_t> || std::is_same_v<T, bf16_t>,
                  "buffer_atomic_pk_add_checked: pairs of fp16 or bf16");
    const bool hit = valid && buffer_range_holds<2>(buffer_size, i);
    if(hit)
    {
        if(reinterpret_cast<std::uintptr_t>(base + i) % 4 != 0)
            emu::detail::fail_workgroup([&] {
                return emu::detail::where(*emu::detail::t_wg) + ": a packed 16-bit atomic add at element " +
                       std::to_string(i) +
                       " is not 4-byte aligned (pairs must start at an even element of an aligned buffer)";
            });
        std::atomic_ref<std::uint32_t> word(*reinterpret_cast<std::uint32_t*>(base + i));
        std::uint32_t old = word.load(std::memory_order_relaxed), sum;
        do
        {
            const T lo    = __builtin_bit_cast(T, static_cast<std::uint16_t>(old & 0xffffu));
            const T hi    = __builtin_bit_cast(T, static_cast<std::uint16_t>(old >> 16));
            const auto s0 = __builtin_bit_cast(std::uint16_t, T(static_cast<float>(lo) + static_cast<float>(v0)));
            const auto s1 = __builtin_bit_cast(std::uint16_t, T(static_cast<float>(hi) + static_cast<float>(v1)));
            sum           = static_cast<std::uint32_t>(s0) | (static_cast<std::uint32_t>(s1) << 16);
        } while(!word.compare_exchange_weak(old, sum, std::memory_order_relaxed));
    }
    emu::global_note_atomic(base, i * long_index_t{sizeof(T)}, 2 * sizeof(T), hit); // profile.hpp
}

// Any size is one access here: nothing to split.
template <typename T, index_t N>
inline constexpr bool is_native_buffer_access = true;

// ---- racecheck.hpp and profile.hpp: where the library's LDS and global accesses are made -------

// The place in the kernel's source of a tile-API access, reported by racecheck.
using access_site = std::source_location;

template <typename T, index_t N>
CK_TILE_DEVICE void lds_note_load(const T* p, const access_site& site)
{
    emu::lds_note_access(p, sizeof(T) * N, false, site);
}
template <typename T, index_t N>
CK_TILE_DEVICE void lds_note_store(const T* p, const access_site& site)
{
    emu::lds_note_access(p, sizeof(T) * N, true, site);
}
// Whether the hooks below have anything to do in this launch: racecheck or the profile is on. The
// tile API asks once per load_tile / store_tile, and takes a path without the hooks when not, so
// that an uninstrumented run pays one test per tile access instead of one per memory access.
// The switches change only between launches (set_racecheck, set_profile, the environment), never
// while a kernel runs, so the answer is declared const: the compiler asks once per work-item and
// hoists the test out of the kernel's loops. Only kernel code calls it, and a work-item's code
// never spans two launches.
inline constexpr bool has_access_hooks = true;
[[gnu::const, gnu::noinline]] inline bool access_hooks_on_in_this_launch() { return emu::instrumented(); }
CK_TILE_DEVICE bool access_hooks_on() { return access_hooks_on_in_this_launch(); }

// A buffer load or store of N elements at element i (a miss when not valid or outside the buffer:
// the load reads zeros, the store is dropped), for racecheck and the access profile (profile.hpp).
template <bool Write, typename T, index_t N>
CK_TILE_DEVICE void global_note_access(const T* base, long_index_t buffer_size, long_index_t i, bool valid,
                                       const access_site& site)
{
    if(emu::instrumented()) [[unlikely]]
        emu::detail::global_note_access_slow(base, i * long_index_t{sizeof(T)}, sizeof(T) * N,
                                             valid && buffer_range_holds<N>(buffer_size, i), Write, site);
}
template <typename T, index_t N>
CK_TILE_DEVICE void global_note_load(const T* base, long_index_t size, long_index_t i, bool valid, const access_site& s)
{
    global_note_access<false, T, N>(base, size, i, valid, s);
}
template <typename T, index_t N>
CK_TILE_DEVICE void global_note_store(const T* base, long_index_t size, long_index_t i, bool valid,
                                      const access_site& s)
{
    global_note_access<true, T, N>(base, size, i, valid, s);
}

// ---- gfx950's LDS transpose reads (wave.hpp; core/arch/lds.hpp says what they return) ----------

// One wave collective for all N reads: the emulator's cost is the lanes' arrival, not the read.
template <typename T, index_t N>
CK_TILE_DEVICE thread_buffer<T, N * (8 / sizeof(T))>
lds_transpose_read_b64(const array<const T*, N>& p, const access_site& site = access_site::current())
{
    static_assert(sizeof(T) != 0 && has_compiled_arch && get_arch_info(compiled_arch).lds_transpose_read,
                  "lds_transpose_read_b64: the emulated arch has no LDS transpose reads (arch_table.def: lds_tr)");
    constexpr index_t e = 8 / sizeof(T);
    emu::lds_transpose_in<T, N> in;
    for(index_t i = 0; i < N; ++i)
    {
        lds_note_load<T, e>(p[i], site);
        in.p[i] = p[i];
    }
    const auto r = emu::lds_transpose_read_b64(in);
    thread_buffer<T, N * e> out;
    for(index_t i = 0; i < N * e; ++i)
        out[i] = r.v[i];
    return out;
}

template <typename T>
CK_TILE_DEVICE thread_buffer<T, 8 / sizeof(T)> lds_transpose_read_b64(const T* p,
                                                                      const access_site& site = access_site::current())
{
    return lds_transpose_read_b64<T, 1>(array<const T*, 1>{p}, site);
}

} // namespace ck_tile

// ---- LDS: `__shared__` ---------------------------------------------------------------------------

// Kernels declare static LDS as on hip: `__shared__ T name[N];`. A macro cannot see the declarator
// it precedes, so it cannot carve the array from the workgroup's LDS arena (lds.hpp); it makes the
// variable thread_local instead. An OS thread runs one workgroup at a time and all of that
// workgroup's work-items run as fibers on it, so a thread_local variable is exactly one object per
// running workgroup, shared by its work-items. Limits (emulator.hpp has the list): such an array is
// not in the arena (no guard pages, not counted against the arch's LDS size, not is_lds_pointer),
// and it keeps what the previous workgroup on that thread left in it. 16-byte aligned, as the
// library's vector accesses to LDS need. `extern __shared__` cannot be emulated this way: use
// HIP_DYNAMIC_SHARED (the emulator's <hip/hip_runtime.h>) or emu::dynamic_lds().
#ifndef __shared__
#define __shared__ __attribute__((aligned(16))) thread_local
#endif

// ---- device printf (printf.hpp) -----------------------------------------------------------------

// Buffered per workgroup and emitted in workgroup order; outside a kernel it prints at once.
#define CK_TILE_PRINTF(...) ::ck_tile::emu::device_printf(__VA_ARGS__)
