// SPDX-License-Identifier: MIT
// Reading the disassembler's text of one instruction (LLVM's AMDGPU syntax): its operands
// (registers, constants with their source modifiers), its modifiers (offsets, cache bits, SDWA and
// DPP controls, op_sel, ...) and s_waitcnt's counters. Errors are std::invalid_argument naming
// what could not be read; decode.cpp turns them into a load-time failure naming the instruction.
#pragma once
#include "program.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace hip_cpu {

std::string trim(std::string s);
long long parse_int(std::string_view s); // decimal, negative or 0x hex (up to 64 bits)

// Operands are comma separated; the modifiers follow the last one, separated by spaces.
void split_operands(const std::string& rest, std::vector<std::string>& parts, std::vector<std::string>& mods);

// One operand: a register (v5, v[4:7], s[0:1], a3, vcc, exec_lo, m0, ...), a constant (the bits
// an instruction reading constants as `t` sees), or `off`; with -x, |x|, neg(), abs(), sext().
void parse_operand(std::string s, operand& o, const_type t);

// One modifier token ("offen", "offset:16", "op_sel:[0,1]", "quad_perm:[1,0,3,2]", ...).
void parse_modifier(const std::string& tok, inst& i);

// s_waitcnt's operand: "vmcnt(0) expcnt(0) lgkmcnt(0)" (any subset) or a raw immediate.
void parse_waitcnt(const std::string& rest, inst& i);

} // namespace hip_cpu
