// SPDX-License-Identifier: MIT
// The cost models of the emulator's access profile (profile.hpp): what one wave instruction, the
// same access made by the lanes of a wave, costs in LDS bank conflicts or in global memory
// segments. Pure functions of the lanes' addresses and sizes.
//
// LDS bank conflicts (lds_conflict_cycles). The LDS has lds_bank_count banks of lds_bank_bytes
// (arch_traits.hpp: 32 x 4 bytes); the dword at byte address a lives in bank (a / 4) % 32. A wave
// instruction is serviced in phases, each a group of consecutive lanes whose accesses together
// fill one row of the banks (128 bytes): 32 lanes for accesses of 4 bytes or less (ds_read_b32,
// _u16, _u8: two phases, lanes 0-31 and 32-63), 16 lanes for 8 bytes (ds_read_b64: four
// phases), 8 lanes for 16 bytes (ds_read_b128 / ds_write_b128: eight phases, lanes 0-7, 8-15,
// ...). Within a phase a bank serves one dword per cycle; lanes that touch the same dword share
// it (a broadcast, no conflict). A phase takes as many cycles as its busiest bank has distinct
// dwords; the instruction's conflict cycles are the sum over its phases of (cycles - 1).
// Approximations: every phase is a contiguous group of lanes (hardware may group the lanes of
// some instructions, ds_read_b128 among them, otherwise), reads and writes follow the same rule,
// and the extra cycles are not weighed against other waves' LDS traffic.
//
// Global coalescing (global_coalescing). Memory is fetched in 64-byte segments (aligned); a wave
// instruction fetches every segment that a byte of an active lane falls in, once. Its useful bytes
// are the distinct bytes its lanes ask for (a byte several lanes read counts once), so the
// efficiency useful / fetched is at most 1: a contiguous 4-byte-per-lane load is 256 / 256, one
// with a 256-byte stride between lanes 256 / (64 x 64) = 6.25%. Caches are not modelled: a segment
// the previous instruction fetched is counted again.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "ck_tile/core/arch/emulator/arch_traits.hpp"

namespace ck_tile::emu::detail {

// Bytes of global memory one fetch brings (the coalescing granularity).
inline constexpr unsigned global_segment_bytes = 64;

// The widest access one lane makes in one instruction (b128); wider accesses are split.
inline constexpr unsigned max_access_bytes = 16;

// One wave instruction: for each lane in `lanes`, its byte address and how many bytes it accesses
// (0: the lane takes part but touches nothing, e.g. an out-of-range buffer load).
struct wave_access
{
    std::uint64_t lanes = 0;
    unsigned width      = 0; // bytes per lane of the instruction (the widest lane's)
    std::uintptr_t addr[warp_size];
    std::uint8_t bytes[warp_size];
};

// Lanes per LDS phase for an instruction of `width` bytes per lane (see the header).
constexpr unsigned lds_lanes_per_phase(unsigned width) noexcept
{
    const unsigned row  = lds_bank_count * lds_bank_bytes;
    const unsigned lane = width < lds_bank_bytes ? lds_bank_bytes : width;
    return row / lane < 1 ? 1 : row / lane;
}

// Extra cycles bank conflicts cost one LDS wave instruction (0: conflict-free).
inline unsigned lds_conflict_cycles(const wave_access& w) noexcept
{
    const unsigned per_phase = lds_lanes_per_phase(w.width);
    unsigned extra           = 0;
    // dwords of one phase; a lane touches at most max_access_bytes / 4 + 1 of them (unaligned)
    std::uintptr_t dw[warp_size * (max_access_bytes / lds_bank_bytes + 1)];
    for(unsigned first = 0; first < static_cast<unsigned>(warp_size); first += per_phase)
    {
        std::size_t n = 0;
        for(unsigned l = first; l < first + per_phase && l < static_cast<unsigned>(warp_size); ++l)
        {
            if(((w.lanes >> l) & 1) == 0 || w.bytes[l] == 0)
                continue;
            const std::uintptr_t lo = w.addr[l] / lds_bank_bytes;
            const std::uintptr_t hi = (w.addr[l] + w.bytes[l] - 1) / lds_bank_bytes;
            for(std::uintptr_t d = lo; d <= hi; ++d)
                dw[n++] = d;
        }
        if(n == 0)
            continue;
        std::sort(dw, dw + n);
        n                                 = static_cast<std::size_t>(std::unique(dw, dw + n) - dw);
        unsigned per_bank[lds_bank_count] = {};
        unsigned busiest                  = 0;
        for(std::size_t i = 0; i < n; ++i)
            busiest = std::max(busiest, ++per_bank[dw[i] % lds_bank_count]);
        extra += busiest - 1;
    }
    return extra;
}

struct coalescing
{
    std::uint64_t useful  = 0; // distinct bytes the active lanes access
    std::uint64_t fetched = 0; // bytes of the 64-byte segments they fall in
};

// Segments one global wave instruction fetches, and the bytes of them it uses (see the header).
inline coalescing global_coalescing(const wave_access& w) noexcept
{
    struct span
    {
        std::uintptr_t lo, hi; // [lo, hi)
    };
    span s[warp_size];
    std::size_t n = 0;
    for(unsigned l = 0; l < static_cast<unsigned>(warp_size); ++l)
        if(((w.lanes >> l) & 1) != 0 && w.bytes[l] != 0)
            s[n++] = {w.addr[l], w.addr[l] + w.bytes[l]};
    coalescing c;
    if(n == 0)
        return c;
    std::sort(s, s + n, [](const span& a, const span& b) { return a.lo < b.lo; });
    std::uintptr_t covered_to = 0; // end of the bytes counted so far
    std::uintptr_t last_seg   = 0; // one past the last segment counted so far
    bool any                  = false;
    for(std::size_t i = 0; i < n; ++i)
    {
        const std::uintptr_t lo = any && s[i].lo < covered_to ? covered_to : s[i].lo;
        if(s[i].hi > lo)
            c.useful += s[i].hi - lo;
        covered_to = any ? std::max(covered_to, s[i].hi) : s[i].hi;

        std::uintptr_t first_seg     = s[i].lo / global_segment_bytes;
        const std::uintptr_t end_seg = (s[i].hi - 1) / global_segment_bytes + 1;
        if(any && first_seg < last_seg)
            first_seg = last_seg;
        if(end_seg > first_seg)
            c.fetched += (end_seg - first_seg) * global_segment_bytes;
        last_seg = any ? std::max(last_seg, end_seg) : end_seg;
        any      = true;
    }
    return c;
}

} // namespace ck_tile::emu::detail
