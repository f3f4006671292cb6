// SPDX-License-Identifier: MIT
// Race detection (racecheck.hpp): LDS accesses of two waves with no barrier between them are
// reported, the same kernel with its barrier and a wave's own lane exchange are not; two
// workgroups storing to one global address are reported.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "test_common.hpp"
#include "ck_tile/core/tensor/buffer_view.hpp"

namespace emu = ck_tile::emu;
using emu_test::launch_error_message;

namespace {

struct racecheck_guard
{
    racecheck_guard() { emu::set_racecheck(true); }
    ~racecheck_guard() { emu::set_racecheck(false); }
};

using lds_view = ck_tile::buffer_view<ck_tile::address_space_enum::lds, float>;

// Each thread writes its slot of LDS, then reads the slot of the thread `shift` further on
// (another wave when shift >= 64); WithBarrier puts a workgroup barrier between the two.
template <bool WithBarrier>
std::string exchange(int threads, int shift, std::vector<float>& out)
{
    float* o = out.data();
    return launch_error_message([&] {
        emu::launch({{1}, {static_cast<unsigned>(threads)}, threads * sizeof(float), "lds_exchange"}, [=] {
            const lds_view lds{static_cast<float*>(emu::dynamic_lds()), threads};
            const int t = emu::thread_idx_x();
            lds.set<1>(t, true, {{static_cast<float>(t)}});
            if constexpr(WithBarrier)
                emu::barrier();
            else
                (void)emu::ballot(true); // the wave's lanes step together: the write is done for all
            o[t] = lds.get<1>((t + shift) % threads, true)[0];
        });
    });
}

} // namespace

TEST_SUITE("racecheck")
{
    TEST_CASE("an LDS exchange between waves without a barrier is reported")
    {
        racecheck_guard on;
        std::vector<float> out(128);
        const std::string m = exchange<false>(128, 64, out);
        CHECK(m.find("lds_exchange") != std::string::npos);
        // wave 0 runs ahead and reads slots wave 1 has not written yet; wave 1 then writes them
        CHECK(m.find("race: write after read of LDS offset") != std::string::npos);
        CHECK(m.find("wave 0 lane ") != std::string::npos);
        CHECK(m.find("wave 1 lane ") != std::string::npos);
        CHECK(m.find("test_racecheck.cpp") != std::string::npos); // both sites are named
    }

    TEST_CASE("the same exchange with its barrier is clean and right")
    {
        racecheck_guard on;
        std::vector<float> out(128);
        CHECK(exchange<true>(128, 64, out) == "");
        for(int t = 0; t < 128; ++t)
            CHECK(out[t] == static_cast<float>((t + 64) % 128));
    }

    TEST_CASE("a write after another wave's read without a barrier is reported")
    {
        racecheck_guard on;
        const std::string m = launch_error_message([] {
            emu::launch({{1}, {128}, 64 * sizeof(float), "war"}, [] {
                const lds_view lds{static_cast<float*>(emu::dynamic_lds()), 64};
                const int t = emu::thread_idx_x();
                if(t < 64)
                    lds.set<1>(t, true, {{1.0f}});
                emu::barrier();
                if(t < 64)
                    (void)lds.get<1>(t, true);
                else
                    lds.set<1>(t - 64, true, {{2.0f}}); // wave 1 overwrites what wave 0 reads
            });
        });
        CHECK(m.find("race: write after read of LDS") != std::string::npos);
    }

    TEST_CASE("a wave's own lane exchange needs no barrier")
    {
        racecheck_guard on;
        std::vector<float> out(64);
        CHECK(exchange<false>(64, 1, out) == "");
        for(int t = 0; t < 64; ++t)
            CHECK(out[t] == static_cast<float>((t + 1) % 64));
    }

    TEST_CASE("racecheck off: the racy kernel runs without a report")
    {
        std::vector<float> out(128);
        CHECK(exchange<false>(128, 64, out) == "");
    }

    TEST_CASE("two workgroups storing to one global address are reported")
    {
        racecheck_guard on;
        float* g       = static_cast<float*>(emu::device_malloc(64 * sizeof(float)));
        using gview    = ck_tile::buffer_view<ck_tile::address_space_enum::global, float>;
        const auto run = [&](bool overlap) {
            return launch_error_message([&] {
                emu::launch({{2}, {64}, 0, "global_ww"}, [=] {
                    const gview v{g, 64};
                    const int i = overlap ? emu::thread_idx_x() : (emu::block_idx_x() * 32 + emu::thread_idx_x() % 32);
                    if(overlap || emu::thread_idx_x() < 32)
                        v.set<1>(i, true, {{1.0f}});
                });
            });
        };
        const std::string m = run(true);
        CHECK(m.find("race: workgroups 0 and 1") != std::string::npos);
        CHECK(run(false) == "");
        emu::device_free(g);
    }
}
