// SPDX-License-Identifier: MIT
// Race detection of the CPU emulator (CK_TILE_EMU_RACECHECK=1; set_racecheck() in tests).
//
// LDS. The library's LDS loads and stores (buffer_view over address_space_enum::lds, the path of
// load_tile / store_tile and tensor_view element access) call lds_note_access() before they touch
// LDS. For every LDS byte a shadow records the last writer and the readers since the last
// workgroup barrier; an access that conflicts with one of another wave (write/write, write/read,
// read/write) with no barrier between them ends the workgroup with a launch_error naming the
// kernel, the block, both threads (wave, lane), the LDS offset and where both accesses were made.
// Accesses of one wave are never reported: its lanes execute each instruction together on
// hardware, and a wave's own LDS accesses complete in order, so an exchange between the lanes of
// one wave is correct without a barrier. "Since the last barrier" is an epoch counter bumped at
// every completed barrier and every new workgroup, so the shadow is never cleared.
//
// Global memory. The checked buffer stores (buffer_store_checked) call global_note_store(): two
// workgroups of one launch storing to the same byte is reported the same way (the library's
// atomic adds, buffer_atomic_add_checked, are not stores and are not noted). The shadow maps each
// 16 bytes stored in this launch to the workgroups that stored each byte; it is cleared when a
// launch starts.
//
// Off by default and then free but for one predictable branch per access on a flag read once per
// process (instrument.hpp); the hooks that call the functions here are at the end of profile.hpp.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <mutex>
#include <source_location>
#include <string>
#include <unordered_map>
#include <vector>

#include "ck_tile/core/arch/emulator/arch_traits.hpp"
#include "ck_tile/core/arch/emulator/diagnostics.hpp"
#include "ck_tile/core/arch/emulator/instrument.hpp"
#include "ck_tile/core/arch/emulator/workgroup.hpp"

namespace ck_tile::emu {

namespace detail {

inline constexpr std::uint16_t k_no_thread = 0xFFFF;

// Who touched one LDS byte in the current epoch (an entry of an older epoch is empty).
struct lds_shadow
{
    std::uint32_t write_epoch = 0;
    std::uint32_t read_epoch  = 0;
    std::uint16_t writer      = k_no_thread; // flat thread id of the last writer
    std::uint16_t reader      = k_no_thread; // a reader
    std::uint16_t reader2     = k_no_thread; // a reader of a wave other than `reader`'s
    std::source_location write_site, read_site, read2_site;
};

// The shadow of one OS thread's LDS arena (workers run one workgroup at a time).
struct lds_race_state
{
    std::vector<lds_shadow> shadow;                           // the arena, per byte
    std::unordered_map<std::uintptr_t, lds_shadow> elsewhere; // `__shared__` variables, per address
    std::uint32_t epoch         = 0;
    const workgroup* wg         = nullptr;
    std::uint64_t wg_generation = 0;
};

inline thread_local lds_race_state t_lds_race;

inline void racecheck_next_epoch(lds_race_state& s)
{
    if(++s.epoch == 0) // wrapped: forget everything rather than mistake old epochs for new
    {
        s.shadow.assign(s.shadow.size(), lds_shadow{});
        s.elsewhere.clear();
        s.epoch = 1;
    }
}

// A barrier of the running workgroup completed: accesses before it no longer race with later ones.
inline void racecheck_barrier() noexcept
{
    if(racecheck_enabled()) [[unlikely]]
        racecheck_next_epoch(t_lds_race);
}

inline std::string site_text(const std::source_location& s)
{
    if(s.line() == 0)
        return "unknown location";
    return std::string(s.file_name()) + ":" + std::to_string(s.line());
}

inline std::string thread_text(std::uint32_t flat)
{
    return "wave " + std::to_string(flat >> 6) + " lane " + std::to_string(flat & 63);
}

inline std::string hex_address(std::uintptr_t a)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(a));
    return buf;
}

inline std::string lds_place(bool in_arena, std::uintptr_t off)
{
    return in_arena ? "offset " + std::to_string(off) : "address " + hex_address(off) + " (a __shared__ variable)";
}

[[noreturn]] inline void fail_race(const char* space, const char* kind, std::uint32_t t1,
                                   const std::source_location& s1, std::uint32_t t2, const std::source_location& s2,
                                   std::string at)
{
    fail_workgroup([&] {
        return where(*t_wg) + ": race: " + kind + " of " + space + " " + at +
               " with no barrier between them: " + thread_text(t1) + " at " + site_text(s1) + ", then " +
               thread_text(t2) + " at " + site_text(s2);
    });
}

inline void lds_note_access_slow(const void* p, std::size_t bytes, bool write, const std::source_location& site)
{
    workgroup& wg     = *current_wg("lds access");
    const fiber& self = *t_fiber;
    lds_race_state& s = t_lds_race;
    if(s.shadow.size() != lds_bytes_limit())
        s.shadow.assign(lds_bytes_limit(), lds_shadow{});
    if(s.wg != &wg || s.wg_generation != wg.generation) // a new workgroup
    {
        s.wg            = &wg;
        s.wg_generation = wg.generation;
        racecheck_next_epoch(s);
    }
    // LDS offset of the first byte; a `__shared__` variable outside the arena goes by its address
    const auto a0             = reinterpret_cast<std::uintptr_t>(p);
    const auto lo             = reinterpret_cast<std::uintptr_t>(wg.lds);
    const bool inarena        = a0 >= lo && a0 - lo + bytes <= s.shadow.size();
    const std::uintptr_t off0 = inarena ? a0 - lo : a0;
    const std::uint32_t me    = self.flat;
    const std::uint32_t wave  = me >> 6;
    const auto other_wave     = [&](std::uint16_t t) { return t != k_no_thread && (std::uint32_t{t} >> 6) != wave; };
    for(std::uintptr_t off = off0; off < off0 + bytes; ++off)
    {
        lds_shadow& b = inarena ? s.shadow[off] : s.elsewhere[off];
        if(b.write_epoch == s.epoch && other_wave(b.writer))
            fail_race("LDS", write ? "write after write" : "read after write", b.writer, b.write_site, me, site,
                      lds_place(inarena, off));
        if(write)
        {
            if(b.read_epoch == s.epoch)
            {
                if(other_wave(b.reader))
                    fail_race("LDS", "write after read", b.reader, b.read_site, me, site, lds_place(inarena, off));
                if(other_wave(b.reader2))
                    fail_race("LDS", "write after read", b.reader2, b.read2_site, me, site, lds_place(inarena, off));
            }
            b.write_epoch = s.epoch;
            b.writer      = static_cast<std::uint16_t>(me);
            b.write_site  = site;
        }
        else if(b.read_epoch != s.epoch)
        {
            b.read_epoch = s.epoch;
            b.reader     = static_cast<std::uint16_t>(me);
            b.read_site  = site;
            b.reader2    = k_no_thread;
        }
        else if(b.reader2 == k_no_thread && (std::uint32_t{b.reader} >> 6) != wave)
        {
            b.reader2    = static_cast<std::uint16_t>(me);
            b.read2_site = site;
        }
    }
}

// ---- global memory: stores of two workgroups to one byte in one launch ----------------------------

// Stores of this launch, per 16-byte chunk of global memory: which workgroup (flat index + 1;
// 0: none) stored each byte, and the thread and place of the chunk's last store.
struct global_chunk
{
    std::uint32_t block[16] = {};
    std::uint32_t thread    = 0;
    std::source_location site;
};

struct global_race_state
{
    std::mutex m;
    std::unordered_map<std::uintptr_t, global_chunk> chunks; // keyed by address / 16
};

inline global_race_state& global_race()
{
    static global_race_state s;
    return s;
}

// A launch starts: stores of earlier launches are ordered before it.
inline void racecheck_begin_launch()
{
    if(racecheck_enabled()) [[unlikely]]
    {
        std::lock_guard<std::mutex> lock(global_race().m);
        global_race().chunks.clear();
    }
}

inline void global_note_store_slow(const void* p, std::size_t bytes, const std::source_location& site)
{
    workgroup& wg = *current_wg("global store");
    const auto block =
        static_cast<std::uint32_t>(wg.block[0] + wg.grid[0] * (wg.block[1] + wg.grid[1] * wg.block[2]) + 1);
    const std::uint32_t me    = t_fiber->flat;
    const auto a0             = reinterpret_cast<std::uintptr_t>(p);
    std::uint32_t other_block = 0, other_thread = 0;
    std::source_location other_site;
    std::uintptr_t at = 0;
    {
        global_race_state& g = global_race();
        std::lock_guard<std::mutex> lock(g.m);
        for(std::uintptr_t a = a0; a < a0 + bytes && at == 0; ++a)
        {
            global_chunk& c      = g.chunks[a >> 4];
            std::uint32_t& owner = c.block[a & 15];
            if(owner != 0 && owner != block)
            {
                other_block  = owner;
                other_thread = c.thread;
                other_site   = c.site;
                at           = a;
            }
            owner    = block;
            c.thread = me;
            c.site   = site;
        }
    }
    if(at != 0)
        fail_workgroup([&] {
            // The pair in ascending order: which of the two stored first depends on the host's
            // scheduling of workgroups, so the message names them independently of it.
            return where(wg) + ": race: workgroups " + std::to_string(std::min(other_block, block) - 1) + " and " +
                   std::to_string(std::max(other_block, block) - 1) + " (flat indices) both store to global address " +
                   hex_address(at) + " in one launch: " + thread_text(other_thread) + " at " + site_text(other_site) +
                   " (the last store to its 16 bytes), then " + thread_text(me) + " at " + site_text(site);
        });
}

} // namespace detail

} // namespace ck_tile::emu
