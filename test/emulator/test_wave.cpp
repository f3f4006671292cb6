// SPDX-License-Identifier: MIT
// Wave collective tests: shuffle, ballot, readfirstlane, LDS transpose reads, the generic collective,
// partial waves.
#include <doctest/doctest.h>

#include <array>
#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "ck_tile/core/arch/arch.hpp"
#include "test_common.hpp"

namespace emu = ck_tile::emu;
using emu_test::launch_error_message;

TEST_SUITE("wave")
{
    TEST_CASE("shuffle rotates within each wave")
    {
        std::vector<int> out(256);
        int* o = out.data();
        emu::launch({{1}, {256}, 0, "rotate"}, [=] {
            const int t = emu::thread_idx_x();
            o[t]        = emu::shuffle(t * 10, emu::lane_id() + 1); // src & 63 wraps
        });
        for(int t = 0; t < 256; ++t)
        {
            const int src = (t / 64) * 64 + (t % 64 + 1) % 64;
            CHECK(out[static_cast<std::size_t>(t)] == src * 10);
        }
    }

    TEST_CASE("shuffle of other types, many times in a row")
    {
        std::vector<double> out(128);
        double* o = out.data();
        emu::launch({{1}, {128}, 0, "shuffle_loop"}, [=] {
            double v = emu::lane_id();
            for(int i = 0; i < 100; ++i)
                v = emu::shuffle(v, emu::lane_id() ^ (i % 7 + 1));
            o[emu::thread_idx_x()] = v;
        });
        // Reference: apply the same permutations on the host.
        std::array<double, 64> ref{};
        for(int l = 0; l < 64; ++l)
            ref[static_cast<std::size_t>(l)] = l;
        for(int i = 0; i < 100; ++i)
        {
            std::array<double, 64> next{};
            for(int l = 0; l < 64; ++l)
                next[static_cast<std::size_t>(l)] = ref[static_cast<std::size_t>(l ^ (i % 7 + 1))];
            ref = next;
        }
        for(int t = 0; t < 128; ++t)
            CHECK(out[static_cast<std::size_t>(t)] == ref[static_cast<std::size_t>(t % 64)]);
    }

    TEST_CASE("ballot and readfirstlane")
    {
        std::vector<std::uint64_t> masks(128);
        std::vector<int> first(128);
        std::uint64_t* m = masks.data();
        int* f           = first.data();
        emu::launch({{1}, {128}, 0, "ballot"}, [=] {
            const int t = emu::thread_idx_x();
            m[t]        = emu::ballot(emu::lane_id() % 3 == 0);
            f[t]        = emu::readfirstlane(t * 7 + 3);
        });
        std::uint64_t expect = 0;
        for(int l = 0; l < 64; l += 3)
            expect |= std::uint64_t{1} << l;
        for(int t = 0; t < 128; ++t)
        {
            CHECK(masks[static_cast<std::size_t>(t)] == expect);
            CHECK(first[static_cast<std::size_t>(t)] == (t / 64) * 64 * 7 + 3);
        }
    }

    // gfx950's ds_read_b64_tr_b16: a group of 16 lanes reads a 4 x 16 row-major tile (lane l: row
    // l / 4, columns 4 (l % 4) .. + 3) and lane j receives column j, rows 0..3. Two reads in one
    // call, each group of the wave on its own two tiles; 48 live lanes leave the last group's
    // inputs at zero.
    TEST_CASE("LDS transpose read, 16-bit: each lane gets one column of its group's 4 x 16 tile")
    {
        for(const int threads : {64, 48})
        {
            std::vector<std::uint16_t> lds(8 * 4 * 16); // 4 groups x 2 reads x (4 x 16)
            for(std::size_t i = 0; i < lds.size(); ++i)
                lds[i] = static_cast<std::uint16_t>(1000 + i);
            std::vector<std::array<std::uint16_t, 8>> out(64);
            const std::uint16_t* tile = lds.data();
            auto* o                   = out.data();
            emu::launch({{1}, {static_cast<unsigned>(threads)}, 0, "tr16"}, [=] {
                const int lane = emu::lane_id();
                const int g = lane / 16, l = lane % 16;
                emu::lds_transpose_in<std::uint16_t, 2> in;
                for(int i = 0; i < 2; ++i)
                    in.p[i] = tile + (g * 2 + i) * 64 + (l / 4) * 16 + (l % 4) * 4;
                const auto r = emu::lds_transpose_read_b64(in);
                for(int k = 0; k < 8; ++k)
                    o[lane][static_cast<std::size_t>(k)] = r.v[k];
            });
            for(int lane = 0; lane < threads; ++lane)
                for(int i = 0; i < 2; ++i)
                    for(int k = 0; k < 4; ++k)
                    {
                        const int g = lane / 16, j = lane % 16;
                        const bool supplier_live = g * 16 + k * 4 + j / 4 < threads;
                        CHECK(out[static_cast<std::size_t>(lane)][static_cast<std::size_t>(i * 4 + k)] ==
                              (supplier_live ? 1000 + (g * 2 + i) * 64 + k * 16 + j : 0));
                    }
        }
    }

    // ds_read_b64_tr_b8: an 8 x 16 byte tile per group (lane l: row l / 2, columns 8 (l % 2) .. + 7),
    // lane j receives column j, rows 0..7.
    TEST_CASE("LDS transpose read, 8-bit: each lane gets one column of its group's 8 x 16 tile")
    {
        std::vector<std::uint8_t> lds(4 * 8 * 16);
        for(std::size_t i = 0; i < lds.size(); ++i)
            lds[i] = static_cast<std::uint8_t>(i * 7 + 3);
        std::vector<std::array<std::uint8_t, 8>> out(64);
        const std::uint8_t* tile = lds.data();
        auto* o                  = out.data();
        emu::launch({{1}, {64}, 0, "tr8"}, [=] {
            const int lane = emu::lane_id();
            const int g = lane / 16, l = lane % 16;
            const auto r = emu::lds_transpose_read_b64(
                emu::lds_transpose_in<std::uint8_t, 1>{{tile + g * 128 + (l / 2) * 16 + (l % 2) * 8}});
            for(int k = 0; k < 8; ++k)
                o[lane][static_cast<std::size_t>(k)] = r.v[k];
        });
        for(int lane = 0; lane < 64; ++lane)
            for(int k = 0; k < 8; ++k)
            {
                const int g = lane / 16, j = lane % 16;
                CHECK(out[static_cast<std::size_t>(lane)][static_cast<std::size_t>(k)] ==
                      lds[static_cast<std::size_t>(g * 128 + k * 16 + j)]);
            }
    }

    // ck_tile::warp_butterfly runs every step in one collective; it must give what the steps give
    // one shuffle at a time (order of the combinations included: the op here is not commutative),
    // with the inactive lanes of a partial wave supplying T{} as a shuffle from them does.
    TEST_CASE("warp_butterfly equals its steps done with shuffles, also in a partial wave")
    {
        for(const int threads : {64, 40})
        {
            std::vector<std::array<long, 2>> fused(64), stepped(64);
            auto* f = fused.data();
            auto* g = stepped.data();
            emu::launch({{1}, {static_cast<unsigned>(threads)}, 0, "butterfly"}, [=] {
                const int lane     = emu::lane_id();
                const auto combine = [](std::array<long, 2> a, const std::array<long, 2>& b) {
                    return std::array<long, 2>{a[0] * 3 + b[0], a[1] - 2 * b[1]};
                };
                const std::array<long, 2> v{lane + 1, 100 - lane};
                f[lane]               = ck_tile::warp_butterfly(v, 2, 32, combine);
                std::array<long, 2> w = v;
                for(int step = 2; step < 32; step *= 2)
                    w = combine(w, emu::shuffle(w, lane ^ step));
                g[lane] = w;
            });
            for(int lane = 0; lane < threads; ++lane)
                CHECK(fused[static_cast<std::size_t>(lane)] == stepped[static_cast<std::size_t>(lane)]);
        }
    }

    TEST_CASE("generic collective: sum of lanes, computed once per wave")
    {
        std::atomic<int> calls{0};
        std::atomic<int>* c = &calls;
        std::vector<long> out(256);
        long* o = out.data();
        emu::launch({{2}, {256}, 0, "sum"}, [=] {
            const long v = emu::thread_idx_x() + 1000L * emu::block_idx_x();
            const long s = emu::wave_collective<long, long>(v, [c](const long* in, long* res) {
                c->fetch_add(1);
                long acc = 0;
                for(int l = 0; l < 64; ++l)
                    acc += in[l];
                for(int l = 0; l < 64; ++l)
                    res[l] = acc;
            });
            if(emu::block_idx_x() == 1)
                o[emu::thread_idx_x()] = s;
        });
        CHECK(calls.load() == 2 * 4);
        for(int t = 0; t < 256; ++t)
        {
            const long base = (t / 64) * 64;
            CHECK(out[static_cast<std::size_t>(t)] == 64 * 1000 + 64 * base + 63 * 64 / 2);
        }
    }

    TEST_CASE("generic collective: deduced Out, active mask, per-lane results, large operands")
    {
        struct big
        {
            float v[200];
        };
        std::vector<int> out(64 * 3);
        int* o = out.data();
        emu::launch({{1}, {64}, 0, "generic"}, [=] {
            const int lane = emu::lane_id();
            // Out deduced from the callable; reverse the lanes.
            const int r = emu::wave_collective(lane, [](const int* in, int* res) {
                for(int l = 0; l < 64; ++l)
                    res[l] = in[63 - l];
            });
            // Mask of active lanes as a third argument.
            const std::uint64_t mask = emu::wave_collective<char, std::uint64_t>(
                'x', [](const char*, std::uint64_t* res, std::uint64_t active) {
                    for(int l = 0; l < 64; ++l)
                        res[l] = active;
                });
            big in{};
            in.v[199]       = static_cast<float>(lane);
            const big bo    = emu::wave_collective<big, big>(in, [](const big* i, big* res) {
                for(int l = 0; l < 64; ++l)
                    res[l].v[0] = i[(l + 1) % 64].v[199];
            });
            o[lane * 3]     = r;
            o[lane * 3 + 1] = mask == ~std::uint64_t{0} ? 1 : 0;
            o[lane * 3 + 2] = static_cast<int>(bo.v[0]);
        });
        for(int l = 0; l < 64; ++l)
        {
            CHECK(out[static_cast<std::size_t>(l) * 3] == 63 - l);
            CHECK(out[static_cast<std::size_t>(l) * 3 + 1] == 1);
            CHECK(out[static_cast<std::size_t>(l) * 3 + 2] == (l + 1) % 64);
        }
    }

    TEST_CASE("partial wave of a 96-thread block: missing lanes are inactive")
    {
        std::vector<long> out(96 * 4);
        long* o = out.data();
        emu::launch({{3}, {96}, 0, "partial"}, [=] {
            const int t   = emu::thread_idx_x();
            const long sh = emu::shuffle(static_cast<long>(t + 1), emu::lane_id() + 16);
            const long bl = static_cast<long>(emu::ballot(true));
            const long rf = emu::readfirstlane(static_cast<long>(t));
            const long s  = emu::wave_collective<long, long>(1, [](const long* in, long* res) {
                long acc = 0;
                for(int l = 0; l < 64; ++l)
                    acc += in[l];
                for(int l = 0; l < 64; ++l)
                    res[l] = acc;
            });
            emu::barrier();
            if(emu::block_idx_x() == 2)
            {
                o[t * 4]     = sh;
                o[t * 4 + 1] = bl;
                o[t * 4 + 2] = rf;
                o[t * 4 + 3] = s;
            }
        });
        for(int t = 0; t < 96; ++t)
        {
            const long* r  = &out[static_cast<std::size_t>(t) * 4];
            const int base = (t / 64) * 64, src = base + (t % 64 + 16) % 64;
            CHECK(r[0] == (src < 96 ? src + 1 : 0));
            CHECK(static_cast<std::uint64_t>(r[1]) == (t < 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << 32) - 1));
            CHECK(r[2] == base);
            CHECK(r[3] == (t < 64 ? 64 : 32));
        }
    }

    TEST_CASE("lanes that returned are inactive")
    {
        std::vector<std::uint64_t> out(64, 0);
        std::vector<int> first(64, -1);
        std::uint64_t* o = out.data();
        int* f           = first.data();
        emu::launch({{1}, {64}, 0, "exited"}, [=] {
            const int lane = emu::lane_id();
            if(lane < 5 || lane >= 40)
                return;
            o[lane] = emu::ballot(true);
            // Lanes >= 20 leave before the second collective, while lanes < 20 wait in it.
            if(lane >= 20)
                return;
            f[lane] = emu::readfirstlane(lane * 2);
        });
        std::uint64_t expect = 0;
        for(int l = 5; l < 40; ++l)
            expect |= std::uint64_t{1} << l;
        for(int l = 0; l < 64; ++l)
        {
            CHECK(out[static_cast<std::size_t>(l)] == (l >= 5 && l < 40 ? expect : 0));
            CHECK(first[static_cast<std::size_t>(l)] == (l >= 5 && l < 20 ? 10 : -1));
        }
    }

    TEST_CASE("lanes at different collectives are an error")
    {
        const std::string m = launch_error_message([] {
            emu::launch({{1}, {64}, 0, "diverged"}, [] {
                if(emu::lane_id() < 32)
                    (void)emu::shuffle(1, 0);
                else
                    (void)emu::ballot(true);
            });
        });
        CHECK(m.find("diverged") != std::string::npos);
        CHECK(m.find("different wave collectives") != std::string::npos);
        CHECK(m.find("shuffle") != std::string::npos);
        CHECK(m.find("ballot") != std::string::npos);

        const std::string named = launch_error_message([] {
            emu::launch({{1}, {64}, 0, "diverged_named"}, [] {
                if(emu::lane_id() == 0)
                    (void)emu::wave_collective<int, int>(1, [](const int*, int*) {}, "mfma_model");
                else
                    (void)emu::readfirstlane(1);
            });
        });
        CHECK(named.find("mfma_model") != std::string::npos);
        CHECK(named.find("readfirstlane") != std::string::npos);
    }

    TEST_CASE("a collective's function may not call another collective")
    {
        const std::string m = launch_error_message([] {
            emu::launch({{1}, {64}, 0, "nested_collective"}, [] {
                (void)emu::wave_collective<int, int>(1, [](const int*, int* out) { out[0] = emu::shuffle(1, 0); });
            });
        });
        CHECK(m.find("inside the function") != std::string::npos);
    }
}
