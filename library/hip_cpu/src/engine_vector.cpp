// SPDX-License-Identifier: MIT
// Vector integer and bit instructions (VOP1, VOP2, VOP3), their SDWA and DPP forms, 64-bit integer
// forms, select, and the lane operations (readlane, readfirstlane, mbcnt). Float instructions and
// compares: engine_float.cpp. Semantics from the CDNA3/CDNA4 ISA manuals.
#include "vector_operands.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

namespace hip_cpu {
namespace {

using namespace vector_ops;

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

// v_mbcnt_lo/hi: the bits of the mask (an SGPR, a constant or, per lane, a VGPR) below the lane's
// own, in the low (Hi false) or high half of the wave, plus S1
template <bool Hi>
void mbcnt(wave& w, const inst& i)
{
    lane_u32 tm, tmp, r;
    const u32* m = vread(w, i, i.op[1], tm);
    const u32* b = vread(w, i, i.op[2], tmp);
    for(int l = 0; l < lanes; ++l)
    {
        const int below = Hi ? l - 32 : l; // the lane's position in this half of the wave
        const u32 mask  = below <= 0 ? 0u : below >= 32 ? ~0u : (1u << below) - 1;
        r[l]            = static_cast<u32>(std::popcount(m[l] & mask)) + b[l];
    }
    vwrite(w, i.op[0], r);
}

} // namespace

void add_vector_instructions(handler_table& t)
{
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
    // signed: the field is taken from S0 shifted arithmetically (bits above 31 are S0's sign)
    V3(v_bfe_i32, (c & 31) == 0 ? 0u
                                : static_cast<u32>(static_cast<i32>(static_cast<u32>(static_cast<i32>(a) >> (b & 31))
                                                                    << (32 - (c & 31))) >>
                                                   (32 - (c & 31))));
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
            std::uint8_t cin[lanes] = {}, cout[lanes];                                                                 \
            if(nsrc > 2)                                                                                               \
                unpack_lanes(sread64(w, i, i.op[4]), cin);                                                             \
            lane_u32 r;                                                                                                \
            for(int l = 0; l < lanes; ++l)                                                                             \
            {                                                                                                          \
                const u64 a = s.p[0][l], b = s.p[1][l], ci = cin[l];                                                   \
                (void)ci;                                                                                              \
                const u64 full = (expr);                                                                               \
                r[l]           = static_cast<u32>(full);                                                               \
                cout[l]        = static_cast<std::uint8_t>((full >> 32) & 1);                                          \
            }                                                                                                          \
            write_vresult(w, i, i.op[0], r, s.write_mask, vfloat::none);                                               \
            write_lane_mask(w, i.op[1], pack_lanes(cout) & s.write_mask);                                              \
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
        // in 32-bit halves, which vectorise: product + c, and the carry out of bit 63
        lane_u32 lo, hi;
        std::uint8_t carry[lanes];
        for(int l = 0; l < lanes; ++l)
        {
            const u64 product = u64{a[l]} * b[l];
            const u32 p_lo = static_cast<u32>(product), p_hi = static_cast<u32>(product >> 32);
            lo[l]             = p_lo + c.lo[l];
            const u32 p_hi_in = p_hi + (lo[l] < p_lo); // p_hi <= 0xfffffffe: no overflow here
            hi[l]             = p_hi_in + c.hi[l];
            carry[l]          = hi[l] < p_hi_in;
        }
        vwrite(w, i.op[0], lo, 0);
        vwrite(w, i.op[0], hi, 1);
        write_lane_mask(w, i.op[1], pack_lanes(carry) & w.exec());
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
        // VOP3's abs and neg act on the sign bit, as for f32 (the compiler selects x or -x this way)
        read_vsources(w, i, 1, 2, vfloat::f32, s);
        std::uint8_t take_b[lanes];
        unpack_lanes(sread64(w, i, i.op[3]), take_b);
        lane_u32 r;
        for(int l = 0; l < lanes; ++l)
            r[l] = take_b[l] ? s.p[1][l] : s.p[0][l];
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
    t["v_mbcnt_lo_u32_b32"] = {mbcnt<false>};
    t["v_mbcnt_hi_u32_b32"] = {mbcnt<true>};
}

} // namespace hip_cpu
