// SPDX-License-Identifier: MIT
// The hip backend of ck_tile::mfma (arch/mfma.hpp): each instruction is its clang builtin,
// __builtin_amdgcn_mfma_*, with cbsz = abid = blgp = 0. Operands travel as the vector types the
// builtins take, bit for bit the lane's register elements in register order.
//
// Only the device pass of a hip build has these builtins; the host pass never calls an MFMA
// (mfma_traits<I>::supported is false there), so it sees only the declaration in arch/mfma.hpp.
#pragma once
#include <type_traits>
#include "ck_tile/core/arch/mfma.hpp"

#if CK_TILE_DEVICE_PASS
namespace ck_tile::detail {

template <typename V, typename T, index_t N>
CK_TILE_DEVICE V mfma_operand(const thread_buffer<T, N>& x)
{
    if constexpr(N == 1 && std::is_same_v<V, T>)
        return x[0];
    else
        return __builtin_bit_cast(V, x);
}

template <typename Instr>
CK_TILE_DEVICE mfma_c_buffer<Instr> mfma_backend(const mfma_a_buffer<Instr>& a, const mfma_b_buffer<Instr>& b,
                                                 const mfma_c_buffer<Instr>& c)
{
    using namespace mfma_instr;
    using tr     = mfma_traits<Instr>;
    using f16x4  = ext_vector_t<_Float16, 4>;
    using i16x4  = ext_vector_t<short, 4>;
    using f16x8  = ext_vector_t<_Float16, 8>;
    using bf16x8 = ext_vector_t<__bf16, 8>;
    using i64    = long;                 // the 8 bytes of 8-bit operands
    using i32x4  = ext_vector_t<int, 4>; // the 16 bytes of the cdna4 i8 operands
    using i32x8  = ext_vector_t<int, 8>; // the 32 bytes of the f8f6f4 operands (8-bit formats)
    using cv     = ext_vector_t<typename tr::c_type, tr::c_per_lane>;
    const cv cc  = __builtin_bit_cast(cv, c);
    cv d;
    if constexpr(std::is_same_v<Instr, v_mfma_f32_32x32x8_f16>)
        d = __builtin_amdgcn_mfma_f32_32x32x8f16(mfma_operand<f16x4>(a), mfma_operand<f16x4>(b), cc, 0, 0, 0);
    else if constexpr(std::is_same_v<Instr, v_mfma_f32_16x16x16_f16>)
        d = __builtin_amdgcn_mfma_f32_16x16x16f16(mfma_operand<f16x4>(a), mfma_operand<f16x4>(b), cc, 0, 0, 0);
    else if constexpr(std::is_same_v<Instr, v_mfma_f32_32x32x8_bf16>)
        d = __builtin_amdgcn_mfma_f32_32x32x8bf16_1k(mfma_operand<i16x4>(a), mfma_operand<i16x4>(b), cc, 0, 0, 0);
    else if constexpr(std::is_same_v<Instr, v_mfma_f32_16x16x16_bf16>)
        d = __builtin_amdgcn_mfma_f32_16x16x16bf16_1k(mfma_operand<i16x4>(a), mfma_operand<i16x4>(b), cc, 0, 0, 0);
    else if constexpr(std::is_same_v<Instr, v_mfma_f32_4x4x4_16b_f16>)
        d = __builtin_amdgcn_mfma_f32_4x4x4f16(mfma_operand<f16x4>(a), mfma_operand<f16x4>(b), cc, 0, 0, 0);
    else if constexpr(std::is_same_v<Instr, v_mfma_f32_32x32x4_2b_f16>)
        d = __builtin_amdgcn_mfma_f32_32x32x4f16(mfma_operand<f16x4>(a), mfma_operand<f16x4>(b), cc, 0, 0, 0);
    else if constexpr(std::is_same_v<Instr, v_mfma_i32_32x32x16_i8>)
        d = __builtin_amdgcn_mfma_i32_32x32x16_i8(mfma_operand<i64>(a), mfma_operand<i64>(b), cc, 0, 0, 0);
    else if constexpr(std::is_same_v<Instr, v_mfma_i32_16x16x32_i8>)
        d = __builtin_amdgcn_mfma_i32_16x16x32_i8(mfma_operand<i64>(a), mfma_operand<i64>(b), cc, 0, 0, 0);
    else if constexpr(std::is_same_v<Instr, v_mfma_f32_32x32x16_fp8_fp8>)
        d = __builtin_amdgcn_mfma_f32_32x32x16_fp8_fp8(mfma_operand<i64>(a), mfma_operand<i64>(b), cc, 0, 0, 0);
    else if constexpr(std::is_same_v<Instr, v_mfma_f32_16x16x32_fp8_fp8>)
        d = __builtin_amdgcn_mfma_f32_16x16x32_fp8_fp8(mfma_operand<i64>(a), mfma_operand<i64>(b), cc, 0, 0, 0);
    else if constexpr(std::is_same_v<Instr, v_mfma_f32_32x32x16_bf8_bf8>)
        d = __builtin_amdgcn_mfma_f32_32x32x16_bf8_bf8(mfma_operand<i64>(a), mfma_operand<i64>(b), cc, 0, 0, 0);
    else if constexpr(std::is_same_v<Instr, v_mfma_f32_16x16x32_bf8_bf8>)
        d = __builtin_amdgcn_mfma_f32_16x16x32_bf8_bf8(mfma_operand<i64>(a), mfma_operand<i64>(b), cc, 0, 0, 0);
    else if constexpr(std::is_same_v<Instr, v_mfma_f32_32x32x2_f32>)
        d = __builtin_amdgcn_mfma_f32_32x32x2f32(a[0], b[0], cc, 0, 0, 0);
    else if constexpr(std::is_same_v<Instr, v_mfma_f32_16x16x4_f32>)
        d = __builtin_amdgcn_mfma_f32_16x16x4f32(a[0], b[0], cc, 0, 0, 0);
// clang declares these builtins only when the target has them, so this guard names the arch
#if defined(CK_TILE_ARCH_GFX950)
    else if constexpr(std::is_same_v<Instr, v_mfma_f32_32x32x16_f16>)
        d = __builtin_amdgcn_mfma_f32_32x32x16_f16(mfma_operand<f16x8>(a), mfma_operand<f16x8>(b), cc, 0, 0, 0);
    else if constexpr(std::is_same_v<Instr, v_mfma_f32_16x16x32_f16>)
        d = __builtin_amdgcn_mfma_f32_16x16x32_f16(mfma_operand<f16x8>(a), mfma_operand<f16x8>(b), cc, 0, 0, 0);
    else if constexpr(std::is_same_v<Instr, v_mfma_f32_32x32x16_bf16>)
        d = __builtin_amdgcn_mfma_f32_32x32x16_bf16(mfma_operand<bf16x8>(a), mfma_operand<bf16x8>(b), cc, 0, 0, 0);
    else if constexpr(std::is_same_v<Instr, v_mfma_f32_16x16x32_bf16>)
        d = __builtin_amdgcn_mfma_f32_16x16x32_bf16(mfma_operand<bf16x8>(a), mfma_operand<bf16x8>(b), cc, 0, 0, 0);
    else if constexpr(std::is_same_v<Instr, v_mfma_i32_32x32x32_i8>)
        d = __builtin_amdgcn_mfma_i32_32x32x32_i8(mfma_operand<i32x4>(a), mfma_operand<i32x4>(b), cc, 0, 0, 0);
    else if constexpr(std::is_same_v<Instr, v_mfma_i32_16x16x64_i8>)
        d = __builtin_amdgcn_mfma_i32_16x16x64_i8(mfma_operand<i32x4>(a), mfma_operand<i32x4>(b), cc, 0, 0, 0);
    // f8f6f4: cbsz / blgp select A's / B's format (0 fp8, 1 bf8); op_sel and scales 0 (no scaling:
    // the unscaled v_mfma_*_f8f6f4 is what the compiler emits)
    else if constexpr(std::is_same_v<Instr, v_mfma_f32_32x32x64_f8f6f4_fp8>)
        d = __builtin_amdgcn_mfma_scale_f32_32x32x64_f8f6f4(mfma_operand<i32x8>(a), mfma_operand<i32x8>(b), cc, 0, 0, 0,
                                                            0, 0, 0);
    else if constexpr(std::is_same_v<Instr, v_mfma_f32_16x16x128_f8f6f4_fp8>)
        d = __builtin_amdgcn_mfma_scale_f32_16x16x128_f8f6f4(mfma_operand<i32x8>(a), mfma_operand<i32x8>(b), cc, 0, 0,
                                                             0, 0, 0, 0);
    else if constexpr(std::is_same_v<Instr, v_mfma_f32_32x32x64_f8f6f4_bf8>)
        d = __builtin_amdgcn_mfma_scale_f32_32x32x64_f8f6f4(mfma_operand<i32x8>(a), mfma_operand<i32x8>(b), cc, 1, 1, 0,
                                                            0, 0, 0);
    else if constexpr(std::is_same_v<Instr, v_mfma_f32_16x16x128_f8f6f4_bf8>)
        d = __builtin_amdgcn_mfma_scale_f32_16x16x128_f8f6f4(mfma_operand<i32x8>(a), mfma_operand<i32x8>(b), cc, 1, 1,
                                                             0, 0, 0, 0);
#endif
    else
        static_assert(sizeof(Instr) == 0, "ck_tile::mfma: no builtin for this instruction on this arch");
    return __builtin_bit_cast(mfma_c_buffer<Instr>, d);
}

// mfma_batch on hardware: the N instructions one after another.
template <typename Instr, index_t N>
CK_TILE_DEVICE void mfma_batch_backend(const array<mfma_operands<Instr>, N>& ops)
{
#pragma unroll
    for(index_t i = 0; i < N; ++i)
        *ops[i].c = mfma_backend<Instr>(*ops[i].a, *ops[i].b, *ops[i].c);
}

} // namespace ck_tile::detail
#endif
