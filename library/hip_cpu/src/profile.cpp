// SPDX-License-Identifier: MIT
// The costs of one wave instruction's accesses come from the source emulator's models
#define CK_TILE_BACKEND_EMULATOR 1
#define CK_TILE_EMULATE_GFX950 1
#include "ck_tile/core/arch/emulator/profile_model.hpp"

#include "profile.hpp"

#include <algorithm>
#include <cstdio>
#include <sstream>
#include <string_view>

namespace hip_cpu {
namespace {

using u64       = std::uint64_t;
namespace model = ck_tile::emu::detail;

enum class kind : int
{
    valu,
    salu,
    mfma,
    ds,
    vmem,
    smem,
    branch,
    other,
    count
};
constexpr const char* kind_names[] = {"VALU", "SALU", "MFMA", "DS", "VMEM", "SMEM", "branch", "other"};

bool starts(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

kind classify(std::string_view text)
{
    const std::string_view m = text.substr(0, text.find(' '));
    if(starts(m, "v_mfma") || starts(m, "v_smfmac"))
        return kind::mfma;
    if(starts(m, "v_"))
        return kind::valu;
    if(starts(m, "ds_"))
        return kind::ds;
    if(starts(m, "buffer_inv") || starts(m, "buffer_wbl2") || starts(m, "buffer_wbinv"))
        return kind::other; // cache control
    if(starts(m, "buffer_") || starts(m, "global_") || starts(m, "flat_") || starts(m, "scratch_"))
        return kind::vmem;
    if(starts(m, "s_load") || starts(m, "s_buffer_load") || starts(m, "s_store") || starts(m, "s_dcache") ||
       starts(m, "s_memtime") || starts(m, "s_memrealtime"))
        return kind::smem;
    if(starts(m, "s_branch") || starts(m, "s_cbranch") || starts(m, "s_setpc") || starts(m, "s_swappc"))
        return kind::branch;
    for(const char* o : {"s_waitcnt", "s_barrier", "s_nop", "s_endpgm", "s_sleep", "s_setprio", "s_trap", "s_sethalt",
                         "s_icache_inv", "s_sendmsg", "s_ttracedata"})
        if(starts(m, o))
            return kind::other;
    return kind::salu;
}

// The lanes' accesses of slot k as the emulator's model takes them.
model::wave_access gather(const profile_state& s, int k)
{
    model::wave_access a{};
    a.lanes = s.used[k];
    for(int l = 0; l < lanes; ++l)
    {
        if(!((s.used[k] >> l) & 1))
            continue;
        a.addr[l]  = static_cast<std::uintptr_t>(s.lane[k][l].address);
        a.bytes[l] = static_cast<std::uint8_t>(std::min<std::uint32_t>(s.lane[k][l].bytes, model::max_access_bytes));
        a.width    = std::max<unsigned>(a.width, a.bytes[l]);
    }
    return a;
}

} // namespace

bool profile_enabled()
{
    static const bool on = env_flag("CK_TILE_EMU_PROFILE");
    return on;
}

void profile_before(const wave& w)
{
    profile_state& s = *w.wg->prof;
    s.used[0] = s.used[1] = 0;
}

void profile_after(const wave& w, const inst& i)
{
    profile_state& s  = *w.wg->prof;
    profile_counts& c = s.counts[i.index];
    ++c.executed;
    if((s.used[0] | s.used[1]) == 0)
        return;
    const bool ds = starts(w.d->prog->text[i.index], "ds_");
    for(int k = 0; k < 2; ++k)
    {
        if(s.used[k] == 0)
            continue;
        const model::wave_access a = gather(s, k);
        if(ds)
            c.conflict_cycles += model::lds_conflict_cycles(a);
        else
        {
            const model::coalescing g = model::global_coalescing(a);
            c.useful += g.useful;
            c.fetched += g.fetched;
        }
    }
}

profile_counts& profile_counts::operator+=(const profile_counts& o)
{
    executed += o.executed;
    conflict_cycles += o.conflict_cycles;
    useful += o.useful;
    fetched += o.fetched;
    waits += o.waits;
    return *this;
}

void profile_access(const wave& w, int lane, std::uint64_t address, std::uint32_t bytes)
{
    profile_state& s = *w.wg->prof;
    const u64 bit    = u64{1} << lane;
    if(s.used[0] & bit)
    {
        profile_lane_access& first = s.lane[0][lane];
        if(first.address + first.bytes == address) // a buffer access checked dword by dword
        {
            first.bytes += bytes;
            return;
        }
        if(!(s.used[1] & bit)) // read2 / write2: the second element
        {
            s.lane[1][lane] = {address, bytes};
            s.used[1] |= bit;
        }
        return;
    }
    s.lane[0][lane] = {address, bytes};
    s.used[0] |= bit;
}

void profile_wait(const wave& w) { ++w.wg->prof->counts[w.pc - 1].waits; }

std::string profile_report(const profile_launch_info& info, const program& prog,
                           const std::vector<profile_counts>& counts)
{
    std::ostringstream s;
    const u64 waves_per_block = info.waves_per_block;
    const u64 blocks          = u64{info.grid[0]} * info.grid[1] * info.grid[2];
    s << "hip-cpu profile: kernel " << info.kernel << " (" << info.arch << "), grid (" << info.grid[0] << ","
      << info.grid[1] << "," << info.grid[2] << ") x block (" << info.block[0] << "," << info.block[1] << ","
      << info.block[2] << "): " << blocks * waves_per_block << " wave(s)\n";

    // registers (gfx90a+: one file of VGPRs and AGPRs in granules of 8, the AGPRs from
    // accum_offset; SGPRs in granules of 8)
    const unsigned vgprs    = ((info.rsrc1 & 0x3f) + 1) * 8;
    const unsigned accum    = ((info.rsrc3 & 0x3f) + 1) * 4;
    const unsigned sgprs    = (((info.rsrc1 >> 6) & 0xf) + 1) * 8; // granules of 8 (with VCC, FLAT_SCRATCH, XNACK)
    const unsigned per_simd = std::min(8u, 512u / vgprs);
    u64 per_cu              = 4u * per_simd / waves_per_block;
    if(info.lds_bytes > 0)
        per_cu = std::min<u64>(per_cu, info.lds_per_cu / info.lds_bytes);
    const unsigned agprs = vgprs > accum ? vgprs - accum : 0;
    s << "  registers: " << vgprs << " VGPRs allocated (" << agprs << " of them AGPRs), " << sgprs
      << " SGPRs allocated; LDS " << info.lds_bytes << " bytes; occupancy: " << per_simd << " wave(s) per SIMD, "
      << per_cu << " block(s) of " << waves_per_block << " wave(s) per CU\n";

    u64 by_kind[static_cast<int>(kind::count)] = {};
    u64 total                                  = 0;
    for(std::size_t n = 0; n < counts.size(); ++n)
    {
        by_kind[static_cast<int>(classify(prog.text[n]))] += counts[n].executed;
        total += counts[n].executed;
    }
    s << "  wave instructions executed: " << total;
    for(int k = 0; k < static_cast<int>(kind::count); ++k)
        s << (k == 0 ? " (" : ", ") << kind_names[k] << " " << by_kind[k];
    s << ")\n";

    const auto line = [&](std::size_t n) -> std::ostream& {
        char pc[32];
        std::snprintf(pc, sizeof pc, "0x%llx", static_cast<unsigned long long>(prog.code[n].address));
        return s << "    " << pc << " '" << prog.text[n] << "': executed " << counts[n].executed;
    };
    bool any = false;
    for(std::size_t n = 0; n < counts.size(); ++n)
        if(counts[n].executed > 0 && classify(prog.text[n]) == kind::ds)
        {
            s << (any ? "" : "  DS instructions (LDS bank conflicts, extra cycles):\n");
            any = true;
            line(n) << ", conflict cycles " << counts[n].conflict_cycles << "\n";
        }
    any = false;
    for(std::size_t n = 0; n < counts.size(); ++n)
        if(counts[n].executed > 0 && classify(prog.text[n]) == kind::vmem)
        {
            s << (any ? "" : "  VMEM instructions (global-access efficiency, useful / fetched bytes):\n");
            any                     = true;
            const profile_counts& c = counts[n];
            if(c.fetched == 0) // an atomic: not a load or store the model costs
            {
                line(n) << "\n";
                continue;
            }
            char eff[32];
            std::snprintf(eff, sizeof eff, "%.1f%%", c.fetched ? 100.0 * double(c.useful) / double(c.fetched) : 0.0);
            line(n) << ", " << c.useful << " / " << c.fetched << " bytes = " << eff << "\n";
        }
    // s_waitcnt one by one; memory instructions that found their counter full, together
    any            = false;
    u64 full_insts = 0, full_waits = 0;
    for(std::size_t n = 0; n < counts.size(); ++n)
    {
        if(counts[n].waits == 0)
            continue;
        if(!starts(prog.text[n], "s_waitcnt"))
        {
            ++full_insts;
            full_waits += counts[n].waits;
            continue;
        }
        s << (any ? "" : "  s_waitcnt with operations outstanding (a stall unless they had completed):\n");
        any = true;
        line(n) << ", waited " << counts[n].waits << "\n";
    }
    if(full_insts > 0)
        s << "  memory instructions that found their counter full (vmcnt 63, lgkmcnt 15) and waited for the oldest: "
          << full_insts << " instruction(s), " << full_waits << " wait(s)\n";
    return s.str();
}

} // namespace hip_cpu
