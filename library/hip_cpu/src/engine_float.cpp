// SPDX-License-Identifier: MIT
// Vector float instructions (f32 and f16 arithmetic, conversions) and the compares (VOPC, v_cmpx),
// with their SDWA/DPP forms. Semantics from the CDNA3/CDNA4 ISA manuals.
//
// Precision: add, sub, mul, fma, conversions and compares are IEEE exact as the hardware is (denormals
// kept: compute kernels run with denormals enabled). v_rcp_f32, v_rsq_f32, v_sqrt_f32, v_exp_f32 and
// v_log_f32 are computed correctly rounded on the host, where the hardware guarantees 1 ulp: a
// result may differ from the GPU's in the last bit.
#include "vector_operands.hpp"

#include <algorithm>
#include <bit>
#include <cfloat>
#include <cmath>
#include <limits>

namespace hip_cpu {
namespace {

using namespace vector_ops;

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

// min and max as the hardware computes them (IEEE mode): a NaN operand gives the other operand
// (quieted when both are NaN), and -0 orders below +0, which std::fmin/fmax leave unspecified
float min_hw(float a, float b)
{
    if(std::isnan(a) || std::isnan(b))
        return std::isnan(a) ? (std::isnan(b) ? std::numeric_limits<float>::quiet_NaN() : b) : a;
    if(a == b)
        return std::signbit(a) ? a : b;
    return a < b ? a : b;
}
float max_hw(float a, float b)
{
    if(std::isnan(a) || std::isnan(b))
        return std::isnan(a) ? (std::isnan(b) ? std::numeric_limits<float>::quiet_NaN() : b) : a;
    if(a == b)
        return std::signbit(a) ? b : a;
    return a > b ? a : b;
}

// The f32 fma of v_fma_mix*: each source is f32 or, where op_sel_hi says so, the f16 half
// op_sel picks; abs and neg apply to the source's value
void fma_mix(wave& w, const inst& i, lane_u32& r)
{
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
    for(int l = 0; l < lanes; ++l)
        r[l] = bits(std::fma(x[0][l], x[1][l], x[2][l]));
}

void fma_mix_half(wave& w, const inst& i, bool high)
{
    lane_u32 r;
    fma_mix(w, i, r);
    const u64 e = w.exec();
    lane_u32& d = vdst(w, i.op[0]);
    for(int l = 0; l < lanes; ++l)
    {
        if(!((e >> l) & 1))
            continue;
        float x = f(r[l]);
        if(i.clamp)
            x = std::isnan(x) ? 0.f : std::fmin(std::fmax(x, 0.f), 1.f);
        const u32 v = h(x);
        d[l]        = high ? (d[l] & 0xffffu) | v << 16 : (d[l] & 0xffff0000u) | v;
    }
}

// ---- f32 division's scaling and fixup (v_div_scale_f32, v_div_fmas_f32, v_div_fixup_f32) --------
// The compiler divides n / d as: d' = div_scale(d, d, n); n', vcc = div_scale(n, d, n); a
// reciprocal of d' refined by fmas; q = div_fmas(remainder, r, q0) with vcc; div_fixup(q, d, n).
// div_scale scales n or d by 2^64 where the quotient, the reciprocal or the remainder would
// otherwise leave the normal range; vcc says when the quotient itself was scaled, and div_fmas
// undoes that scaling in its one rounding. div_fixup gives IEEE's answers for zeros, infinities and
// NaNs. The branches follow the ISA manual's pseudocode, with two corrections that the differential
// test (a correctly rounded n / d for every pair of edge values) needs: the manual tests 1/S1 for
// an f64 denormal, which never holds for an f32 S1; the test is in f32, and its scaling is 2^-64
// (2^64 would overflow a denominator over 2^126). And div_fixup turns the NaN that an overflowing
// quotient leaves into an infinity.

int exponent_field(float x) { return static_cast<int>((bits(x) >> 23) & 0xff); }

float div_scale(float s0, float s1, float s2, bool& vcc)
{
    vcc = false;
    if(s2 == 0.f || s1 == 0.f)
        return std::numeric_limits<float>::quiet_NaN();
    const int e1 = exponent_field(s1), e2 = exponent_field(s2);
    if(e2 - e1 >= 96) // the quotient near the largest float: scale the denominator only
    {
        vcc = true;
        return s0 == s1 ? std::ldexp(s0, 64) : s0;
    }
    if(e1 == 0) // a denormal denominator: both up
        return std::ldexp(s0, 64);
    const bool tiny_quotient = std::fabs(static_cast<double>(s2) / static_cast<double>(s1)) < FLT_MIN;
    if(std::fabs(1.0 / static_cast<double>(s1)) < FLT_MIN) // the denominator's reciprocal a denormal
    {
        if(!tiny_quotient)
            return std::ldexp(s0, -64); // both down
        vcc = true;
        return s0 == s1 ? std::ldexp(s0, -64) : s0; // the denominator only
    }
    if(tiny_quotient) // a denormal quotient
    {
        vcc = true;
        return s0 == s2 ? std::ldexp(s0, 64) : s0; // the numerator only
    }
    if(e2 <= 23) // a tiny numerator: both up, so the remainder stays normal
        return std::ldexp(s0, 64);
    return s0;
}

// fma(a, b, c) * 2^scale with one rounding to f32: the sum in f64 rounded to odd (the product is
// exact in f64; two-sum gives the sum's error), so the final rounding to f32 cannot round twice
float fma_scaled(float a, float b, float c, int scale)
{
    const double p = static_cast<double>(a) * b, addend = c;
    double s = p + addend;
    if(std::isfinite(s))
    {
        const double back = s - p;
        const double err  = (p - (s - back)) + (addend - back);
        if(err != 0 && !(std::bit_cast<u64>(s) & 1))
            s = std::nextafter(s, err > 0 ? HUGE_VAL : -HUGE_VAL);
    }
    return static_cast<float>(std::ldexp(s, scale));
}

float div_fixup(float q, float d, float n)
{
    const bool negative = std::signbit(d) != std::signbit(n);
    const float inf     = std::numeric_limits<float>::infinity();
    if(std::isnan(n))
        return n + n; // quieted
    if(std::isnan(d))
        return d + d;
    if((d == 0.f && n == 0.f) || (std::isinf(d) && std::isinf(n)))
        return std::numeric_limits<float>::quiet_NaN();
    if(d == 0.f || std::isinf(n))
        return negative ? -inf : inf;
    if(std::isinf(d) || n == 0.f || exponent_field(n) - exponent_field(d) < -150)
        return negative ? -0.f : 0.f;
    // finite operands whose quotient overflows reach here as a NaN (the refinement's inf - inf)
    if(std::isnan(q))
        return negative ? -inf : inf;
    return negative ? -std::fabs(q) : std::fabs(q);
}

} // namespace

void add_float_instructions(handler_table& t)
{
    // ---- f32 ----
    F2(v_add_f32, f(a) + f(b));
    F2(v_sub_f32, f(a) - f(b));
    F2(v_subrev_f32, f(b) - f(a));
    F2(v_mul_f32, f(a) * f(b));
    F2(v_max_f32, max_hw(f(a), f(b)));
    F2(v_min_f32, min_hw(f(a), f(b)));
    F2(v_ldexp_f32, std::ldexp(f(a), static_cast<i32>(b)));
    F3(v_fma_f32, std::fma(f(a), f(b), f(c)));
    F3(v_fmamk_f32, std::fma(f(a), f(b), f(c)));
    F3(v_fmaak_f32, std::fma(f(a), f(b), f(c)));
    F3(v_max3_f32, max_hw(max_hw(f(a), f(b)), f(c)));
    F3(v_min3_f32, min_hw(min_hw(f(a), f(b)), f(c)));
    F3(v_med3_f32, max_hw(min_hw(f(a), f(b)), min_hw(max_hw(f(a), f(b)), f(c))));
    // v_div_scale_f32 vdst, sdst, s0, s1, s2 (VOP3b): sdst gets the lanes whose quotient was scaled
    t["v_div_scale_f32"] = {[](wave& w, const inst& i) {
        vsources s;
        read_vsources(w, i, 2, 3, vfloat::f32, s);
        lane_u32 r;
        std::uint8_t scaled[lanes];
        for(int l = 0; l < lanes; ++l)
        {
            bool vcc  = false;
            r[l]      = bits(div_scale(f(s.p[0][l]), f(s.p[1][l]), f(s.p[2][l]), vcc));
            scaled[l] = vcc;
        }
        write_vresult(w, i, i.op[0], r, s.write_mask, vfloat::f32);
        write_lane_mask(w, i.op[1], pack_lanes(scaled) & s.write_mask);
    }};
    // v_div_fmas_f32: fma, times 2^64 (|s2| >= 2) or 2^-64 in the lanes VCC marks
    t["v_div_fmas_f32"] = {[](wave& w, const inst& i) {
        vsources s;
        read_vsources(w, i, 1, 3, vfloat::f32, s);
        const u64 vcc = w.vcc();
        lane_u32 r;
        for(int l = 0; l < lanes; ++l)
        {
            const float a = f(s.p[0][l]), b = f(s.p[1][l]), c = f(s.p[2][l]);
            const int scale = !((vcc >> l) & 1) ? 0 : exponent_field(c) > 127 ? 64 : -64;
            r[l]            = bits(scale == 0 ? std::fma(a, b, c) : fma_scaled(a, b, c, scale));
        }
        write_vresult(w, i, i.op[0], r, s.write_mask, vfloat::f32);
    }};
    F3(v_div_fixup_f32, div_fixup(f(a), f(b), f(c)));
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
    // v_fma_mix_f32: fma of sources that are each f32 or the f16 half op_sel picks; the mixlo/mixhi
    // forms round the f32 result to f16 into the low / high half, keeping the other
    t["v_fma_mix_f32"]   = {[](wave& w, const inst& i) {
                              lane_u32 r;
                              fma_mix(w, i, r);
                              write_vresult(w, i, i.op[0], r, w.exec(), vfloat::f32);
                            },
                            const_type::f16};
    t["v_fma_mixlo_f16"] = {[](wave& w, const inst& i) { fma_mix_half(w, i, false); }, const_type::f16};
    t["v_fma_mixhi_f16"] = {[](wave& w, const inst& i) { fma_mix_half(w, i, true); }, const_type::f16};

    // ---- f16 (one rounding from the exact float result) ----
    H2(v_add_f16, h(hf(a) + hf(b)));
    H2(v_sub_f16, h(hf(a) - hf(b)));
    H2(v_mul_f16, h(hf(a) * hf(b)));
    H2(v_max_f16, h(max_hw(hf(a), hf(b))));
    H2(v_min_f16, h(min_hw(hf(a), hf(b))));
    H3(v_fma_f16, h(static_cast<float>(
                      std::fma(static_cast<double>(hf(a)), static_cast<double>(hf(b)), static_cast<double>(hf(c))))));
}

void add_compare_instructions(handler_table& t)
{
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
