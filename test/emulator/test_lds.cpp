// SPDX-License-Identifier: MIT
// LDS tests: the arch's size limit, dynamic and static LDS, garbage fill.
#include <doctest/doctest.h>

#include <atomic>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "test_common.hpp"

namespace emu = ck_tile::emu;
using emu_test::launch_error_message;
using emu_test::worker_threads_guard;

TEST_SUITE("lds")
{
    TEST_CASE("arch facts")
    {
#if defined(CK_TILE_ARCH_GFX950)
        CHECK(emu::lds_bytes_limit() == 160 * 1024);
        CHECK(std::string(emu::arch_name()) == "gfx950");
#else
        CHECK(emu::lds_bytes_limit() == 64 * 1024);
        CHECK(std::string(emu::arch_name()) == "gfx942");
#endif
    }

    TEST_CASE("dynamic LDS above the arch limit is refused, up to the limit works")
    {
        const std::size_t limit = emu::lds_bytes_limit();
        const std::string m     = launch_error_message([&] { emu::launch({{1}, {64}, limit + 1, "lds_hog"}, [] {}); });
        CHECK(m.find("lds_hog") != std::string::npos);
        CHECK(m.find(std::to_string(limit)) != std::string::npos);
        CHECK(m.find(std::to_string(limit + 1)) != std::string::npos);
        CHECK(m.find(emu::arch_name()) != std::string::npos);

        std::vector<std::uint32_t> sums(2);
        std::uint32_t* s = sums.data();
        emu::launch({{2}, {256}, limit, "lds_full"}, [=] {
            auto* lds           = static_cast<std::uint32_t*>(emu::dynamic_lds());
            const std::size_t n = emu::dynamic_lds_bytes() / 4;
            for(std::size_t i = static_cast<std::size_t>(emu::thread_idx_x()); i < n; i += 256)
                lds[i] = static_cast<std::uint32_t>(i);
            emu::barrier();
            if(emu::thread_idx_x() == 0)
            {
                std::uint32_t acc = 0;
                for(std::size_t i = 0; i < n; ++i)
                    acc += lds[i];
                s[emu::block_idx_x()] = acc;
            }
        });
        const std::uint32_t n = static_cast<std::uint32_t>(limit / 4);
        CHECK(sums[0] == n * (n - 1) / 2);
        CHECK(sums[1] == sums[0]);
    }

    TEST_CASE("static LDS is shared by the workgroup and distinct per site")
    {
        struct site_a;
        struct site_b;
        const int threads = 128, blocks = 4;
        std::vector<std::uintptr_t> pa(threads * blocks), pb(threads * blocks);
        std::vector<int> ok(threads * blocks, 0);
        std::uintptr_t* a = pa.data();
        std::uintptr_t* b = pb.data();
        int* o            = ok.data();
        emu::launch({{blocks}, {threads}, 100, "static_lds"}, [=] {
            int* x        = emu::lds_static<int, 128, site_a>();
            double* y     = emu::lds_static<double, 3, site_b>();
            const int t   = emu::thread_idx_x();
            const int idx = emu::block_idx_x() * threads + t;
            a[idx]        = reinterpret_cast<std::uintptr_t>(x);
            b[idx]        = reinterpret_cast<std::uintptr_t>(y);
            x[t]          = t + 1000 * emu::block_idx_x();
            if(t < 3)
                y[t] = 0.5 * t;
            emu::barrier();
            bool good =
                x[(t + 5) % threads] == (t + 5) % threads + 1000 * emu::block_idx_x() && y[t % 3] == 0.5 * (t % 3);
            // Same pointer on a second call.
            good   = good && emu::lds_static<int, 128, site_a>() == x;
            good   = good && emu::is_lds_pointer(x, 128 * sizeof(int)) && emu::is_lds_pointer(y, 3 * sizeof(double)) &&
                     !emu::is_lds_pointer(x, 1 << 20) && emu::is_lds_pointer(emu::dynamic_lds(), 100);
            o[idx] = good ? 1 : 0;
        });
        for(int blk = 0; blk < blocks; ++blk)
            for(int t = 0; t < threads; ++t)
            {
                const int i = blk * threads + t;
                CHECK(ok[static_cast<std::size_t>(i)] == 1);
                CHECK(pa[static_cast<std::size_t>(i)] == pa[static_cast<std::size_t>(blk * threads)]);
                CHECK(pb[static_cast<std::size_t>(i)] == pb[static_cast<std::size_t>(blk * threads)]);
                CHECK(pa[static_cast<std::size_t>(i)] != pb[static_cast<std::size_t>(i)]);
                CHECK(pa[static_cast<std::size_t>(i)] % 16 == 0);
                CHECK(pb[static_cast<std::size_t>(i)] % 16 == 0);
            }
        // The blocks do not overlap each other nor the 100 bytes of dynamic LDS.
        const std::uintptr_t xa = pa[0], yb = pb[0];
        CHECK((xa + 128 * sizeof(int) <= yb || yb + 3 * sizeof(double) <= xa));
        CHECK(!emu::is_lds_pointer(reinterpret_cast<void*>(xa)));
    }

    TEST_CASE("static LDS beyond the limit is refused")
    {
        struct big_site;
        const std::size_t limit = emu::lds_bytes_limit();
        const std::string m     = launch_error_message([&] {
            emu::launch({{1}, {64}, limit - 64, "static_hog"}, [] {
                char* p = emu::lds_static<char, 128, big_site>();
                p[0]    = 1;
            });
        });
        CHECK(m.find("static_hog") != std::string::npos);
        CHECK(m.find(std::to_string(limit)) != std::string::npos);
        CHECK(m.find("static LDS") != std::string::npos);
    }

    TEST_CASE("LDS starts every workgroup with the same garbage")
    {
        worker_threads_guard g(1);
        struct site;
        std::vector<std::uint32_t> seen(8 * 2);
        std::uint32_t* s = seen.data();
        emu::launch({{8}, {64}, 256, "garbage"}, [=] {
            auto* dyn = static_cast<std::uint32_t*>(emu::dynamic_lds());
            auto* st  = emu::lds_static<std::uint32_t, 64, site>();
            if(emu::thread_idx_x() == 0)
            {
                s[emu::block_idx_x() * 2]     = dyn[emu::block_idx_x()];
                s[emu::block_idx_x() * 2 + 1] = st[emu::block_idx_x()];
            }
            emu::barrier();
            // Scribble over everything: the next workgroup must not see it.
            dyn[emu::thread_idx_x()] = 0;
            st[emu::thread_idx_x()]  = 0;
        });
        for(std::uint32_t v : seen)
            CHECK(v == 0xCDCDCDCDu);
    }
}
