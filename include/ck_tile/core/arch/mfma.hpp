// SPDX-License-Identifier: MIT
// MFMA (matrix fused multiply-add) instructions of wave64 CDNA3 (gfx942) and CDNA4 (gfx950), the
// backend-neutral entry point:
//
//   using I = ck_tile::mfma_instr::v_mfma_f32_32x32x8_f16;
//   thread_buffer<float, 16> d = ck_tile::mfma<I>(a, b, c);   // D = A * B + C, once per wave
//
// Each lane passes its own register elements of A (M x K), B (K x N) and C (M x N), in register
// order (element 0 = bits [15:0] of the first VGPR for 16-bit types, [7:0] for 8-bit ones, ...),
// and gets its register elements of D. Which lane holds which matrix element is the instruction's
// register layout (see arch/emulator/mfma.hpp for the formulas, test/data/mfma_layouts/ for the
// hardware's tables). All 64 lanes of the wave must execute the call (uniform control flow).
//
// mfma_traits<I> describes an instruction:
//   a_type, b_type, c_type             element types of A, B and C/D
//   M, N, K, num_blocks                shape of each block's product, number of independent blocks
//   a_per_lane, b_per_lane, c_per_lane register elements per lane
//   mnemonic                           e.g. "v_mfma_f32_32x32x8_f16" (as llvm-objdump prints it)
//   on_gfx942, on_gfx950               which archs have it
//   supported                          whether the arch being compiled / emulated has it
//
// Backends: hip calls the clang builtin (__builtin_amdgcn_mfma_*, with cbsz = abid = blgp = 0);
// the emulator calls the instruction's model (emu::mfma_model, arch/emulator/mfma.hpp). Using an
// instruction that the target arch lacks (the gfx950-only ones on gfx942) is a compile error.
//
// fp8/bf8 instructions take fp8_t / bf8_t, whose encoding is the arch's (FNUZ on gfx942, OCP on
// gfx950; see numeric/float8.hpp). Not provided: the xf32 (gfx942 only) and f64 instructions, the
// gfx950 scaled f8f6f4 and the double-rate i8 ones, and the cbsz/abid/blgp broadcast modifiers.
#pragma once
#include <type_traits>
#include "ck_tile/core/config.hpp"
#include "ck_tile/core/numeric/integer.hpp"
#include "ck_tile/core/numeric/half.hpp"
#include "ck_tile/core/numeric/bfloat16.hpp"
#include "ck_tile/core/numeric/float8.hpp"
#include "ck_tile/core/container/thread_buffer.hpp"

namespace ck_tile {

// Tag types, one per instruction, named after the mnemonic.
namespace mfma_instr {
// clang-format off
// gfx942 and gfx950
struct v_mfma_f32_32x32x8_f16 {};
struct v_mfma_f32_16x16x16_f16 {};
struct v_mfma_f32_32x32x8_bf16 {};
struct v_mfma_f32_16x16x16_bf16 {};
struct v_mfma_f32_4x4x4_16b_f16 {};
struct v_mfma_f32_32x32x4_2b_f16 {};
struct v_mfma_i32_32x32x16_i8 {};
struct v_mfma_i32_16x16x32_i8 {};
struct v_mfma_f32_32x32x16_fp8_fp8 {};
struct v_mfma_f32_16x16x32_fp8_fp8 {};
struct v_mfma_f32_32x32x16_bf8_bf8 {};
struct v_mfma_f32_16x16x32_bf8_bf8 {};
struct v_mfma_f32_32x32x2_f32 {};
struct v_mfma_f32_16x16x4_f32 {};
// gfx950 only
struct v_mfma_f32_32x32x16_f16 {};
struct v_mfma_f32_16x16x32_f16 {};
struct v_mfma_f32_32x32x16_bf16 {};
struct v_mfma_f32_16x16x32_bf16 {};
// clang-format on
} // namespace mfma_instr

template <typename Instr>
struct mfma_traits; // defined for each tag of mfma_instr

namespace detail {
template <typename A, typename B, typename C, index_t M_, index_t N_, index_t K_, index_t Blocks, index_t APerLane,
          index_t CPerLane, bool Gfx942, bool Gfx950>
struct mfma_traits_base
{
    using a_type                        = A;
    using b_type                        = B;
    using c_type                        = C;
    static constexpr index_t M          = M_;
    static constexpr index_t N          = N_;
    static constexpr index_t K          = K_;
    static constexpr index_t num_blocks = Blocks;
    static constexpr index_t a_per_lane = APerLane;
    static constexpr index_t b_per_lane = APerLane;
    static constexpr index_t c_per_lane = CPerLane;
    static constexpr bool on_gfx942     = Gfx942;
    static constexpr bool on_gfx950     = Gfx950;
#if defined(CK_TILE_ARCH_GFX950)
    static constexpr bool supported = Gfx950;
#elif defined(CK_TILE_ARCH_GFX942)
    static constexpr bool supported = Gfx942;
#else
    static constexpr bool supported = false; // no arch (host pass of a hip build)
#endif
    // every lane holds a_per_lane consecutive k of one row of A (and of one column of B), and
    // c_per_lane elements of D: the 64 lanes cover each block's operands exactly once
    static_assert(M_ * K_ * Blocks == 64 * APerLane && M_ * N_ * Blocks == 64 * CPerLane);
};
} // namespace detail

// clang-format off
#define CK_TILE_MFMA_TRAITS(NAME, A, B, C, M, N, K, BLOCKS, APL, CPL, G942, G950)                             \
    template <>                                                                                              \
    struct mfma_traits<mfma_instr::NAME> : detail::mfma_traits_base<A, B, C, M, N, K, BLOCKS, APL, CPL, G942, G950> \
    {                                                                                                        \
        static constexpr const char* mnemonic = #NAME;                                                       \
    };

//                  instruction                   A       B       C        M   N   K  blk A/l C/l gfx942 gfx950
CK_TILE_MFMA_TRAITS(v_mfma_f32_32x32x8_f16,      half_t, half_t, float,   32, 32,  8,  1,  4, 16, true, true)
CK_TILE_MFMA_TRAITS(v_mfma_f32_16x16x16_f16,     half_t, half_t, float,   16, 16, 16,  1,  4,  4, true, true)
CK_TILE_MFMA_TRAITS(v_mfma_f32_32x32x8_bf16,     bf16_t, bf16_t, float,   32, 32,  8,  1,  4, 16, true, true)
CK_TILE_MFMA_TRAITS(v_mfma_f32_16x16x16_bf16,    bf16_t, bf16_t, float,   16, 16, 16,  1,  4,  4, true, true)
CK_TILE_MFMA_TRAITS(v_mfma_f32_4x4x4_16b_f16,    half_t, half_t, float,    4,  4,  4, 16,  4,  4, true, true)
CK_TILE_MFMA_TRAITS(v_mfma_f32_32x32x4_2b_f16,   half_t, half_t, float,   32, 32,  4,  2,  4, 32, true, true)
CK_TILE_MFMA_TRAITS(v_mfma_i32_32x32x16_i8,      int8_t, int8_t, int32_t, 32, 32, 16,  1,  8, 16, true, true)
CK_TILE_MFMA_TRAITS(v_mfma_i32_16x16x32_i8,      int8_t, int8_t, int32_t, 16, 16, 32,  1,  8,  4, true, true)
CK_TILE_MFMA_TRAITS(v_mfma_f32_32x32x16_fp8_fp8, fp8_t,  fp8_t,  float,   32, 32, 16,  1,  8, 16, true, true)
CK_TILE_MFMA_TRAITS(v_mfma_f32_16x16x32_fp8_fp8, fp8_t,  fp8_t,  float,   16, 16, 32,  1,  8,  4, true, true)
CK_TILE_MFMA_TRAITS(v_mfma_f32_32x32x16_bf8_bf8, bf8_t,  bf8_t,  float,   32, 32, 16,  1,  8, 16, true, true)
CK_TILE_MFMA_TRAITS(v_mfma_f32_16x16x32_bf8_bf8, bf8_t,  bf8_t,  float,   16, 16, 32,  1,  8,  4, true, true)
CK_TILE_MFMA_TRAITS(v_mfma_f32_32x32x2_f32,      float,  float,  float,   32, 32,  2,  1,  1, 16, true, true)
CK_TILE_MFMA_TRAITS(v_mfma_f32_16x16x4_f32,      float,  float,  float,   16, 16,  4,  1,  1,  4, true, true)
CK_TILE_MFMA_TRAITS(v_mfma_f32_32x32x16_f16,     half_t, half_t, float,   32, 32, 16,  1,  8, 16, false, true)
CK_TILE_MFMA_TRAITS(v_mfma_f32_16x16x32_f16,     half_t, half_t, float,   16, 16, 32,  1,  8,  4, false, true)
CK_TILE_MFMA_TRAITS(v_mfma_f32_32x32x16_bf16,    bf16_t, bf16_t, float,   32, 32, 16,  1,  8, 16, false, true)
CK_TILE_MFMA_TRAITS(v_mfma_f32_16x16x32_bf16,    bf16_t, bf16_t, float,   16, 16, 32,  1,  8,  4, false, true)

#undef CK_TILE_MFMA_TRAITS
// clang-format on

// Whether the arch being compiled or emulated has the instruction.
template <typename Instr>
inline constexpr bool mfma_supported_v = mfma_traits<Instr>::supported;

template <typename Instr>
using mfma_a_buffer = thread_buffer<typename mfma_traits<Instr>::a_type, mfma_traits<Instr>::a_per_lane>;
template <typename Instr>
using mfma_b_buffer = thread_buffer<typename mfma_traits<Instr>::b_type, mfma_traits<Instr>::b_per_lane>;
template <typename Instr>
using mfma_c_buffer = thread_buffer<typename mfma_traits<Instr>::c_type, mfma_traits<Instr>::c_per_lane>;

#if defined(CK_TILE_BACKEND_EMULATOR)
namespace emu {
template <typename Instr>
struct mfma_model; // arch/emulator/mfma.hpp
} // namespace emu
#endif

#if defined(CK_TILE_BACKEND_HIP) && CK_TILE_DEVICE_PASS
namespace detail {
template <typename V, typename T, index_t N>
CK_TILE_DEVICE V mfma_operand(const thread_buffer<T, N>& x)
{
    if constexpr(N == 1 && std::is_same_v<V, T>)
        return x[0];
    else
        return __builtin_bit_cast(V, x);
}

template <typename Instr>
CK_TILE_DEVICE mfma_c_buffer<Instr> mfma_builtin(const mfma_a_buffer<Instr>& a, const mfma_b_buffer<Instr>& b,
                                                 const mfma_c_buffer<Instr>& c)
{
    using namespace mfma_instr;
    using tr    = mfma_traits<Instr>;
    using h4    = ext_vector_t<_Float16, 4>;
    using s4    = ext_vector_t<short, 4>;
    using i64   = long; // the 8 bytes of 8-bit operands
    using cv    = ext_vector_t<typename tr::c_type, tr::c_per_lane>;
    const cv cc = __builtin_bit_cast(cv, c);
    cv d;
    if constexpr(std::is_same_v<Instr, v_mfma_f32_32x32x8_f16>)
        d = __builtin_amdgcn_mfma_f32_32x32x8f16(mfma_operand<h4>(a), mfma_operand<h4>(b), cc, 0, 0, 0);
    else if constexpr(std::is_same_v<Instr, v_mfma_f32_16x16x16_f16>)
        d = __builtin_amdgcn_mfma_f32_16x16x16f16(mfma_operand<h4>(a), mfma_operand<h4>(b), cc, 0, 0, 0);
    else if constexpr(std::is_same_v<Instr, v_mfma_f32_32x32x8_bf16>)
        d = __builtin_amdgcn_mfma_f32_32x32x8bf16_1k(mfma_operand<s4>(a), mfma_operand<s4>(b), cc, 0, 0, 0);
    else if constexpr(std::is_same_v<Instr, v_mfma_f32_16x16x16_bf16>)
        d = __builtin_amdgcn_mfma_f32_16x16x16bf16_1k(mfma_operand<s4>(a), mfma_operand<s4>(b), cc, 0, 0, 0);
    else if constexpr(std::is_same_v<Instr, v_mfma_f32_4x4x4_16b_f16>)
        d = __builtin_amdgcn_mfma_f32_4x4x4f16(mfma_operand<h4>(a), mfma_operand<h4>(b), cc, 0, 0, 0);
    else if constexpr(std::is_same_v<Instr, v_mfma_f32_32x32x4_2b_f16>)
        d = __builtin_amdgcn_mfma_f32_32x32x4f16(mfma_operand<h4>(a), mfma_operand<h4>(b), cc, 0, 0, 0);
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
#if defined(CK_TILE_ARCH_GFX950)
    else if constexpr(std::is_same_v<Instr, v_mfma_f32_32x32x16_f16>)
        d = __builtin_amdgcn_mfma_f32_32x32x16_f16(mfma_operand<ext_vector_t<_Float16, 8>>(a),
                                                   mfma_operand<ext_vector_t<_Float16, 8>>(b), cc, 0, 0, 0);
    else if constexpr(std::is_same_v<Instr, v_mfma_f32_16x16x32_f16>)
        d = __builtin_amdgcn_mfma_f32_16x16x32_f16(mfma_operand<ext_vector_t<_Float16, 8>>(a),
                                                   mfma_operand<ext_vector_t<_Float16, 8>>(b), cc, 0, 0, 0);
    else if constexpr(std::is_same_v<Instr, v_mfma_f32_32x32x16_bf16>)
        d = __builtin_amdgcn_mfma_f32_32x32x16_bf16(mfma_operand<ext_vector_t<__bf16, 8>>(a),
                                                    mfma_operand<ext_vector_t<__bf16, 8>>(b), cc, 0, 0, 0);
    else if constexpr(std::is_same_v<Instr, v_mfma_f32_16x16x32_bf16>)
        d = __builtin_amdgcn_mfma_f32_16x16x32_bf16(mfma_operand<ext_vector_t<__bf16, 8>>(a),
                                                    mfma_operand<ext_vector_t<__bf16, 8>>(b), cc, 0, 0, 0);
#endif
    else
        static_assert(sizeof(Instr) == 0, "ck_tile::mfma: no builtin for this instruction on this arch");
    return __builtin_bit_cast(mfma_c_buffer<Instr>, d);
}
} // namespace detail
#endif

// D = A * B + C for the whole wave; each lane passes and gets its own register elements.
template <typename Instr>
CK_TILE_DEVICE mfma_c_buffer<Instr> mfma(const mfma_a_buffer<Instr>& a, const mfma_b_buffer<Instr>& b,
                                         const mfma_c_buffer<Instr>& c)
{
#if defined(CK_TILE_BACKEND_EMULATOR)
    static_assert(mfma_traits<Instr>::supported,
                  "ck_tile::mfma: the emulated arch does not have this instruction (the gfx950-only "
                  "instructions need -DGPU_TARGETS=gfx950; see mfma_traits<Instr>::on_gfx942)");
    if constexpr(mfma_traits<Instr>::supported)
        return emu::mfma_model<Instr>::run(a, b, c);
    else
        return c;
#elif CK_TILE_DEVICE_PASS
    static_assert(mfma_traits<Instr>::supported,
                  "ck_tile::mfma: the target arch does not have this instruction (the gfx950-only "
                  "instructions do not exist on gfx942; see mfma_traits<Instr>::on_gfx942)");
    if constexpr(mfma_traits<Instr>::supported)
        return detail::mfma_builtin<Instr>(a, b, c);
    else
        return c;
#else
    (void)a;
    (void)b;
    return c; // host pass of a hip build: device code is not run from here
#endif
}

} // namespace ck_tile

#if defined(CK_TILE_BACKEND_EMULATOR)
#include "ck_tile/core/arch/emulator/mfma.hpp"
#endif
