// SPDX-License-Identifier: MIT
// MFMA instructions through the one MFMA model the source emulator uses (ck_tile/core/arch/
// emulator/mfma.hpp, checked against the hardware layouts in mfma_layouts/): the operands are
// gathered from the lanes' registers into the model's per-lane buffers, the model computes D for
// the wave, and D is written back. MFMA ignores EXEC: every lane takes part.
//
// Not yet here: the fp8/bf8 instructions (their element encoding is the running arch's, FNUZ on
// gfx942 and OCP on gfx950, while the model is compiled for one), the f8f6f4 formats, and the
// broadcast controls cbsz/abid/blgp; a kernel that uses them fails at load or at the instruction.
#define CK_TILE_BACKEND_EMULATOR 1
#define CK_TILE_EMULATE_GFX950 1 // the model of every instruction (gfx950 has them all but fp8 differs)
#include "ck_tile/core/arch/emulator/mfma.hpp"

#include "engine.hpp"

namespace hip_cpu {
namespace {

template <typename Instr>
void mfma(wave& w, const inst& i)
{
    using model    = ck_tile::emu::mfma_model<Instr>;
    using a_buffer = typename model::a_buffer;
    using b_buffer = typename model::b_buffer;
    using c_buffer = typename model::c_buffer;
    if(i.cbsz != 0 || i.abid != 0 || i.blgp != 0)
        fault(w, i, "MFMA with cbsz/abid/blgp broadcasts, which hip-cpu does not implement");
    struct lane_operands
    {
        a_buffer a;
        b_buffer b;
        c_buffer c, d;
    };
    static_assert(sizeof(a_buffer) % 4 == 0 && sizeof(b_buffer) % 4 == 0 && sizeof(c_buffer) % 4 == 0);
    constexpr int a_dwords = sizeof(a_buffer) / 4, b_dwords = sizeof(b_buffer) / 4, c_dwords = sizeof(c_buffer) / 4;
    lane_operands ops[lanes];
    void* frames[lanes];
    auto gather = [&](const operand& o, int dwords, auto member) {
        for(int k = 0; k < dwords; ++k)
        {
            lane_u32 tmp;
            const std::uint32_t* p = vread(w, i, o, tmp, k);
            for(int l = 0; l < lanes; ++l)
                std::memcpy(reinterpret_cast<char*>(&(ops[l].*member)) + 4 * k, &p[l], 4);
        }
    };
    gather(i.op[1], a_dwords, &lane_operands::a);
    gather(i.op[2], b_dwords, &lane_operands::b);
    gather(i.op[3], c_dwords, &lane_operands::c);
    for(int l = 0; l < lanes; ++l)
        frames[l] = &ops[l];
    model::compute(frames, ~std::uint64_t{0}, [](void* f) {
        auto* o = static_cast<lane_operands*>(f);
        return typename model::lane_frame{&o->a, &o->b, &o->c, &o->d};
    });
    for(int k = 0; k < c_dwords; ++k)
    {
        lane_u32& d = vdst(w, i.op[0], k);
        for(int l = 0; l < lanes; ++l)
            std::memcpy(&d[l], reinterpret_cast<const char*>(&ops[l].d) + 4 * k, 4);
    }
}

} // namespace

void add_mfma_instructions(handler_table& t)
{
#define MFMA(NAME) t[ck_tile::mfma_traits<ck_tile::mfma_instr::NAME>::mnemonic] = {mfma<ck_tile::mfma_instr::NAME>}
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

    auto move = [](wave& w, const inst& i) {
        lane_u32 tmp;
        vwrite(w, i.op[0], vread(w, i, i.op[1], tmp));
    };
    t["v_accvgpr_write_b32"] = {move};
    t["v_accvgpr_read_b32"]  = {move};
    t["v_accvgpr_mov_b32"]   = {move};
}

} // namespace hip_cpu
