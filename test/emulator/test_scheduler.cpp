// SPDX-License-Identifier: MIT
// Scheduler tests: thread identity, barriers, launch validation, errors and exceptions.
#include <doctest/doctest.h>

#include <atomic>
#include <stdexcept>
#include <string>
#include <vector>

#include "test_common.hpp"

namespace emu = ck_tile::emu;
using emu_test::launch_error_message;
using emu_test::worker_threads_guard;

TEST_SUITE("scheduler")
{
    TEST_CASE("thread identity covers the grid")
    {
        const emu::extent3 grid{3, 2, 2}, block{4, 3, 2};
        const int nthreads = 4 * 3 * 2, nblocks = 3 * 2 * 2;
        std::vector<int> out(static_cast<std::size_t>(nthreads * nblocks) * 8, -1);
        int* o = out.data();
        emu::launch({grid, block, 0, "identity"}, [=] {
            const int b = emu::block_idx_x() + emu::block_idx_y() * emu::grid_dim_x() +
                          emu::block_idx_z() * emu::grid_dim_x() * emu::grid_dim_y();
            const int t = emu::thread_idx_x() + emu::thread_idx_y() * emu::block_dim_x() +
                          emu::thread_idx_z() * emu::block_dim_x() * emu::block_dim_y();
            int* r      = o + (b * nthreads + t) * 8;
            r[0]        = emu::thread_idx_x();
            r[1]        = emu::thread_idx_y();
            r[2]        = emu::thread_idx_z();
            r[3]        = emu::flat_thread_id();
            r[4]        = emu::lane_id();
            r[5]        = emu::warp_id();
            r[6]        = emu::block_dim_z() * 100 + emu::grid_dim_z();
            r[7]        = b;
        });
        for(int b = 0; b < nblocks; ++b)
            for(int t = 0; t < nthreads; ++t)
            {
                const int* r = &out[static_cast<std::size_t>((b * nthreads + t) * 8)];
                CHECK(r[0] == t % 4);
                CHECK(r[1] == (t / 4) % 3);
                CHECK(r[2] == t / 12);
                CHECK(r[3] == t);
                CHECK(r[4] == t % 64);
                CHECK(r[5] == t / 64);
                CHECK(r[6] == 202);
                CHECK(r[7] == b);
            }
    }

    TEST_CASE("lane and warp ids of a large block")
    {
        std::vector<int> out(512 * 2);
        int* o = out.data();
        emu::launch({{1}, {512}, 0, "ids"}, [=] {
            o[emu::flat_thread_id() * 2]     = emu::lane_id();
            o[emu::flat_thread_id() * 2 + 1] = emu::warp_id();
        });
        for(int t = 0; t < 512; ++t)
        {
            CHECK(out[static_cast<std::size_t>(t) * 2] == t % 64);
            CHECK(out[static_cast<std::size_t>(t) * 2 + 1] == t / 64);
        }
        CHECK(emu::warp_size == 64);
    }

    // Each thread writes LDS[tid], then reads its neighbour's slot.
    static std::vector<int> neighbour_kernel(bool with_barrier, unsigned threads)
    {
        std::vector<int> out(threads);
        int* o = out.data();
        emu::launch({{1}, {threads}, threads * sizeof(int), "neighbour"}, [=] {
            int* lds    = static_cast<int*>(emu::dynamic_lds());
            const int t = emu::thread_idx_x();
            lds[t]      = t * 3 + 1;
            if(with_barrier)
                emu::barrier();
            o[t] = lds[(t + 1) % static_cast<int>(threads)];
        });
        return out;
    }

    TEST_CASE("barrier orders LDS writes before reads; without it the result is wrong")
    {
        for(unsigned n : {2u, 64u, 96u, 256u, 1024u})
        {
            const std::vector<int> good = neighbour_kernel(true, n);
            bool all_right              = true;
            for(unsigned t = 0; t < n; ++t)
                all_right = all_right && good[t] == static_cast<int>((t + 1) % n) * 3 + 1;
            CHECK(all_right);
            const std::vector<int> bad = neighbour_kernel(false, n);
            CHECK(bad != good);
            // Without the barrier, the reader of the last slot ran before its writer: garbage.
            CHECK(bad[n - 2] == static_cast<int>(0xCDCDCDCDu));
        }
    }

    TEST_CASE("a wave that overwrites LDS another wave still reads needs the second barrier")
    {
        // Two waves exchange values through LDS in a loop, with a wave collective (like an MFMA)
        // between the read and the next write. Hardware lets one wave run ahead into the next
        // iteration's write while the other still reads: without a barrier after the read the
        // result is wrong there, and the emulator, which lets each wave run ahead as far as it
        // can, must show it.
        auto run = [](bool second_barrier) {
            std::vector<int> out(128);
            int* o = out.data();
            emu::launch({{1}, {128}, 128 * sizeof(int), "war"}, [=] {
                int* lds    = static_cast<int*>(emu::dynamic_lds());
                const int t = emu::thread_idx_x();
                int acc     = 0;
                for(int it = 0; it < 3; ++it)
                {
                    lds[t] = it * 1000 + t;
                    emu::barrier();
                    acc += emu::shuffle(lds[(t + 64) % 128], emu::lane_id()); // the other wave's value
                    if(second_barrier)
                        emu::barrier();
                }
                o[t] = acc;
            });
            return out;
        };
        const std::vector<int> good = run(true);
        for(int t = 0; t < 128; ++t)
            CHECK(good[static_cast<std::size_t>(t)] == 3000 + 3 * ((t + 64) % 128));
        CHECK(run(false) != good);
    }

    TEST_CASE("many barriers in a loop")
    {
        std::vector<int> out(256);
        int* o = out.data();
        emu::launch({{2}, {256}, 256 * sizeof(int), "loop"}, [=] {
            int* lds    = static_cast<int*>(emu::dynamic_lds());
            const int t = emu::thread_idx_x();
            int acc     = 0;
            for(int it = 0; it < 50; ++it)
            {
                lds[t] = t + it;
                emu::barrier();
                acc += lds[255 - t];
                emu::barrier();
            }
            if(emu::block_idx_x() == 0)
                o[t] = acc;
        });
        for(int t = 0; t < 256; ++t)
            CHECK(out[static_cast<std::size_t>(t)] == 50 * (255 - t) + 49 * 50 / 2);
    }

    TEST_CASE("threads that returned do not hold the barrier")
    {
        std::vector<int> out(128, 0);
        int* o = out.data();
        emu::launch({{1}, {128}, 0, "early_exit"}, [=] {
            const int t = emu::thread_idx_x();
            if(t % 3 == 0)
                return;
            emu::barrier();
            emu::barrier();
            o[t] = 1;
        });
        for(int t = 0; t < 128; ++t)
            CHECK(out[static_cast<std::size_t>(t)] == (t % 3 == 0 ? 0 : 1));
    }

    TEST_CASE("1024 threads per workgroup is the limit")
    {
        std::atomic<int> count{0};
        emu::launch({{1}, {32, 32}, 0, "max_block"}, [&] {
            emu::barrier();
            count.fetch_add(1, std::memory_order_relaxed);
        });
        CHECK(count.load() == 1024);

        std::string m = launch_error_message([] { emu::launch({{1}, {1025}, 0, "too_big"}, [] {}); });
        CHECK(m.find("too_big") != std::string::npos);
        CHECK(m.find("1025") != std::string::npos);
        CHECK(m.find("1024") != std::string::npos);
        m = launch_error_message([] { emu::launch({{1}, {64, 4, 8}, 0, "too_big_3d"}, [] {}); });
        CHECK(m.find("2048") != std::string::npos);
    }

    TEST_CASE("invalid launch configurations")
    {
        CHECK(launch_error_message([] { emu::launch({{0}, {64}, 0, "zero"}, [] {}); }).find("at least 1") !=
              std::string::npos);
        CHECK(launch_error_message([] { emu::launch({{1, 1, 1}, {64, 0}, 0, "zero"}, [] {}); }).find("at least 1") !=
              std::string::npos);
        CHECK(launch_error_message([] { emu::launch({{0xFFFFFFFFu}, {2}, 0, "huge"}, [] {}); }).find("2^32") !=
              std::string::npos);
        CHECK(launch_error_message([] {
                  emu::launch({{1}, {1}, 0, "outer"}, [] { emu::launch({{1}, {1}, 0, "inner"}, [] {}); });
              }).find("nested") != std::string::npos);
    }

    TEST_CASE("identity queries outside a kernel throw")
    {
        CHECK_FALSE(emu::in_kernel());
        CHECK_THROWS_AS(emu::thread_idx_x(), std::logic_error);
        CHECK_THROWS_AS(emu::block_idx_y(), std::logic_error);
        CHECK_THROWS_AS(emu::barrier(), std::logic_error);
    }

    TEST_CASE("deadlock between a barrier and a wave collective is reported")
    {
        const std::string m = launch_error_message([] {
            emu::launch({{1}, {64}, 0, "stuck"}, [] {
                if(emu::lane_id() < 32)
                    emu::barrier();
                else
                    (void)emu::shuffle(1, 0);
            });
        });
        CHECK(m.find("deadlock") != std::string::npos);
        CHECK(m.find("'stuck'") != std::string::npos);
        CHECK(m.find("shuffle") != std::string::npos);
        CHECK(m.find("barrier") != std::string::npos);
    }

    TEST_CASE("exceptions thrown by the body are rethrown by launch, lowest block first")
    {
        for(unsigned threads : {1u, 2u})
        {
            worker_threads_guard g(threads);
            std::string what;
            try
            {
                emu::launch({{16}, {128}, 0, "thrower"}, [] {
                    emu::barrier();
                    if(emu::block_idx_x() >= 5 && emu::thread_idx_x() == 7)
                        throw std::runtime_error("boom in block " + std::to_string(emu::block_idx_x()));
                    emu::barrier();
                });
            }
            catch(const std::runtime_error& e)
            {
                what = e.what();
            }
            CHECK(what == "boom in block 5");

            // The emulator is usable again after a failed launch.
            std::vector<int> out = neighbour_kernel(true, 256);
            CHECK(out[0] == 4);
        }
    }

    TEST_CASE("yield lets a spinning thread wait for another wave")
    {
        struct flag_site;
        std::vector<int> out(128, 0);
        int* o = out.data();
        emu::launch({{2}, {128}, 0, "spin"}, [=] {
            volatile int* flag = emu::lds_static<int, 1, flag_site>();
            const int t        = emu::thread_idx_x();
            if(t == 0)
                *flag = 0;
            emu::barrier();
            if(t == 100)
                *flag = 42;
            int spins = 0;
            while(*flag == 0)
            {
                emu::yield();
                ++spins;
            }
            if(emu::block_idx_x() == 1)
                o[t] = *flag + (spins > 0 ? 1000 : 0);
        });
        // Threads 0..99 ran before thread 100 set the flag, so they had to yield.
        for(int t = 0; t < 128; ++t)
            CHECK(out[static_cast<std::size_t>(t)] == (t < 100 ? 1042 : 42));
    }

    TEST_CASE("body may be a plain function")
    {
        static std::atomic<int> calls{0};
        struct f
        {
            static void kernel() { calls.fetch_add(1); }
        };
        calls = 0;
        emu::launch({{3}, {5}, 0, "function"}, f::kernel);
        CHECK(calls.load() == 15);
    }

    TEST_CASE("worker thread setting")
    {
        {
            worker_threads_guard g(3);
            CHECK(emu::worker_threads() == 3);
        }
        CHECK(emu::worker_threads() >= 1);
    }
}
