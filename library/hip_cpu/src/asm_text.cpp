// SPDX-License-Identifier: MIT
#include "asm_text.hpp"

#include "engine.hpp"

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <stdexcept>

namespace hip_cpu {
namespace {

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

} // namespace

std::string trim(std::string s)
{
    const auto b = s.find_first_not_of(" \t");
    const auto e = s.find_last_not_of(" \t");
    return b == std::string::npos ? std::string{} : s.substr(b, e - b + 1);
}

namespace {

// "[1,0,1]" -> bit per element
std::uint8_t bit_list(std::string_view s)
{
    std::uint8_t bits = 0;
    int k             = 0;
    for(char c : s)
    {
        if(c == '0' || c == '1')
            bits |= static_cast<std::uint8_t>((c - '0') << k++);
    }
    return bits;
}

std::uint8_t sdwa_sel(std::string_view s)
{
    if(s == "BYTE_0")
        return 0;
    if(s == "BYTE_1")
        return 1;
    if(s == "BYTE_2")
        return 2;
    if(s == "BYTE_3")
        return 3;
    if(s == "WORD_0")
        return 4;
    if(s == "WORD_1")
        return 5;
    if(s == "DWORD")
        return 6;
    throw std::invalid_argument("SDWA select " + std::string(s));
}

} // namespace

long long parse_int(std::string_view s)
{
    const std::string t(s);
    char* end         = nullptr;
    const long long v = std::strtoll(t.c_str(), &end, 0);
    if(end == t.c_str() || *end != 0)
    {
        // 0xffffffff and other unsigned 64-bit hex literals
        const unsigned long long u = std::strtoull(t.c_str(), &end, 0);
        if(end == t.c_str() || *end != 0)
            throw std::invalid_argument("number '" + t + "'");
        return static_cast<long long>(u);
    }
    return v;
}

// A register name: v5, v[4:7], s[0:1], a3, ttmp[4:5], vcc, exec_lo, m0, ...
namespace {

bool parse_register(std::string_view s, operand& o)
{
    struct named
    {
        const char* name;
        int reg, dwords;
    };
    static constexpr named specials[] = {{"vcc", sreg::vcc, 2},
                                         {"vcc_lo", sreg::vcc, 1},
                                         {"vcc_hi", sreg::vcc + 1, 1},
                                         {"exec", sreg::exec, 2},
                                         {"exec_lo", sreg::exec, 1},
                                         {"exec_hi", sreg::exec + 1, 1},
                                         {"m0", sreg::m0, 1},
                                         {"flat_scratch", sreg::flat_scratch, 2},
                                         {"flat_scratch_lo", sreg::flat_scratch, 1},
                                         {"flat_scratch_hi", sreg::flat_scratch + 1, 1},
                                         {"xnack_mask", sreg::xnack_mask, 2},
                                         {"null", sreg::null, 1}};
    for(const auto& n : specials)
        if(s == n.name)
        {
            o.kind   = operand::sgpr;
            o.reg    = static_cast<std::uint16_t>(n.reg);
            o.dwords = static_cast<std::uint8_t>(n.dwords);
            return true;
        }
    if(s == "scc" || s == "src_scc")
    {
        o.kind = operand::scc;
        return true;
    }
    if(s == "src_execz" || s == "execz")
    {
        o.kind = operand::execz;
        return true;
    }
    if(s == "src_vccz" || s == "vccz")
    {
        o.kind = operand::vccz;
        return true;
    }
    operand::kind_t kind;
    int base = 0;
    std::string_view rest;
    if(starts_with(s, "ttmp"))
    {
        kind = operand::sgpr;
        base = sreg::ttmp0;
        rest = s.substr(4);
    }
    else if(!s.empty() && (s[0] == 'v' || s[0] == 's' || s[0] == 'a'))
    {
        kind = s[0] == 'v' ? operand::vgpr : s[0] == 's' ? operand::sgpr : operand::agpr;
        rest = s.substr(1);
    }
    else
        return false;
    if(rest.empty())
        return false;
    int first = 0, last = 0;
    if(rest[0] == '[')
    {
        const auto colon = rest.find(':');
        const auto close = rest.find(']');
        if(colon == std::string_view::npos || close == std::string_view::npos)
            return false;
        first = std::atoi(std::string(rest.substr(1, colon - 1)).c_str());
        last  = std::atoi(std::string(rest.substr(colon + 1, close - colon - 1)).c_str());
    }
    else
    {
        for(char c : rest)
            if(c < '0' || c > '9')
                return false;
        first = last = std::atoi(std::string(rest).c_str());
    }
    o.kind   = kind;
    o.reg    = static_cast<std::uint16_t>(base + first);
    o.dwords = static_cast<std::uint8_t>(last - first + 1);
    return true;
}

// The bits of a constant as an instruction with constant type t reads it.
void set_constant(operand& o, std::string_view s, const_type t)
{
    o.kind         = operand::constant;
    const bool flt = s.find('.') != std::string_view::npos && !starts_with(s, "0x");
    if(flt)
    {
        const double x = std::strtod(std::string(s).c_str(), nullptr);
        // 0.15915494 is the inline constant 1/(2 pi), printed rounded: use the exact values
        const bool inv2pi = std::fabs(std::fabs(x) - 0.15915494) < 1e-7;
        switch(t)
        {
        case const_type::f16:
        {
            o.bits[0] = inv2pi ? 0x3118u : f32_to_f16(static_cast<float>(x));
            break;
        }
        case const_type::f64:
        case const_type::b64:
        {
            const std::uint64_t b = inv2pi ? 0x3fc45f306dc9c882ull : [&] {
                std::uint64_t u;
                std::memcpy(&u, &x, 8);
                return u;
            }();
            o.bits[0]             = static_cast<std::uint32_t>(b);
            o.bits[1]             = static_cast<std::uint32_t>(b >> 32);
            return;
        }
        default:
            o.bits[0] = inv2pi ? 0x3e22f983u : f32_bits(static_cast<float>(x));
        }
        o.bits[1] = 0;
        return;
    }
    const long long v = parse_int(s);
    o.bits[0]         = static_cast<std::uint32_t>(v);
    // 64-bit operands: an integer constant sign-extends; a 32-bit literal of an f64 operand is the
    // high half (ISA: "the literal is the high 32 bits")
    if(t == const_type::f64 && !(v >= -16 && v <= 64))
    {
        o.bits[0] = 0;
        o.bits[1] = static_cast<std::uint32_t>(v);
    }
    else
        o.bits[1] = v < 0 ? 0xffffffffu : static_cast<std::uint32_t>(static_cast<unsigned long long>(v) >> 32);
}

} // namespace

void parse_operand(std::string s, operand& o, const_type t)
{
    s = trim(s);
    // sext(v1) neg(v1) abs(v1) -|v1| |v1| -v1
    auto unwrap = [&](const char* fn, bool& flag) {
        const std::string p = std::string(fn) + "(";
        if(starts_with(s, p) && s.back() == ')')
        {
            flag = true;
            s    = s.substr(p.size(), s.size() - p.size() - 1);
        }
    };
    unwrap("sext", o.sext);
    unwrap("neg", o.neg);
    unwrap("abs", o.abs);
    if(!s.empty() && s[0] == '-' && s.size() > 1 &&
       (s[1] == '|' || s[1] == 'v' || s[1] == 's' || s[1] == 'a' || s[1] == 't' || s[1] == 'm' || s[1] == 'e'))
    {
        o.neg = true;
        s     = s.substr(1);
    }
    if(s.size() >= 2 && s.front() == '|' && s.back() == '|')
    {
        o.abs = true;
        s     = s.substr(1, s.size() - 2);
    }
    if(s == "off")
    {
        o.kind = operand::off;
        return;
    }
    // a literal the printer marks as such: lit(0xffffffff), lit64(...)
    for(const char* wrap : {"lit(", "lit64("})
        if(starts_with(s, wrap) && s.back() == ')')
            s = s.substr(std::strlen(wrap), s.size() - std::strlen(wrap) - 1);
    if(parse_register(s, o))
        return;
    if(!s.empty() && (std::isdigit(static_cast<unsigned char>(s[0])) || s[0] == '-'))
    {
        // a negated float constant came through as neg with the constant; fold it back
        set_constant(o, s, t);
        return;
    }
    throw std::invalid_argument("operand '" + s + "'");
}

namespace {

std::uint16_t dpp_control(std::string_view key, std::string_view value)
{
    // the ISA's DPP_CTRL encodings (gfx9)
    if(key == "quad_perm") // [a,b,c,d]: lane l of each quad reads lane sel[l]
    {
        int sel[4] = {0, 0, 0, 0}, k = 0;
        for(char c : value)
            if(c >= '0' && c <= '3' && k < 4)
                sel[k++] = c - '0';
        return static_cast<std::uint16_t>(sel[0] | sel[1] << 2 | sel[2] << 4 | sel[3] << 6);
    }
    const int n = value.empty() ? 0 : static_cast<int>(parse_int(value));
    if(key == "row_shl")
        return static_cast<std::uint16_t>(0x100 + n);
    if(key == "row_shr")
        return static_cast<std::uint16_t>(0x110 + n);
    if(key == "row_ror")
        return static_cast<std::uint16_t>(0x120 + n);
    if(key == "wave_shl")
        return 0x130;
    if(key == "wave_rol")
        return 0x134;
    if(key == "wave_shr")
        return 0x138;
    if(key == "wave_ror")
        return 0x13c;
    if(key == "row_mirror")
        return 0x140;
    if(key == "row_half_mirror")
        return 0x141;
    if(key == "row_bcast")
        return n == 15 ? 0x142 : 0x143;
    throw std::invalid_argument("DPP control " + std::string(key));
}

// Applies one modifier token ("offen", "offset:16", "op_sel:[0,1]", ...) to the instruction.
} // namespace

void parse_modifier(const std::string& tok, inst& i)
{
    const auto colon        = tok.find(':');
    const std::string key   = tok.substr(0, colon);
    const std::string value = colon == std::string::npos ? "" : tok.substr(colon + 1);
    if(key == "offen")
        i.offen = true;
    else if(key == "idxen")
        i.idxen = true;
    else if(key == "glc" || key == "sc0")
        i.glc = true;
    else if(key == "slc" || key == "sc1")
        i.slc = true;
    else if(key == "nt")
        i.nt = true;
    else if(key == "lds")
        i.lds = true;
    else if(key == "clamp")
        i.clamp = true;
    else if(key == "offset")
        i.offset = static_cast<std::int32_t>(parse_int(value));
    else if(key == "offset0")
        i.offset0 = static_cast<std::int32_t>(parse_int(value));
    else if(key == "offset1")
        i.offset1 = static_cast<std::int32_t>(parse_int(value));
    else if(key == "mul")
        i.omod = value == "2" ? 1 : 2;
    else if(key == "div")
        i.omod = 3;
    else if(key == "op_sel")
        i.op_sel = bit_list(value);
    else if(key == "op_sel_hi")
    {
        i.op_sel_hi       = bit_list(value);
        i.op_sel_hi_given = true;
    }
    else if(key == "neg_lo")
        i.neg_lo = bit_list(value);
    else if(key == "neg_hi")
        i.neg_hi = bit_list(value);
    else if(key == "cbsz")
        i.cbsz = static_cast<std::uint8_t>(parse_int(value));
    else if(key == "abid")
        i.abid = static_cast<std::uint8_t>(parse_int(value));
    else if(key == "bitop3")
        i.bitop3 = static_cast<std::uint8_t>(parse_int(value));
    else if(key == "blgp")
        i.blgp = static_cast<std::uint8_t>(parse_int(value));
    else if(key == "dst_sel")
        i.dst_sel = sdwa_sel(value);
    else if(key == "src0_sel")
        i.src_sel[0] = sdwa_sel(value);
    else if(key == "src1_sel")
        i.src_sel[1] = sdwa_sel(value);
    else if(key == "dst_unused")
        i.dst_unused = value == "UNUSED_PAD" ? 0 : value == "UNUSED_SEXT" ? 1 : 2;
    else if(key == "row_mask")
        i.row_mask = static_cast<std::uint8_t>(parse_int(value));
    else if(key == "bank_mask")
        i.bank_mask = static_cast<std::uint8_t>(parse_int(value));
    else if(key == "bound_ctrl")
        i.bound_ctrl = true; // printed when set (bound_ctrl:1 or :0 both mean "write 0")
    else if(key == "quad_perm" || starts_with(key, "row_") || starts_with(key, "wave_"))
        i.dpp_ctrl = dpp_control(key, value);
    else if(key == "vmcnt")
        i.vmcnt = static_cast<std::int8_t>(parse_int(value));
    else
        throw std::invalid_argument("modifier '" + tok + "'");
}

void parse_waitcnt(const std::string& rest, inst& i)
{
    // "vmcnt(0) expcnt(0) lgkmcnt(0)" or a raw immediate
    std::istringstream ss(rest);
    std::string tok;
    bool any = false;
    while(ss >> tok)
    {
        const auto open = tok.find('(');
        if(open == std::string::npos)
        {
            const long long imm = parse_int(tok); // gfx9: vmcnt [3:0]+[15:14], lgkmcnt [11:8]
            i.vmcnt             = static_cast<std::int8_t>((imm & 0xf) | ((imm >> 10) & 0x30));
            i.lgkmcnt           = static_cast<std::int8_t>((imm >> 8) & 0xf);
            any                 = true;
            continue;
        }
        const std::string key = tok.substr(0, open);
        const int v           = static_cast<int>(parse_int(tok.substr(open + 1, tok.find(')') - open - 1)));
        if(key == "vmcnt")
            i.vmcnt = static_cast<std::int8_t>(v);
        else if(key == "lgkmcnt")
            i.lgkmcnt = static_cast<std::int8_t>(v);
        any = true;
    }
    (void)any;
}

void split_operands(const std::string& rest, std::vector<std::string>& parts, std::vector<std::string>& mods)
{
    // operands are comma separated (commas inside [] belong to the operand); modifiers
    // follow the last operand, separated by spaces
    std::string cur;
    int depth = 0;
    for(char c : rest)
    {
        if(c == '[' || c == '(')
            ++depth;
        if(c == ']' || c == ')')
            --depth;
        if(c == ',' && depth == 0)
        {
            parts.push_back(trim(cur));
            cur.clear();
        }
        else
            cur += c;
    }
    if(!trim(cur).empty())
        parts.push_back(trim(cur));
    if(!parts.empty())
    {
        // split the last part into the operand and the modifiers after it
        std::string last = parts.back();
        std::vector<std::string> toks;
        std::string t;
        depth = 0;
        for(char c : last)
        {
            if(c == '[' || c == '(')
                ++depth;
            if(c == ']' || c == ')')
                --depth;
            if(c == ' ' && depth == 0)
            {
                if(!t.empty())
                    toks.push_back(t);
                t.clear();
            }
            else
                t += c;
        }
        if(!t.empty())
            toks.push_back(t);
        parts.pop_back();
        std::size_t first_mod = 0;
        // the first token is an operand unless it looks like a modifier
        const auto is_mod = [](const std::string& s) {
            return (s.find(':') != std::string::npos && s.find('[') != 0 &&
                    !(s.size() > 1 && (s[0] == 'v' || s[0] == 's' || s[0] == 'a') && s[1] == '[')) ||
                   s == "offen" || s == "idxen" || s == "glc" || s == "slc" || s == "sc0" || s == "sc1" || s == "nt" ||
                   s == "lds" || s == "clamp" || s == "row_mirror" || s == "row_half_mirror";
        };
        if(!toks.empty() && !is_mod(toks[0]))
        {
            parts.push_back(toks[0]);
            first_mod = 1;
        }
        for(std::size_t q = first_mod; q < toks.size(); ++q)
            mods.push_back(toks[q]);
    }
}

} // namespace hip_cpu
