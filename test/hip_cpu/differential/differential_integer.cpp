// SPDX-License-Identifier: MIT
// Differential test of hip-cpu's integer and bit instructions (differential.hpp says how): 32-bit
// add/sub/mul/mulhi/mad24, shifts by amounts >= 32, bitfield extract, min/max, compares with selects,
// popcount/clz/ctz, bit reverse, the fused gfx9 forms (add3, lshl_add, lshl_or, and_or, or3, bfi,
// perm), sub-dword operands (SDWA selects, packed 16-bit) and 64-bit add/sub/mul/shifts/compares. Every result is
// defined by C++ or by the ISA, so every one compares bit for bit. Each 32- and 64-bit operation runs twice: on the
// vector unit and, with its inputs read into SGPRs, on the scalar unit. The comment after each names the instruction
// the compiler emits for it on gfx942/gfx950 (llvm-objdump-22 -d of the code object).
#include "differential.hpp"

using namespace diff;

namespace {

__host__ __device__ inline i32 as_i32(u32 v) { return static_cast<i32>(v); }
// the low 24 bits, sign-extended
__host__ __device__ inline u32 sext24(u32 v) { return static_cast<u32>(static_cast<i32>(v << 8) >> 8); }

// ---- 32-bit arithmetic ---------------------------------------------------------------------------------
DIFF_OP(add_u32, u32, u32, 2, a + b);                                                         // v_add_u32
DIFF_OP(sub_u32, u32, u32, 2, a - b);                                                         // v_sub_u32
DIFF_OP(mul_lo_u32, u32, u32, 2, a* b);                                                       // v_mul_lo_u32
DIFF_OP(mul_hi_u32, u32, u32, 2, static_cast<u32>(u64{a} * b >> 32));                         // v_mul_hi_u32
DIFF_OP(mul_hi_i32, u32, u32, 2, static_cast<u32>(i64{as_i32(a)} * as_i32(b) >> 32));         // v_mul_hi_i32
DIFF_OP(mul_u24, u32, u32, 2, (a & 0xffffff) * (b & 0xffffff));                               // v_mul_u32_u24
DIFF_OP(mul_hi_u24, u32, u32, 2, static_cast<u32>(u64{a & 0xffffff} * (b & 0xffffff) >> 32)); // v_mul_hi_u32_u24
DIFF_OP(mad_u24, u32, u32, 3, (a & 0xffffff) * (b & 0xffffff) + c);                           // v_mad_u32_u24
DIFF_OP(mad_i24, u32, u32, 3, sext24(a) * sext24(b) + c);                                     // v_mad_i32_i24
DIFF_OP(add3_u32, u32, u32, 3, a + b + c);                                                    // v_add3_u32
DIFF_OP(mad_u64_u32, u64, u64, 3, u64{static_cast<u32>(a)} * static_cast<u32>(b) + c);        // v_mad_u64_u32

// ---- shifts and bits: the ISA reads the low 5 (64-bit: 6) bits of a shift amount, as the masks here
DIFF_OP(lshl_b32, u32, u32, 2, a << (b & 31));                                // v_lshlrev_b32
DIFF_OP(lshr_b32, u32, u32, 2, a >> (b & 31));                                // v_lshrrev_b32
DIFF_OP(ashr_i32, u32, u32, 2, static_cast<u32>(as_i32(a) >> (b & 31)));      // v_ashrrev_i32
DIFF_OP(lshl_add_u32, u32, u32, 3, (a << (b & 31)) + c);                      // v_lshl_add_u32
DIFF_OP(lshl_or_b32, u32, u32, 3, (a << (b & 31)) | c);                       // v_lshl_or_b32
DIFF_OP(and_or_b32, u32, u32, 3, (a & b) | c);                                // v_and_or_b32
DIFF_OP(or3_b32, u32, u32, 3, a | b | c);                                     // v_or3_b32
DIFF_OP(xor_b32, u32, u32, 2, a ^ b);                                         // v_xor_b32
DIFF_OP(bfi_b32, u32, u32, 3, (a & b) | (~a & c));                            // v_bfi_b32
DIFF_OP(popcount, u32, u32, 1, static_cast<u32>(__builtin_popcount(a)));      // v_bcnt_u32_b32
DIFF_OP(clz, u32, u32, 1, a == 0 ? 32u : static_cast<u32>(__builtin_clz(a))); // v_ffbh_u32
DIFF_OP(ctz, u32, u32, 1, a == 0 ? 32u : static_cast<u32>(__builtin_ctz(a))); // v_ffbl_b32
DIFF_OP(bitreverse, u32, u32, 1, __builtin_bitreverse32(a));                  // v_bfrev_b32

// bitfield extract, offset b[4:0] and width c[4:0]: (a >> offset) & ((1 << width) - 1), for bfe_i32
// shifted arithmetically and sign-extended from bit width - 1; width 0 gives 0 (CDNA3 ISA, V_BFE_U32,
// V_BFE_I32)
struct ubfe
{
    using in                   = u32;
    using out                  = u32;
    static constexpr int arity = 3;
    __host__ __device__ static u32 f(u32 a, u32 b, u32 c) { return __builtin_amdgcn_ubfe(a, b, c); } // v_bfe_u32
    static u32 ref(u32 a, u32 b, u32 c)
    {
        const u32 width = c & 31;
        return width == 0 ? 0 : (a >> (b & 31)) & ((1u << width) - 1);
    }
};
struct sbfe
{
    using in                   = u32;
    using out                  = u32;
    static constexpr int arity = 3;
    __host__ __device__ static u32 f(u32 a, u32 b, u32 c)
    {
        return static_cast<u32>(__builtin_amdgcn_sbfe(as_i32(a), b, c)); // v_bfe_i32
    }
    static u32 ref(u32 a, u32 b, u32 c)
    {
        const u32 width = c & 31;
        if(width == 0)
            return 0;
        const u32 field = static_cast<u32>(as_i32(a) >> (b & 31)) & ((1u << width) - 1);
        const u32 sign  = 1u << (width - 1);
        return (field ^ sign) - sign;
    }
};
// the fields that end within the word: hip-cpu shifts logically where the field runs past bit 31
// (sbfe with offset + width > 32 included)
struct sbfe_within : sbfe
{
    static bool valid(u32, u32 b, u32 c) { return (b & 31) + (c & 31) <= 32; }
};

// byte permute: byte k of the result from selector byte k of c over the bytes of {a, b} (b the low
// four): 0-7 that byte, 8-11 the sign of byte 1, 3, 5 or 7 (0x00 or 0xff), 12 zero, 13 and above 0xff
// (CDNA3 ISA, V_PERM_B32)
struct perm
{
    using in                   = u32;
    using out                  = u32;
    static constexpr int arity = 3;
    __host__ __device__ static u32 f(u32 a, u32 b, u32 c) { return __builtin_amdgcn_perm(a, b, c); } // v_perm_b32
    static u32 ref(u32 a, u32 b, u32 c)
    {
        const u64 data = u64{a} << 32 | b;
        u32 r          = 0;
        for(int k = 0; k < 4; ++k)
        {
            const u32 sel = c >> (8 * k) & 0xff;
            u32 byte;
            if(sel < 8)
                byte = static_cast<u32>(data >> (8 * sel)) & 0xff;
            else if(sel < 12)
                byte = (data >> (16 * (sel - 8) + 15) & 1) ? 0xff : 0x00;
            else
                byte = sel == 12 ? 0x00 : 0xff;
            r |= byte << (8 * k);
        }
        return r;
    }
};

// ---- min, max, compares and selects --------------------------------------------------------------------
DIFF_OP(min_i32, u32, u32, 2, as_i32(a) < as_i32(b) ? a : b);        // v_min_i32
DIFF_OP(max_i32, u32, u32, 2, as_i32(a) > as_i32(b) ? a : b);        // v_max_i32
DIFF_OP(min_u32, u32, u32, 2, a < b ? a : b);                        // v_min_u32
DIFF_OP(max_u32, u32, u32, 2, a > b ? a : b);                        // v_max_u32
DIFF_OP(select_lt_i32, u32, u32, 3, as_i32(a) < as_i32(b) ? c : ~c); // v_cmp_lt_i32, v_cndmask_b32
DIFF_OP(select_ge_u32, u32, u32, 3, a >= b ? c : a ^ c);             // v_cmp_ge_u32 (or le), v_cndmask_b32
DIFF_OP(select_eq, u32, u32, 3, a == b ? c : b);                     // v_cmp_eq_u32, v_cndmask_b32
DIFF_OP(select_ne, u32, u32, 3, a != c ? b : 7u);                    // v_cmp_ne_u32, v_cndmask_b32

// ---- sub-dword operands: SDWA selects (WORD_1, BYTE_1, sext) and packed 16-bit (VOP3P) ---------
typedef u16 u16x2 __attribute__((ext_vector_type(2)));
typedef std::int16_t i16x2 __attribute__((ext_vector_type(2)));
__host__ __device__ inline u16 hi16(u32 v) { return static_cast<u16>(v >> 16); }
DIFF_OP(add_word1, u32, u32, 2, static_cast<u16>(static_cast<u16>(a) + hi16(b))); // v_add_u32_sdwa src0_sel:WORD_1
DIFF_OP(mul_byte1_word1, u32, u32, 2,
        static_cast<u16>(static_cast<u16>(a >> 8 & 0xff) * hi16(b))); // v_mul_u32_u24_sdwa
DIFF_OP(sub_sext_words, u32, u32, 2,
        static_cast<u32>(static_cast<i32>(static_cast<std::int16_t>(hi16(a))) -
                         static_cast<std::int16_t>(b)));                    // v_sub_u32_sdwa sext()
DIFF_OP(cvt_f32_ubyte2, u32, float, 1, static_cast<float>(a >> 16 & 0xff)); // v_cvt_f32_ubyte2
DIFF_OP(pk_add_u16, u32, u32, 2,
        __builtin_bit_cast(u32, __builtin_bit_cast(u16x2, a) + __builtin_bit_cast(u16x2, b))); // v_pk_add_u16
DIFF_OP(pk_mul_lo_u16, u32, u32, 2,
        __builtin_bit_cast(u32, __builtin_bit_cast(u16x2, a) * __builtin_bit_cast(u16x2, b))); // v_pk_mul_lo_u16
DIFF_OP(pk_max_i16, u32, u32, 2,
        __builtin_bit_cast(u32, __builtin_elementwise_max(__builtin_bit_cast(i16x2, a),
                                                          __builtin_bit_cast(i16x2, b)))); // v_pk_max_i16

// ---- 64-bit --------------------------------------------------------------------------------------------
DIFF_OP(add_u64, u64, u64, 2, a + b);          // v_lshl_add_u64 / v_add_co_u32 + v_addc_co_u32
DIFF_OP(sub_u64, u64, u64, 2, a - b);          // v_sub_co_u32, v_subb_co_u32
DIFF_OP(mul_u64, u64, u64, 2, a* b);           // v_mad_u64_u32, v_mul_lo_u32, v_mul_hi_u32
DIFF_OP(lshl_b64, u64, u64, 2, a << (b & 63)); // v_lshlrev_b64
DIFF_OP(lshr_b64, u64, u64, 2, a >> (b & 63)); // v_lshrrev_b64
DIFF_OP(ashr_i64, u64, u64, 2, static_cast<u64>(static_cast<i64>(a) >> (b & 63)));      // v_ashrrev_i64
DIFF_OP(min_u64, u64, u64, 2, a < b ? a : b);                                           // v_cmp_lt_u64, v_cndmask_b32
DIFF_OP(select_lt_i64, u64, u64, 3, static_cast<i64>(a) < static_cast<i64>(b) ? c : a); // v_cmp_lt_i64
DIFF_OP(select_eq_u64, u64, u64, 3, a == b ? c : b);                                    // v_cmp_eq_u64
DIFF_OP(popcount_u64, u64, u64, 1, static_cast<u64>(__builtin_popcountll(a)));          // v_bcnt_u32_b32 twice

} // namespace

int main()
{
    report rep;
    run<pk_add_u16>(rep, "pk_add_u16");
    run<pk_mul_lo_u16>(rep, "pk_mul_lo_u16");
    run<pk_max_i16>(rep, "pk_max_i16");
    // sbfe with offset + width > 32 (the field takes S0's sign bits: the ISA shifts S0.i
    // arithmetically) once gave 1 for a=0x80000000 offset 31 width 2 instead of -1
    run_vs<sbfe>(rep, "sbfe");
    run_vs<add_u32>(rep, "add_u32");
    run_vs<sub_u32>(rep, "sub_u32");
    run_vs<mul_lo_u32>(rep, "mul_lo_u32");
    run_vs<mul_hi_u32>(rep, "mul_hi_u32");
    run_vs<mul_hi_i32>(rep, "mul_hi_i32");
    run_vs<mul_u24>(rep, "mul_u32_u24");
    run_vs<mul_hi_u24>(rep, "mul_hi_u32_u24");
    run_vs<mad_u24>(rep, "mad_u32_u24");
    run_vs<mad_i24>(rep, "mad_i32_i24");
    run_vs<add3_u32>(rep, "add3_u32");
    run_vs<mad_u64_u32>(rep, "mad_u64_u32");
    run_vs<lshl_b32>(rep, "lshl_b32");
    run_vs<lshr_b32>(rep, "lshr_b32");
    run_vs<ashr_i32>(rep, "ashr_i32");
    run_vs<lshl_add_u32>(rep, "lshl_add_u32");
    run_vs<lshl_or_b32>(rep, "lshl_or_b32");
    run_vs<and_or_b32>(rep, "and_or_b32");
    run_vs<or3_b32>(rep, "or3_b32");
    run_vs<xor_b32>(rep, "xor_b32");
    run_vs<bfi_b32>(rep, "bfi_b32");
    run_vs<popcount>(rep, "popcount");
    run_vs<clz>(rep, "clz");
    run_vs<ctz>(rep, "ctz");
    run_vs<bitreverse>(rep, "bitreverse");
    run_vs<ubfe>(rep, "ubfe");
    run_vs<sbfe_within>(rep, "sbfe (offset + width <= 32)");
    run_vs<perm>(rep, "perm_b32");
    run_vs<min_i32>(rep, "min_i32");
    run_vs<max_i32>(rep, "max_i32");
    run_vs<min_u32>(rep, "min_u32");
    run_vs<max_u32>(rep, "max_u32");
    run_vs<select_lt_i32>(rep, "select_lt_i32");
    run_vs<select_ge_u32>(rep, "select_ge_u32");
    run_vs<select_eq>(rep, "select_eq");
    run_vs<select_ne>(rep, "select_ne");
    run<add_word1>(rep, "add_u32_sdwa WORD_1");
    run<mul_byte1_word1>(rep, "mul_u32_u24_sdwa BYTE_1 WORD_1");
    run<sub_sext_words>(rep, "sub_u32_sdwa sext");
    run<cvt_f32_ubyte2>(rep, "cvt_f32_ubyte2");
    run_vs<add_u64>(rep, "add_u64");
    run_vs<sub_u64>(rep, "sub_u64");
    run_vs<mul_u64>(rep, "mul_u64");
    run_vs<lshl_b64>(rep, "lshl_b64");
    run_vs<lshr_b64>(rep, "lshr_b64");
    run_vs<ashr_i64>(rep, "ashr_i64");
    run_vs<min_u64>(rep, "min_u64");
    run_vs<select_lt_i64>(rep, "select_lt_i64");
    run_vs<select_eq_u64>(rep, "select_eq_u64");
    run_vs<popcount_u64>(rep, "popcount_u64");
    return rep.finish();
}
