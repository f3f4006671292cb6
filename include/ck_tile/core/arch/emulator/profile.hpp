// SPDX-License-Identifier: MIT
// The access profile of the CPU emulator (CK_TILE_EMU_PROFILE=1; set_profile() in tests): at the
// end of every launch, a report on stderr of how the kernel used the memory system, and the same
// numbers from last_profile().
//
// What it sees: the library's LDS and global accesses (buffer_view, the path of load_tile /
// store_tile and tensor-view element access, and any buffer_load_checked: the hooks at the end of
// this file), MFMA
// instructions (mfma.hpp), completed workgroup barriers (scheduler.hpp) and the LDS each
// workgroup carved (dynamic LDS plus lds_static). `__shared__` variables are not in the arena
// (primitives.hpp): for them it reports the span of the addresses the LDS accesses touched, a
// lower bound of their size. Raw pointer accesses of a kernel are not seen.
//
// Wave instructions. Lanes of a wave run the same instruction sequence, so the n-th LDS read of
// each lane of a wave since the last barrier is taken to be one wave instruction (and the same for
// LDS writes, global loads and global stores, each counted on its own). A lane's access wider than
// 16 bytes is split into accesses of at most 16 bytes (as into b128 instructions), each its own
// instruction; so is one of a size no instruction has (12 bytes: 8 + 4). An instruction is costed
// (profile_model.hpp) once every live lane of its wave has made its part, or at the next barrier
// or the end of the workgroup with the lanes it has. A lane that skips an access its wave-mates
// make (divergent control flow) shifts its later accesses against theirs until the next barrier:
// an approximation. A buffer access that is out of range or invalid still takes part in its
// instruction, touching nothing (as an inactive lane).
//
// Reports: one per launch, on stderr; a launch whose report is the same as the last one printed
// (a timing loop) is counted instead, and one line says how many such repeats followed it (before
// the next different report, or at exit). last_profile() has every launch's.
//
// Threads: each OS thread counts the workgroup it runs in thread_local counters and adds them to
// the launch's totals under a mutex when the workgroup ends.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <mutex>
#include <source_location>
#include <string>
#include <vector>

#include "ck_tile/core/arch/emulator/arch_traits.hpp"
#include "ck_tile/core/arch/emulator/instrument.hpp"
#include "ck_tile/core/arch/emulator/profile_model.hpp"
#include "ck_tile/core/arch/emulator/profile_report.hpp"
#include "ck_tile/core/arch/emulator/racecheck.hpp"
#include "ck_tile/core/arch/emulator/workgroup.hpp"

namespace ck_tile::emu {

namespace detail {

enum profile_stream : unsigned
{
    ps_lds_read,
    ps_lds_write,
    ps_global_load,
    ps_global_store,
    ps_count
};

// The instructions of one stream of one wave not costed yet; next[lane]: the lane's next one.
struct profile_wave_stream
{
    std::vector<wave_access> pending;
    std::size_t head              = 0; // pending[0, head) are costed
    std::uint64_t base            = 0; // instruction number of pending[0]
    std::uint64_t next[warp_size] = {};
};

struct profile_thread_state
{
    const workgroup* wg         = nullptr;
    std::uint64_t wg_generation = 0;
    std::vector<profile_wave_stream> streams;                     // [wave * ps_count + stream]
    profile_counters counts;                                      // of the running workgroup
    std::uintptr_t shared_lo = ~std::uintptr_t{0}, shared_hi = 0; // LDS accessed outside the arena
    std::vector<std::uint32_t> mfma_lane;                         // MFMAs of each thread
};

inline thread_local profile_thread_state t_profile;

// Totals of the running launch and the report of the last one.
struct profile_launch_state
{
    std::mutex m;
    bool active = false; // the running launch is profiled
    profile_counters totals;
    profile_report last;
    std::string printed;       // the last report printed
    std::uint64_t repeats = 0; // launches since then whose report was the same, not printed
    ~profile_launch_state()
    {
        if(repeats != 0)
            std::fputs(profile_repeats_line(repeats).c_str(), stderr);
    }
};

inline profile_launch_state& profile_launch()
{
    static profile_launch_state s;
    return s;
}

inline unsigned width_index(unsigned bytes) noexcept
{
    return bytes >= 16 ? 4u : bytes >= 8 ? 3u : bytes >= 4 ? 2u : bytes >= 2 ? 1u : 0u;
}

inline void profile_cost(profile_counters& c, unsigned stream, const wave_access& a) noexcept
{
    if(a.lanes == 0)
        return;
    if(stream == ps_lds_read || stream == ps_lds_write)
    {
        ++(stream == ps_lds_read ? c.lds_reads : c.lds_writes);
        ++c.lds_width[width_index(a.width)];
        if(const unsigned extra = lds_conflict_cycles(a); extra != 0)
        {
            ++c.lds_conflicted;
            c.lds_conflict_cycles += extra;
        }
        return;
    }
    const coalescing co = global_coalescing(a);
    ++c.global_width[width_index(a.width)];
    if(stream == ps_global_load)
    {
        ++c.global_loads;
        c.global_load_useful += co.useful;
        c.global_load_fetched += co.fetched;
    }
    else
    {
        ++c.global_stores;
        c.global_store_useful += co.useful;
        c.global_store_fetched += co.fetched;
    }
}

// Costs every pending instruction of the workgroup with the lanes it has; lanes start over.
inline void profile_flush(profile_thread_state& s) noexcept
{
    for(std::size_t k = 0; k < s.streams.size(); ++k)
    {
        profile_wave_stream& ws = s.streams[k];
        for(std::size_t i = ws.head; i < ws.pending.size(); ++i)
            profile_cost(s.counts, static_cast<unsigned>(k % ps_count), ws.pending[i]);
        ws.pending.clear();
        ws.head = 0;
        ws.base = 0;
        for(auto& n : ws.next)
            n = 0;
    }
}

// The state of the calling thread, set up for the running workgroup.
inline profile_thread_state& profile_state(const workgroup& wg)
{
    profile_thread_state& s = t_profile;
    if(s.wg != &wg || s.wg_generation != wg.generation) [[unlikely]]
    {
        profile_flush(s); // nothing pending unless a workgroup ended unseen
        s.wg            = &wg;
        s.wg_generation = wg.generation;
        s.shared_lo     = ~std::uintptr_t{0};
        s.shared_hi     = 0;
        s.mfma_lane.assign(std::size_t{wg.nwaves} * warp_size, 0);
        if(s.streams.size() < std::size_t{wg.nwaves} * ps_count)
            s.streams.resize(std::size_t{wg.nwaves} * ps_count);
    }
    return s;
}

// One lane's access: `bytes` at `p` (touching nothing unless `valid`), split into instructions.
[[gnu::cold, gnu::noinline]] inline void profile_note(unsigned stream, const void* p, std::size_t bytes, bool valid)
{
    if(t_wg == nullptr || t_fiber == nullptr) // host code using a view: not a kernel's access
        return;
    const workgroup& wg      = *t_wg;
    const std::uint32_t me   = t_fiber->flat;
    const std::uint32_t w    = me >> 6;
    const std::uint32_t l    = me & 63;
    profile_thread_state& s  = profile_state(wg);
    profile_wave_stream& ws  = s.streams[std::size_t{w} * ps_count + stream];
    const std::uint64_t live = wg.waves[w].alive;
    auto addr                = reinterpret_cast<std::uintptr_t>(p);
    const auto arena         = reinterpret_cast<std::uintptr_t>(wg.lds);
    if(stream <= ps_lds_write && (addr < arena || addr - arena >= wg.lds_limit)) // `__shared__`
    {
        s.shared_lo = addr < s.shared_lo ? addr : s.shared_lo;
        s.shared_hi = addr + bytes > s.shared_hi ? addr + bytes : s.shared_hi;
    }
    while(bytes != 0)
    {
        unsigned piece = max_access_bytes;
        while(piece > bytes)
            piece /= 2;
        const std::uint64_t n = ws.next[l]++;
        if(n < ws.base + ws.head) [[unlikely]] // its instruction was costed without it: alone then
        {
            wave_access a;
            a.lanes    = std::uint64_t{1} << l;
            a.width    = piece;
            a.addr[l]  = addr;
            a.bytes[l] = static_cast<std::uint8_t>(valid ? piece : 0);
            profile_cost(s.counts, stream, a);
        }
        else
        {
            const std::size_t i = static_cast<std::size_t>(n - ws.base);
            if(i >= ws.pending.size())
                ws.pending.resize(i + 1); // lanes and width 0
            wave_access& a = ws.pending[i];
            a.lanes |= std::uint64_t{1} << l;
            a.width    = a.width > piece ? a.width : piece;
            a.addr[l]  = addr;
            a.bytes[l] = static_cast<std::uint8_t>(valid ? piece : 0);
            if(i == ws.head)
                while(ws.head < ws.pending.size() && (ws.pending[ws.head].lanes & live) == live)
                    profile_cost(s.counts, stream, ws.pending[ws.head++]);
            if(ws.head == ws.pending.size()) // all costed: start the vector over
            {
                ws.base += ws.pending.size();
                ws.pending.clear();
                ws.head = 0;
            }
        }
        addr += piece;
        bytes -= piece;
    }
}

// A workgroup barrier completed on this thread.
inline void profile_barrier()
{
    profile_thread_state& s = profile_state(*t_wg);
    ++s.counts.barriers;
    profile_flush(s);
}

// One lane's MFMA; a wave's MFMA instructions are those of its lane that made the most (its
// lanes run the same instructions), added up when the workgroup ends.
inline void profile_mfma()
{
    if(t_wg != nullptr && t_fiber != nullptr) // else not in a kernel: the model reports that
        ++profile_state(*t_wg).mfma_lane[t_fiber->flat];
}

inline std::uint64_t profile_mfma_instructions(const profile_thread_state& s) noexcept
{
    std::uint64_t n = 0;
    for(std::size_t w = 0; w < s.mfma_lane.size(); w += warp_size)
    {
        std::uint32_t most = 0;
        for(std::size_t l = w; l < w + warp_size && l < s.mfma_lane.size(); ++l)
            most = s.mfma_lane[l] > most ? s.mfma_lane[l] : most;
        n += most;
    }
    return n;
}

// Workgroup `wg` ended on this thread: its counts go to the launch's totals.
inline void profile_end_workgroup(const workgroup& wg)
{
    profile_thread_state& s = profile_state(wg);
    profile_flush(s);
    s.counts.workgroups      = 1;
    s.counts.lds_bytes       = wg.lds_top;
    s.counts.mfma            = profile_mfma_instructions(s);
    s.counts.lds_shared_span = s.shared_hi > s.shared_lo ? s.shared_hi - s.shared_lo : 0;
    s.wg                     = nullptr;
    profile_launch_state& g  = profile_launch();
    {
        std::lock_guard<std::mutex> lock(g.m);
        g.totals.add(s.counts);
    }
    s.counts = profile_counters{};
}

inline void profile_begin_launch()
{
    profile_launch_state& g = profile_launch();
    std::lock_guard<std::mutex> lock(g.m);
    g.active = profile_enabled();
    g.totals = profile_counters{};
}

// The launch ended: its report becomes last_profile() and goes to stderr.
inline void profile_end_launch(const char* kernel_name, const extent3& grid, const extent3& block)
{
    profile_launch_state& g = profile_launch();
    std::string text;
    {
        std::lock_guard<std::mutex> lock(g.m);
        if(!g.active)
            return;
        g.active                               = false;
        static_cast<profile_counters&>(g.last) = g.totals;
        ++g.last.launch;
        g.last.kernel_name = kernel_name != nullptr ? kernel_name : "";
        g.last.grid        = grid;
        g.last.block       = block;
        text               = format_profile(g.last);
        if(text == g.printed) // a timing loop: one report, and how often it repeated
        {
            ++g.repeats;
            return;
        }
        g.printed = text;
        if(g.repeats != 0)
            text = profile_repeats_line(g.repeats) + text;
        g.repeats = 0;
    }
    std::fputs(text.c_str(), stderr);
    std::fflush(stderr);
}

} // namespace detail

// The profile of the last launch made with the profile on (launch == 0: none yet).
inline profile_report last_profile()
{
    detail::profile_launch_state& g = detail::profile_launch();
    std::lock_guard<std::mutex> lock(g.m);
    return g.last;
}

// ---- the hooks: the library's accesses, barriers and MFMAs (instrument.hpp) ----------------------

namespace detail {
// The instrumented side of an LDS access, out of line: inlined, its calls made the compiler keep
// the hot loop's values in memory around every access, instrumented or not.
[[gnu::cold, gnu::noinline]] inline void lds_note_access_instrumented(const void* p, std::size_t bytes, bool write,
                                                                      std::source_location site)
{
    if(racecheck_enabled())
        lds_note_access_slow(p, bytes, write, site);
    if(profile_enabled())
        profile_note(write ? ps_lds_write : ps_lds_read, p, bytes, true);
}
} // namespace detail

// An LDS access of the tile API (primitives.hpp: lds_note_load / lds_note_store).
inline void lds_note_access(const void* p, std::size_t bytes, bool write, std::source_location site)
{
    if(instrumented()) [[unlikely]]
        detail::lds_note_access_instrumented(p, bytes, write, site);
}

namespace detail {
// A buffer load or store of `bytes` at byte `offset` from `base`, made only if `valid` (out of
// line, as lds_note_access_instrumented).
[[gnu::cold, gnu::noinline]] inline void global_note_access_slow(const void* base, long long offset, std::size_t bytes,
                                                                 bool valid, bool write, std::source_location site)
{
    const void* p = reinterpret_cast<const void*>(reinterpret_cast<std::uintptr_t>(base) + offset);
    if(write && valid && racecheck_enabled())
        global_note_store_slow(p, bytes, site);
    if(profile_enabled())
        profile_note(write ? ps_global_store : ps_global_load, p, bytes, valid);
}
} // namespace detail

// An atomic add of `bytes` at byte `offset` from `base` (primitives.hpp: buffer_atomic_add_checked);
// `hit` as for a load. The profile counts it as a store; racecheck does not look at it, since
// atomic adds of several workgroups to one address are well defined.
inline void global_note_atomic(const void* base, long long offset, std::size_t bytes, bool hit)
{
    if(instrumented() && profile_enabled()) [[unlikely]]
        detail::profile_note(detail::ps_global_store,
                             reinterpret_cast<const void*>(reinterpret_cast<std::uintptr_t>(base) + offset), bytes,
                             hit);
}

// A workgroup barrier completed (scheduler.hpp).
inline void note_barrier()
{
    if(instrumented()) [[unlikely]]
    {
        detail::racecheck_barrier();
        if(profile_enabled())
            detail::profile_barrier();
    }
}

// One lane's part of an MFMA (mfma.hpp: mfma_backend, called by every lane).
inline void note_mfma()
{
    if(instrumented()) [[unlikely]]
        if(profile_enabled())
            detail::profile_mfma();
}

} // namespace ck_tile::emu
