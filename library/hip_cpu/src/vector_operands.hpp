// SPDX-License-Identifier: MIT
// Reading and writing the operands of vector ALU instructions with their modifiers: DPP (src0 from
// another lane, row/bank masks), SDWA (byte/word selects of sources and destination), VOP3 float
// modifiers (abs, neg, clamp, output scaling) and op_sel (16-bit halves).
#pragma once
#include "engine.hpp"

namespace hip_cpu {

// The sources of one vector instruction for all 64 lanes, after their modifiers, and the lanes the
// instruction writes (EXEC, narrowed by DPP's masks and invalid source lanes).
struct vsources
{
    const std::uint32_t* p[4] = {};
    lane_u32 tmp[4];
    std::uint64_t write_mask = 0;
};

enum class vfloat : std::uint8_t
{
    none,
    f32,
    f16
};

// Reads n sources starting at operand `first` (sources k = 0..n-1). F says how the float modifiers
// apply (|x|, -x on the sign bit of f32 or of the low f16).
void read_vsources(wave& w, const inst& i, int first, int n, vfloat f, vsources& s);

// Writes r to a 32-bit destination in the lanes of `mask`, through SDWA's dst_sel / dst_unused and,
// for 16-bit results (half), op_sel's destination half; `float_result` applies clamp and omod.
void write_vresult(wave& w, const inst& i, const operand& dst, std::uint32_t* r, std::uint64_t mask, vfloat f,
                   bool half = false);

// A lane mask written to an SGPR pair (VOPC, carry-out): inactive lanes read 0.
inline void write_lane_mask(wave& w, const operand& dst, std::uint64_t m) { swrite64(w, dst, m); }

} // namespace hip_cpu
