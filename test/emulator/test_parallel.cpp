// SPDX-License-Identifier: MIT
// Results do not depend on the number of worker threads.
#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "test_common.hpp"

namespace emu = ck_tile::emu;
using emu_test::worker_threads_guard;

namespace {

struct run_result
{
    std::vector<float> data;
    std::string printed;
};

void capture(const char* data, std::size_t size, void* user) { static_cast<std::string*>(user)->append(data, size); }

// A kernel with barriers, wave collectives, static and dynamic LDS (including a read of LDS that
// nobody wrote) and printf; every thread writes one value.
run_result run_mixed_kernel(unsigned worker_threads)
{
    worker_threads_guard g(worker_threads);
    struct tile_site;
    const unsigned blocks = 200, threads = 256;
    run_result r;
    r.data.assign(blocks * threads, 0.0f);
    float* out = r.data.data();
    emu::set_printf_sink(&capture, &r.printed);
    emu::launch({{blocks / 8, 4, 2}, {64, 4}, 1024, "mixed"}, [=] {
        const int t = emu::flat_thread_id();
        const int b =
            emu::block_idx_x() + emu::grid_dim_x() * (emu::block_idx_y() + emu::grid_dim_y() * emu::block_idx_z());
        float* tile = emu::lds_static<float, 256, tile_site>();
        auto* dyn   = static_cast<std::uint32_t*>(emu::dynamic_lds());
        float v     = static_cast<float>((b * 131 + t * 17) % 97) * 0.25f;
        tile[t]     = v;
        emu::barrier();
        v += tile[(t * 7 + 3) % 256] * 0.5f;
        v += static_cast<float>(emu::shuffle(static_cast<int>(v), emu::lane_id() * 5 + 1));
        const std::uint64_t bal = emu::ballot(static_cast<int>(v) % 2 == 0);
        v += static_cast<float>(__builtin_popcountll(bal));
        v += static_cast<float>(emu::readfirstlane(t + b));
        const float s = emu::wave_collective<float, float>(v, [](const float* in, float* o) {
            float acc = 0;
            for(int l = 0; l < 64; ++l)
                acc += in[l];
            for(int l = 0; l < 64; ++l)
                o[l] = acc - in[l];
        });
        emu::barrier();
        v += s * 0.001f + static_cast<float>(dyn[t] & 0xff); // LDS nobody wrote: 0xCD
        if(t % 64 == 5)
            emu::device_printf("block %d thread %d value %.3f\n", b, t, static_cast<double>(v));
        out[b * 256 + t] = v;
    });
    emu::set_printf_sink(nullptr);
    return r;
}

} // namespace

TEST_SUITE("parallel")
{
    TEST_CASE("output is bit-identical with 1, 2 and 3 worker threads")
    {
        const run_result serial = run_mixed_kernel(1);
        const run_result two    = run_mixed_kernel(2);
        const run_result three  = run_mixed_kernel(3);
        REQUIRE(serial.data.size() == two.data.size());
        CHECK(std::memcmp(serial.data.data(), two.data.data(), serial.data.size() * sizeof(float)) == 0);
        CHECK(std::memcmp(serial.data.data(), three.data.data(), serial.data.size() * sizeof(float)) == 0);
        CHECK(serial.printed == two.printed);
        CHECK(serial.printed == three.printed);
        CHECK(serial.printed.find("block 0 thread 5 value") == 0);
        CHECK(serial.printed.size() > 200 * 4 * 20);
    }
}
