// SPDX-License-Identifier: MIT
// Differential test of hip-cpu's conversions and 16-bit float instructions (differential.hpp says
// how): f32 to and from i32/u32 (the hardware's truncation and clamping), f16 and bf16 (round to
// nearest even, every 16-bit value back to f32), f32 to packed f16 rounding toward zero, and f16
// add/mul, scalar and packed. Bit for bit, except that any NaN matches any NaN (IEEE does not fix
// the payload). The comment after each names the instruction the compiler emits on gfx942/gfx950.
#include "differential.hpp"

using namespace diff;

namespace {

// ---- conversions ---------------------------------------------------------------------------------------
// f32 to i32 and u32 truncate and clamp, NaN gives 0 (CDNA3 ISA, V_CVT_I32_F32, V_CVT_U32_F32)
struct cvt_i32_f32
{
    using in                   = float;
    using out                  = u32;
    static constexpr int arity = 1;
    __host__ __device__ static u32 f(float a, float, float) { return static_cast<u32>(static_cast<i32>(a)); }
    static u32 ref(float a, float, float)
    {
        if(a != a)
            return 0;
        if(a >= 2147483648.0f)
            return 0x7fffffff;
        if(a <= -2147483648.0f)
            return 0x80000000;
        return static_cast<u32>(static_cast<i32>(a));
    }
};
struct cvt_u32_f32
{
    using in                   = float;
    using out                  = u32;
    static constexpr int arity = 1;
    __host__ __device__ static u32 f(float a, float, float) { return static_cast<u32>(a); }
    static u32 ref(float a, float, float)
    {
        if(a != a || a <= -1.0f)
            return 0;
        if(a >= 4294967296.0f)
            return 0xffffffff;
        return a < 0 ? 0 : static_cast<u32>(a);
    }
};
DIFF_OP(cvt_f32_i32, u32, float, 1, static_cast<float>(static_cast<i32>(a))); // v_cvt_f32_i32
DIFF_OP(cvt_f32_u32, u32, float, 1, static_cast<float>(a));                   // v_cvt_f32_u32

// f32 to f16, round to nearest even (v_cvt_f16_f32), and back (v_cvt_f32_f16: every f16 value)
struct cvt_f16_f32
{
    using in                    = float;
    using out                   = _Float16;
    static constexpr int arity  = 1;
    static constexpr check mode = check::nan_any;
    __host__ __device__ static _Float16 f(float a, float, float) { return static_cast<_Float16>(a); }
};
struct cvt_f32_f16
{
    using in                         = u16;
    using out                        = float;
    static constexpr int arity       = 1;
    static constexpr check mode      = check::nan_any;
    static constexpr bool all_values = true;
    __host__ __device__ static float f(u16 a, u16, u16) { return static_cast<float>(__builtin_bit_cast(_Float16, a)); }
};
// fma of f16 values in f32, rounded to f16 (v_fma_mixlo_f16; the host evaluates the same
// expression: an f32 fma, then f32 -> f16)
struct fma_mix_f16
{
    using in                    = u16;
    using out                   = _Float16;
    static constexpr int arity  = 3;
    static constexpr check mode = check::nan_any;
    __host__ __device__ static _Float16 f(u16 a, u16 b, u16 c)
    {
        const float x = __builtin_fmaf(static_cast<float>(__builtin_bit_cast(_Float16, a)),
                                       static_cast<float>(__builtin_bit_cast(_Float16, b)),
                                       static_cast<float>(__builtin_bit_cast(_Float16, c)));
        return static_cast<_Float16>(x);
    }
};
// f16 add and mul: the host computes in f32 and rounds to f16, which is exact (f32 has more than
// twice f16's precision, so the double rounding is innocuous)
struct add_f16
{
    using in                    = u16;
    using out                   = _Float16;
    static constexpr int arity  = 2;
    static constexpr check mode = check::nan_any;
    __host__ __device__ static _Float16 f(u16 a, u16 b, u16)
    {
        return __builtin_bit_cast(_Float16, a) + __builtin_bit_cast(_Float16, b); // v_add_f16
    }
};
struct mul_f16 : add_f16
{
    __host__ __device__ static _Float16 f(u16 a, u16 b, u16)
    {
        return __builtin_bit_cast(_Float16, a) * __builtin_bit_cast(_Float16, b); // v_mul_f16
    }
};
// packed: two f16 (v_pk_add_f16, v_pk_mul_f16), each half as the scalar operation
typedef _Float16 f16x2 __attribute__((ext_vector_type(2)));
struct pk_add_f16
{
    using in                   = u32;
    using out                  = u32;
    static constexpr int arity = 2;
    __host__ __device__ static u32 f(u32 a, u32 b, u32)
    {
        return __builtin_bit_cast(u32, __builtin_bit_cast(f16x2, a) + __builtin_bit_cast(f16x2, b));
    }
    static u32 ref(u32 a, u32 b, u32)
    {
        return u32{std::bit_cast<u16>(add_f16::f(static_cast<u16>(a), static_cast<u16>(b), 0))} |
               u32{std::bit_cast<u16>(add_f16::f(static_cast<u16>(a >> 16), static_cast<u16>(b >> 16), 0))} << 16;
    }
    static bool valid(u32 a, u32 b, u32) { return !half_nan(a) && !half_nan(b); }
    static bool half_nan(u32 v) { return (v & 0x7fff) > 0x7c00 || (v >> 16 & 0x7fff) > 0x7c00; }
};
struct pk_mul_f16 : pk_add_f16
{
    __host__ __device__ static u32 f(u32 a, u32 b, u32)
    {
        return __builtin_bit_cast(u32, __builtin_bit_cast(f16x2, a) * __builtin_bit_cast(f16x2, b));
    }
    static u32 ref(u32 a, u32 b, u32)
    {
        return u32{std::bit_cast<u16>(mul_f16::f(static_cast<u16>(a), static_cast<u16>(b), 0))} |
               u32{std::bit_cast<u16>(mul_f16::f(static_cast<u16>(a >> 16), static_cast<u16>(b >> 16), 0))} << 16;
    }
};
// two f32 to packed f16, rounding toward zero (v_cvt_pkrtz_f16_f32): a finite value beyond the
// largest f16 gives the largest f16, not inf
struct cvt_pkrtz
{
    using in                   = float;
    using out                  = u32;
    static constexpr int arity = 2;
    __host__ __device__ static u32 f(float a, float b, float)
    {
        return __builtin_bit_cast(u32, __builtin_amdgcn_cvt_pkrtz(a, b));
    }
    static bool valid(float a, float b, float) { return a == a && b == b; }
    static u16 rtz(float x)
    {
        u16 h            = std::bit_cast<u16>(static_cast<_Float16>(x)); // to nearest even
        const float back = static_cast<float>(std::bit_cast<_Float16>(h));
        if(std::isinf(back) && !std::isinf(x))
            h = static_cast<u16>((h & 0x8000) | 0x7bff);
        else if(std::fabs(back) > std::fabs(x))
            h = static_cast<u16>(h - 1); // one step toward zero
        return h;
    }
    static u32 ref(float a, float b, float) { return u32{rtz(a)} | u32{rtz(b)} << 16; }
};

// f32 to bf16, round to nearest even (gfx942: integer instructions; gfx950: v_cvt_pk_bf16_f32),
// and bf16 to f32 (every bf16 value)
struct cvt_bf16_f32
{
    using in                    = float;
    using out                   = u16;
    static constexpr int arity  = 1;
    static constexpr check mode = check::nan_any;
    __host__ __device__ static u16 f(float a, float, float) { return __builtin_bit_cast(u16, static_cast<__bf16>(a)); }
    static u16 ref(float a, float, float)
    {
        const u32 b = std::bit_cast<u32>(a);
        return static_cast<u16>(a != a ? (b >> 16) | 0x40 : (b + 0x7fff + ((b >> 16) & 1)) >> 16);
    }
    static bool is_nan(u16 r) { return (r & 0x7fff) > 0x7f80; }
};
struct cvt_f32_bf16
{
    using in                         = u16;
    using out                        = float;
    static constexpr int arity       = 1;
    static constexpr check mode      = check::nan_any;
    static constexpr bool all_values = true;
    __host__ __device__ static float f(u16 a, u16, u16) { return static_cast<float>(__builtin_bit_cast(__bf16, a)); }
    static float ref(u16 a, u16, u16) { return std::bit_cast<float>(u32{a} << 16); }
};

} // namespace

int main()
{
    report rep;
    run<pk_add_f16>(rep, "pk_add_f16");
    run<pk_mul_f16>(rep, "pk_mul_f16");
    run<cvt_i32_f32>(rep, "cvt_i32_f32");
    run<cvt_u32_f32>(rep, "cvt_u32_f32");
    run<cvt_f32_i32>(rep, "cvt_f32_i32");
    run<cvt_f32_u32>(rep, "cvt_f32_u32");
    run<cvt_f16_f32>(rep, "cvt_f16_f32");
    run<cvt_f32_f16>(rep, "cvt_f32_f16");
    run<cvt_pkrtz>(rep, "cvt_pkrtz_f16_f32");
    run<cvt_bf16_f32>(rep, "cvt_bf16_f32"); // gfx950: v_cvt_pk_bf16_f32
    run<cvt_f32_bf16>(rep, "cvt_f32_bf16");
    run<add_f16>(rep, "add_f16");
    run<fma_mix_f16>(rep, "fma_mixlo_f16");
    run<mul_f16>(rep, "mul_f16");
    return rep.finish();
}
