// SPDX-License-Identifier: MIT
#include "decode.hpp"

#include "asm_text.hpp"
#include "engine.hpp"
#include "launch.hpp"

#include <llvm-c/Disassembler.h>
#include <llvm-c/Target.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <sstream>

namespace hip_cpu {
namespace {

[[noreturn]] void fail(const std::string& what) { throw launch_failure("hip-cpu: " + what); }

LLVMDisasmContextRef context_for(const std::string& arch)
{
    static std::mutex m;
    static std::map<std::string, LLVMDisasmContextRef> contexts;
    std::lock_guard lock(m);
    if(contexts.empty())
    {
        LLVMInitializeAMDGPUTargetInfo();
        LLVMInitializeAMDGPUTargetMC();
        LLVMInitializeAMDGPUDisassembler();
    }
    auto& c = contexts[arch];
    if(c == nullptr)
        c = LLVMCreateDisasmCPU("amdgcn-amd-amdhsa", arch.c_str(), nullptr, 0, nullptr, nullptr);
    if(c == nullptr)
        fail("LLVM's AMDGPU disassembler is not available for " + arch);
    return c;
}

} // namespace

std::vector<disassembled> disassemble(const code_object& co, const kernel_info& k)
{
    LLVMDisasmContextRef ctx = context_for(co.arch());
    std::vector<disassembled> out;
    char buf[512];
    static std::mutex m; // one context per arch, used by one thread at a time
    std::lock_guard lock(m);
    for(std::uint64_t pc = k.entry; pc < k.code_end;)
    {
        const std::uint8_t* bytes = co.at(pc, 4);
        const std::size_t left    = static_cast<std::size_t>(k.code_end - pc);
        const std::size_t n = LLVMDisasmInstruction(ctx, const_cast<std::uint8_t*>(bytes), left, pc, buf, sizeof(buf));
        if(n == 0)
        {
            std::ostringstream s;
            s << "kernel " << k.name << " (" << co.arch() << "): LLVM cannot decode the instruction at 0x" << std::hex
              << pc;
            fail(s.str());
        }
        out.push_back({pc, static_cast<std::uint32_t>(n), trim(buf)});
        pc += n;
    }
    return out;
}

std::string engine_mnemonic(const std::string& text)
{
    std::string m = text.substr(0, text.find(' '));
    for(const char* suffix : {"_e32", "_e64", "_sdwa", "_dpp"})
    {
        const std::string s(suffix);
        if(m.size() > s.size() && m.compare(m.size() - s.size(), s.size(), s) == 0)
            m.resize(m.size() - s.size());
    }
    return m;
}

program decode(const code_object& co, const kernel_info& k)
{
    const auto listing       = disassemble(co, k);
    const handler_table& tab = instruction_table();
    program p;
    p.base_address = k.entry;
    std::map<std::uint64_t, std::uint32_t> index_of;
    for(std::uint32_t n = 0; n < listing.size(); ++n)
        index_of[listing[n].address] = n;
    std::map<std::string, int> missing; // mnemonic -> count
    for(std::uint32_t n = 0; n < listing.size(); ++n)
    {
        const auto& d              = listing[n];
        const std::string mnemonic = engine_mnemonic(d.text);
        inst i;
        i.address     = d.address;
        i.index       = n;
        const auto it = tab.find(mnemonic);
        if(it == tab.end())
        {
            ++missing[mnemonic];
            p.code.push_back(i);
            p.text.push_back(d.text);
            continue;
        }
        i.run                  = it->second.run;
        const std::string full = d.text.substr(0, d.text.find(' '));
        i.sdwa                 = full.size() > 5 && full.compare(full.size() - 5, 5, "_sdwa") == 0;
        i.dpp                  = full.size() > 4 && full.compare(full.size() - 4, 4, "_dpp") == 0;
        std::string rest       = d.text.size() > full.size() ? trim(d.text.substr(full.size())) : "";
        try
        {
            if(mnemonic == "s_waitcnt")
                parse_waitcnt(rest, i);
            else
            {
                std::vector<std::string> parts, mods;
                split_operands(rest, parts, mods);
                // branches: the operand is the signed 16-bit offset in dwords from the next instruction
                const bool branch = mnemonic.rfind("s_cbranch", 0) == 0 || mnemonic == "s_branch";
                if(branch)
                {
                    const long long off        = static_cast<std::int16_t>(parse_int(parts.at(0)) & 0xffff);
                    const std::uint64_t target = d.address + 4 + static_cast<std::uint64_t>(off * 4);
                    const auto t               = index_of.find(target);
                    if(t == index_of.end())
                        throw std::invalid_argument("a branch target outside the kernel");
                    i.target = t->second;
                    parts.clear();
                }
                if(parts.size() > 6)
                    throw std::invalid_argument("more than 6 operands");
                i.nops = static_cast<std::uint8_t>(parts.size());
                for(std::size_t q = 0; q < parts.size(); ++q)
                    parse_operand(parts[q], i.op[q], it->second.constants);
                for(const auto& m : mods)
                    parse_modifier(m, i);
                i.plain =
                    !i.sdwa && !i.dpp && !i.clamp && i.omod == 0 && i.op_sel == 0 && i.neg_lo == 0 && i.neg_hi == 0;
                for(const operand& o : i.op)
                    i.plain = i.plain && !o.abs && !o.neg && !o.sext;
            }
        }
        catch(const std::exception& e)
        {
            fail("kernel " + k.name + " (" + co.arch() + "): cannot read '" + d.text + "': " + e.what());
        }
        p.code.push_back(i);
        p.text.push_back(d.text);
    }
    if(!missing.empty())
    {
        std::string list;
        for(const auto& [m, count] : missing)
            list += (list.empty() ? "" : ", ") + m;
        fail("kernel " + k.name + " (" + co.arch() + ") uses instructions hip-cpu does not implement: " + list);
    }
    return p;
}

} // namespace hip_cpu
