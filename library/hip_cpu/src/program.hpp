// SPDX-License-Identifier: MIT
// A kernel's machine code, decoded once at load (decode.cpp) into instructions the engine runs
// without parsing: each has its handler, its operands resolved (register numbers, constants as the
// bits the instruction reads) and its modifiers.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace hip_cpu {

struct wave;
struct inst;
using handler = void (*)(wave&, const inst&);

// How an instruction reads its inline float constants (1.0, 0.5, ...): as f32, f16 or f64 bits.
enum class const_type : std::uint8_t
{
    b32,
    f16,
    f64,
    b64
};

// Special SGPR numbers (gfx9): the engine keeps them in the SGPR file, so that `s_mov_b64 exec, ..`
// or `vcc` as an operand need no special cases.
namespace sreg {
constexpr int flat_scratch = 102, xnack_mask = 104, vcc = 106, ttmp0 = 108, m0 = 124, null = 125, exec = 126;
constexpr int count = 128;
} // namespace sreg

struct operand
{
    enum kind_t : std::uint8_t
    {
        none,
        sgpr,
        vgpr,
        agpr,
        constant,
        off,
        scc,
        execz,
        vccz
    } kind              = none;
    std::uint8_t dwords = 1; // registers named: v[4:7] is 4
    std::uint16_t reg   = 0;
    bool neg = false, abs = false, sext = false; // source modifiers
    std::uint32_t bits[2] = {0, 0};              // a constant's dwords as this instruction reads them
};

struct inst
{
    handler run           = nullptr;
    std::uint64_t address = 0; // in the code object
    std::uint32_t target  = 0; // branch target (an instruction index)
    std::uint8_t nops     = 0;
    operand op[6];

    // modifiers, as the disassembler prints them
    std::int32_t offset = 0, offset0 = 0, offset1 = 0;
    bool offen = false, idxen = false, glc = false, slc = false, nt = false, lds = false, clamp = false;
    std::uint8_t omod   = 0;                                        // 0 none, 1 mul:2, 2 mul:4, 3 div:2
    std::uint8_t op_sel = 0, op_sel_hi = 0, neg_lo = 0, neg_hi = 0; // VOP3/VOP3P, bit per source
    bool op_sel_hi_given = false;                                   // printed: VOP3P's packed forms default to all ones
    std::uint8_t cbsz = 0, abid = 0, blgp = 0;                      // MFMA
    std::uint8_t bitop3 = 0;                                        // v_bitop3: the truth table
    std::int8_t vmcnt = -1, lgkmcnt = -1;                           // s_waitcnt (-1: not waited on)
    // SDWA: selects 0..3 BYTE_n, 4..5 WORD_n, 6 DWORD; dst_unused 0 pad, 1 sext, 2 preserve
    bool sdwa            = false;
    std::uint8_t dst_sel = 6, dst_unused = 0, src_sel[2] = {6, 6};
    // DPP: the control word as the ISA encodes it, masks, bound_ctrl
    bool dpp = false, bound_ctrl = false;
    std::uint16_t dpp_ctrl = 0;
    std::uint8_t row_mask = 0xf, bank_mask = 0xf;
    // none of DPP, SDWA, source modifiers, op_sel, clamp or omod: vector ALU instructions take their
    // fast path (registers read in place, the result blended by EXEC)
    bool plain = false;

    std::uint32_t index = 0; // its own index in the program (for messages)
};

struct program
{
    std::vector<inst> code;
    std::vector<std::string> text; // the disassembly of each instruction, for messages
    std::uint64_t base_address = 0;
};

} // namespace hip_cpu
