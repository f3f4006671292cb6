// SPDX-License-Identifier: MIT
// Micro-benchmarks of the emulator runtime (not a test): raw fiber switch, barrier and wave
// collective costs per work-item, and the time to launch a grid of empty workgroups.
#include <chrono>
#include <cstdio>
#include <vector>

#include "ck_tile/core/arch/emulator/emulator.hpp"

namespace emu    = ck_tile::emu;
namespace detail = ck_tile::emu::detail;

namespace {

using clock_type = std::chrono::steady_clock;

double seconds_since(clock_type::time_point t0)
{
    return std::chrono::duration<double>(clock_type::now() - t0).count();
}

detail::fiber_context g_main_ctx, g_fiber_ctx;

[[noreturn]] void ping_pong_fiber()
{
    detail::context_entered();
    for(;;)
        detail::context_switch(g_fiber_ctx, g_main_ctx);
}

void bench_raw_switch()
{
    detail::stack_pool pool;
    pool.prepare(1);
    detail::context_init(g_fiber_ctx, pool.lo(0), pool.top(0), &ping_pong_fiber);
    const long n = 20'000'000;
    for(long i = 0; i < 1000; ++i)
        detail::context_switch(g_main_ctx, g_fiber_ctx);
    const auto t0 = clock_type::now();
    for(long i = 0; i < n; ++i)
        detail::context_switch(g_main_ctx, g_fiber_ctx);
    const double s = seconds_since(t0);
    std::printf("raw fiber switch:                         %6.2f ns per switch\n",
                s * 1e9 / static_cast<double>(2 * n));
}

void bench_barrier(unsigned threads)
{
    emu::set_worker_threads(1);
    const int iters = 2000;
    const auto t0   = clock_type::now();
    emu::launch({{1}, {threads}, 0, "barrier_loop"}, [] {
        for(int i = 0; i < iters; ++i)
            emu::barrier();
    });
    const double s = seconds_since(t0);
    std::printf("barrier, %4u threads:                     %6.2f ns per thread per barrier\n", threads,
                s * 1e9 / (static_cast<double>(iters) * threads));
}

void bench_shuffle()
{
    emu::set_worker_threads(1);
    const int iters = 2000;
    std::vector<int> out(256);
    int* o        = out.data();
    const auto t0 = clock_type::now();
    emu::launch({{1}, {256}, 0, "shuffle_loop"}, [=] {
        int v = emu::lane_id();
        for(int i = 0; i < iters; ++i)
            v = emu::shuffle(v, emu::lane_id() + 1);
        o[emu::thread_idx_x()] = v;
    });
    const double s = seconds_since(t0);
    std::printf("shuffle, 256 threads:                     %6.2f ns per lane per shuffle\n",
                s * 1e9 / (static_cast<double>(iters) * 256));
}

void bench_empty_launch(unsigned workers)
{
    emu::set_worker_threads(workers);
    auto run = [] { emu::launch({{4096}, {256}, 0, "empty_with_barrier"}, [] { emu::barrier(); }); };
    run(); // warm up: stacks, pool
    double best = 1e9;
    for(int rep = 0; rep < 5; ++rep)
    {
        const auto t0 = clock_type::now();
        run();
        const double s = seconds_since(t0);
        best           = s < best ? s : best;
    }
    std::printf("launch 4096 x 256 empty + barrier, %u thr: %6.2f ms (%.1f ns per work-item)\n", workers, best * 1e3,
                best * 1e9 / (4096.0 * 256));
}

void bench_tiny_launch(unsigned workers)
{
    emu::set_worker_threads(workers);
    const int n = 2000;
    for(int i = 0; i < 100; ++i)
        emu::launch({{workers}, {64}, 0, "tiny"}, [] {});
    const auto t0 = clock_type::now();
    for(int i = 0; i < n; ++i)
        emu::launch({{workers}, {64}, 0, "tiny"}, [] {});
    std::printf("launch overhead (%u x 64 threads), %u thr:  %6.2f us per launch\n", workers, workers,
                seconds_since(t0) * 1e6 / n);
}

} // namespace

int main()
{
    std::printf("emulating %s, LDS %zu bytes\n", emu::arch_name(), emu::lds_bytes_limit());
    bench_raw_switch();
    bench_barrier(64);
    bench_barrier(256);
    bench_barrier(1024);
    bench_shuffle();
    bench_empty_launch(1);
    bench_empty_launch(2);
    bench_tiny_launch(1);
    bench_tiny_launch(2);
    return 0;
}
