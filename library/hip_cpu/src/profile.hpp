// SPDX-License-Identifier: MIT
// The profile of a launch from the instructions its waves executed (CK_TILE_EMU_PROFILE=1, the
// variable the source emulator reads; `nox -s profile -- --backend hip`). After each launch hip-cpu
// prints on stderr, for the kernel:
//   - its registers and LDS from the kernel descriptor, and the occupancy they allow (waves per
//     SIMD, blocks per CU), as nox -s device_check computes it;
//   - the wave instructions executed, by class: VALU, SALU, MFMA, DS, VMEM, SMEM, branch, and
//     other (s_waitcnt, s_barrier, s_nop, s_endpgm and the like);
//   - per DS instruction: executions and LDS bank-conflict cycles; per VMEM instruction:
//     executions and global-access efficiency (useful bytes / bytes of the 64-byte segments
//     fetched), both with the source emulator's cost models (profile_model.hpp): one model for both;
//   - per s_waitcnt (and per memory instruction that found its counter full): how often a wave
//     reached it with operations outstanding that it had to wait for.
// Counting is per wave instruction: an instruction a wave executes counts once, whatever EXEC is.
#pragma once
#include "engine.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace hip_cpu {

// The counts of one instruction of the program, over the waves that executed it.
struct profile_counts
{
    std::uint64_t executed        = 0;
    std::uint64_t conflict_cycles = 0;     // DS: extra cycles bank conflicts cost
    std::uint64_t useful = 0, fetched = 0; // VMEM: bytes asked for, bytes of segments fetched
    std::uint64_t waits = 0;               // waits with operations outstanding

    profile_counts& operator+=(const profile_counts& o); // another thread's counts
};

// One lane's access in the instruction being executed (up to two per lane: read2/write2).
struct profile_lane_access
{
    std::uint64_t address = 0;
    std::uint32_t bytes   = 0;
};

// A host thread's profile of the launch it helps run: per instruction index.
struct profile_state
{
    std::vector<profile_counts> counts;
    profile_lane_access lane[2][lanes];
    std::uint64_t used[2] = {0, 0}; // lanes with an access in lane[k]
};

// Whether CK_TILE_EMU_PROFILE is set (read once).
bool profile_enabled();

// Around each instruction a profiled wave executes (run_wave): before it, forget the last one's
// accesses; after it, count it and cost the accesses its lanes made.
void profile_before(const wave& w);
void profile_after(const wave& w, const inst& i);

// A lane's access of `bytes` at `address` in the instruction being executed (LDS offset or global
// address); a buffer access split per dword is joined back.
void profile_access(const wave& w, int lane, std::uint64_t address, std::uint32_t bytes);

// A wait the current instruction made for outstanding operations (s_waitcnt, a full counter).
void profile_wait(const wave& w);

// The launch's facts the report gives besides the counts.
struct profile_launch_info
{
    std::string kernel, arch;
    std::uint32_t grid[3] = {1, 1, 1}, block[3] = {1, 1, 1};
    std::uint32_t rsrc1 = 0, rsrc3 = 0;
    std::uint64_t lds_bytes = 0, lds_per_cu = 0;
    std::uint32_t waves_per_block = 1;
};

// The report: counts merged over the launch's threads (index: instruction of prog).
std::string profile_report(const profile_launch_info& info, const program& prog,
                           const std::vector<profile_counts>& counts);

} // namespace hip_cpu
