// SPDX-License-Identifier: MIT
// The wave loop, the instruction table, faults and the s_waitcnt check.
#include "profile.hpp"
#include "engine.hpp"

#include <cstdlib>
#include <mutex>
#include <sstream>

namespace hip_cpu {

void fault(const wave& w, const inst& i, const std::string& what)
{
    std::ostringstream s;
    s << what << " (at 0x" << std::hex << i.address << std::dec << " '" << w.d->prog->text[i.index] << "', wave "
      << w.id << " of workgroup (" << w.wg->id[0] << "," << w.wg->id[1] << "," << w.wg->id[2] << "))";
    throw engine_fault(s.str());
}

void report_pending_read(const wave& w, const inst& i, const operand& o, int dword)
{
    const std::vector<std::uint32_t>& tags = o.kind == operand::vgpr   ? w.v_pending
                                             : o.kind == operand::agpr ? w.a_pending
                                                                       : w.s_pending;
    const std::uint32_t tag                = tags[o.reg + dword];
    const bool vm                          = (tag >> 31) != 0;
    const std::uint32_t seq                = (tag & 0x7fffffffu) - 1;
    const auto& ops                        = vm ? w.vm_ops : w.lgkm_ops;
    std::uint64_t load_pc                  = 0;
    for(const auto& op : ops)
        if(op.seq == seq)
            load_pc = w.d->prog->code[op.pc].address;
    const char prefix = o.kind == operand::vgpr ? 'v' : o.kind == operand::agpr ? 'a' : 's';
    std::ostringstream s;
    s << "reads " << prefix << (o.reg + dword) << " before the s_waitcnt " << (vm ? "vmcnt" : "lgkmcnt")
      << " that makes the load at 0x" << std::hex << load_pc << " visible";
    fault(w, i, s.str());
}

std::uint32_t sread_special(const wave& w, const inst& i, const operand& o)
{
    switch(o.kind)
    {
    case operand::scc:
        return w.scc;
    case operand::execz:
        return w.exec() == 0;
    case operand::vccz:
        return w.vcc() == 0;
    default:
        fault(w, i, "a scalar source that is not an SGPR or a constant");
    }
}

float f16_to_f32(std::uint16_t h)
{
    const std::uint32_t sign = (h & 0x8000u) << 16;
    const std::uint32_t exp  = (h >> 10) & 0x1f;
    const std::uint32_t man  = h & 0x3ffu;
    if(exp == 0x1f)
        return as_f32(sign | 0x7f800000u | (man << 13));
    if(exp == 0)
    {
        // zero or subnormal: man * 2^-24
        const float m = static_cast<float>(man) * 0x1p-24f;
        return sign ? -m : m;
    }
    return as_f32(sign | ((exp + 112) << 23) | (man << 13));
}

std::uint16_t f32_to_f16(float f)
{
    const std::uint32_t x    = f32_bits(f);
    const std::uint32_t sign = (x >> 16) & 0x8000u;
    const std::uint32_t ax   = x & 0x7fffffffu;
    if(ax > 0x7f800000u) // NaN: keep it quiet
        return static_cast<std::uint16_t>(sign | 0x7e00u | ((ax >> 13) & 0x3ffu));
    if(ax >= 0x477ff000u) // rounds to infinity (>= 65520)
        return static_cast<std::uint16_t>(sign | 0x7c00u);
    if(ax < 0x38800000u) // below the smallest normal: a subnormal, rounded to nearest even
    {
        const float m = as_f32(ax) * 0x1p24f; // in units of 2^-24
        return static_cast<std::uint16_t>(sign | static_cast<std::uint32_t>(__builtin_rintf(m)));
    }
    // normal: drop 13 mantissa bits, round to nearest even
    const std::uint32_t r = ax + 0xfffu + ((ax >> 13) & 1u);
    return static_cast<std::uint16_t>(sign | ((r - 0x38000000u) >> 13));
}

const handler_table& instruction_table()
{
    static const handler_table t = [] {
        handler_table t;
        add_scalar_instructions(t);
        add_vector_instructions(t);
        add_float_instructions(t);
        add_compare_instructions(t);
        add_packed_instructions(t);
        add_memory_instructions(t);
        add_lds_instructions(t);
        add_mfma_instructions(t);
        return t;
    }();
    return t;
}

bool env_flag(const char* name)
{
    const char* v = std::getenv(name);
    return v != nullptr && *v != 0 && !(v[0] == '0' && v[1] == 0);
}

namespace {

// The wave loop; Profiled: the profile counts each instruction (profile.hpp)
template <bool Profiled>
void run_wave_loop(wave& w)
{
    const inst* code        = w.d->prog->code.data();
    const std::uint32_t end = static_cast<std::uint32_t>(w.d->prog->code.size());
    while(w.status == wave::state::running)
    {
        if(w.pc >= end)
            throw engine_fault("the wave ran past the end of the kernel without s_endpgm");
        const inst& i = code[w.pc];
        ++w.pc;
        if constexpr(Profiled)
            profile_before(w);
        i.run(w, i);
        if constexpr(Profiled)
            profile_after(w, i);
    }
}

} // namespace

void run_wave(wave& w)
{
    if(w.wg->prof != nullptr) [[unlikely]]
        return run_wave_loop<true>(w);
    run_wave_loop<false>(w);
}

} // namespace hip_cpu
