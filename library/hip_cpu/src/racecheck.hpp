// SPDX-License-Identifier: MIT
// Race detection on the machine code (CK_TILE_EMU_RACECHECK=1, the variable the source emulator
// reads): accesses of two waves of one workgroup to the same byte, one of them a write, that no
// s_barrier orders, stop the launch with both instructions (PC and text), both waves and lanes,
// and the address.
//
// What orders two accesses: a barrier between them that the first access's wave reached with the
// access complete. The memory model of gfx942/gfx950 (LLVM's AMDGPUUsage) says which completion
// each kind of memory needs:
//   LDS     the LDS has several request queues, so the DS operations of different waves can be
//           reordered: the wave must have waited for its DS operations (s_waitcnt lgkmcnt(0), as
//           block_sync_lds and __syncthreads do) before the barrier;
//   global  the waves of a workgroup share one CU and its vector L1, which serves them in order,
//           so the barrier alone orders them; in tgsplit mode (the descriptor's TG_SPLIT bit) the
//           waves may run on different CUs, and the wave must have waited for its vector memory
//           operations (s_waitcnt vmcnt(0)) before it.
// Accesses of one wave are never reported (its lanes run each instruction together, and its own
// accesses of one address complete in order); nor are atomics, which are not plain accesses.
//
// The shadow is per byte: the last write and up to two reads (of two waves) of each byte. Epochs
// (one per stretch between two barriers of a workgroup) number the accesses; they only grow on a
// host thread, so a new workgroup starts a new epoch and the LDS shadow is never cleared; the
// global one (bytes this workgroup touched) is cleared when the workgroup starts.
#pragma once
#include "engine.hpp"

#include <cstdint>
#include <unordered_map>
#include <vector>

namespace hip_cpu {

// One access of one byte: its epoch, wave, lane and instruction (index into the program).
struct race_access
{
    std::uint32_t epoch = 0; // 0: none
    std::uint16_t wave  = 0;
    std::uint8_t lane   = 0;
    std::uint32_t pc    = 0;
};

// Who touched one byte: the last write, and reads of up to two waves.
struct race_byte
{
    race_access write, read, read2;
};

// A host thread's race-detection state, for the workgroup it runs.
struct race_state
{
    std::vector<race_byte> lds;                       // per LDS byte
    std::unordered_map<std::uint64_t, race_byte> mem; // per global byte this workgroup touched
    std::uint32_t epoch       = 0;                    // the running workgroup's current epoch
    std::uint32_t group_start = 1;                    // its first epoch: older entries are another's
    bool tgsplit              = false;                // global accesses need vmcnt(0) before a barrier
    // per wave: the epochs it ended at a barrier with its DS operations complete (lds_done) and its
    // vector memory operations complete (vm_done), in order
    std::vector<std::vector<std::uint32_t>> lds_done, vm_done;

    void begin_group(std::uint32_t lds_bytes, int waves, bool tgsplit_mode);
    // every wave has reached the barrier: note which completed what, and start the next epoch
    void barrier(const std::vector<wave>& waves);
};

// Whether CK_TILE_EMU_RACECHECK is set (read once).
bool racecheck_enabled();

// An access of `bytes` at `address` by lane `lane` of w (a read, or a write when store).
void race_lds(const wave& w, const inst& i, int lane, std::uint32_t address, std::uint32_t bytes, bool store);
void race_global(const wave& w, const inst& i, int lane, std::uint64_t address, std::uint32_t bytes, bool store);

} // namespace hip_cpu
