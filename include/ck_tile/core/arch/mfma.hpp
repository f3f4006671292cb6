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
// register layout, described once, here, by mfma_traits. All 64 lanes of the wave must execute the
// call (uniform control flow).
//
// mfma_traits<I> describes an instruction:
//   a_type, b_type, c_type             element types of A, B and C/D
//   M, N, K, num_blocks                shape of each block's product, number of independent blocks
//   a_per_lane, b_per_lane, c_per_lane register elements per lane
//   mnemonic                           e.g. "v_mfma_f32_32x32x8_f16" (as llvm-objdump prints it)
//   required_set                       the MFMA set (arch_table.def) that has it
//   supported_on(arch), supported      whether an arch / the arch being compiled or emulated has it
//   register layout                    a_coord, b_coord, d_coord (lane, element) -> (block, row,
//                                      col), and the parameters they are built from (see below)
//
// Everything derived from a layout (the emulator's model, the warp GEMMs' tile distributions) is
// computed from these traits; test/mfma checks them against AMD's tables (test/data/mfma_layouts/)
// and the warp GEMMs' encodings against them.
//
// Backends: exactly one of hip/mfma_builtins.hpp (the clang builtins, __builtin_amdgcn_mfma_*,
// with cbsz = abid = blgp = 0) and emulator/mfma.hpp (the instruction's model, computed once per
// wave) is included, at the end of this file; each defines detail::mfma_backend. Using an
// instruction that the target arch lacks (the cdna4-only ones on a cdna3 arch) is a compile error.
//
// fp8/bf8 instructions take fp8_t / bf8_t, whose encoding is the arch's (FNUZ on gfx942, OCP on
// gfx950; see numeric/float8.hpp). gfx950's v_mfma_f32_{32x32x64,16x16x128}_f8f6f4 take their
// operand formats as modifiers (cbsz, blgp): each format pair we use is a tag of its own
// (..._f8f6f4_fp8: fp8 A and B), all with the one mnemonic, and without block scales (the scaled
// form with both scales 0, which the compiler emits as the unscaled instruction). Not provided: the
// xf32 (gfx942 only) and f64 instructions, the f6/f4 formats and mixed fp8/bf8 pairs, the block
// scales, and the cbsz/abid/blgp broadcast modifiers of the other instructions.
#pragma once
#include <cstddef>
#include <type_traits>
#include "ck_tile/core/config.hpp"
#include "ck_tile/core/arch/arch_table.hpp"
#include "ck_tile/core/numeric/integer.hpp"
#include "ck_tile/core/numeric/half.hpp"
#include "ck_tile/core/numeric/bfloat16.hpp"
#include "ck_tile/core/numeric/float8.hpp"
#include "ck_tile/core/container/thread_buffer.hpp"

namespace ck_tile {

// Tag types, one per instruction, named after the mnemonic.
namespace mfma_instr {
// clang-format off
// the cdna3 set (and so cdna4)
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
// the cdna4 set only
struct v_mfma_f32_32x32x16_f16 {};
struct v_mfma_f32_16x16x32_f16 {};
struct v_mfma_f32_32x32x16_bf16 {};
struct v_mfma_f32_16x16x32_bf16 {};
struct v_mfma_i32_32x32x32_i8 {};
struct v_mfma_i32_16x16x64_i8 {};
struct v_mfma_f32_32x32x64_f8f6f4_fp8 {};
struct v_mfma_f32_16x16x128_f8f6f4_fp8 {};
struct v_mfma_f32_32x32x64_f8f6f4_bf8 {};
struct v_mfma_f32_16x16x128_f8f6f4_bf8 {};
// clang-format on
} // namespace mfma_instr

// Position of a register element in its matrix: (block, row, col); for A, col is k; for B, row is k.
struct mfma_coord
{
    index_t block;
    index_t row;
    index_t col;
    friend constexpr bool operator==(const mfma_coord&, const mfma_coord&) = default;
};

template <typename Instr>
struct mfma_traits; // defined for each tag of mfma_instr

namespace detail {
template <typename A, typename B, typename C, index_t M_, index_t N_, index_t K_, index_t Blocks, index_t APerLane,
          index_t CPerLane, mfma_set Set>
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

    static constexpr mfma_set required_set = Set;
    static constexpr bool supported_on(gpu_arch arch)
    {
        return arch != gpu_arch::host && mfma_set_includes(get_arch_info(arch).mfma, required_set);
    }
    // false in the host pass of a hip build (no arch)
    static constexpr bool supported = supported_on(compiled_arch);

    // ---- register layout -------------------------------------------------------------------
    // For lane l (0..63) and register element e, with kA = a_per_lane:
    //   A (block, row, k):   row = l mod M,  q = l div M,  block = q div G,  k = (q mod G) kA + e
    //   B (block, k, col):   col = l mod N,  q = l div N,  block = q div G,  k = (q mod G) kA + e
    //   D (block, row, col): col = l mod N and, stacking the blocks' rows (g = block M + row),
    //                        g = (e div R) R (64 / N) + (l div N) R + (e mod R)
    // G = K / kA lane groups split K inside a block, and each lane's D elements come in runs of
    // R = 4 consecutive rows of one column, lane group after lane group. So a lane holds kA
    // consecutive k of one row of A and of one column of B; the blocks of multi-block instructions
    // (4x4x4_16b: 16 blocks, one per 4 lanes; 32x32x4_2b: 2 blocks, one per 32 lanes for A/B, one
    // per 16 registers for D) are independent products. These reproduce every entry of AMD's
    // register-layout tables for CDNA3. The cdna4-only instructions are the same formulas with twice
    // (f16, bf16, i8: kA = 8, 8, 16) or four times (f8f6f4 with 8-bit formats: kA = 32) the K per
    // lane of their CDNA3 counterparts, D as theirs; these are the lane-group x K-per-lane splits
    // AMD's own CK Tile declares for them (kABKLane x kABKPerLane: 2 x 32 for 32x32x64, 4 x 32 for
    // 16x16x128, 2 x 16 for the i8 32x32x32, 4 x 16 for 16x16x64).
    static constexpr index_t lanes          = 64;                        // the wave64 forms
    static constexpr index_t k_lane_groups  = K / APerLane;              // G
    static constexpr index_t d_rows_per_run = 4;                         // R
    static constexpr index_t d_runs         = CPerLane / d_rows_per_run; // runs per lane
    static constexpr index_t d_lane_groups  = lanes / N;                 // lane groups sharing a column

    // A[block][row][k] held by `lane` in its element `e` (0 <= e < a_per_lane)
    static constexpr mfma_coord a_coord(index_t lane, index_t e)
    {
        const index_t q = lane / M;
        return {q / k_lane_groups, lane % M, (q % k_lane_groups) * a_per_lane + e};
    }
    // B[block][k][col] held by `lane` in its element `e` (0 <= e < b_per_lane)
    static constexpr mfma_coord b_coord(index_t lane, index_t e)
    {
        const index_t q = lane / N;
        return {q / k_lane_groups, (q % k_lane_groups) * b_per_lane + e, lane % N};
    }
    // D[block][row][col] (and C) held by `lane` in its element `e` (0 <= e < c_per_lane)
    static constexpr mfma_coord d_coord(index_t lane, index_t e)
    {
        const index_t g =
            (e / d_rows_per_run) * d_rows_per_run * d_lane_groups + (lane / N) * d_rows_per_run + e % d_rows_per_run;
        return {g / M, g % M, lane % N};
    }

    // The 64 lanes cover each block's operands exactly once.
    static_assert(K % APerLane == 0 && M * k_lane_groups * Blocks == lanes && N * k_lane_groups * Blocks == lanes);
    static_assert(lanes % N == 0 && CPerLane % d_rows_per_run == 0 && M * N * Blocks == lanes * CPerLane);
};
} // namespace detail

// clang-format off
#define CK_TILE_MFMA_TRAITS_AS(NAME, MNEMONIC, A, B, C, M, N, K, BLOCKS, APL, CPL, SET)                                \
    template <>                                                                                                      \
    struct mfma_traits<mfma_instr::NAME> : detail::mfma_traits_base<A, B, C, M, N, K, BLOCKS, APL, CPL, mfma_set::SET> \
    {                                                                                                                \
        static constexpr const char* mnemonic = MNEMONIC;                                                            \
    };
#define CK_TILE_MFMA_TRAITS(NAME, A, B, C, M, N, K, BLOCKS, APL, CPL, SET) \
    CK_TILE_MFMA_TRAITS_AS(NAME, #NAME, A, B, C, M, N, K, BLOCKS, APL, CPL, SET)

//                  instruction                   A       B       C        M   N   K  blk A/l C/l set
CK_TILE_MFMA_TRAITS(v_mfma_f32_32x32x8_f16,      half_t, half_t, float,   32, 32,  8,  1,  4, 16, cdna3)
CK_TILE_MFMA_TRAITS(v_mfma_f32_16x16x16_f16,     half_t, half_t, float,   16, 16, 16,  1,  4,  4, cdna3)
CK_TILE_MFMA_TRAITS(v_mfma_f32_32x32x8_bf16,     bf16_t, bf16_t, float,   32, 32,  8,  1,  4, 16, cdna3)
CK_TILE_MFMA_TRAITS(v_mfma_f32_16x16x16_bf16,    bf16_t, bf16_t, float,   16, 16, 16,  1,  4,  4, cdna3)
CK_TILE_MFMA_TRAITS(v_mfma_f32_4x4x4_16b_f16,    half_t, half_t, float,    4,  4,  4, 16,  4,  4, cdna3)
CK_TILE_MFMA_TRAITS(v_mfma_f32_32x32x4_2b_f16,   half_t, half_t, float,   32, 32,  4,  2,  4, 32, cdna3)
CK_TILE_MFMA_TRAITS(v_mfma_i32_32x32x16_i8,      int8_t, int8_t, int32_t, 32, 32, 16,  1,  8, 16, cdna3)
CK_TILE_MFMA_TRAITS(v_mfma_i32_16x16x32_i8,      int8_t, int8_t, int32_t, 16, 16, 32,  1,  8,  4, cdna3)
CK_TILE_MFMA_TRAITS(v_mfma_f32_32x32x16_fp8_fp8, fp8_t,  fp8_t,  float,   32, 32, 16,  1,  8, 16, cdna3)
CK_TILE_MFMA_TRAITS(v_mfma_f32_16x16x32_fp8_fp8, fp8_t,  fp8_t,  float,   16, 16, 32,  1,  8,  4, cdna3)
CK_TILE_MFMA_TRAITS(v_mfma_f32_32x32x16_bf8_bf8, bf8_t,  bf8_t,  float,   32, 32, 16,  1,  8, 16, cdna3)
CK_TILE_MFMA_TRAITS(v_mfma_f32_16x16x32_bf8_bf8, bf8_t,  bf8_t,  float,   16, 16, 32,  1,  8,  4, cdna3)
CK_TILE_MFMA_TRAITS(v_mfma_f32_32x32x2_f32,      float,  float,  float,   32, 32,  2,  1,  1, 16, cdna3)
CK_TILE_MFMA_TRAITS(v_mfma_f32_16x16x4_f32,      float,  float,  float,   16, 16,  4,  1,  1,  4, cdna3)
CK_TILE_MFMA_TRAITS(v_mfma_f32_32x32x16_f16,     half_t, half_t, float,   32, 32, 16,  1,  8, 16, cdna4)
CK_TILE_MFMA_TRAITS(v_mfma_f32_16x16x32_f16,     half_t, half_t, float,   16, 16, 32,  1,  8,  4, cdna4)
CK_TILE_MFMA_TRAITS(v_mfma_f32_32x32x16_bf16,    bf16_t, bf16_t, float,   32, 32, 16,  1,  8, 16, cdna4)
CK_TILE_MFMA_TRAITS(v_mfma_f32_16x16x32_bf16,    bf16_t, bf16_t, float,   16, 16, 32,  1,  8,  4, cdna4)
CK_TILE_MFMA_TRAITS(v_mfma_i32_32x32x32_i8,      int8_t, int8_t, int32_t, 32, 32, 32,  1, 16, 16, cdna4)
CK_TILE_MFMA_TRAITS(v_mfma_i32_16x16x64_i8,      int8_t, int8_t, int32_t, 16, 16, 64,  1, 16,  4, cdna4)
//                     instruction                      mnemonic                      A      B      C      M   N    K  blk A/l C/l set
CK_TILE_MFMA_TRAITS_AS(v_mfma_f32_32x32x64_f8f6f4_fp8,  "v_mfma_f32_32x32x64_f8f6f4",  fp8_t, fp8_t, float, 32, 32,  64, 1, 32, 16, cdna4)
CK_TILE_MFMA_TRAITS_AS(v_mfma_f32_16x16x128_f8f6f4_fp8, "v_mfma_f32_16x16x128_f8f6f4", fp8_t, fp8_t, float, 16, 16, 128, 1, 32,  4, cdna4)
CK_TILE_MFMA_TRAITS_AS(v_mfma_f32_32x32x64_f8f6f4_bf8,  "v_mfma_f32_32x32x64_f8f6f4",  bf8_t, bf8_t, float, 32, 32,  64, 1, 32, 16, cdna4)
CK_TILE_MFMA_TRAITS_AS(v_mfma_f32_16x16x128_f8f6f4_bf8, "v_mfma_f32_16x16x128_f8f6f4", bf8_t, bf8_t, float, 16, 16, 128, 1, 32,  4, cdna4)

#undef CK_TILE_MFMA_TRAITS
#undef CK_TILE_MFMA_TRAITS_AS
// clang-format on

// Whether the arch being compiled or emulated has the instruction.
template <typename Instr>
inline constexpr bool mfma_supported_v = mfma_traits<Instr>::supported;

// Whether an arch of the table has the instruction (false for gpu_arch::host).
template <typename Instr>
constexpr bool mfma_supported_on(gpu_arch arch)
{
    return mfma_traits<Instr>::supported_on(arch);
}

template <typename Instr>
using mfma_a_buffer = thread_buffer<typename mfma_traits<Instr>::a_type, mfma_traits<Instr>::a_per_lane>;
template <typename Instr>
using mfma_b_buffer = thread_buffer<typename mfma_traits<Instr>::b_type, mfma_traits<Instr>::b_per_lane>;
template <typename Instr>
using mfma_c_buffer = thread_buffer<typename mfma_traits<Instr>::c_type, mfma_traits<Instr>::c_per_lane>;

// The operands of one instruction of an mfma_batch: *c = a * b + *c.
template <typename Instr>
struct mfma_operands
{
    const mfma_a_buffer<Instr>* a;
    const mfma_b_buffer<Instr>* b;
    mfma_c_buffer<Instr>* c;
};

namespace detail {
// One instruction on the backend (hip/mfma_builtins.hpp or emulator/mfma.hpp); called only for
// instructions the compiled arch has.
template <typename Instr>
CK_TILE_DEVICE mfma_c_buffer<Instr> mfma_backend(const mfma_a_buffer<Instr>& a, const mfma_b_buffer<Instr>& b,
                                                 const mfma_c_buffer<Instr>& c);

// N instructions in order (mfma_batch), on the backend.
template <typename Instr, index_t N>
CK_TILE_DEVICE void mfma_batch_backend(const array<mfma_operands<Instr>, N>& ops);

// The compile error for an instruction the compiled arch lacks, built from the arch table:
// "ck_tile::mfma: v_mfma_f32_32x32x16_f16 is not in the MFMA set of gfx942 (archs that have it: gfx950)".
struct mfma_message
{
    char text[256]{};
    std::size_t length = 0;
    constexpr void append(const char* s)
    {
        while(*s != '\0' && length + 1 < sizeof(text))
            text[length++] = *s++;
    }
    constexpr const char* data() const { return text; }
    constexpr std::size_t size() const { return length; }
};

template <typename Instr>
constexpr mfma_message mfma_unsupported_message()
{
    mfma_message m;
    m.append("ck_tile::mfma: ");
    m.append(mfma_traits<Instr>::mnemonic);
    m.append(" is not in the MFMA set of ");
    m.append(compiled_arch_name);
    m.append(" (archs that have it:");
    for(index_t i = 0; i < num_archs; ++i)
        if(mfma_traits<Instr>::supported_on(static_cast<gpu_arch>(i)))
        {
            m.append(" ");
            m.append(arch_table[i].name);
        }
    m.append(")");
    return m;
}
} // namespace detail

// The message is computed (a C++26 feature that clang accepts in C++20 as an extension).
#if defined(__clang__)
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wc++26-extensions"
#define CK_TILE_MFMA_UNSUPPORTED_MESSAGE(Instr) detail::mfma_unsupported_message<Instr>()
#else
#define CK_TILE_MFMA_UNSUPPORTED_MESSAGE(Instr)                                                                        \
    "ck_tile::mfma: the compiled arch's MFMA set (arch_table.def) lacks this instruction (mfma_traits::required_set)"
#endif

// D = A * B + C for the whole wave; each lane passes and gets its own register elements.
template <typename Instr>
CK_TILE_DEVICE mfma_c_buffer<Instr> mfma(const mfma_a_buffer<Instr>& a, const mfma_b_buffer<Instr>& b,
                                         const mfma_c_buffer<Instr>& c)
{
    // no arch in the host pass of a hip build: device code is not run from there
    static_assert(!has_compiled_arch || mfma_traits<Instr>::supported, CK_TILE_MFMA_UNSUPPORTED_MESSAGE(Instr));
    if constexpr(mfma_traits<Instr>::supported)
        return detail::mfma_backend<Instr>(a, b, c);
    else
    {
        (void)a;
        (void)b;
        return c;
    }
}

// N instructions of the wave, in order: *ops[i].c = ops[i].a * ops[i].b + *ops[i].c for i = 0, 1, ...
// N-1; entries may share a c (the later one then adds to the earlier one's result). The hip backend
// issues exactly these N instructions; the emulator runs them as one wave collective, so that each
// lane arrives once instead of N times (block GEMMs issue the warp tiles of a K step this way).
template <typename Instr, index_t N>
CK_TILE_DEVICE void mfma_batch(const array<mfma_operands<Instr>, N>& ops)
{
    static_assert(!has_compiled_arch || mfma_traits<Instr>::supported, CK_TILE_MFMA_UNSUPPORTED_MESSAGE(Instr));
    if constexpr(mfma_traits<Instr>::supported)
        detail::mfma_batch_backend<Instr, N>(ops);
    else
        (void)ops;
}

#if defined(__clang__)
#pragma clang diagnostic pop
#endif
#undef CK_TILE_MFMA_UNSUPPORTED_MESSAGE

} // namespace ck_tile

// The backend: one of the two implementations of detail::mfma_backend.
#if defined(CK_TILE_BACKEND_EMULATOR)
#include "ck_tile/core/arch/emulator/mfma.hpp"
#else
#include "ck_tile/core/arch/hip/mfma_builtins.hpp"
#endif
