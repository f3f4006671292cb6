// SPDX-License-Identifier: MIT
#include "racecheck.hpp"

#include <algorithm>
#include <sstream>

namespace hip_cpu {
namespace {

using u32 = std::uint32_t;
using u64 = std::uint64_t;

// Whether `before` (another wave's access) is ordered before an access made now: it belongs to an
// earlier workgroup, or its wave ended one of the epochs from its own to the one before now with
// it complete (done: that wave's epochs ended so).
bool ordered(const race_state& rs, const race_access& before, const std::vector<std::vector<u32>>& done)
{
    if(before.epoch < rs.group_start)
        return true;
    const auto& ends = done[before.wave];
    const auto it    = std::lower_bound(ends.begin(), ends.end(), before.epoch);
    return it != ends.end() && *it < rs.epoch;
}

[[noreturn]] void report(const wave& w, const inst& i, int lane, const race_access& before, bool before_is_write,
                         bool now_is_write, const char* where, u64 address, const char* why)
{
    const program& p = *w.d->prog;
    std::ostringstream s;
    s << "race: " << (now_is_write ? "write" : "read") << " after " << (before_is_write ? "write" : "read") << " of "
      << where << " 0x" << std::hex << address << std::dec << " " << why << ": wave " << before.wave << " lane "
      << int{before.lane} << " at 0x" << std::hex << p.code[before.pc].address << std::dec << " '" << p.text[before.pc]
      << "', then wave " << w.id << " lane " << lane;
    fault(w, i, s.str());
}

// One byte's check and update for an access of wave w now.
void note(const wave& w, const inst& i, int lane, race_byte& b, bool store, const std::vector<std::vector<u32>>& done,
          const char* where, u64 address, const char* why)
{
    const race_state& rs = *w.wg->race;
    const auto other = [&](const race_access& a) { return a.epoch != 0 && a.wave != w.id && !ordered(rs, a, done); };
    if(other(b.write))
        report(w, i, lane, b.write, true, store, where, address, why);
    const race_access now{rs.epoch, static_cast<std::uint16_t>(w.id), static_cast<std::uint8_t>(lane), i.index};
    if(store)
    {
        for(const race_access* r : {&b.read, &b.read2})
            if(other(*r))
                report(w, i, lane, *r, false, true, where, address, why);
        b.write = now;
        return;
    }
    // keep reads of two waves that are not yet ordered: any later writer differs from one of them
    if(b.read.epoch == 0 || b.read.wave == w.id || !other(b.read))
        b.read = now;
    else if(b.read2.epoch == 0 || b.read2.wave == w.id || !other(b.read2))
        b.read2 = now;
}

} // namespace

bool racecheck_enabled()
{
    static const bool on = env_flag("CK_TILE_EMU_RACECHECK");
    return on;
}

void race_state::begin_group(u32 lds_bytes, int waves, bool tgsplit_mode)
{
    if(lds.size() < lds_bytes)
        lds.resize(lds_bytes);
    mem.clear();
    group_start = ++epoch;
    tgsplit     = tgsplit_mode;
    lds_done.assign(static_cast<std::size_t>(waves), {});
    vm_done.assign(static_cast<std::size_t>(waves), {});
}

void race_state::barrier(const std::vector<wave>& waves)
{
    for(const wave& w : waves)
    {
        // DS operations count in lgkmcnt with the scalar loads (marked 0x80), which do not matter here
        const bool ds_done = std::all_of(w.lgkm_ops.begin(), w.lgkm_ops.end(),
                                         [](const pending_op& op) { return (op.kind & 0x80) != 0; });
        if(ds_done)
            lds_done[static_cast<std::size_t>(w.id)].push_back(epoch);
        if(!tgsplit || w.vm_ops.empty())
            vm_done[static_cast<std::size_t>(w.id)].push_back(epoch);
    }
    ++epoch;
}

void race_lds(const wave& w, const inst& i, int lane, u32 address, u32 bytes, bool store)
{
    race_state& rs = *w.wg->race;
    for(u32 k = 0; k < bytes; ++k)
        note(w, i, lane, rs.lds[address + k], store, rs.lds_done, "LDS offset", address + k,
             "that no barrier orders (none between them, or the first wave's DS operation was still outstanding "
             "at it: s_waitcnt lgkmcnt(0) before the barrier)");
}

void race_global(const wave& w, const inst& i, int lane, u64 address, u32 bytes, bool store)
{
    race_state& rs = *w.wg->race;
    for(u32 k = 0; k < bytes; ++k)
        note(w, i, lane, rs.mem[address + k], store, rs.vm_done, "global address", address + k,
             rs.tgsplit ? "that no barrier orders (none between them, or the first wave's vector memory operation "
                          "was still outstanding at it: in tgsplit mode s_waitcnt vmcnt(0) before the barrier)"
                        : "with no barrier between them");
}

} // namespace hip_cpu
