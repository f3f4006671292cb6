// SPDX-License-Identifier: MIT
// The access profile's numbers of one launch (profile_counters, profile_report: what
// last_profile() returns) and the report profile.hpp prints from them on stderr. README.md,
// "Access profile", explains each line.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>

#include "ck_tile/core/arch/emulator/arch_traits.hpp"
#include "ck_tile/core/arch/emulator/workgroup.hpp"

namespace ck_tile::emu {

// Counts of one launch (wave instructions, not lane accesses, unless said otherwise).
struct profile_counters
{
    std::uint64_t lds_reads = 0, lds_writes = 0; // LDS wave instructions
    std::uint64_t lds_conflicted       = 0;      // of them, those with a bank conflict
    std::uint64_t lds_conflict_cycles  = 0;      // extra cycles of all bank conflicts
    std::uint64_t global_loads         = 0;      // global load wave instructions
    std::uint64_t global_load_useful   = 0;      // distinct bytes they asked for
    std::uint64_t global_load_fetched  = 0;      // bytes of the 64-byte segments they touched
    std::uint64_t global_stores        = 0;
    std::uint64_t global_store_useful  = 0;
    std::uint64_t global_store_fetched = 0;
    std::uint64_t global_width[5]      = {}; // global wave instructions of 1, 2, 4, 8, 16 bytes per lane
    std::uint64_t lds_width[5]         = {}; // LDS wave instructions of 1, 2, 4, 8, 16 bytes per lane
    std::uint64_t mfma                 = 0;  // MFMA wave instructions
    std::uint64_t barriers             = 0;  // workgroup barriers completed (all workgroups)
    std::uint64_t workgroups           = 0;
    std::uint64_t lds_bytes            = 0; // most LDS one workgroup carved (dynamic + lds_static)
    std::uint64_t lds_shared_span      = 0; // most bytes one workgroup's accesses to `__shared__` spanned

    void add(const profile_counters& o) noexcept
    {
        lds_reads += o.lds_reads;
        lds_writes += o.lds_writes;
        lds_conflicted += o.lds_conflicted;
        lds_conflict_cycles += o.lds_conflict_cycles;
        global_loads += o.global_loads;
        global_load_useful += o.global_load_useful;
        global_load_fetched += o.global_load_fetched;
        global_stores += o.global_stores;
        global_store_useful += o.global_store_useful;
        global_store_fetched += o.global_store_fetched;
        for(int i = 0; i < 5; ++i)
        {
            global_width[i] += o.global_width[i];
            lds_width[i] += o.lds_width[i];
        }
        mfma += o.mfma;
        barriers += o.barriers;
        workgroups += o.workgroups;
        lds_bytes       = lds_bytes > o.lds_bytes ? lds_bytes : o.lds_bytes;
        lds_shared_span = lds_shared_span > o.lds_shared_span ? lds_shared_span : o.lds_shared_span;
    }
};

// The profile of one launch.
struct profile_report : profile_counters
{
    std::uint64_t launch = 0; // profiled launches of this process so far, this one included (0: none)
    std::string kernel_name;
    extent3 grid{}, block{};

    std::uint64_t lds_instructions() const noexcept { return lds_reads + lds_writes; }
    // Share of LDS wave instructions with a bank conflict, in percent (0 without LDS accesses).
    double lds_conflict_percent() const noexcept
    {
        return lds_instructions() == 0 ? 0.0 : 100.0 * double(lds_conflicted) / double(lds_instructions());
    }
    // Useful bytes of the global loads / stores per byte of the segments they touched, in percent
    // (100 without any).
    double global_load_efficiency() const noexcept
    {
        return global_load_fetched == 0 ? 100.0 : 100.0 * double(global_load_useful) / double(global_load_fetched);
    }
    double global_store_efficiency() const noexcept
    {
        return global_store_fetched == 0 ? 100.0 : 100.0 * double(global_store_useful) / double(global_store_fetched);
    }
};

namespace detail {

inline std::string profile_extent(const extent3& e)
{
    return "(" + std::to_string(e.x) + "," + std::to_string(e.y) + "," + std::to_string(e.z) + ")";
}

inline std::string profile_widths(const std::uint64_t (&h)[5])
{
    std::string t;
    for(unsigned i = 0; i < 5; ++i)
        t += (i == 0 ? "" : " ") + std::to_string(1u << i) + "B:" + std::to_string(h[i]);
    return t;
}

inline std::string profile_efficiency(const char* what, std::uint64_t n, std::uint64_t useful, std::uint64_t fetched,
                                      double percent)
{
    if(n == 0)
        return std::string("  global ") + what + " efficiency: n/a (no global " + what + "s)\n";
    char b[32];
    std::snprintf(b, sizeof b, "%.1f%%", percent);
    return std::string("  global ") + what + " efficiency: " + b + " (" + std::to_string(useful) + " bytes used of " +
           std::to_string(fetched) + " in the 64-byte segments touched; " + std::to_string(n) +
           " wavefront instructions)\n";
}

// The report of one launch, as profile_end_launch prints it (README.md explains each line).
inline std::string format_profile(const profile_report& r)
{
    char pct[32];
    std::snprintf(pct, sizeof pct, "%.1f%%", r.lds_conflict_percent());
    std::string t = "ck_tile emulator profile: kernel '" + r.kernel_name + "' (" + arch_name() + "; grid " +
                    profile_extent(r.grid) + ", block " + profile_extent(r.block) + "; " +
                    std::to_string(r.workgroups) + " workgroups)\n";
    t += "  LDS bank conflicts: " + std::to_string(r.lds_conflicted) + " (" + pct + " of LDS wavefront instructions)\n";
    t += "  LDS wavefront instructions: " + std::to_string(r.lds_reads) + " reads, " + std::to_string(r.lds_writes) +
         " writes; " + std::to_string(r.lds_conflict_cycles) + " extra cycles from bank conflicts (" +
         std::to_string(lds_bank_count) + " banks of " + std::to_string(lds_bank_bytes) + " bytes)\n";
    t += profile_efficiency("load", r.global_loads, r.global_load_useful, r.global_load_fetched,
                            r.global_load_efficiency());
    t += profile_efficiency("store", r.global_stores, r.global_store_useful, r.global_store_fetched,
                            r.global_store_efficiency());
    t += "  vector width (wavefront instructions by bytes per lane): global " + profile_widths(r.global_width) +
         "; LDS " + profile_widths(r.lds_width) + "\n";
    t += "  MFMA: " + std::to_string(r.mfma) + " wavefront instructions\n";
    t += "  barriers: " + std::to_string(r.barriers) + " completed (all workgroups)\n";
    t += "  LDS used: " + std::to_string(r.lds_bytes) + " bytes per workgroup";
    if(r.lds_shared_span != 0)
        t += " + " + std::to_string(r.lds_shared_span) + " spanned by accesses to __shared__ variables";
    t += " (of " + std::to_string(lds_bytes_limit()) + " on " + arch_name() + ")\n";
    return t;
}

inline std::string profile_repeats_line(std::uint64_t n)
{
    return "ck_tile emulator profile: the launch above ran " + std::to_string(n) + " more time" + (n == 1 ? "" : "s") +
           " with the same profile\n";
}

} // namespace detail

} // namespace ck_tile::emu
