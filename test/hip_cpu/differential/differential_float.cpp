// SPDX-License-Identifier: MIT
// Differential test of hip-cpu's f32 instructions (differential.hpp says how; conversions and 16-bit
// floats: differential_convert.cpp): add/sub/mul/fma/div/sqrt with source modifiers, min/max,
// rounding, ldexp, compares and classes, packed f32; and the approximate instructions (rcp, rsq,
// sqrt, exp2, log2) within their documented 1 ulp.
// Where IEEE or the ISA defines a result, it compares bit for bit, except that any NaN matches any
// NaN (IEEE does not fix the payload). The comment after each names the instruction the compiler
// emits for it on gfx942/gfx950.
#include "differential.hpp"

#include <cfloat>

using namespace diff;

namespace {

// ---- IEEE arithmetic, correctly rounded: bit for bit (HIP's default division and sqrt are the
// correctly rounded expansions, checked here with their scaling and fixup instructions) -----------
struct ieee
{
    using in                    = float;
    using out                   = float;
    static constexpr check mode = check::nan_any;
};
struct add_f32 : ieee
{
    static constexpr int arity = 2;
    __host__ __device__ static float f(float a, float b, float) { return a + b; } // v_add_f32
};
struct sub_f32 : ieee
{
    static constexpr int arity = 2;
    __host__ __device__ static float f(float a, float b, float) { return a - b; } // v_sub_f32
};
struct mul_f32 : ieee
{
    static constexpr int arity = 2;
    __host__ __device__ static float f(float a, float b, float) { return a * b; } // v_mul_f32
};
struct mul_abs_neg_f32 : ieee
{
    static constexpr int arity = 2;
    __host__ __device__ static float f(float a, float b, float) { return __builtin_fabsf(a) * -b; } // v_mul_f32 |a|, -b
};
struct fma_f32 : ieee
{
    static constexpr int arity = 3;
    __host__ __device__ static float f(float a, float b, float c) { return __builtin_fmaf(a, b, c); } // v_fma_f32
};
struct div_f32 : ieee
{
    static constexpr int arity = 2;
    // v_div_scale_f32, v_rcp_f32, v_fma_f32, v_div_fmas_f32, v_div_fixup_f32
    __host__ __device__ static float f(float a, float b, float) { return a / b; }
};
struct select_neg_f32 : ieee
{
    static constexpr int arity = 2;
    // v_cmp_lt_f32, v_cndmask_b32_e64 with the neg modifier on a source
    __host__ __device__ static float f(float a, float b, float) { return a < b ? a : -b; }
};
struct sqrt_f32 : ieee
{
    static constexpr int arity = 1;
    // v_sqrt_f32 with the scaling of small inputs and the fma refinement
    __host__ __device__ static float f(float a, float, float) { return __builtin_sqrtf(a); }
};
struct ldexp_f32 : ieee
{
    static constexpr int arity = 2;
    __host__ __device__ static int exponent(float b)
    {
        return static_cast<int>(__builtin_bit_cast(u32, b) % 601) - 300;
    }
    __host__ __device__ static float f(float a, float b, float)
    {
        return __builtin_ldexpf(a, exponent(b));
    } // v_ldexp_f32
};
struct floor_f32 : ieee
{
    static constexpr int arity = 1;
    __host__ __device__ static float f(float a, float, float) { return __builtin_floorf(a); } // v_floor_f32
};
struct ceil_f32 : ieee
{
    static constexpr int arity = 1;
    __host__ __device__ static float f(float a, float, float) { return __builtin_ceilf(a); } // v_ceil_f32
};
struct trunc_f32 : ieee
{
    static constexpr int arity = 1;
    __host__ __device__ static float f(float a, float, float) { return __builtin_truncf(a); } // v_trunc_f32
};
struct rint_f32 : ieee
{
    static constexpr int arity = 1;
    __host__ __device__ static float f(float a, float, float) { return __builtin_rintf(a); } // v_rndne_f32
};

// min and max (v_min_f32, v_max_f32): a quiet NaN gives the other operand, and -0 < +0 (CDNA3 ISA,
// V_MIN_F32: LT_NEG_ZERO). Signaling NaNs left out: C's fmin and LLVM's minnum treat them apart.
inline bool signaling(float v) { return v != v && !(__builtin_bit_cast(u32, v) & 0x400000); }
inline bool minmax_valid(float a, float b, float) { return !signaling(a) && !signaling(b); }
inline bool less_neg_zero(float a, float b)
{
    return a < b || (a == 0 && b == 0 && std::signbit(a) && !std::signbit(b));
}
struct min_f32 : ieee
{
    static constexpr int arity = 2;
    __host__ __device__ static float f(float a, float b, float) { return __builtin_fminf(a, b); }
    static bool valid(float a, float b, float c) { return minmax_valid(a, b, c); }
    static float ref(float a, float b, float) { return a != a ? b : b != b ? a : less_neg_zero(b, a) ? b : a; }
};
struct max_f32 : ieee
{
    static constexpr int arity = 2;
    __host__ __device__ static float f(float a, float b, float) { return __builtin_fmaxf(a, b); }
    static bool valid(float a, float b, float c) { return minmax_valid(a, b, c); }
    static float ref(float a, float b, float) { return a != a ? b : b != b ? a : less_neg_zero(a, b) ? b : a; }
};
// without the pairs of zeros of opposite signs (see known_bugs below)
inline bool opposite_zeros(float a, float b) { return a == 0 && b == 0 && std::signbit(a) != std::signbit(b); }
struct min_f32_same_zeros : min_f32
{
    static bool valid(float a, float b, float c) { return minmax_valid(a, b, c) && !opposite_zeros(a, b); }
};
struct max_f32_same_zeros : max_f32
{
    static bool valid(float a, float b, float c) { return minmax_valid(a, b, c) && !opposite_zeros(a, b); }
};

// every ordered and unordered compare, one bit each (v_cmp_{lt,le,gt,ge,eq,lg,o,u,nlt,nge,neq}_f32)
DIFF_OP(compares_f32, float, u32, 2,
        u32{a < b} | u32{a <= b} << 1 | u32{a > b} << 2 | u32{a >= b} << 3 | u32{a == b} << 4 | u32{a != b} << 5 |
            u32{!(a < b)} << 6 | u32{!(a >= b)} << 7 | u32{a != a || b != b} << 8 | u32{a == a && b == b} << 9);
// compares of |a| and -b (the VOP3 compare's source modifiers)
DIFF_OP(compares_abs_neg_f32, float, u32, 2,
        u32{__builtin_fabsf(a) < -b} | u32{__builtin_fabsf(a) >= -b} << 1 | u32{__builtin_fabsf(a) == -b} << 2);
// the class test, mask bits 0-9: signaling NaN, quiet NaN, -inf, -normal, -denormal, -0, +0,
// +denormal, +normal, +inf (CDNA3 ISA, V_CMP_CLASS_F32)
struct class_f32
{
    using in                   = float;
    using out                  = u32;
    static constexpr int arity = 2;
    __host__ __device__ static u32 f(float a, float b, float)
    {
        return __builtin_amdgcn_classf(a, static_cast<int>(__builtin_bit_cast(u32, b) & 0x3ff)) ? 1u : 0u;
    }
    static u32 ref(float a, float b, float)
    {
        const bool neg = std::signbit(a);
        int k;
        if(a != a)
            k = signaling(a) ? 0 : 1;
        else if(std::isinf(a))
            k = neg ? 2 : 9;
        else if(a == 0)
            k = neg ? 5 : 6;
        else if(std::fabs(a) < FLT_MIN)
            k = neg ? 4 : 7;
        else
            k = neg ? 3 : 8;
        return (std::bit_cast<u32>(b) & 0x3ff) >> k & 1;
    }
};

// packed: two f32 (v_pk_mul_f32, v_pk_add_f32), each half as the scalar operation; NaNs left out (a
// result held as bits)
typedef float f32x2 __attribute__((ext_vector_type(2)));
struct pk_mul_f32
{
    using in                   = u64;
    using out                  = u64;
    static constexpr int arity = 2;
    __host__ __device__ static u64 f(u64 a, u64 b, u64)
    {
        return __builtin_bit_cast(u64, __builtin_bit_cast(f32x2, a) * __builtin_bit_cast(f32x2, b));
    }
    static bool valid(u64 a, u64 b, u64)
    {
        const f32x2 x = std::bit_cast<f32x2>(a), y = std::bit_cast<f32x2>(b);
        return x.x == x.x && x.y == x.y && y.x == y.x && y.y == y.y;
    }
};
struct pk_add_f32 : pk_mul_f32
{
    __host__ __device__ static u64 f(u64 a, u64 b, u64)
    {
        return __builtin_bit_cast(u64, __builtin_bit_cast(f32x2, a) + __builtin_bit_cast(f32x2, b));
    }
};
// {a.y, b.x}, squared: v_pk_mov_b32 op_sel:[1,0] gathers the pair (the low dword from a, the high
// one from b), then v_pk_mul_f32
struct pk_mov_b32 : pk_mul_f32
{
    __host__ __device__ static u64 f(u64 a, u64 b, u64)
    {
        const f32x2 x = __builtin_bit_cast(f32x2, a), y = __builtin_bit_cast(f32x2, b);
        const f32x2 r = {x.y, y.x};
        return __builtin_bit_cast(u64, r * r);
    }
};

// ---- approximate: the ISA documents 1 ulp for v_rcp_f32, v_rsq_f32, v_sqrt_f32, v_exp_f32 and
// v_log_f32, so each compares within 1 ulp of the correctly rounded value (computed in double).
// The hardware flushes denormal inputs and results of these instructions (which is why LLVM scales
// around them), so those are left out; zeros, infinities and NaNs are in. ---------------------------
inline bool normal_or_special(double x) { return x != x || x == 0 || std::isinf(x) || std::fabs(x) >= FLT_MIN; }
template <typename Derived>
struct approx
{
    using in                    = float;
    using out                   = float;
    static constexpr int arity  = 1;
    static constexpr check mode = check::ulp1;
    static bool valid(float a, float, float)
    {
        const double r = Derived::exact(a);
        return normal_or_special(a) && normal_or_special(r) && (r != r || std::fabs(r) <= FLT_MAX || std::isinf(r));
    }
    static float ref(float a, float, float) { return static_cast<float>(Derived::exact(a)); }
};
struct rcp_f32 : approx<rcp_f32>
{
    __host__ __device__ static float f(float a, float, float) { return __builtin_amdgcn_rcpf(a); } // v_rcp_f32
    static double exact(float a) { return 1.0 / a; }
};
struct rsq_f32 : approx<rsq_f32>
{
    __host__ __device__ static float f(float a, float, float) { return __builtin_amdgcn_rsqf(a); } // v_rsq_f32
    static double exact(float a) { return 1.0 / std::sqrt(static_cast<double>(a)); }
};
struct sqrt_approx_f32 : approx<sqrt_approx_f32>
{
    __host__ __device__ static float f(float a, float, float) { return __builtin_amdgcn_sqrtf(a); } // v_sqrt_f32
    static double exact(float a) { return std::sqrt(static_cast<double>(a)); }
};
struct exp2_f32 : approx<exp2_f32>
{
    __host__ __device__ static float f(float a, float, float) { return __builtin_amdgcn_exp2f(a); } // v_exp_f32
    static double exact(float a) { return std::exp2(static_cast<double>(a)); }
};
struct log2_f32 : approx<log2_f32>
{
    __host__ __device__ static float f(float a, float, float) { return __builtin_amdgcn_logf(a); } // v_log_f32
    static double exact(float a) { return std::log2(static_cast<double>(a)); }
};

} // namespace

int main()
{
    report rep;
    run<div_f32>(rep, "div_f32");
    run<select_neg_f32>(rep, "cndmask_b32 with -b");
    run<sqrt_f32>(rep, "sqrt_f32 (correctly rounded)");
    run<class_f32>(rep, "cmp_class_f32");
    run<pk_mul_f32>(rep, "pk_mul_f32");
    run<pk_add_f32>(rep, "pk_add_f32");
    run<pk_mov_b32>(rep, "pk_mov_b32 op_sel:[1,0]");
    run<add_f32>(rep, "add_f32");
    run<sub_f32>(rep, "sub_f32");
    run<mul_f32>(rep, "mul_f32");
    run<mul_abs_neg_f32>(rep, "mul_f32 |a| * -b");
    run<fma_f32>(rep, "fma_f32");
    run<ldexp_f32>(rep, "ldexp_f32");
    run<floor_f32>(rep, "floor_f32");
    run<ceil_f32>(rep, "ceil_f32");
    run<trunc_f32>(rep, "trunc_f32");
    run<rint_f32>(rep, "rndne_f32");
    run<min_f32_same_zeros>(rep, "min_f32");
    run<max_f32_same_zeros>(rep, "max_f32");
    // zeros of opposite signs: the ISA orders -0 < +0 (min(+0, -0) is -0, max(-0, +0) is +0)
    run<min_f32>(rep, "min_f32 (signed zeros)");
    run<max_f32>(rep, "max_f32 (signed zeros)");
    run<compares_f32>(rep, "cmp_f32");
    run<compares_abs_neg_f32>(rep, "cmp_f32 |a|, -b");
    run<rcp_f32>(rep, "rcp_f32 (1 ulp)");
    run<rsq_f32>(rep, "rsq_f32 (1 ulp)");
    run<sqrt_approx_f32>(rep, "sqrt_f32 (1 ulp)");
    run<exp2_f32>(rep, "exp_f32 (1 ulp)");
    run<log2_f32>(rep, "log_f32 (1 ulp)");
    return rep.finish();
}
