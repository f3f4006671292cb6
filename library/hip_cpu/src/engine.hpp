// SPDX-License-Identifier: MIT
// The engine's state and the helpers its instruction families share (engine_scalar.cpp,
// engine_vector.cpp, engine_memory.cpp, engine_mfma.cpp).
//
// A wave is 64 lanes in lockstep: scalar instructions run once, vector instructions run over the
// 64 lanes as plain loops the host compiler vectorises, and EXEC decides which lanes keep their
// results. The waves of a workgroup run on one host thread, each until it ends or reaches
// s_barrier; workgroups are spread over the host's threads (launch.cpp).
#pragma once
#include "program.hpp"

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace hip_cpu {

constexpr int lanes = 64;
using lane_u32      = std::uint32_t[lanes];

// A fault inside a launch (an access outside memory, a read before its s_waitcnt, ...); launch.cpp
// adds the kernel, the arch and the PC.
struct engine_fault : std::runtime_error
{
    using std::runtime_error::runtime_error;
};

// What a kernel's waves share in a launch.
struct dispatch
{
    const program* prog     = nullptr;
    std::uint64_t code_base = 0; // host address of the code object's image (for s_getpc_b64)
    std::uint64_t kernarg = 0, dispatch_packet = 0;
    bool fp8_ocp = false; // the arch's 8-bit float encoding: OCP (gfx950) or FNUZ (gfx942)
};

struct workgroup;

// An outstanding memory operation of a wave: which counter it counts in, its sequence number there,
// where it was issued and which registers it writes (for the s_waitcnt check).
struct pending_op
{
    std::uint32_t seq = 0, pc = 0;
    std::uint8_t kind = 0; // operand::vgpr, agpr or sgpr
    std::uint16_t reg = 0, dwords = 0;
};

struct wave
{
    std::uint32_t s[sreg::count] = {};
    bool scc                     = false;
    std::uint32_t pc             = 0; // index of the next instruction
    enum class state : std::uint8_t
    {
        running,
        at_barrier,
        done
    } status                 = state::running;
    std::uint32_t barrier_pc = 0;
    lane_u32* v              = nullptr; // VGPRs v0..v255
    lane_u32* a              = nullptr; // AGPRs a0..a255
    workgroup* wg            = nullptr;
    const dispatch* d        = nullptr;
    int id                   = 0; // wave index in its workgroup

    // s_waitcnt tracking: per counter, its issued operations in order; per register, the sequence
    // number + 1 of the load that writes it (0: none outstanding)
    std::vector<pending_op> vm_ops, lgkm_ops;
    std::uint32_t vm_issued = 0, lgkm_issued = 0;
    std::vector<std::uint32_t> v_pending, a_pending, s_pending; // tag: counter bit 31, seq below

    std::uint64_t exec() const { return s[sreg::exec] | std::uint64_t{s[sreg::exec + 1]} << 32; }
    void set_exec(std::uint64_t m)
    {
        s[sreg::exec]     = static_cast<std::uint32_t>(m);
        s[sreg::exec + 1] = static_cast<std::uint32_t>(m >> 32);
    }
    std::uint64_t vcc() const { return s[sreg::vcc] | std::uint64_t{s[sreg::vcc + 1]} << 32; }
};

struct race_state;    // racecheck.hpp
struct profile_state; // profile.hpp

struct workgroup
{
    std::uint32_t id[3]     = {0, 0, 0};
    std::uint8_t* lds       = nullptr;
    std::uint32_t lds_bytes = 0;
    race_state* race        = nullptr; // race detection on (CK_TILE_EMU_RACECHECK=1)
    profile_state* prof     = nullptr; // the profile on (CK_TILE_EMU_PROFILE=1)
    // whether memory instructions take their per-lane paths (race detection and the profile see
    // each lane's access there)
    bool per_lane() const { return race != nullptr || prof != nullptr; }
};

// ---- operands --------------------------------------------------------------------------------

[[noreturn]] void fault(const wave& w, const inst& i, const std::string& what);

// The s_waitcnt check: dword k of a source register still written by an outstanding load (each
// dword is checked as it is read).
void report_pending_read(const wave& w, const inst& i, const operand& o, int dword);
[[gnu::always_inline]] inline void check_ready(const wave& w, const inst& i, const operand& o, int k)
{
    const std::vector<std::uint32_t>& p = o.kind == operand::vgpr   ? w.v_pending
                                          : o.kind == operand::agpr ? w.a_pending
                                                                    : w.s_pending;
    if(p[o.reg + k] != 0) [[unlikely]]
        report_pending_read(w, i, o, k);
}

// A scalar source that is not an SGPR or a constant: SCC, EXECZ, VCCZ (out of line: rare).
std::uint32_t sread_special(const wave& w, const inst& i, const operand& o);

// A scalar source dword k (SGPR, constant, SCC).
[[gnu::always_inline]] inline std::uint32_t sread(const wave& w, const inst& i, const operand& o, int k = 0)
{
    if(o.kind == operand::sgpr)
    {
        check_ready(w, i, o, k);
        return w.s[o.reg + k];
    }
    if(o.kind == operand::constant) // a 64-bit constant's two dwords (wider operands: MFMA's C reads it itself)
        return o.bits[k & 1];
    return sread_special(w, i, o);
}
inline std::uint64_t sread64(const wave& w, const inst& i, const operand& o)
{
    return sread(w, i, o, 0) | std::uint64_t{sread(w, i, o, 1)} << 32;
}
inline void swrite(wave& w, const operand& o, std::uint32_t v, int k = 0)
{
    if(o.kind == operand::sgpr && o.reg + k != sreg::null)
        w.s[o.reg + k] = v;
}
inline void swrite64(wave& w, const operand& o, std::uint64_t v)
{
    swrite(w, o, static_cast<std::uint32_t>(v), 0);
    swrite(w, o, static_cast<std::uint32_t>(v >> 32), 1);
}

// A vector source's dword k for all 64 lanes: the register itself, or a broadcast into tmp.
[[gnu::always_inline]] inline const std::uint32_t* vread(wave& w, const inst& i, const operand& o, lane_u32& tmp,
                                                         int k = 0)
{
    switch(o.kind)
    {
    case operand::vgpr:
        check_ready(w, i, o, k);
        return w.v[o.reg + k];
    case operand::agpr:
        check_ready(w, i, o, k);
        return w.a[o.reg + k];
    default:
    {
        const std::uint32_t x = sread(w, i, o, k);
        for(int l = 0; l < lanes; ++l)
            tmp[l] = x;
        return tmp;
    }
    }
}
// The same with the float source modifiers (|x|, -x) applied, for 32-bit floats.
inline const std::uint32_t* vread_f32(wave& w, const inst& i, const operand& o, lane_u32& tmp)
{
    const std::uint32_t* p = vread(w, i, o, tmp);
    if(!o.abs && !o.neg)
        return p;
    const std::uint32_t and_mask = o.abs ? 0x7fffffffu : 0xffffffffu, xor_mask = o.neg ? 0x80000000u : 0u;
    for(int l = 0; l < lanes; ++l)
        tmp[l] = (p[l] & and_mask) ^ xor_mask;
    return tmp;
}

inline lane_u32& vdst(wave& w, const operand& o, int k = 0)
{
    return o.kind == operand::agpr ? w.a[o.reg + k] : w.v[o.reg + k];
}

// Writes r to the destination's dword k in the lanes EXEC enables.
inline void vwrite(wave& w, const operand& o, const std::uint32_t* r, int k = 0)
{
    lane_u32& d           = vdst(w, o, k);
    const std::uint64_t e = w.exec();
    if(e == ~std::uint64_t{0})
    {
        std::memcpy(d, r, sizeof(lane_u32));
        return;
    }
    for(int l = 0; l < lanes; ++l)
    {
        const std::uint32_t m = 0u - static_cast<std::uint32_t>((e >> l) & 1);
        d[l]                  = (r[l] & m) | (d[l] & ~m);
    }
}

// ---- lane masks ----------------------------------------------------------------------------------
// A lane mask from one 0/1 byte per lane, and back: eight lanes at a time, so that the per-lane
// loops around them stay plain (and vectorise) instead of shifting a 64-bit mask lane by lane.
inline std::uint64_t pack_lanes(const std::uint8_t* bit)
{
    std::uint64_t m = 0;
    for(int g = 0; g < lanes / 8; ++g)
    {
        std::uint64_t x;
        std::memcpy(&x, bit + 8 * g, 8);
        // byte j (0 or 1) lands on bit 56 + j: the partial products never overlap
        m |= ((x * 0x0102040810204080ull) >> 56) << (8 * g);
    }
    return m;
}
inline void unpack_lanes(std::uint64_t m, std::uint8_t* bit)
{
    for(int g = 0; g < lanes / 8; ++g)
    {
        // bit j of the byte to byte j: spread the byte to all eight, keep bit j of byte j, and
        // turn each nonzero byte (at most 0x80) into 1 through bit 7 of byte + 0x7f
        const std::uint64_t x = ((m >> (8 * g)) & 0xff) * 0x0101010101010101ull & 0x8040201008040201ull;
        const std::uint64_t y = ((x + 0x7f7f7f7f7f7f7f7full) >> 7) & 0x0101010101010101ull;
        std::memcpy(bit + 8 * g, &y, 8);
    }
}

// ---- floats ------------------------------------------------------------------------------------
inline float as_f32(std::uint32_t x)
{
    float f;
    std::memcpy(&f, &x, 4);
    return f;
}
inline std::uint32_t f32_bits(float f)
{
    std::uint32_t x;
    std::memcpy(&x, &f, 4);
    return x;
}
float f16_to_f32(std::uint16_t h);
std::uint16_t f32_to_f16(float f); // round to nearest even, as the hardware's default mode

// ---- the instruction table ---------------------------------------------------------------------
struct handler_info
{
    handler run          = nullptr;
    const_type constants = const_type::b32;
};
using handler_table = std::unordered_map<std::string, handler_info>;

// Each family adds its instructions, by mnemonic without the encoding suffix (_e32, _e64, _sdwa,
// _dpp), to the table.
void add_scalar_instructions(handler_table& t);
void add_vector_instructions(handler_table& t);
void add_float_instructions(handler_table& t);
void add_compare_instructions(handler_table& t);
void add_packed_instructions(handler_table& t);
void add_memory_instructions(handler_table& t);
void add_lds_instructions(handler_table& t);
void add_mfma_instructions(handler_table& t);
const handler_table& instruction_table();

// Whether the environment variable `name` is set to something other than empty or "0" (the
// switches CK_TILE_EMU_RACECHECK and CK_TILE_EMU_PROFILE, shared with the source emulator).
bool env_flag(const char* name);

// Runs the wave until it ends, reaches s_barrier, or faults.
void run_wave(wave& w);

} // namespace hip_cpu
