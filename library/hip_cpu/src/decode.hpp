// SPDX-License-Identifier: MIT
// Decoding a kernel's machine code with LLVM's AMDGPU disassembler (libLLVM: the decoder of the
// compiler that produced the code) into a program the engine runs.
#pragma once
#include "code_object.hpp"
#include "program.hpp"

#include <string>
#include <vector>

namespace hip_cpu {

// One decoded instruction before binding: its address, size and text.
struct disassembled
{
    std::uint64_t address = 0;
    std::uint32_t size    = 0;
    std::string text; // e.g. "buffer_load_dword v2, v1, s[4:7], 0 offen offset:16"
};
std::vector<disassembled> disassemble(const code_object& co, const kernel_info& k); // throws launch_failure

// The mnemonic of an instruction's text as the engine's table names it: encoding suffixes removed.
std::string engine_mnemonic(const std::string& text);

// Disassembles and binds every instruction of the kernel. An instruction the engine does not
// implement, or whose operands it cannot read, is a launch_failure naming it, the kernel and the arch.
program decode(const code_object& co, const kernel_info& k);

} // namespace hip_cpu
