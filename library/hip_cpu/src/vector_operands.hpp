// SPDX-License-Identifier: MIT
// Reading and writing the operands of vector ALU instructions with their modifiers: DPP (src0 from
// another lane, row/bank masks), SDWA (byte/word selects of sources and destination), VOP3 float
// modifiers (abs, neg, clamp, output scaling) and op_sel (16-bit halves).
#pragma once
#include "engine.hpp"

#include <type_traits>

namespace hip_cpu {

// The sources of one vector instruction for all 64 lanes, after their modifiers, and the lanes the
// instruction writes (EXEC, narrowed by DPP's masks and invalid source lanes).
struct vsources
{
    const std::uint32_t* p[4] = {};
    lane_u32 tmp[4];
    std::uint64_t write_mask = 0;
};

enum class vfloat : std::uint8_t
{
    none,
    f32,
    f16
};

// Reads n sources starting at operand `first` (sources k = 0..n-1). F says how the float modifiers
// apply (|x|, -x on the sign bit of f32 or of the low f16).
void read_vsources(wave& w, const inst& i, int first, int n, vfloat f, vsources& s);

// Writes r to a 32-bit destination in the lanes of `mask`, through SDWA's dst_sel / dst_unused and,
// for 16-bit results (half), op_sel's destination half; `float_result` applies clamp and omod.
void write_vresult(wave& w, const inst& i, const operand& dst, std::uint32_t* r, std::uint64_t mask, vfloat f,
                   bool half = false);

// A lane mask written to an SGPR pair (VOPC, carry-out): inactive lanes read 0.
inline void write_lane_mask(wave& w, const operand& dst, std::uint64_t m) { swrite64(w, dst, m); }

// ---- shared by the vector families (engine_vector.cpp, engine_float.cpp) ----------------------
namespace vector_ops {

using u32 = std::uint32_t;
using i32 = std::int32_t;
using u64 = std::uint64_t;
using i64 = std::int64_t;

inline constexpr lane_u32 zero_lanes = {};

// r[l] = f(a, b, c) over the lanes, for sources op[first..first+n)
template <int N, vfloat F, bool Half = false, typename Fn>
void vop(wave& w, const inst& i, int first, Fn fn)
{
    if(i.plain) [[likely]] // no modifier: the registers read in place, the result blended by EXEC
    {
        lane_u32 t[N];
        const u32* a = vread(w, i, i.op[first], t[0]);
        const u32* b = N > 1 ? vread(w, i, i.op[first + 1], t[N > 1 ? 1 : 0]) : zero_lanes;
        const u32* c = N > 2 ? vread(w, i, i.op[first + 2], t[N > 2 ? 2 : 0]) : zero_lanes;
        lane_u32 r;
        for(int l = 0; l < lanes; ++l)
            r[l] = Half ? fn(a[l], b[l], c[l]) & 0xffffu : fn(a[l], b[l], c[l]); // a 16-bit result: the low half
        vwrite(w, i.op[0], r);
        return;
    }
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

inline void write64(wave& w, const inst& i, const u64* r)
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
    // float compares take the sources' |x| and -x modifiers (VOP3 form)
    read_vsources(w, i, 1, 2, std::is_same_v<T, float> ? vfloat::f32 : vfloat::none, s);
    std::uint8_t holds[lanes];
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
        holds[l] = fn(a, b) ? 1 : 0;
    }
    const u64 m = pack_lanes(holds) & s.write_mask;
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

inline float f(u32 x) { return as_f32(x); }
inline u32 bits(float x) { return f32_bits(x); }
// f16 arithmetic through float: each result rounded once to f16 (the product and sum of two f16
// values are exact in float, so this is the correctly rounded f16 result, as the hardware gives)
inline u32 h(float x) { return f32_to_f16(x); }
inline float hf(u32 x) { return f16_to_f32(static_cast<std::uint16_t>(x)); }

// The V*/F*/H* forms: an instruction whose result is one expression of its sources a, b, c (u32
// bits; F: floats through f(), H: f16 halves through hf()), registered in the table t
#define V1(name, expr)                                                                                                 \
    t[#name] = {                                                                                                       \
        [](wave& w, const inst& i) { vop<1, vfloat::none>(w, i, 1, [](u32 a, u32, u32) -> u32 { return (expr); }); }}
#define V2(name, expr)                                                                                                 \
    t[#name] = {[](wave& w, const inst& i) {                                                                           \
        vop<2, vfloat::none>(w, i, 1, [](u32 a, u32 b, u32) -> u32 { return (expr); });                                \
    }}
#define V3(name, expr)                                                                                                 \
    t[#name] = {[](wave& w, const inst& i) {                                                                           \
        vop<3, vfloat::none>(w, i, 1, [](u32 a, u32 b, u32 c) -> u32 { return (expr); });                              \
    }}
#define F1(name, expr)                                                                                                 \
    t[#name] = {[](wave& w, const inst& i) {                                                                           \
        vop<1, vfloat::f32>(w, i, 1, [](u32 a, u32, u32) -> u32 { return bits(expr); });                               \
    }}
#define F2(name, expr)                                                                                                 \
    t[#name] = {[](wave& w, const inst& i) {                                                                           \
        vop<2, vfloat::f32>(w, i, 1, [](u32 a, u32 b, u32) -> u32 { return bits(expr); });                             \
    }}
#define F3(name, expr)                                                                                                 \
    t[#name] = {[](wave& w, const inst& i) {                                                                           \
        vop<3, vfloat::f32>(w, i, 1, [](u32 a, u32 b, u32 c) -> u32 { return bits(expr); });                           \
    }}
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
    t[#name] = {[](wave& w, const inst& i) {                                                                           \
        vop<2, vfloat::none, true>(w, i, 1, [](u32 a, u32 b, u32) -> u32 { return (expr); });                          \
    }}

} // namespace vector_ops

} // namespace hip_cpu
