// SPDX-License-Identifier: MIT
#include "waitcnt.hpp"

#include "profile.hpp"

namespace hip_cpu {
namespace {

using u32 = std::uint32_t;

void mark_pending(wave& w, const operand& dst, u32 tag, int dwords)
{
    std::vector<u32>* p = dst.kind == operand::vgpr   ? &w.v_pending
                          : dst.kind == operand::agpr ? &w.a_pending
                          : dst.kind == operand::sgpr ? &w.s_pending
                                                      : nullptr;
    if(p == nullptr)
        return;
    for(int k = 0; k < dwords; ++k)
        (*p)[dst.reg + k] = tag;
}

} // namespace

// The counters' capacity (gfx9: vmcnt 6 bits, lgkmcnt 4 bits). A wave cannot have more operations
// outstanding: issuing one more waits for the oldest, so the compiler may rely on that wait.
constexpr int vmcnt_max = 63, lgkmcnt_max = 15;

// Records an issued operation that counts in vmcnt (vm) or lgkmcnt, writing `dwords` registers of
// dst (0: none, a store).
void issue(wave& w, const inst& i, bool vm, const operand* dst, int dwords, bool smem)
{
    auto& ops   = vm ? w.vm_ops : w.lgkm_ops;
    u32& issued = vm ? w.vm_issued : w.lgkm_issued;
    pending_op op;
    op.seq = issued++;
    op.pc  = i.index;
    if(dst != nullptr && dwords > 0)
    {
        op.kind   = dst->kind;
        op.reg    = dst->reg;
        op.dwords = static_cast<std::uint16_t>(dwords);
        mark_pending(w, *dst, (vm ? 0x80000000u : 0u) | (op.seq + 1), dwords);
    }
    if(smem)
        op.kind |= 0x80; // returns out of order: only lgkmcnt(0) is sure to have it
    ops.push_back(op);
    const int max = vm ? vmcnt_max : lgkmcnt_max;
    if(static_cast<int>(ops.size()) > max)
        retire(w, ops, vm, max);
}

void retire(wave& w, std::vector<pending_op>& ops, bool vm, int keep)
{
    const int n = static_cast<int>(ops.size());
    if(n <= keep)
        return;
    if(w.wg->prof != nullptr) [[unlikely]]
        profile_wait(w);
    std::size_t kept = 0;
    for(int k = 0; k < n; ++k)
    {
        const pending_op op = ops[k];
        const bool smem     = (op.kind & 0x80) != 0;
        if(!(k < n - keep && (!smem || keep == 0)))
        {
            ops[kept++] = op; // still outstanding
            continue;
        }
        const u32 tag       = (vm ? 0x80000000u : 0u) | (op.seq + 1);
        std::vector<u32>* p = (op.kind & 0x7f) == operand::vgpr   ? &w.v_pending
                              : (op.kind & 0x7f) == operand::agpr ? &w.a_pending
                              : (op.kind & 0x7f) == operand::sgpr ? &w.s_pending
                                                                  : nullptr;
        if(p != nullptr)
            for(int d = 0; d < op.dwords; ++d)
                if((*p)[op.reg + d] == tag)
                    (*p)[op.reg + d] = 0;
    }
    ops.resize(kept);
}

} // namespace hip_cpu
