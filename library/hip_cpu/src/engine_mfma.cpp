// SPDX-License-Identifier: MIT
// MFMA instructions through the one MFMA model the source emulator uses (ck_tile/core/arch/
// emulator/mfma.hpp, checked against the hardware layouts in mfma_layouts/): the operands are
// gathered from the lanes' registers into the model's dense matrices, its arithmetic computes D for
// the wave, and D is written back. MFMA ignores EXEC: every lane takes part.
//
// The 8-bit float instructions read their elements in the running arch's encoding (FNUZ on gfx942,
// OCP on gfx950): the same layouts as the model's instructions, with the element types of that
// encoding. gfx950's f8f6f4 instructions take fp8 or bf8 per operand (cbsz for A, blgp for B); the
// 6- and 4-bit formats are not implemented (a launch that uses them stops at the instruction), nor
// are the broadcast controls cbsz/abid/blgp of the other instructions.
#define CK_TILE_BACKEND_EMULATOR 1
#define CK_TILE_EMULATE_GFX950 1 // the model of every instruction (gfx950 has them all but fp8 differs)
#include "ck_tile/core/arch/emulator/mfma.hpp"

#include "engine.hpp"

#include <algorithm>
#include <array>
#include <bit>

namespace hip_cpu {
// An MFMA of 8-bit float elements A and B with the layout of the model's instruction of that
// shape (M x N x K, elements per lane), for the encodings the running arch reads.
template <typename A, typename B, int M, int N, int K, int APerLane, int CPerLane>
struct fp8_mfma
{};
} // namespace hip_cpu

namespace ck_tile {
template <typename A, typename B, int M, int N, int K, int APerLane, int CPerLane>
struct mfma_traits<hip_cpu::fp8_mfma<A, B, M, N, K, APerLane, CPerLane>>
    : detail::mfma_traits_base<A, B, float, M, N, K, 1, APerLane, CPerLane, mfma_set::cdna3>
{
    static constexpr const char* mnemonic = "v_mfma (8-bit floats)";
};
} // namespace ck_tile

namespace hip_cpu {
namespace {

// Where each register element of each lane goes in the model's dense matrices: index[e][l] for
// lane l's element e (A, B: consecutive k, from the model's per-lane offset tables; C/D: row-major,
// from the instruction's D layout).
template <typename Instr>
struct mfma_dense_index
{
    using model = ck_tile::emu::mfma_model<Instr>;
    template <int Count, typename F>
    static constexpr auto table(F f)
    {
        std::array<std::array<std::uint16_t, lanes>, Count> t{};
        for(int e = 0; e < Count; ++e)
            for(int l = 0; l < lanes; ++l)
                t[e][l] = static_cast<std::uint16_t>(f(l, e));
        return t;
    }
    static constexpr auto a = table<model::ka>([](int l, int e) { return model::a_lane_offsets[l] + e * model::M; });
    static constexpr auto b = table<model::kb>([](int l, int e) { return model::b_lane_offsets[l] + e * model::N; });
    // D row-major, d[block][row][col] (the arithmetic's DRows layout): a register's lanes then
    // hold runs of consecutive columns of one row
    static constexpr auto d = table<model::kc>([](int l, int e) {
        const ck_tile::mfma_coord c = model::tr::d_coord(l, e);
        return (c.block * model::M + c.row) * model::N + c.col;
    });
    // whether every register's lanes come in groups of N holding one row's N columns in order
    static constexpr bool d_rows_by_lane_group = [] {
        for(int e = 0; e < model::kc; ++e)
            for(int l = 0; l < lanes; ++l)
                if(d[e][l] != d[e][l - l % model::N] + l % model::N)
                    return false;
        return true;
    }();
};

// Gathers the wave's A, B and C straight from the registers into the model's dense matrices (D
// row-major, where a register's lanes are a row's columns: whole runs copied at once), runs the
// model's arithmetic, and scatters D back: the same layouts and arithmetic as the emulator's
// per-lane path, without per-lane operand buffers in between.
template <typename Instr>
void mfma(wave& w, const inst& i, bool check_broadcasts = true)
{
    using model     = ck_tile::emu::mfma_model<Instr>;
    using index     = mfma_dense_index<Instr>;
    using a_type    = typename model::a_type;
    using b_type    = typename model::b_type;
    using c_type    = typename model::c_type;
    constexpr int M = model::M, N = model::N, K = model::K, nblk = model::nblk, kc = model::kc;
    static_assert(model::lanes == lanes && sizeof(c_type) == 4);
    if(check_broadcasts && (i.cbsz != 0 || i.abid != 0 || i.blgp != 0))
        fault(w, i, "MFMA with cbsz/abid/blgp broadcasts, which hip-cpu does not implement");

    a_type a[nblk * K * M];
    b_type b[nblk * K * N];
    c_type d[nblk * N * M];
    // element e of every lane, packed 4 / sizeof(T) to a dword of the operand's registers
    auto gather = [&]<typename T, std::size_t Count>(const operand& o, T* dense,
                                                     const std::array<std::array<std::uint16_t, lanes>, Count>& at) {
        constexpr int per_dword = 4 / static_cast<int>(sizeof(T));
        using bits              = std::conditional_t<sizeof(T) == 1, std::uint8_t,
                                                     std::conditional_t<sizeof(T) == 2, std::uint16_t, std::uint32_t>>;
        static_assert(Count % per_dword == 0);
        for(int k = 0; k < static_cast<int>(Count) / per_dword; ++k)
        {
            lane_u32 tmp;
            const std::uint32_t* p = vread(w, i, o, tmp, k);
            for(int j = 0; j < per_dword; ++j)
            {
                const auto& to = at[k * per_dword + j];
                for(int l = 0; l < lanes; ++l)
                    dense[to[l]] = std::bit_cast<T>(static_cast<bits>(p[l] >> (8 * sizeof(T) * j)));
            }
        }
    };
    gather(i.op[1], a, index::a);
    gather(i.op[2], b, index::b);
    if(i.op[3].kind == operand::constant) // an inline constant C (the 0 that starts a sum): every element
        std::fill(std::begin(d), std::end(d), std::bit_cast<c_type>(i.op[3].bits[0]));
    else if constexpr(index::d_rows_by_lane_group) // C and D: a row of N columns per group of N lanes
    {
        for(int e = 0; e < kc; ++e)
        {
            lane_u32 tmp;
            const std::uint32_t* p = vread(w, i, i.op[3], tmp, e);
            for(int g = 0; g < lanes; g += N)
                std::memcpy(&d[index::d[e][g]], &p[g], 4 * N);
        }
    }
    else
        gather(i.op[3], d, index::d);
    ck_tile::emu::detail::mfma_arith<a_type, b_type, c_type, nblk, M, N, K, true>(a, b, d);
    for(int e = 0; e < kc; ++e)
    {
        lane_u32& out  = vdst(w, i.op[0], e);
        const auto& at = index::d[e];
        if constexpr(index::d_rows_by_lane_group)
            for(int g = 0; g < lanes; g += N)
                std::memcpy(&out[g], &d[at[g]], 4 * N);
        else
            for(int l = 0; l < lanes; ++l)
                out[l] = std::bit_cast<std::uint32_t>(d[at[l]]);
    }
}

template <typename Instr>
void mfma_op(wave& w, const inst& i)
{
    mfma<Instr>(w, i);
}

// v_mfma_*_<a>_<b> of gfx942/gfx950: A and B in the arch's fp8 (e4m3) or bf8 (e5m2)
template <bool ABf8, bool BBf8, int M, int N, int K, int APerLane, int CPerLane>
void mfma_fp8(wave& w, const inst& i)
{
    using ck_tile::bf8_fnuz_t, ck_tile::bf8_ocp_t, ck_tile::fp8_fnuz_t, ck_tile::fp8_ocp_t;
    using a_ocp  = std::conditional_t<ABf8, bf8_ocp_t, fp8_ocp_t>;
    using b_ocp  = std::conditional_t<BBf8, bf8_ocp_t, fp8_ocp_t>;
    using a_fnuz = std::conditional_t<ABf8, bf8_fnuz_t, fp8_fnuz_t>;
    using b_fnuz = std::conditional_t<BBf8, bf8_fnuz_t, fp8_fnuz_t>;
    if(w.d->fp8_ocp)
        mfma<fp8_mfma<a_ocp, b_ocp, M, N, K, APerLane, CPerLane>>(w, i);
    else
        mfma<fp8_mfma<a_fnuz, b_fnuz, M, N, K, APerLane, CPerLane>>(w, i);
}

// gfx950's v_mfma_f32_*_f8f6f4: cbsz and blgp give A's and B's formats (0 fp8, 1 bf8, 2..4 the
// 6- and 4-bit formats, whose operands are narrower)
template <int M, int N, int K, int CPerLane>
void mfma_f8f6f4(wave& w, const inst& i)
{
    if(i.cbsz > 1 || i.blgp > 1)
        fault(w, i, "v_mfma f8f6f4 with 6- or 4-bit formats (cbsz/blgp > 1), which hip-cpu does not implement");
    auto run = [&](auto a_bf8, auto b_bf8) {
        using ck_tile::bf8_ocp_t, ck_tile::fp8_ocp_t;
        using A = std::conditional_t<decltype(a_bf8)::value, bf8_ocp_t, fp8_ocp_t>;
        using B = std::conditional_t<decltype(b_bf8)::value, bf8_ocp_t, fp8_ocp_t>;
        mfma<fp8_mfma<A, B, M, N, K, 32, CPerLane>>(w, i, false);
    };
    using f = std::false_type;
    using t = std::true_type;
    if(i.cbsz == 0 && i.blgp == 0)
        run(f{}, f{});
    else if(i.cbsz == 0)
        run(f{}, t{});
    else if(i.blgp == 0)
        run(t{}, f{});
    else
        run(t{}, t{});
}

} // namespace

void add_mfma_instructions(handler_table& t)
{
#define MFMA(NAME) t[ck_tile::mfma_traits<ck_tile::mfma_instr::NAME>::mnemonic] = {mfma_op<ck_tile::mfma_instr::NAME>}
    MFMA(v_mfma_f32_32x32x8_f16);
    MFMA(v_mfma_f32_16x16x16_f16);
    MFMA(v_mfma_f32_32x32x8_bf16);
    MFMA(v_mfma_f32_16x16x16_bf16);
    MFMA(v_mfma_f32_4x4x4_16b_f16);
    MFMA(v_mfma_f32_32x32x4_2b_f16);
    MFMA(v_mfma_i32_32x32x16_i8);
    MFMA(v_mfma_i32_16x16x32_i8);
    MFMA(v_mfma_f32_32x32x2_f32);
    MFMA(v_mfma_f32_16x16x4_f32);
    MFMA(v_mfma_f32_32x32x16_f16);
    MFMA(v_mfma_f32_16x16x32_f16);
    MFMA(v_mfma_f32_32x32x16_bf16);
    MFMA(v_mfma_f32_16x16x32_bf16);
    MFMA(v_mfma_i32_32x32x32_i8);
    MFMA(v_mfma_i32_16x16x64_i8);
#undef MFMA
    t["v_mfma_f32_32x32x16_fp8_fp8"] = {mfma_fp8<false, false, 32, 32, 16, 8, 16>};
    t["v_mfma_f32_32x32x16_fp8_bf8"] = {mfma_fp8<false, true, 32, 32, 16, 8, 16>};
    t["v_mfma_f32_32x32x16_bf8_fp8"] = {mfma_fp8<true, false, 32, 32, 16, 8, 16>};
    t["v_mfma_f32_32x32x16_bf8_bf8"] = {mfma_fp8<true, true, 32, 32, 16, 8, 16>};
    t["v_mfma_f32_16x16x32_fp8_fp8"] = {mfma_fp8<false, false, 16, 16, 32, 8, 4>};
    t["v_mfma_f32_16x16x32_fp8_bf8"] = {mfma_fp8<false, true, 16, 16, 32, 8, 4>};
    t["v_mfma_f32_16x16x32_bf8_fp8"] = {mfma_fp8<true, false, 16, 16, 32, 8, 4>};
    t["v_mfma_f32_16x16x32_bf8_bf8"] = {mfma_fp8<true, true, 16, 16, 32, 8, 4>};
    t["v_mfma_f32_32x32x64_f8f6f4"]  = {mfma_f8f6f4<32, 32, 64, 16>};
    t["v_mfma_f32_16x16x128_f8f6f4"] = {mfma_f8f6f4<16, 16, 128, 4>};

    auto move = [](wave& w, const inst& i) {
        lane_u32 tmp;
        vwrite(w, i.op[0], vread(w, i, i.op[1], tmp));
    };
    t["v_accvgpr_write_b32"] = {move};
    t["v_accvgpr_read_b32"]  = {move};
    t["v_accvgpr_mov_b32"]   = {move};
}

} // namespace hip_cpu
