// SPDX-License-Identifier: MIT
// The emulator's models of the MFMA instructions (used by ck_tile::mfma, arch/mfma.hpp).
//
// Register layouts: the instruction's own, mfma_traits<I>::a_coord / b_coord / d_coord (arch/mfma.hpp);
// the model gathers and scatters through tables computed from them at compile time.
//
// Arithmetic of the model (a model: hardware may differ in the last bit of f32 results):
//   - inputs are converted exactly to float: f16, bf16, fp8 and bf8 (in the arch's encoding, see
//     numeric/float8.hpp), f32, and i8 (see the last point);
//   - products of f16, bf16, fp8 and bf8 values are exact in float; products of f32 values are
//     rounded to float (no fused multiply-add);
//   - for each D element of each block: acc = A[row][0] B[0][col], then acc += A[row][k] B[k][col]
//     for k = 1 .. K-1 in increasing order (each sum rounded to float, nearest even), then
//     D = acc + C. NaN and infinities propagate as float arithmetic does; denormals are kept;
//   - i8: exact products and sums (computed in float, which holds them exactly: |sum| <= 32 * 128^2
//     < 2^24), then + C in int32, wrapping modulo 2^32 on overflow (no saturation).
//
// Cost: one model call per wave per instruction (a wave collective: the last lane to arrive computes
// for all 64, reading each lane's operands where the lane keeps them). The model gathers A, B and C
// into dense matrices through index tables computed at compile time from the traits' layout (C and
// D move in the layout's runs of rows), converts A and B to float in one pass each, multiplies
// (vectorisable inner loop over the rows) and scatters D straight into the lanes' results.
#pragma once

#include <array>
#include <cstdint>
#include <type_traits>

#include "ck_tile/core/arch/mfma.hpp"
#include "ck_tile/core/arch/emulator/profile.hpp"
#include "ck_tile/core/arch/emulator/wave.hpp"

// Products are never fused into FMAs (see the arithmetic above): clang gets a pragma inside the
// functions, GCC (which fuses across statements when FMA is enabled) this attribute.
#if defined(__GNUC__) && !defined(__clang__)
#define CK_TILE_EMU_MFMA_NO_CONTRACT __attribute__((optimize("fp-contract=off")))
#else
#define CK_TILE_EMU_MFMA_NO_CONTRACT
#endif

// x86-64 builds for the baseline ISA (SSE2) get the arithmetic a second time for AVX2, chosen at
// run time (same operations, same results, twice the vector width).
#if defined(__x86_64__) && !defined(__AVX2__) && (defined(__clang__) || defined(__GNUC__))
#define CK_TILE_EMU_MFMA_AVX2_DISPATCH 1
#else
#define CK_TILE_EMU_MFMA_AVX2_DISPATCH 0
#endif

namespace ck_tile::emu {

namespace detail {

#define CK_TILE_EMU_MFMA_INLINE inline __attribute__((always_inline))

// f16 bits -> float, exact and branch-free (vectorises; x86-64 without F16C would otherwise call
// a library function per element): the f16 exponent and mantissa placed in a float's fields and
// scaled by 2^(127-15) give normals and subnormals alike; exponent 31 is inf/NaN.
CK_TILE_EMU_MFMA_INLINE float mfma_f16_to_float(uint16_t h)
{
    const uint32_t sign = uint32_t(h & 0x8000u) << 16;
    const uint32_t em   = uint32_t(h & 0x7fffu) << 13;
    float f             = __builtin_bit_cast(float, em) * 0x1p112f;
    uint32_t u          = __builtin_bit_cast(uint32_t, f);
    u                   = em >= (0x7c00u << 13) ? (em | 0x7f800000u) : u;
    return __builtin_bit_cast(float, u | sign);
}

template <fp8_encoding E>
inline constexpr auto mfma_fp8_table = [] {
    std::array<float, 256> t{};
    for(int i = 0; i < 256; ++i)
        t[static_cast<std::size_t>(i)] = fp8_to_float<E>(static_cast<uint8_t>(i));
    return t;
}();

// Exact value of an input element in the accumulation type (float; i8 too, see the header).
template <typename T>
CK_TILE_EMU_MFMA_INLINE float mfma_to_float(T x)
{
    if constexpr(std::is_same_v<T, half_t>)
        return mfma_f16_to_float(__builtin_bit_cast(uint16_t, x));
    else if constexpr(std::is_same_v<T, bf16_t>)
        return __builtin_bit_cast(float, uint32_t(x.data) << 16);
    else if constexpr(is_float8_v<T>)
        return mfma_fp8_table<T::encoding>[x.data];
    else if constexpr(std::is_same_v<T, int8_t>)
        return static_cast<float>(x);
    else
    {
        static_assert(std::is_same_v<T, float>);
        return x;
    }
}

// t[lane * PerLane + i] = f(lane, i), for the wave's lanes
template <index_t Lanes, index_t PerLane, typename F>
constexpr auto mfma_lane_table(F f)
{
    std::array<uint16_t, Lanes * PerLane> t{};
    for(index_t l = 0; l < Lanes; ++l)
        for(index_t i = 0; i < PerLane; ++i)
            t[static_cast<std::size_t>(l * PerLane + i)] = static_cast<uint16_t>(f(l, i));
    return t;
}

// The arithmetic of the model on the wave's dense matrices: a[block][k][row], b[block][k][col]
// (raw elements), d[block][col][row] (C in, D out), or with DRows d[block][row][col] (hip-cpu's:
// its registers hold rows of consecutive columns). For each D element: the product of k = 0,
// then each next product added in increasing k, then C (float), or the exact sum + C (int32);
// both layouts give the same bits.
template <typename C>
CK_TILE_EMU_MFMA_INLINE C mfma_add_c(float acc, C c)
{
    if constexpr(std::is_integral_v<C>)
        return static_cast<int32_t>(static_cast<uint32_t>(static_cast<int32_t>(acc)) + static_cast<uint32_t>(c));
    else
        return acc + c;
}

template <typename A, typename B, typename C, index_t NB, index_t M, index_t N, index_t K, bool DRows = false>
CK_TILE_EMU_MFMA_NO_CONTRACT CK_TILE_EMU_MFMA_INLINE void mfma_arith_body(const A* __restrict a_raw,
                                                                          const B* __restrict b_raw, C* __restrict d)
{
#if defined(__clang__)
#pragma clang fp contract(off)
#endif
    float a[NB * K * M];
    float b[NB * K * N];
    for(index_t i = 0; i < NB * K * M; ++i)
        a[i] = mfma_to_float(a_raw[i]);
    for(index_t i = 0; i < NB * K * N; ++i)
        b[i] = mfma_to_float(b_raw[i]);
    for(index_t blk = 0; blk < NB; ++blk)
    {
        const float* ab = a + blk * K * M;
        const float* bb = b + blk * K * N;
        // D's outer index o (a row with DRows, else a column) and inner q; the product keeps the
        // operand order a * b (which NaN's payload survives depends on it)
        constexpr index_t O = DRows ? M : N, Q = DRows ? N : M;
        const float* outer = DRows ? ab : bb;
        const float* inner = DRows ? bb : ab;
        for(index_t o = 0; o < O; ++o)
        {
            float acc[Q];
            for(index_t k = 0; k < K; ++k)
            {
                const float x = outer[k * O + o];
                for(index_t q = 0; q < Q; ++q)
                {
                    const float prod = DRows ? x * inner[k * Q + q] : inner[k * Q + q] * x;
                    acc[q]           = k == 0 ? prod : acc[q] + prod;
                }
            }
            C* dout = d + (blk * O + o) * Q;
            for(index_t q = 0; q < Q; ++q)
                dout[q] = mfma_add_c(acc[q], dout[q]);
        }
    }
}

template <typename A, typename B, typename C, index_t NB, index_t M, index_t N, index_t K, bool DRows = false>
CK_TILE_EMU_MFMA_NO_CONTRACT void mfma_arith_default(const A* a_raw, const B* b_raw, C* d)
{
    mfma_arith_body<A, B, C, NB, M, N, K, DRows>(a_raw, b_raw, d);
}

#if CK_TILE_EMU_MFMA_AVX2_DISPATCH
// The same code compiled for AVX2 (8 floats a vector; no FMA, so the same roundings: the result
// is the same bit for bit), used when the CPU has AVX2.
template <typename A, typename B, typename C, index_t NB, index_t M, index_t N, index_t K, bool DRows = false>
CK_TILE_EMU_MFMA_NO_CONTRACT __attribute__((target("avx2"))) void mfma_arith_avx2(const A* a_raw, const B* b_raw, C* d)
{
    mfma_arith_body<A, B, C, NB, M, N, K, DRows>(a_raw, b_raw, d);
}

inline bool mfma_cpu_has_avx2()
{
    static const bool has = __builtin_cpu_supports("avx2");
    return has;
}
#endif

template <typename A, typename B, typename C, index_t NB, index_t M, index_t N, index_t K, bool DRows = false>
inline void mfma_arith(const A* a_raw, const B* b_raw, C* d)
{
#if CK_TILE_EMU_MFMA_AVX2_DISPATCH
    if(mfma_cpu_has_avx2())
        return mfma_arith_avx2<A, B, C, NB, M, N, K, DRows>(a_raw, b_raw, d);
#endif
    mfma_arith_default<A, B, C, NB, M, N, K, DRows>(a_raw, b_raw, d);
}

#undef CK_TILE_EMU_MFMA_INLINE

} // namespace detail

// The model of one instruction.
template <typename Instr>
struct mfma_model
{
    using tr       = mfma_traits<Instr>;
    using a_type   = typename tr::a_type;
    using b_type   = typename tr::b_type;
    using c_type   = typename tr::c_type;
    using a_buffer = mfma_a_buffer<Instr>;
    using b_buffer = mfma_b_buffer<Instr>;
    using c_buffer = mfma_c_buffer<Instr>;

    static constexpr index_t lanes = tr::lanes;
    static constexpr index_t M = tr::M, N = tr::N, K = tr::K, nblk = tr::num_blocks;
    static constexpr index_t ka = tr::a_per_lane, kb = tr::b_per_lane, kc = tr::c_per_lane;
    // D: each lane's elements are runs of run_len consecutive rows of one column
    static constexpr index_t run_len = tr::d_rows_per_run, runs = tr::d_runs;

    // Dense matrices of the wave, all with the k (for D: the column) index outermost, so that the
    // product loop runs over contiguous rows: a[block][k][row], b[block][k][col], d[block][col][row].
    static constexpr index_t a_offset(index_t l, index_t e)
    {
        const mfma_coord c = tr::a_coord(l, e);
        return (c.block * K + c.col) * M + c.row;
    }
    static constexpr index_t b_offset(index_t l, index_t e)
    {
        const mfma_coord c = tr::b_coord(l, e);
        return (c.block * K + c.row) * N + c.col;
    }
    static constexpr index_t d_offset(index_t l, index_t e)
    {
        const mfma_coord c = tr::d_coord(l, e);
        return (c.block * N + c.col) * M + c.row;
    }
    // Each lane's elements are consecutive k (A, B: a stride of M, N in these matrices) and runs of
    // consecutive rows (D: contiguous), so one offset per lane (per run for D) locates them.
    static constexpr bool lanes_are_regular()
    {
        for(index_t l = 0; l < lanes; ++l)
        {
            for(index_t e = 0; e < ka; ++e)
                if(a_offset(l, e) != a_offset(l, 0) + e * M)
                    return false;
            for(index_t e = 0; e < kb; ++e)
                if(b_offset(l, e) != b_offset(l, 0) + e * N)
                    return false;
            for(index_t e = 0; e < kc; ++e)
                if(d_offset(l, e) != d_offset(l, e - e % run_len) + e % run_len)
                    return false;
        }
        return true;
    }
    static_assert(lanes_are_regular());
    static_assert(nblk * K * M <= 65536 && nblk * M * N <= 65536);

    static constexpr auto a_lane_offsets =
        detail::mfma_lane_table<lanes, 1>([](index_t l, index_t) { return a_offset(l, 0); });
    static constexpr auto b_lane_offsets =
        detail::mfma_lane_table<lanes, 1>([](index_t l, index_t) { return b_offset(l, 0); });
    static constexpr auto d_run_offsets =
        detail::mfma_lane_table<lanes, runs>([](index_t l, index_t r) { return d_offset(l, run_len * r); });

    // What a lane hands to the wave: where its operands are and where its D goes (all on its own
    // stack while it waits, see wave.hpp).
    struct lane_frame
    {
        const a_buffer* a;
        const b_buffer* b;
        const c_buffer* c;
        c_buffer* d;
    };

    // D of the whole wave, read from and written to the lanes' operands directly (no copies);
    // lane_ops(frames[l]) gives lane l's lane_frame. Inactive lanes contribute zero A, B and C and
    // get nothing. D may be C (mfma_batch): every C is read before any D is written.
    template <typename LaneOps>
    static void compute(void* const* frames, std::uint64_t active, LaneOps lane_ops)
    {
        a_type a[nblk * K * M];
        b_type b[nblk * K * N];
        c_type d[nblk * N * M];
        if(active != ~std::uint64_t{0})
        {
            __builtin_memset(static_cast<void*>(a), 0, sizeof(a));
            __builtin_memset(static_cast<void*>(b), 0, sizeof(b));
            __builtin_memset(static_cast<void*>(d), 0, sizeof(d));
        }
        for(std::uint64_t m = active; m != 0; m &= m - 1)
        {
            const index_t l    = static_cast<index_t>(__builtin_ctzll(m));
            const lane_frame f = lane_ops(frames[l]);
            a_type* al         = a + a_lane_offsets[static_cast<std::size_t>(l)];
            b_type* bl         = b + b_lane_offsets[static_cast<std::size_t>(l)];
            for(index_t e = 0; e < ka; ++e)
                al[e * M] = (*f.a)[e];
            for(index_t e = 0; e < kb; ++e)
                bl[e * N] = (*f.b)[e];
            for(index_t r = 0; r < runs; ++r)
                __builtin_memcpy(d + d_run_offsets[static_cast<std::size_t>(l * runs + r)], &(*f.c)[run_len * r],
                                 run_len * sizeof(c_type));
        }
        detail::mfma_arith<a_type, b_type, c_type, nblk, M, N, K>(a, b, d);
        for(std::uint64_t m = active; m != 0; m &= m - 1)
        {
            const index_t l    = static_cast<index_t>(__builtin_ctzll(m));
            const lane_frame f = lane_ops(frames[l]);
            for(index_t r = 0; r < runs; ++r)
                __builtin_memcpy(&(*f.d)[run_len * r], d + d_run_offsets[static_cast<std::size_t>(l * runs + r)],
                                 run_len * sizeof(c_type));
        }
    }

    static void complete(void* const* frames, std::uint64_t active)
    {
        compute(frames, active, [](void* f) { return *static_cast<const lane_frame*>(f); });
    }

    // The N instructions of an mfma_batch, in order; each lane's frame is its array of operands.
    template <index_t N>
    static void complete_batch(void* const* frames, std::uint64_t active)
    {
        for(index_t i = 0; i < N; ++i)
            compute(frames, active, [i](void* f) {
                const mfma_operands<Instr>& op = (*static_cast<const array<mfma_operands<Instr>, N>*>(f))[i];
                return lane_frame{op.a, op.b, op.c, op.c};
            });
    }

    // One lane's part of the instruction: all active lanes of the wave call it together.
    static c_buffer run(const a_buffer& a, const b_buffer& b, const c_buffer& c)
    {
        c_buffer d;
        lane_frame frame{&a, &b, &c, &d};
        detail::wave_arrive(&frame, &complete, tr::mnemonic);
        return d;
    }

    // One lane's part of an mfma_batch of N instructions: one arrival for all N.
    template <index_t N>
    static void run_batch(const array<mfma_operands<Instr>, N>& ops)
    {
        detail::wave_arrive(const_cast<array<mfma_operands<Instr>, N>*>(&ops), &complete_batch<N>, tr::mnemonic);
    }
};

} // namespace ck_tile::emu

namespace ck_tile::detail {
// ck_tile::mfma on the emulator: the instruction's model, once per wave.
template <typename Instr>
CK_TILE_DEVICE mfma_c_buffer<Instr> mfma_backend(const mfma_a_buffer<Instr>& a, const mfma_b_buffer<Instr>& b,
                                                 const mfma_c_buffer<Instr>& c)
{
    emu::note_mfma(); // the access profile counts it
    return emu::mfma_model<Instr>::run(a, b, c);
}

// mfma_batch on the emulator: the N instructions as one wave collective.
template <typename Instr, index_t N>
CK_TILE_DEVICE void mfma_batch_backend(const array<mfma_operands<Instr>, N>& ops)
{
    for(index_t i = 0; i < N; ++i)
        emu::note_mfma();
    emu::mfma_model<Instr>::template run_batch<N>(ops);
}
} // namespace ck_tile::detail
