// SPDX-License-Identifier: MIT
// Vector ALU instructions (VOP1, VOP2, VOP3, VOP3P, VOPC), their SDWA and DPP forms, and the lane
// operations (readlane, readfirstlane, mbcnt). Semantics from the CDNA3/CDNA4 ISA manuals.
//
// Precision: add, sub, mul, fma, conversions and compares are IEEE exact as the hardware is (denormals
// kept: compute kernels run with denormals enabled). v_rcp_f32, v_rsq_f32, v_sqrt_f32, v_exp_f32 and
// v_log_f32 are computed correctly rounded on the host, where the hardware guarantees 1 ulp: a
// result may differ from the GPU's in the last bit.
#include "vector_operands.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

namespace hip_cpu {
namespace {

using u32 = std::uint32_t;
using i32 = std::int32_t;
using u64 = std::uint64_t;
using i64 = std::int64_t;

const lane_u32 zero_lanes = {};

// r[l] = f(a, b, c) over the lanes, for sources op[first..first+n)
template <int N, vfloat F, bool Half = false, typename Fn>
void vop(wave& w, const inst& i, int first, Fn fn)
{
    vsources s;
    read_vsources(w, i, first, N, F, s);
    const u32* a = s.p[0];
    const u32* b = N > 1 ? s.p[1] : zero_lanes;
    const u32* c = N > 2 ? s.p[2] : zero_lanes;
    lane_u32 r;
    for(int l = 0; l < lanes; ++l)
        r[l] = fn(a[l], b[l], c[l]);
    write_vresult(w, i, i.op[0], r, s.write_mask, F, Half);
}

// a 64-bit source: its low and high dwords for all lanes
struct src64
{
    const u32* lo;
    const u32* hi;
    lane_u32 tlo, thi;
    src64(wave& w, const inst& i, const operand& o)
    {
        lo = vread(w, i, o, tlo, 0);
        hi = vread(w, i, o, thi, 1);
    }
    u64 operator[](int l) const { return lo[l] | u64{hi[l]} << 32; }
};

void write64(wave& w, const inst& i, const u64* r)
{
    lane_u32 lo, hi;
    for(int l = 0; l < lanes; ++l)
    {
        lo[l] = static_cast<u32>(r[l]);
        hi[l] = static_cast<u32>(r[l] >> 32);
    }
    vwrite(w, i.op[0], lo, 0);
    vwrite(w, i.op[0], hi, 1);
}

// compares: the lane mask of active lanes where the compare holds, to op[0] (and EXEC for v_cmpx)
template <typename T, bool X = false, typename Fn>
void vcmp(wave& w, const inst& i, Fn fn)
{
    vsources s;
    read_vsources(w, i, 1, 2, vfloat::none, s);
    u64 m = 0;
    for(int l = 0; l < lanes; ++l)
    {
        T a, b;
        if constexpr(sizeof(T) == 2)
        {
            const auto x = static_cast<std::uint16_t>(s.p[0][l]), y = static_cast<std::uint16_t>(s.p[1][l]);
            std::memcpy(&a, &x, 2);
            std::memcpy(&b, &y, 2);
        }
        else
        {
            std::memcpy(&a, &s.p[0][l], 4);
            std::memcpy(&b, &s.p[1][l], 4);
        }
        m |= u64{fn(a, b)} << l;
    }
    m &= s.write_mask;
    write_lane_mask(w, i.op[0], m);
    if constexpr(X)
        w.set_exec(m);
}
template <typename T, bool X = false, typename Fn>
void vcmp64(wave& w, const inst& i, Fn fn)
{
    src64 a(w, i, i.op[1]), b(w, i, i.op[2]);
    u64 m = 0;
    for(int l = 0; l < lanes; ++l)
    {
        const u64 x = a[l], y = b[l];
        T p, q;
        std::memcpy(&p, &x, 8);
        std::memcpy(&q, &y, 8);
        m |= u64{fn(p, q)} << l;
    }
    m &= w.exec();
    write_lane_mask(w, i.op[0], m);
    if constexpr(X)
        w.set_exec(m);
}

float f(u32 x) { return as_f32(x); }
u32 bits(float x) { return f32_bits(x); }

u32 cvt_u32_f32(float x)
{
    if(std::isnan(x) || x <= 0.f)
        return 0;
    if(x >= 4294967296.f)
        return 0xffffffffu;
    return static_cast<u32>(x);
}
i32 cvt_i32_f32(float x)
{
    if(std::isnan(x))
        return 0;
    if(x <= -2147483648.f)
        return INT32_MIN;
    if(x >= 2147483648.f)
        return INT32_MAX;
    return static_cast<i32>(x);
}

u32 perm_byte(u64 v, u32 sel)
{
    sel &= 0xff;
    if(sel < 8)
        return static_cast<u32>(v >> (8 * sel)) & 0xff;
    switch(sel)
    {
    case 8:
        return ((v >> 15) & 1) ? 0xff : 0;
    case 9:
        return ((v >> 31) & 1) ? 0xff : 0;
    case 10:
        return ((v >> 47) & 1) ? 0xff : 0;
    case 11:
        return ((v >> 63) & 1) ? 0xff : 0;
    case 12:
        return 0;
    default:
        return 0xff;
    }
}

u32 sext24(u32 x) { return static_cast<u32>(static_cast<i32>(x << 8) >> 8); }

// f16 arithmetic through float: each result rounded once to f16 (the product and sum of two f16
// values are exact in float, so this is the correctly rounded f16 result, as the hardware gives)
u32 h(float x) { return f32_to_f16(x); }
float hf(u32 x) { return f16_to_f32(static_cast<std::uint16_t>(x)); }

} // namespace

void add_vector_instructions(handler_table& t)
{
#define V1(name, expr)                                                                                                 \
    t[#name] = {                                                                                                       \
        [](wave& w, const inst& i) { vop<1, vfloat::none>(w, i, 1, [](u32 a, u32, u32) -> u32 { return (expr); }); }   \
    }
#define V2(name, expr)                                                                                                 \
    t[#name] = {                                                                                                       \
        [](wave& w, const inst& i) { vop<2, vfloat::none>(w, i, 1, [](u32 a, u32 b, u32) -> u32 { return (expr); }); } \
    }
#define V3(name, expr)                                                                                                 \
    t[#name] = {                                                                                                       \
        [](wave& w, const inst& i) {                                                                                   \
            vop<3, vfloat::none>(w, i, 1, [](u32 a, u32 b, u32 c) -> u32 { return (expr); });                          \
        }                                                                                                              \
    }
#define F1(name, expr)                                                                                                 \
    t[#name] = {                                                                                                       \
        [](wave& w, const inst& i) {                                                                                   \
            vop<1, vfloat::f32>(w, i, 1, [](u32 a, u32, u32) -> u32 { return bits(expr); });                           \
        }                                                                                                              \
    }
#define F2(name, expr)                                                                                                 \
    t[#name] = {                                                                                                       \
        [](wave& w, const inst& i) {                                                                                   \
            vop<2, vfloat::f32>(w, i, 1, [](u32 a, u32 b, u32) -> u32 { return bits(expr); });                         \
        }                                                                                                              \
    }
#define F3(name, expr)                                                                                                 \
    t[#name] = {                                                                                                       \
        [](wave& w, const inst& i) {                                                                                   \
            vop<3, vfloat::f32>(w, i, 1, [](u32 a, u32 b, u32 c) -> u32 { return bits(expr); });                       \
        }                                                                                                              \
    }
#define H1(name, expr)                                                                                                 \
    t[#name] = {[](wave& w, const inst& i) {                                                                           \
                    vop<1, vfloat::f16, true>(w, i, 1, [](u32 a, u32, u32) -> u32 { return (expr); });                 \
                },                                                                                                     \
                const_type::f16}
#define H2(name, expr)                                                                                                 \
    t[#name] = {[](wave& w, const inst& i) {                                                                           \
                    vop<2, vfloat::f16, true>(w, i, 1, [](u32 a, u32 b, u32) -> u32 { return (expr); });               \
                },                                                                                                     \
                const_type::f16}
#define H3(name, expr)                                                                                                 \
    t[#name] = {[](wave& w, const inst& i) {                                                                           \
                    vop<3, vfloat::f16, true>(w, i, 1, [](u32 a, u32 b, u32 c) -> u32 { return (expr); });             \
                },                                                                                                     \
                const_type::f16}
#define I16_2(name, expr)                                                                                              \
    t[#name] = {                                                                                                       \
        [](wave& w, const inst& i) {                                                                                   \
            vop<2, vfloat::none, true>(w, i, 1, [](u32 a, u32 b, u32) -> u32 { return (expr); });                      \
        }                                                                                                              \
    }

    // ---- moves and bit operations ----
    V1(v_mov_b32, a);
    V1(v_not_b32, ~a);
    V1(v_bfrev_b32, __builtin_bitreverse32(a));
    V1(v_ffbh_u32, a == 0 ? ~0u : static_cast<u32>(std::countl_zero(a)));
    V1(v_ffbl_b32, a == 0 ? ~0u : static_cast<u32>(std::countr_zero(a)));
    V1(v_ffbh_i32, (a == 0 || a == ~0u) ? ~0u : static_cast<u32>(std::countl_zero((a >> 31) ? ~a : a)));
    V2(v_and_b32, a & b);
    V2(v_or_b32, a | b);
    V2(v_xor_b32, a ^ b);
    V2(v_xnor_b32, ~(a ^ b));
    V2(v_lshlrev_b32, b << (a & 31));
    V2(v_lshrrev_b32, b >> (a & 31));
    V2(v_ashrrev_i32, static_cast<u32>(static_cast<i32>(b) >> (a & 31)));
    V2(v_bcnt_u32_b32, static_cast<u32>(std::popcount(a)) + b);
    V2(v_bfm_b32, ((1u << (a & 31)) - 1) << (b & 31));
    V3(v_bfe_u32, (c & 31) == 0 ? 0u : (a >> (b & 31)) & (0xffffffffu >> (32 - (c & 31))));
    V3(v_bfe_i32,
       (c & 31) == 0 ? 0u : static_cast<u32>(static_cast<i32>((a >> (b & 31)) << (32 - (c & 31))) >> (32 - (c & 31))));
    V3(v_bfi_b32, (a & b) | (~a & c));
    V3(v_alignbit_b32, static_cast<u32>(((u64{a} << 32) | b) >> (c & 31)));
    V3(v_alignbyte_b32, static_cast<u32>(((u64{a} << 32) | b) >> (8 * (c & 3))));
    V3(v_perm_b32, [&] {
        const u64 v = (u64{a} << 32) | b;
        return perm_byte(v, c) | perm_byte(v, c >> 8) << 8 | perm_byte(v, c >> 16) << 16 | perm_byte(v, c >> 24) << 24;
    }());
    V3(v_lshl_or_b32, (a << (b & 31)) | c);
    V3(v_and_or_b32, (a & b) | c);
    V3(v_or3_b32, a | b | c);
    V3(v_xor3_b32, a ^ b ^ c);
    I16_2(v_lshlrev_b16, (b << (a & 15)) & 0xffff);
    I16_2(v_lshrrev_b16, (b & 0xffff) >> (a & 15));
    I16_2(v_ashrrev_i16, static_cast<u32>(static_cast<std::int16_t>(b) >> (a & 15)) & 0xffff);
    I16_2(v_add_u16, (a + b) & 0xffff);
    I16_2(v_sub_u16, (a - b) & 0xffff);
    I16_2(v_mul_lo_u16, (a * b) & 0xffff);

    // v_bitop3 (gfx950): each result bit is the truth table's bit (S0 << 2 | S1 << 1 | S2) of the
    // sources' bits
    t["v_bitop3_b32"] = {[](wave& w, const inst& i) {
        const u32 table = i.bitop3;
        vsources s;
        read_vsources(w, i, 1, 3, vfloat::none, s);
        lane_u32 r;
        for(int l = 0; l < lanes; ++l)
        {
            const u32 a = s.p[0][l], b = s.p[1][l], c = s.p[2][l];
            u32 x = 0;
            for(u32 m = 0; m < 8; ++m)
                if((table >> m) & 1)
                    x |= ((m & 4) ? a : ~a) & ((m & 2) ? b : ~b) & ((m & 1) ? c : ~c);
            r[l] = x;
        }
        write_vresult(w, i, i.op[0], r, s.write_mask, vfloat::none);
    }};
    t["v_bitop3_b16"] = {[](wave& w, const inst& i) {
        const u32 table = i.bitop3;
        vsources s;
        read_vsources(w, i, 1, 3, vfloat::f16, s); // f16: op_sel picks the sources' halves
        lane_u32 r;
        for(int l = 0; l < lanes; ++l)
        {
            const u32 a = s.p[0][l], b = s.p[1][l], c = s.p[2][l];
            u32 x = 0;
            for(u32 m = 0; m < 8; ++m)
                if((table >> m) & 1)
                    x |= ((m & 4) ? a : ~a) & ((m & 2) ? b : ~b) & ((m & 1) ? c : ~c);
            r[l] = x & 0xffff;
        }
        write_vresult(w, i, i.op[0], r, s.write_mask, vfloat::none, true);
    }};

    // ---- integer arithmetic ----
    V2(v_add_u32, a + b);
    V2(v_sub_u32, a - b);
    V2(v_subrev_u32, b - a);
    V2(v_mul_lo_u32, a * b);
    V2(v_mul_hi_u32, static_cast<u32>((u64{a} * b) >> 32));
    V2(v_mul_hi_i32, static_cast<u32>(static_cast<u64>(i64{static_cast<i32>(a)} * static_cast<i32>(b)) >> 32));
    V2(v_mul_u32_u24, (a & 0xffffff) * (b & 0xffffff));
    V2(v_mul_hi_u32_u24, static_cast<u32>((u64{a & 0xffffff} * (b & 0xffffff)) >> 32));
    V2(v_mul_i32_i24, static_cast<u32>(static_cast<i32>(sext24(a)) * static_cast<i32>(sext24(b))));
    V2(v_min_i32, static_cast<i32>(a) < static_cast<i32>(b) ? a : b);
    V2(v_max_i32, static_cast<i32>(a) > static_cast<i32>(b) ? a : b);
    V2(v_min_u32, a < b ? a : b);
    V2(v_max_u32, a > b ? a : b);
    V3(v_mad_u32_u24, (a & 0xffffff) * (b & 0xffffff) + c);
    V3(v_mad_i32_i24, static_cast<u32>(static_cast<i32>(sext24(a)) * static_cast<i32>(sext24(b))) + c);
    V3(v_add3_u32, a + b + c);
    V3(v_add_lshl_u32, (a + b) << (c & 31));
    V3(v_lshl_add_u32, (a << (b & 31)) + c);
    V3(v_xad_u32, (a ^ b) + c);
    V3(v_min3_i32, static_cast<u32>(std::min({static_cast<i32>(a), static_cast<i32>(b), static_cast<i32>(c)})));
    V3(v_max3_i32, static_cast<u32>(std::max({static_cast<i32>(a), static_cast<i32>(b), static_cast<i32>(c)})));
    V3(v_min3_u32, std::min({a, b, c}));
    V3(v_max3_u32, std::max({a, b, c}));
    V3(v_med3_i32,
       static_cast<u32>(std::max(std::min(static_cast<i32>(a), static_cast<i32>(b)),
                                 std::min(std::max(static_cast<i32>(a), static_cast<i32>(b)), static_cast<i32>(c)))));
    V3(v_med3_u32, std::max(std::min(a, b), std::min(std::max(a, b), c)));

    // carry-out and carry-in: op[1] is the lane mask of carries, the sources follow
#define VCARRY(name, nsrc, expr)                                                                                       \
    t[#name] = {                                                                                                       \
        [](wave& w, const inst& i) {                                                                                   \
            vsources s;                                                                                                \
            read_vsources(w, i, 2, nsrc, vfloat::none, s);                                                             \
            const u64 cin = nsrc > 2 ? sread64(w, i, i.op[4]) : 0;                                                     \
            (void)cin;                                                                                                 \
            lane_u32 r;                                                                                                \
            u64 carry = 0;                                                                                             \
            for(int l = 0; l < lanes; ++l)                                                                             \
            {                                                                                                          \
                const u64 a = s.p[0][l], b = s.p[1][l], ci = (cin >> l) & 1;                                           \
                (void)ci;                                                                                              \
                const u64 full = (expr);                                                                               \
                r[l]           = static_cast<u32>(full);                                                               \
                carry |= ((full >> 32) & 1) << l;                                                                      \
            }                                                                                                          \
            write_vresult(w, i, i.op[0], r, s.write_mask, vfloat::none);                                               \
            write_lane_mask(w, i.op[1], carry & s.write_mask);                                                         \
        }                                                                                                              \
    }
    VCARRY(v_add_co_u32, 2, a + b);
    VCARRY(v_sub_co_u32, 2, a - b);
    VCARRY(v_subrev_co_u32, 2, b - a);
    VCARRY(v_addc_co_u32, 3, a + b + ci);
    VCARRY(v_subb_co_u32, 3, a - b - ci);
    VCARRY(v_subbrev_co_u32, 3, b - a - ci);
#undef VCARRY

    // 64-bit results: v_mad_u64_u32 vdst[2], sdst, s0, s1, s2[2]
    t["v_mad_u64_u32"] = {[](wave& w, const inst& i) {
        lane_u32 ta, tb;
        const u32* a = vread(w, i, i.op[2], ta);
        const u32* b = vread(w, i, i.op[3], tb);
        src64 c(w, i, i.op[4]);
        u64 r[lanes];
        u64 carry = 0;
        for(int l = 0; l < lanes; ++l)
        {
            const unsigned __int128 full = static_cast<unsigned __int128>(u64{a[l]} * b[l]) + c[l];
            r[l]                         = static_cast<u64>(full);
            carry |= u64{static_cast<u64>(full >> 64) & 1} << l;
        }
        write64(w, i, r);
        write_lane_mask(w, i.op[1], carry & w.exec());
    }};
    t["v_mad_i64_i32"] = {[](wave& w, const inst& i) {
        lane_u32 ta, tb;
        const u32* a = vread(w, i, i.op[2], ta);
        const u32* b = vread(w, i, i.op[3], tb);
        src64 c(w, i, i.op[4]);
        u64 r[lanes];
        u64 carry = 0;
        for(int l = 0; l < lanes; ++l)
        {
            const __int128 full =
                static_cast<__int128>(i64{static_cast<i32>(a[l])} * static_cast<i32>(b[l])) + static_cast<i64>(c[l]);
            r[l] = static_cast<u64>(full);
            carry |= u64{(full < INT64_MIN || full > INT64_MAX) ? 1u : 0u} << l;
        }
        write64(w, i, r);
        write_lane_mask(w, i.op[1], carry & w.exec());
    }};
#define V64(name, body)                                                                                                \
    t[#name] = {[](wave& w, const inst& i) {                                                                           \
                    u64 r[lanes];                                                                                      \
                    body;                                                                                              \
                    write64(w, i, r);                                                                                  \
                },                                                                                                     \
                const_type::b64}
    V64(v_mov_b64, {
        src64 a(w, i, i.op[1]);
        for(int l = 0; l < lanes; ++l)
            r[l] = a[l];
    });
    V64(v_lshlrev_b64, {
        lane_u32 t0;
        const u32* a = vread(w, i, i.op[1], t0);
        src64 b(w, i, i.op[2]);
        for(int l = 0; l < lanes; ++l)
            r[l] = b[l] << (a[l] & 63);
    });
    V64(v_lshrrev_b64, {
        lane_u32 t0;
        const u32* a = vread(w, i, i.op[1], t0);
        src64 b(w, i, i.op[2]);
        for(int l = 0; l < lanes; ++l)
            r[l] = b[l] >> (a[l] & 63);
    });
    V64(v_ashrrev_i64, {
        lane_u32 t0;
        const u32* a = vread(w, i, i.op[1], t0);
        src64 b(w, i, i.op[2]);
        for(int l = 0; l < lanes; ++l)
            r[l] = static_cast<u64>(static_cast<i64>(b[l]) >> (a[l] & 63));
    });
    V64(v_lshl_add_u64, {
        src64 a(w, i, i.op[1]);
        lane_u32 t0;
        const u32* b = vread(w, i, i.op[2], t0);
        src64 c(w, i, i.op[3]);
        for(int l = 0; l < lanes; ++l)
            r[l] = (a[l] << (b[l] & 7)) + c[l];
    });
#undef V64

    // ---- select and lane operations ----
    t["v_cndmask_b32"]       = {[](wave& w, const inst& i) {
        vsources s;
        read_vsources(w, i, 1, 2, vfloat::none, s);
        const u64 m = sread64(w, i, i.op[3]);
        lane_u32 r;
        for(int l = 0; l < lanes; ++l)
            r[l] = ((m >> l) & 1) ? s.p[1][l] : s.p[0][l];
        write_vresult(w, i, i.op[0], r, s.write_mask, vfloat::none);
    }};
    t["v_readfirstlane_b32"] = {[](wave& w, const inst& i) {
        const u64 e = w.exec();
        lane_u32 tmp;
        const u32* a = vread(w, i, i.op[1], tmp);
        swrite(w, i.op[0], a[e == 0 ? 0 : std::countr_zero(e)]);
    }};
    t["v_readlane_b32"]      = {[](wave& w, const inst& i) {
        lane_u32 tmp;
        const u32* a = vread(w, i, i.op[1], tmp);
        swrite(w, i.op[0], a[sread(w, i, i.op[2]) & 63]);
    }};
    t["v_writelane_b32"]     = {
        [](wave& w, const inst& i) { vdst(w, i.op[0])[sread(w, i, i.op[2]) & 63] = sread(w, i, i.op[1]); }};
    t["v_mbcnt_lo_u32_b32"] = {[](wave& w, const inst& i) {
        const u32 m = sread(w, i, i.op[1]);
        lane_u32 tmp, r;
        const u32* b = vread(w, i, i.op[2], tmp);
        for(int l = 0; l < lanes; ++l)
            r[l] = static_cast<u32>(std::popcount(l >= 32 ? m : m & ((1u << l) - 1))) + b[l];
        vwrite(w, i.op[0], r);
    }};
    t["v_mbcnt_hi_u32_b32"] = {[](wave& w, const inst& i) {
        const u32 m = sread(w, i, i.op[1]);
        lane_u32 tmp, r;
        const u32* b = vread(w, i, i.op[2], tmp);
        for(int l = 0; l < lanes; ++l)
            r[l] = static_cast<u32>(std::popcount(l < 32    ? 0u
                                                  : l == 63 ? m & 0x7fffffffu
                                                            : m & ((1u << (l - 32)) - 1))) +
                   b[l];
        vwrite(w, i.op[0], r);
    }};

    // ---- f32 ----
    F2(v_add_f32, f(a) + f(b));
    F2(v_sub_f32, f(a) - f(b));
    F2(v_subrev_f32, f(b) - f(a));
    F2(v_mul_f32, f(a) * f(b));
    F2(v_max_f32, std::fmax(f(a), f(b)));
    F2(v_min_f32, std::fmin(f(a), f(b)));
    F2(v_ldexp_f32, std::ldexp(f(a), static_cast<i32>(b)));
    F3(v_fma_f32, std::fma(f(a), f(b), f(c)));
    F3(v_fmamk_f32, std::fma(f(a), f(b), f(c)));
    F3(v_fmaak_f32, std::fma(f(a), f(b), f(c)));
    F3(v_max3_f32, std::fmax(std::fmax(f(a), f(b)), f(c)));
    F3(v_min3_f32, std::fmin(std::fmin(f(a), f(b)), f(c)));
    F3(v_med3_f32, std::fmax(std::fmin(f(a), f(b)), std::fmin(std::fmax(f(a), f(b)), f(c))));
    t["v_fmac_f32"] = {[](wave& w, const inst& i) {
        vsources s;
        read_vsources(w, i, 1, 2, vfloat::f32, s);
        const lane_u32& d = vdst(w, i.op[0]);
        lane_u32 r;
        for(int l = 0; l < lanes; ++l)
            r[l] = bits(std::fma(f(s.p[0][l]), f(s.p[1][l]), f(d[l])));
        write_vresult(w, i, i.op[0], r, s.write_mask, vfloat::f32);
    }};
    F1(v_rcp_f32, 1.f / f(a));
    F1(v_rcp_iflag_f32, 1.f / f(a));
    F1(v_rsq_f32, 1.f / std::sqrt(f(a)));
    F1(v_sqrt_f32, std::sqrt(f(a)));
    F1(v_exp_f32, std::exp2(f(a)));
    F1(v_log_f32, std::log2(f(a)));
    F1(v_trunc_f32, std::trunc(f(a)));
    F1(v_floor_f32, std::floor(f(a)));
    F1(v_ceil_f32, std::ceil(f(a)));
    F1(v_rndne_f32, std::nearbyint(f(a)));
    F1(v_fract_f32, f(a) - std::floor(f(a)));
    F1(v_cvt_f32_u32, static_cast<float>(a));
    F1(v_cvt_f32_i32, static_cast<float>(static_cast<i32>(a)));
    F1(v_cvt_f32_ubyte0, static_cast<float>(a & 0xff));
    F1(v_cvt_f32_ubyte1, static_cast<float>((a >> 8) & 0xff));
    F1(v_cvt_f32_ubyte2, static_cast<float>((a >> 16) & 0xff));
    F1(v_cvt_f32_ubyte3, static_cast<float>(a >> 24));
    t["v_cvt_u32_f32"]       = {[](wave& w, const inst& i) {
        vop<1, vfloat::f32>(w, i, 1, [](u32 a, u32, u32) -> u32 { return cvt_u32_f32(f(a)); });
    }};
    t["v_cvt_i32_f32"]       = {[](wave& w, const inst& i) {
        vop<1, vfloat::f32>(w, i, 1, [](u32 a, u32, u32) -> u32 { return static_cast<u32>(cvt_i32_f32(f(a))); });
    }};
    t["v_cvt_f16_f32"]       = {[](wave& w, const inst& i) {
        vop<1, vfloat::f32, true>(w, i, 1, [](u32 a, u32, u32) -> u32 { return h(f(a)); });
    }};
    t["v_cvt_f32_f16"]       = {[](wave& w, const inst& i) {
        vop<1, vfloat::f16>(w, i, 1, [](u32 a, u32, u32) -> u32 { return bits(hf(a)); });
    }};
    t["v_cvt_pk_f16_f32"]    = {[](wave& w, const inst& i) {
        vop<2, vfloat::f32>(w, i, 1, [](u32 a, u32 b, u32) -> u32 { return h(f(a)) | h(f(b)) << 16; });
    }};
    t["v_cvt_pkrtz_f16_f32"] = {[](wave& w, const inst& i) {
        vop<2, vfloat::f32>(w, i, 1, [](u32 a, u32 b, u32) -> u32 {
            auto rtz = [](float x) -> u32 {
                const u32 r = f32_to_f16(x);
                // round toward zero: step back when nearest rounded away from zero (finite inputs)
                return (std::fabs(hf(r)) > std::fabs(x) && !std::isinf(x) && !std::isnan(x)) ? r - 1 : r;
            };
            return rtz(f(a)) | rtz(f(b)) << 16;
        });
    }};
    t["v_pack_b32_f16"]      = {[](wave& w, const inst& i) {
                               vop<2, vfloat::f16>(
                                   w, i, 1, [](u32 a, u32 b, u32) -> u32 { return (a & 0xffff) | (b & 0xffff) << 16; });
                                },
                                const_type::f16};
    // v_fma_mix_f32: each source is f32, or (op_sel_hi) the f16 half op_sel picks
    t["v_fma_mix_f32"] = {[](wave& w, const inst& i) {
                              float x[3][lanes];
                              for(int k = 0; k < 3; ++k)
                              {
                                  lane_u32 tmp;
                                  const u32* p      = vread(w, i, i.op[1 + k], tmp);
                                  const bool is_f16 = (i.op_sel_hi >> k) & 1;
                                  const bool hi     = (i.op_sel >> k) & 1;
                                  const operand& o  = i.op[1 + k];
                                  for(int l = 0; l < lanes; ++l)
                                  {
                                      float v = is_f16 ? hf(hi ? p[l] >> 16 : p[l] & 0xffff) : f(p[l]);
                                      if(o.abs)
                                          v = std::fabs(v);
                                      if(o.neg)
                                          v = -v;
                                      x[k][l] = v;
                                  }
                              }
                              lane_u32 r;
                              for(int l = 0; l < lanes; ++l)
                                  r[l] = bits(std::fma(x[0][l], x[1][l], x[2][l]));
                              write_vresult(w, i, i.op[0], r, w.exec(), vfloat::f32);
                          },
                          const_type::f16};

    // ---- f16 (one rounding from the exact float result) ----
    H2(v_add_f16, h(hf(a) + hf(b)));
    H2(v_sub_f16, h(hf(a) - hf(b)));
    H2(v_mul_f16, h(hf(a) * hf(b)));
    H2(v_max_f16, h(std::fmax(hf(a), hf(b))));
    H2(v_min_f16, h(std::fmin(hf(a), hf(b))));
    H3(v_fma_f16, h(static_cast<float>(
                      std::fma(static_cast<double>(hf(a)), static_cast<double>(hf(b)), static_cast<double>(hf(c))))));

    // ---- compares ----
#define CMP32(op, T, expr)                                                                                             \
    t["v_cmp_" #op]  = {[](wave& w, const inst& i) { vcmp<T>(w, i, [](T a, T b) { return (expr); }); }};               \
    t["v_cmpx_" #op] = { [](wave& w, const inst& i) { vcmp<T, true>(w, i, [](T a, T b) { return (expr); }); } }
#define CMP64(op, T, expr)                                                                                             \
    t["v_cmp_" #op]  = {[](wave& w, const inst& i) { vcmp64<T>(w, i, [](T a, T b) { return (expr); }); },              \
                        const_type::b64};                                                                              \
    t["v_cmpx_" #op] = {[](wave& w, const inst& i) { vcmp64<T, true>(w, i, [](T a, T b) { return (expr); }); },        \
                        const_type::b64}
#define CMP_INT(suffix, T, M)                                                                                          \
    M(f_##suffix, T, ((void)a, (void)b, false));                                                                       \
    M(lt_##suffix, T, a < b);                                                                                          \
    M(eq_##suffix, T, a == b);                                                                                         \
    M(le_##suffix, T, a <= b);                                                                                         \
    M(gt_##suffix, T, a > b);                                                                                          \
    M(ne_##suffix, T, a != b);                                                                                         \
    M(ge_##suffix, T, a >= b);                                                                                         \
    M(t_##suffix, T, ((void)a, (void)b, true))
    CMP_INT(i32, i32, CMP32);
    CMP_INT(u32, u32, CMP32);
    CMP_INT(i16, std::int16_t, CMP32);
    CMP_INT(u16, std::uint16_t, CMP32);
    CMP_INT(i64, i64, CMP64);
    CMP_INT(u64, u64, CMP64);
#define CMP_FLOAT(suffix, T, M)                                                                                        \
    M(f_##suffix, T, ((void)a, (void)b, false));                                                                       \
    M(lt_##suffix, T, a < b);                                                                                          \
    M(eq_##suffix, T, a == b);                                                                                         \
    M(le_##suffix, T, a <= b);                                                                                         \
    M(gt_##suffix, T, a > b);                                                                                          \
    M(lg_##suffix, T, a<b || a> b);                                                                                    \
    M(ge_##suffix, T, a >= b);                                                                                         \
    M(o_##suffix, T, !std::isnan(a) && !std::isnan(b));                                                                \
    M(u_##suffix, T, std::isnan(a) || std::isnan(b));                                                                  \
    M(nge_##suffix, T, !(a >= b));                                                                                     \
    M(nlg_##suffix, T, !(a < b || a > b));                                                                             \
    M(ngt_##suffix, T, !(a > b));                                                                                      \
    M(nle_##suffix, T, !(a <= b));                                                                                     \
    M(neq_##suffix, T, !(a == b));                                                                                     \
    M(nlt_##suffix, T, !(a < b));                                                                                      \
    M(tru_##suffix, T, ((void)a, (void)b, true))
    CMP_FLOAT(f32, float, CMP32);
    CMP_FLOAT(f64, double, CMP64);
#undef CMP_FLOAT
#undef CMP_INT
#undef CMP32
#undef CMP64
}

} // namespace hip_cpu
