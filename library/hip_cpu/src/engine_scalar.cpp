// SPDX-License-Identifier: MIT
// Scalar instructions (SOP1, SOP2, SOPK, SOPC, SOPP) and EXEC manipulation; semantics from the
// CDNA3 ISA manual. Scalar memory is in engine_memory.cpp.
#include "engine.hpp"

#include <bit>

namespace hip_cpu {
namespace {

using u32 = std::uint32_t;
using i32 = std::int32_t;
using u64 = std::uint64_t;
using i64 = std::int64_t;

// D = f(S0, S1); SCC as f says (it gets a reference)
template <typename F>
void sop2_32(wave& w, const inst& i, F f)
{
    const u32 a = sread(w, i, i.op[1]), b = sread(w, i, i.op[2]);
    swrite(w, i.op[0], f(a, b, w.scc));
}
template <typename F>
void sop2_64(wave& w, const inst& i, F f)
{
    const u64 a = sread64(w, i, i.op[1]);
    // the shift amounts of 64-bit shifts and s_bfe are 32-bit
    const u64 b =
        i.op[2].dwords == 2 || i.op[2].kind == operand::constant ? sread64(w, i, i.op[2]) : sread(w, i, i.op[2]);
    swrite64(w, i.op[0], f(a, b, w.scc));
}

#define SOP2(name, body)                                                                                               \
    t[#name] = {[](wave& w, const inst& i) { sop2_32(w, i, [](u32 a, u32 b, bool& scc) -> u32 { body }); }}
#define SOP2_64(name, body)                                                                                            \
    t[#name] = {[](wave& w, const inst& i) { sop2_64(w, i, [](u64 a, u64 b, bool& scc) -> u64 { body }); },            \
                const_type::b64}
#define SOP1(name, body)                                                                                               \
    t[#name] = {[](wave& w, const inst& i) {                                                                           \
        const u32 a = sread(w, i, i.op[1]);                                                                            \
        bool& scc   = w.scc;                                                                                           \
        (void)scc;                                                                                                     \
        swrite(w, i.op[0], [&]() -> u32 { body }());                                                                   \
    }}
#define SOP1_64(name, body)                                                                                            \
    t[#name] = {[](wave& w, const inst& i) {                                                                           \
                    const u64 a = sread64(w, i, i.op[1]);                                                              \
                    bool& scc   = w.scc;                                                                               \
                    (void)scc;                                                                                         \
                    swrite64(w, i.op[0], [&]() -> u64 { body }());                                                     \
                },                                                                                                     \
                const_type::b64}
#define SOPC(name, type, expr)                                                                                         \
    t[#name] = {[](wave& w, const inst& i) {                                                                           \
        const type a = static_cast<type>(sread(w, i, i.op[0])), b = static_cast<type>(sread(w, i, i.op[1]));           \
        w.scc = (expr);                                                                                                \
    }}
#define SOPC_64(name, expr)                                                                                            \
    t[#name] = {[](wave& w, const inst& i) {                                                                           \
                    const u64 a = sread64(w, i, i.op[0]), b = sread64(w, i, i.op[1]);                                  \
                    w.scc = (expr);                                                                                    \
                },                                                                                                     \
                const_type::b64}

i32 simm16(const operand& o) { return static_cast<std::int16_t>(o.bits[0] & 0xffff); }

u32 bfe32(u32 a, u32 b, bool sign)
{
    const u32 off = b & 31, width = (b >> 16) & 0x7f;
    if(width == 0)
        return 0;
    // signed: the field comes from S0 shifted arithmetically (bits above 31 are S0's sign)
    u64 v = sign ? static_cast<u64>(static_cast<std::int64_t>(static_cast<std::int32_t>(a)) >> off)
                 : static_cast<u64>(a) >> off;
    if(width < 32)
    {
        v &= (u64{1} << width) - 1;
        if(sign && ((v >> (width - 1)) & 1))
            v |= ~((u64{1} << width) - 1);
    }
    return static_cast<u32>(v);
}
u64 bfe64(u64 a, u32 b, bool sign)
{
    const u32 off = b & 63, width = (b >> 16) & 0x7f;
    if(width == 0)
        return 0;
    u64 v = sign ? static_cast<u64>(static_cast<std::int64_t>(a) >> off) : a >> off;
    if(width < 64)
    {
        v &= (u64{1} << width) - 1;
        if(sign && ((v >> (width - 1)) & 1))
            v |= ~((u64{1} << width) - 1);
    }
    return v;
}

void branch_if(wave& w, const inst& i, bool taken)
{
    if(taken)
        w.pc = i.target;
}

// EXEC = f(S0, EXEC), D = old EXEC, SCC = EXEC != 0
template <typename F>
void saveexec(wave& w, const inst& i, F f)
{
    const u64 s = sread64(w, i, i.op[1]), e = w.exec();
    const u64 n = f(s, e);
    swrite64(w, i.op[0], e);
    w.set_exec(n);
    w.scc = n != 0;
}

} // namespace

void add_scalar_instructions(handler_table& t)
{
    // ---- SOP2 ----
    SOP2(s_add_u32, {
        const u64 r = u64{a} + b;
        scc         = (r >> 32) != 0;
        return static_cast<u32>(r);
    });
    SOP2(s_sub_u32, {
        scc = b > a;
        return a - b;
    });
    SOP2(s_add_i32, {
        const u32 r = a + b;
        scc         = ((~(a ^ b) & (a ^ r)) >> 31) != 0;
        return r;
    });
    SOP2(s_sub_i32, {
        const u32 r = a - b;
        scc         = (((a ^ b) & (a ^ r)) >> 31) != 0;
        return r;
    });
    SOP2(s_addc_u32, {
        const u64 r = u64{a} + b + scc;
        scc         = (r >> 32) != 0;
        return static_cast<u32>(r);
    });
    SOP2(s_subb_u32, {
        const u64 r = u64{a} - b - scc;
        scc         = u64{b} + scc > a;
        return static_cast<u32>(r);
    });
    SOP2(s_min_i32, {
        scc = static_cast<i32>(a) < static_cast<i32>(b);
        return scc ? a : b;
    });
    SOP2(s_min_u32, {
        scc = a < b;
        return scc ? a : b;
    });
    SOP2(s_max_i32, {
        scc = static_cast<i32>(a) > static_cast<i32>(b);
        return scc ? a : b;
    });
    SOP2(s_max_u32, {
        scc = a > b;
        return scc ? a : b;
    });
    SOP2(s_cselect_b32, { return scc ? a : b; });
    SOP2(s_and_b32, {
        const u32 r = a & b;
        scc         = r != 0;
        return r;
    });
    SOP2(s_or_b32, {
        const u32 r = a | b;
        scc         = r != 0;
        return r;
    });
    SOP2(s_xor_b32, {
        const u32 r = a ^ b;
        scc         = r != 0;
        return r;
    });
    SOP2(s_andn2_b32, {
        const u32 r = a & ~b;
        scc         = r != 0;
        return r;
    });
    SOP2(s_orn2_b32, {
        const u32 r = a | ~b;
        scc         = r != 0;
        return r;
    });
    SOP2(s_nand_b32, {
        const u32 r = ~(a & b);
        scc         = r != 0;
        return r;
    });
    SOP2(s_nor_b32, {
        const u32 r = ~(a | b);
        scc         = r != 0;
        return r;
    });
    SOP2(s_xnor_b32, {
        const u32 r = ~(a ^ b);
        scc         = r != 0;
        return r;
    });
    SOP2(s_lshl_b32, {
        const u32 r = a << (b & 31);
        scc         = r != 0;
        return r;
    });
    SOP2(s_lshr_b32, {
        const u32 r = a >> (b & 31);
        scc         = r != 0;
        return r;
    });
    SOP2(s_ashr_i32, {
        const u32 r = static_cast<u32>(static_cast<i32>(a) >> (b & 31));
        scc         = r != 0;
        return r;
    });
    SOP2(s_bfm_b32, {
        (void)scc;
        return ((1u << (a & 31)) - 1) << (b & 31);
    });
    SOP2(s_mul_i32, {
        (void)scc;
        return a * b;
    });
    SOP2(s_mul_hi_u32, {
        (void)scc;
        return static_cast<u32>((u64{a} * b) >> 32);
    });
    SOP2(s_mul_hi_i32, {
        (void)scc;
        return static_cast<u32>(static_cast<u64>(i64{static_cast<i32>(a)} * static_cast<i32>(b)) >> 32);
    });
    SOP2(s_bfe_u32, {
        const u32 r = bfe32(a, b, false);
        scc         = r != 0;
        return r;
    });
    SOP2(s_bfe_i32, {
        const u32 r = bfe32(a, b, true);
        scc         = r != 0;
        return r;
    });
    SOP2(s_absdiff_i32, {
        const i32 d = static_cast<i32>(a) - static_cast<i32>(b);
        const u32 r = static_cast<u32>(d < 0 ? -d : d);
        scc         = r != 0;
        return r;
    });
    SOP2(s_lshl1_add_u32, {
        const u64 r = (u64{a} << 1) + b;
        scc         = (r >> 32) != 0;
        return static_cast<u32>(r);
    });
    SOP2(s_lshl2_add_u32, {
        const u64 r = (u64{a} << 2) + b;
        scc         = (r >> 32) != 0;
        return static_cast<u32>(r);
    });
    SOP2(s_lshl3_add_u32, {
        const u64 r = (u64{a} << 3) + b;
        scc         = (r >> 32) != 0;
        return static_cast<u32>(r);
    });
    SOP2(s_lshl4_add_u32, {
        const u64 r = (u64{a} << 4) + b;
        scc         = (r >> 32) != 0;
        return static_cast<u32>(r);
    });
    SOP2(s_pack_ll_b32_b16, {
        (void)scc;
        return (a & 0xffff) | (b << 16);
    });
    SOP2(s_pack_lh_b32_b16, {
        (void)scc;
        return (a & 0xffff) | (b & 0xffff0000u);
    });
    SOP2(s_pack_hh_b32_b16, {
        (void)scc;
        return (a >> 16) | (b & 0xffff0000u);
    });
    SOP2_64(s_and_b64, {
        const u64 r = a & b;
        scc         = r != 0;
        return r;
    });
    SOP2_64(s_or_b64, {
        const u64 r = a | b;
        scc         = r != 0;
        return r;
    });
    SOP2_64(s_xor_b64, {
        const u64 r = a ^ b;
        scc         = r != 0;
        return r;
    });
    SOP2_64(s_andn2_b64, {
        const u64 r = a & ~b;
        scc         = r != 0;
        return r;
    });
    SOP2_64(s_orn2_b64, {
        const u64 r = a | ~b;
        scc         = r != 0;
        return r;
    });
    SOP2_64(s_nand_b64, {
        const u64 r = ~(a & b);
        scc         = r != 0;
        return r;
    });
    SOP2_64(s_nor_b64, {
        const u64 r = ~(a | b);
        scc         = r != 0;
        return r;
    });
    SOP2_64(s_xnor_b64, {
        const u64 r = ~(a ^ b);
        scc         = r != 0;
        return r;
    });
    SOP2_64(s_cselect_b64, { return scc ? a : b; });
    SOP2_64(s_lshl_b64, {
        const u64 r = a << (b & 63);
        scc         = r != 0;
        return r;
    });
    SOP2_64(s_lshr_b64, {
        const u64 r = a >> (b & 63);
        scc         = r != 0;
        return r;
    });
    SOP2_64(s_ashr_i64, {
        const u64 r = static_cast<u64>(static_cast<i64>(a) >> (b & 63));
        scc         = r != 0;
        return r;
    });
    SOP2_64(s_bfe_u64, {
        const u64 r = bfe64(a, static_cast<u32>(b), false);
        scc         = r != 0;
        return r;
    });
    SOP2_64(s_bfe_i64, {
        const u64 r = bfe64(a, static_cast<u32>(b), true);
        scc         = r != 0;
        return r;
    });
    t["s_bfm_b64"] = {[](wave& w, const inst& i) {
        const u32 a = sread(w, i, i.op[1]), b = sread(w, i, i.op[2]);
        swrite64(w, i.op[0], (((a & 63) == 0 ? 0 : (~u64{0} >> (64 - (a & 63))))) << (b & 63));
    }};

    // ---- SOP1 ----
    SOP1(s_mov_b32, { return a; });
    SOP1_64(s_mov_b64, { return a; });
    t["s_cmov_b32"] = {[](wave& w, const inst& i) {
        if(w.scc)
            swrite(w, i.op[0], sread(w, i, i.op[1]));
    }};
    t["s_cmov_b64"] = {[](wave& w, const inst& i) {
                           if(w.scc)
                               swrite64(w, i.op[0], sread64(w, i, i.op[1]));
                       },
                       const_type::b64};
    SOP1(s_not_b32, {
        const u32 r = ~a;
        scc         = r != 0;
        return r;
    });
    SOP1_64(s_not_b64, {
        const u64 r = ~a;
        scc         = r != 0;
        return r;
    });
    SOP1(s_brev_b32, { return __builtin_bitreverse32(a); });
    SOP1_64(s_brev_b64, { return __builtin_bitreverse64(a); });
    SOP1(s_bcnt1_i32_b32, {
        const u32 r = static_cast<u32>(std::popcount(a));
        scc         = r != 0;
        return r;
    });
    SOP1(s_bcnt0_i32_b32, {
        const u32 r = 32u - static_cast<u32>(std::popcount(a));
        scc         = r != 0;
        return r;
    });
    t["s_bcnt1_i32_b64"] = {[](wave& w, const inst& i) {
                                const u32 r = static_cast<u32>(std::popcount(sread64(w, i, i.op[1])));
                                w.scc       = r != 0;
                                swrite(w, i.op[0], r);
                            },
                            const_type::b64};
    t["s_bcnt0_i32_b64"] = {[](wave& w, const inst& i) {
                                const u32 r = 64u - static_cast<u32>(std::popcount(sread64(w, i, i.op[1])));
                                w.scc       = r != 0;
                                swrite(w, i.op[0], r);
                            },
                            const_type::b64};
    SOP1(s_ff1_i32_b32, { return a == 0 ? ~0u : static_cast<u32>(std::countr_zero(a)); });
    SOP1(s_ff0_i32_b32, { return ~a == 0 ? ~0u : static_cast<u32>(std::countr_one(a)); });
    t["s_ff1_i32_b64"] = {[](wave& w, const inst& i) {
                              const u64 a = sread64(w, i, i.op[1]);
                              swrite(w, i.op[0], a == 0 ? ~0u : static_cast<u32>(std::countr_zero(a)));
                          },
                          const_type::b64};
    SOP1(s_flbit_i32_b32, { return a == 0 ? ~0u : static_cast<u32>(std::countl_zero(a)); });
    SOP1(s_flbit_i32, {
        const u32 x = (a >> 31) ? ~a : a;
        return (a == 0 || a == ~0u) ? ~0u : static_cast<u32>(std::countl_zero(x));
    });
    SOP1(s_sext_i32_i8, { return static_cast<u32>(static_cast<i32>(static_cast<std::int8_t>(a))); });
    SOP1(s_sext_i32_i16, { return static_cast<u32>(static_cast<i32>(static_cast<std::int16_t>(a))); });
    SOP1(s_abs_i32, {
        const i32 x = static_cast<i32>(a);
        const u32 r = static_cast<u32>(x < 0 ? -x : x);
        scc         = r != 0;
        return r;
    });
    t["s_bitset0_b32"] = {
        [](wave& w, const inst& i) { swrite(w, i.op[0], w.s[i.op[0].reg] & ~(1u << (sread(w, i, i.op[1]) & 31))); }};
    t["s_bitset1_b32"] = {
        [](wave& w, const inst& i) { swrite(w, i.op[0], w.s[i.op[0].reg] | (1u << (sread(w, i, i.op[1]) & 31))); }};
    t["s_and_saveexec_b64"]   = {[](wave& w, const inst& i) { saveexec(w, i, [](u64 s, u64 e) { return s & e; }); },
                                 const_type::b64};
    t["s_or_saveexec_b64"]    = {[](wave& w, const inst& i) { saveexec(w, i, [](u64 s, u64 e) { return s | e; }); },
                                 const_type::b64};
    t["s_xor_saveexec_b64"]   = {[](wave& w, const inst& i) { saveexec(w, i, [](u64 s, u64 e) { return s ^ e; }); },
                                 const_type::b64};
    t["s_andn2_saveexec_b64"] = {[](wave& w, const inst& i) { saveexec(w, i, [](u64 s, u64 e) { return s & ~e; }); },
                                 const_type::b64};
    t["s_orn2_saveexec_b64"]  = {[](wave& w, const inst& i) { saveexec(w, i, [](u64 s, u64 e) { return s | ~e; }); },
                                 const_type::b64};
    t["s_nand_saveexec_b64"]  = {[](wave& w, const inst& i) { saveexec(w, i, [](u64 s, u64 e) { return ~(s & e); }); },
                                 const_type::b64};
    t["s_getpc_b64"]          = {[](wave& w, const inst& i) { swrite64(w, i.op[0], w.d->code_base + i.address + 4); }};

    // ---- SOPK ----
    t["s_movk_i32"]  = {[](wave& w, const inst& i) { swrite(w, i.op[0], static_cast<u32>(simm16(i.op[1]))); }};
    t["s_cmovk_i32"] = {[](wave& w, const inst& i) {
        if(w.scc)
            swrite(w, i.op[0], static_cast<u32>(simm16(i.op[1])));
    }};
    t["s_addk_i32"]  = {[](wave& w, const inst& i) {
        const u32 a = w.s[i.op[0].reg], b = static_cast<u32>(simm16(i.op[1])), r = a + b;
        w.scc = ((~(a ^ b) & (a ^ r)) >> 31) != 0;
        swrite(w, i.op[0], r);
    }};
    t["s_mulk_i32"]  = {
        [](wave& w, const inst& i) { swrite(w, i.op[0], w.s[i.op[0].reg] * static_cast<u32>(simm16(i.op[1]))); }};
#define SOPK_CMP(name, expr)                                                                                           \
    t[#name] = {                                                                                                       \
        [](wave& w, const inst& i) {                                                                                   \
            const u32 a  = sread(w, i, i.op[0]);                                                                       \
            const i32 si = simm16(i.op[1]);                                                                            \
            const u32 ui = i.op[1].bits[0] & 0xffff;                                                                   \
            (void)si;                                                                                                  \
            (void)ui;                                                                                                  \
            w.scc = (expr);                                                                                            \
        }                                                                                                              \
    }
    SOPK_CMP(s_cmpk_eq_i32, static_cast<i32>(a) == si);
    SOPK_CMP(s_cmpk_lg_i32, static_cast<i32>(a) != si);
    SOPK_CMP(s_cmpk_gt_i32, static_cast<i32>(a) > si);
    SOPK_CMP(s_cmpk_ge_i32, static_cast<i32>(a) >= si);
    SOPK_CMP(s_cmpk_lt_i32, static_cast<i32>(a) < si);
    SOPK_CMP(s_cmpk_le_i32, static_cast<i32>(a) <= si);
    SOPK_CMP(s_cmpk_eq_u32, a == ui);
    SOPK_CMP(s_cmpk_lg_u32, a != ui);
    SOPK_CMP(s_cmpk_gt_u32, a > ui);
    SOPK_CMP(s_cmpk_ge_u32, a >= ui);
    SOPK_CMP(s_cmpk_lt_u32, a < ui);
    SOPK_CMP(s_cmpk_le_u32, a <= ui);
#undef SOPK_CMP

    // ---- SOPC ----
    SOPC(s_cmp_eq_i32, i32, a == b);
    SOPC(s_cmp_lg_i32, i32, a != b);
    SOPC(s_cmp_gt_i32, i32, a > b);
    SOPC(s_cmp_ge_i32, i32, a >= b);
    SOPC(s_cmp_lt_i32, i32, a < b);
    SOPC(s_cmp_le_i32, i32, a <= b);
    SOPC(s_cmp_eq_u32, u32, a == b);
    SOPC(s_cmp_lg_u32, u32, a != b);
    SOPC(s_cmp_gt_u32, u32, a > b);
    SOPC(s_cmp_ge_u32, u32, a >= b);
    SOPC(s_cmp_lt_u32, u32, a < b);
    SOPC(s_cmp_le_u32, u32, a <= b);
    SOPC(s_bitcmp0_b32, u32, ((a >> (b & 31)) & 1) == 0);
    SOPC(s_bitcmp1_b32, u32, ((a >> (b & 31)) & 1) == 1);
    SOPC_64(s_cmp_eq_u64, a == b);
    SOPC_64(s_cmp_lg_u64, a != b);

    // ---- SOPP ----
    t["s_nop"]     = {[](wave&, const inst&) {}};
    t["s_setprio"] = {[](wave&, const inst&) {}};
    t["s_sleep"]   = {[](wave&, const inst&) {}};
    // s_trap (an assert, __builtin_trap): the launch stops, as the hardware's trap handler does
    t["s_trap"] = {
        [](wave& w, const inst& i) { fault(w, i, "the kernel executed s_trap (a failed assert or a trap)"); }};
    t["s_endpgm"]         = {[](wave& w, const inst&) { w.status = wave::state::done; }};
    t["s_barrier"]        = {[](wave& w, const inst& i) {
        w.status     = wave::state::at_barrier;
        w.barrier_pc = i.index;
    }};
    t["s_branch"]         = {[](wave& w, const inst& i) { w.pc = i.target; }};
    t["s_cbranch_scc0"]   = {[](wave& w, const inst& i) { branch_if(w, i, !w.scc); }};
    t["s_cbranch_scc1"]   = {[](wave& w, const inst& i) { branch_if(w, i, w.scc); }};
    t["s_cbranch_vccz"]   = {[](wave& w, const inst& i) { branch_if(w, i, w.vcc() == 0); }};
    t["s_cbranch_vccnz"]  = {[](wave& w, const inst& i) { branch_if(w, i, w.vcc() != 0); }};
    t["s_cbranch_execz"]  = {[](wave& w, const inst& i) { branch_if(w, i, w.exec() == 0); }};
    t["s_cbranch_execnz"] = {[](wave& w, const inst& i) { branch_if(w, i, w.exec() != 0); }};
}

} // namespace hip_cpu
