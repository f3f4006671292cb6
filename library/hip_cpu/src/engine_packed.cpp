// SPDX-License-Identifier: MIT
// Packed instructions (VOP3P): two 16-bit halves of a dword (v_pk_*_f16, _u16, _i16) or, on
// gfx940+, two f32 of a register pair (v_pk_*_f32), each computed on its own. For the result's low
// half each source gives the half op_sel picks, for the high half the one op_sel_hi picks (default:
// the high one); neg_lo / neg_hi negate a float source's half. Also the two-value conversions and
// v_cmp_class_f32, which the float families need.
#include "vector_operands.hpp"

#include <cstring>

#include <cmath>

namespace hip_cpu {
namespace {

using namespace vector_ops;

std::uint8_t hi_selects(const inst& i) { return i.op_sel_hi_given ? i.op_sel_hi : 0x7; }

// D.h = fn(a.h, b.h, c.h) for h = low and high 16-bit halves; Float: neg_lo/neg_hi flip the sign
template <int N, bool Float, typename Fn>
void packed16(wave& w, const inst& i, Fn fn)
{
    lane_u32 tmp[3], r;
    const u32* p[3] = {zero_lanes, zero_lanes, zero_lanes};
    for(int k = 0; k < N; ++k)
        p[k] = vread(w, i, i.op[1 + k], tmp[k]);
    const std::uint8_t hi_sel = hi_selects(i);
    for(int l = 0; l < lanes; ++l)
    {
        u32 out = 0;
        for(int h = 0; h < 2; ++h)
        {
            u32 x[3];
            for(int k = 0; k < 3; ++k)
            {
                const bool high = ((h == 0 ? i.op_sel : hi_sel) >> k) & 1;
                x[k]            = (high ? p[k][l] >> 16 : p[k][l]) & 0xffff;
                if(Float && (((h == 0 ? i.neg_lo : i.neg_hi) >> k) & 1))
                    x[k] ^= 0x8000;
            }
            out |= (fn(x[0], x[1], x[2]) & 0xffff) << (16 * h);
        }
        r[l] = out;
    }
    vwrite(w, i.op[0], r);
}

// D[h] = fn(a[h], b[h], c[h]) for the two f32 of register pairs (op_sel picks each source's dword)
template <int N, typename Fn>
void packed32(wave& w, const inst& i, Fn fn)
{
    lane_u32 tmp[3][2], r[2];
    const u32* p[3][2] = {{zero_lanes, zero_lanes}, {zero_lanes, zero_lanes}, {zero_lanes, zero_lanes}};
    for(int k = 0; k < N; ++k)
        for(int d = 0; d < 2; ++d)
            p[k][d] = vread(w, i, i.op[1 + k], tmp[k][d], i.op[1 + k].kind == operand::constant ? 0 : d);
    const std::uint8_t hi_sel = hi_selects(i);
    for(int l = 0; l < lanes; ++l)
        for(int h = 0; h < 2; ++h)
        {
            float x[3];
            for(int k = 0; k < 3; ++k)
            {
                const int d = ((h == 0 ? i.op_sel : hi_sel) >> k) & 1;
                x[k]        = f(p[k][d][l]);
                if(((h == 0 ? i.neg_lo : i.neg_hi) >> k) & 1)
                    x[k] = -x[k];
            }
            r[h][l] = bits(fn(x[0], x[1], x[2]));
        }
    vwrite(w, i.op[0], r[0], 0);
    vwrite(w, i.op[0], r[1], 1);
}

u32 sext16(u32 x) { return static_cast<u32>(static_cast<std::int32_t>(static_cast<std::int16_t>(x))); }

u32 bf16_rne(float x)
{
    const u32 b = bits(x);
    if((b & 0x7fffffffu) > 0x7f800000u)
        return (b >> 16) | 0x40; // NaN stays NaN (quiet)
    return (b + 0x7fffu + ((b >> 16) & 1)) >> 16;
}

// v_cmp_class_f32's classes, bit by bit: signaling NaN, quiet NaN, -inf, -normal, -denormal, -0,
// +0, +denormal, +normal, +inf
u32 float_class(float x)
{
    const u32 b = bits(x);
    if(std::isnan(x))
        return (b & 0x00400000u) ? 1u << 1 : 1u << 0;
    const bool neg = std::signbit(x);
    if(std::isinf(x))
        return neg ? 1u << 2 : 1u << 9;
    if(x == 0)
        return neg ? 1u << 5 : 1u << 6;
    if(std::fpclassify(x) == FP_SUBNORMAL)
        return neg ? 1u << 4 : 1u << 7;
    return neg ? 1u << 3 : 1u << 8;
}

template <bool X>
void cmp_class(wave& w, const inst& i)
{
    vsources s;
    read_vsources(w, i, 1, 2, vfloat::f32, s);
    u64 m = 0;
    for(int l = 0; l < lanes; ++l)
        m |= u64{(float_class(f(s.p[0][l])) & s.p[1][l]) != 0} << l;
    m &= s.write_mask;
    write_lane_mask(w, i.op[0], m);
    if constexpr(X)
        w.set_exec(m);
}

} // namespace

void add_packed_instructions(handler_table& t)
{
#define PK16F(name, n, expr)                                                                                           \
    t[#name] = {                                                                                                       \
        [](wave& w, const inst& i) { packed16<n, true>(w, i, [](u32 a, u32 b, u32 c) -> u32 { return (expr); }); },    \
        const_type::f16}
#define PK16I(name, n, expr)                                                                                           \
    t[#name] = {                                                                                                       \
        [](wave& w, const inst& i) { packed16<n, false>(w, i, [](u32 a, u32 b, u32 c) -> u32 { return (expr); }); }    \
    }
#define PK32(name, n, expr)                                                                                            \
    t[#name] = {                                                                                                       \
        [](wave& w, const inst& i) { packed32<n>(w, i, [](float a, float b, float c) -> float { return (expr); }); }   \
    }
    PK16F(v_pk_add_f16, 2, ((void)c, h(hf(a) + hf(b))));
    PK16F(v_pk_mul_f16, 2, ((void)c, h(hf(a) * hf(b))));
    PK16F(v_pk_fma_f16, 3,
          h(static_cast<float>(
              std::fma(static_cast<double>(hf(a)), static_cast<double>(hf(b)), static_cast<double>(hf(c))))));
    PK16I(v_pk_add_u16, 2, ((void)c, a + b));
    PK16I(v_pk_sub_u16, 2, ((void)c, a - b));
    PK16I(v_pk_add_i16, 2, ((void)c, a + b));
    PK16I(v_pk_sub_i16, 2, ((void)c, a - b));
    PK16I(v_pk_mul_lo_u16, 2, ((void)c, a * b));
    PK16I(v_pk_mad_u16, 3, a * b + c);
    PK16I(v_pk_max_u16, 2, ((void)c, a > b ? a : b));
    PK16I(v_pk_min_u16, 2, ((void)c, a < b ? a : b));
    PK16I(v_pk_max_i16, 2,
          ((void)c, static_cast<std::int32_t>(sext16(a)) > static_cast<std::int32_t>(sext16(b)) ? a : b));
    PK16I(v_pk_min_i16, 2,
          ((void)c, static_cast<std::int32_t>(sext16(a)) < static_cast<std::int32_t>(sext16(b)) ? a : b));
    PK16I(v_pk_lshlrev_b16, 2, ((void)c, b << (a & 15)));
    PK16I(v_pk_lshrrev_b16, 2, ((void)c, b >> (a & 15)));
    PK16I(v_pk_ashrrev_i16, 2, ((void)c, static_cast<u32>(static_cast<std::int32_t>(sext16(b)) >> (a & 15))));
    PK32(v_pk_add_f32, 2, ((void)c, a + b));
    PK32(v_pk_mul_f32, 2, ((void)c, a * b));
    PK32(v_pk_fma_f32, 3, std::fma(a, b, c));
#undef PK16F
#undef PK16I
#undef PK32

    // v_pk_mov_b32 d[2], s0[2], s1[2]: the low dword from s0, the high one from s1, op_sel picking
    // each source's dword (bits as they are: a move, not float arithmetic)
    t["v_pk_mov_b32"] = {[](wave& w, const inst& i) {
        lane_u32 t0, t1, lo, hi;
        const auto dword = [&](int k) { return i.op[1 + k].kind == operand::constant ? 0 : (i.op_sel >> k) & 1; };
        std::memcpy(lo, vread(w, i, i.op[1], t0, dword(0)), sizeof lo);
        std::memcpy(hi, vread(w, i, i.op[2], t1, dword(1)), sizeof hi); // both read before either is written
        vwrite(w, i.op[0], lo, 0);
        vwrite(w, i.op[0], hi, 1);
    }};

    // gfx950: two f32 to a pair of bf16, rounded to nearest even
    t["v_cvt_pk_bf16_f32"] = {[](wave& w, const inst& i) {
        vsources s;
        read_vsources(w, i, 1, 2, vfloat::f32, s);
        lane_u32 r;
        for(int l = 0; l < lanes; ++l)
            r[l] = bf16_rne(f(s.p[0][l])) | bf16_rne(f(s.p[1][l])) << 16;
        write_vresult(w, i, i.op[0], r, s.write_mask, vfloat::none);
    }};
    t["v_cmp_class_f32"]   = {cmp_class<false>};
    t["v_cmpx_class_f32"]  = {cmp_class<true>};
}

} // namespace hip_cpu
