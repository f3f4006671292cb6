// SPDX-License-Identifier: MIT
// Cost of an emulated MFMA (not a test). For each instruction: the model alone (gather, multiply,
// scatter for one wave), and a whole kernel in which one wave issues a chain of MFMAs (the model
// plus the wave collective: 64 lane arrivals and fiber switches), on one worker thread. A chain
// of ballots gives the cost of the collective alone.
#include <chrono>
#include <cstdio>

#include "ck_tile/core.hpp"
#include "ck_tile/core/arch/mfma.hpp"

namespace emu = ck_tile::emu;
namespace mi  = ck_tile::mfma_instr;
using clk     = std::chrono::steady_clock;

template <typename I>
void bench()
{
    using tr    = ck_tile::mfma_traits<I>;
    using model = emu::mfma_model<I>;
    static typename model::lane_operands in[64];
    static typename model::c_buffer out[64];
    for(int l = 0; l < 64; ++l)
    {
        for(int e = 0; e < tr::a_per_lane; ++e)
            in[l].a[e] = ck_tile::type_convert<typename tr::a_type>(float((l + e) % 5 - 2));
        for(int e = 0; e < tr::b_per_lane; ++e)
            in[l].b[e] = ck_tile::type_convert<typename tr::b_type>(float((l * 3 + e) % 7 - 3));
        for(int e = 0; e < tr::c_per_lane; ++e)
            in[l].c[e] = typename tr::c_type(e);
    }
    const int reps = 20000;
    auto t0        = clk::now();
    for(int r = 0; r < reps; ++r)
    {
        model::compute(in, out);
        asm volatile("" ::"r"(out) : "memory");
    }
    const double model_ns = std::chrono::duration<double, std::nano>(clk::now() - t0).count() / reps;

    const int chain = 2000;
    t0              = clk::now();
    emu::launch({{1}, {64}, 0, tr::mnemonic}, [=] {
        const int l = emu::lane_id();
        auto c      = in[l].c;
        for(int r = 0; r < chain; ++r)
            c = ck_tile::mfma<I>(in[l].a, in[l].b, c);
        asm volatile("" ::"r"(&c) : "memory");
    });
    const double wave_ns = std::chrono::duration<double, std::nano>(clk::now() - t0).count() / chain;
    const double flop    = 2.0 * tr::M * tr::N * tr::K * tr::num_blocks;
    std::printf("%-30s model %8.0f ns   per wave-MFMA in a kernel %8.0f ns   (%.2f GFLOP/s)\n", tr::mnemonic, model_ns,
                wave_ns, flop / wave_ns);
}

int main()
{
    emu::set_worker_threads(1);
    {
        const int chain = 20000;
        auto t0         = clk::now();
        emu::launch({{1}, {64}, 0, "ballot_chain"}, [=] {
            std::uint64_t m = 0;
            for(int r = 0; r < chain; ++r)
                m += emu::ballot((m + r) & 1);
            asm volatile("" ::"r"(m));
        });
        std::printf("%-30s %8.0f ns per wave\n", "ballot (collective alone)",
                    std::chrono::duration<double, std::nano>(clk::now() - t0).count() / chain);
    }
    bench<mi::v_mfma_f32_32x32x8_f16>();
    bench<mi::v_mfma_f32_16x16x16_f16>();
    bench<mi::v_mfma_f32_32x32x8_bf16>();
    bench<mi::v_mfma_f32_4x4x4_16b_f16>();
    bench<mi::v_mfma_f32_32x32x4_2b_f16>();
    bench<mi::v_mfma_i32_32x32x16_i8>();
    bench<mi::v_mfma_f32_32x32x16_fp8_fp8>();
    bench<mi::v_mfma_f32_16x16x32_bf8_bf8>();
    bench<mi::v_mfma_f32_32x32x2_f32>();
#if defined(CK_TILE_ARCH_GFX950)
    bench<mi::v_mfma_f32_32x32x16_f16>();
#endif
    return 0;
}
