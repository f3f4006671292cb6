// SPDX-License-Identifier: MIT
// Device printf: per-workgroup buffering, deterministic order, the opt-in printf macro.
#include <doctest/doctest.h>

#include <cstdio>
#include <string>

#include <unistd.h>

#include "test_common.hpp"
// Last, as a source that opts in does: from here on `printf` in this file is device printf.
#include "ck_tile/core/arch/printf_capture.hpp"

namespace emu = ck_tile::emu;
using emu_test::worker_threads_guard;

namespace {

void capture(const char* data, std::size_t size, void* user) { static_cast<std::string*>(user)->append(data, size); }

std::string expected_two_phase(int blocks, int threads)
{
    std::string s;
    char line[64];
    for(int b = 0; b < blocks; ++b)
        for(const char* phase : {"first", "second"})
            for(int t = 0; t < threads; ++t)
            {
                std::snprintf(line, sizeof(line), "b%d t%d %s\n", b, t, phase);
                s += line;
            }
    return s;
}

std::string run_two_phase(int blocks, int threads)
{
    std::string got;
    emu::set_printf_sink(&capture, &got);
    emu::launch({{static_cast<unsigned>(blocks)}, {static_cast<unsigned>(threads)}, 0, "printer"}, [] {
        printf("b%d t%d %s\n", emu::block_idx_x(), emu::thread_idx_x(), "first");
        emu::barrier();
        std::printf("b%d t%d %s\n", emu::block_idx_x(), emu::thread_idx_x(), "second");
    });
    emu::set_printf_sink(nullptr);
    return got;
}

} // namespace

TEST_SUITE("printf")
{
    TEST_CASE("workgroup output is contiguous and ordered by thread, whatever the thread count")
    {
        const std::string expect = expected_two_phase(9, 70);
        {
            worker_threads_guard g(1);
            CHECK(run_two_phase(9, 70) == expect);
        }
        {
            worker_threads_guard g(2);
            for(int i = 0; i < 3; ++i)
                CHECK(run_two_phase(9, 70) == expect);
        }
    }

    TEST_CASE("long lines and return values")
    {
        std::string got;
        emu::set_printf_sink(&capture, &got);
        const std::string long_text(1000, 'x');
        emu::launch({{1}, {2}, 0, "long"}, [&] {
            const int n = printf("%s|%d\n", long_text.c_str(), emu::thread_idx_x());
            if(n != 1003)
                printf("bad return value %d\n", n);
        });
        emu::set_printf_sink(nullptr);
        CHECK(got == long_text + "|0\n" + long_text + "|1\n");
    }

    TEST_CASE("default sink is stdout, in order with host output")
    {
        std::fflush(stdout);
        std::FILE* tmp = std::tmpfile();
        REQUIRE(tmp != nullptr);
        const int saved = dup(1);
        dup2(fileno(tmp), 1);
        printf("host before\n"); // outside a kernel: printed at once
        {
            worker_threads_guard g(2);
            emu::launch({{3}, {2}, 0, "to_stdout"},
                        [] { printf("k b%d t%d\n", emu::block_idx_x(), emu::thread_idx_x()); });
        }
        std::printf("host after\n");
        std::fflush(stdout);
        dup2(saved, 1);
        close(saved);
        std::rewind(tmp);
        std::string got;
        char buf[256];
        std::size_t n;
        while((n = std::fread(buf, 1, sizeof(buf), tmp)) > 0)
            got.append(buf, n);
        std::fclose(tmp);
        CHECK(got == "host before\nk b0 t0\nk b0 t1\nk b1 t0\nk b1 t1\nk b2 t0\nk b2 t1\nhost after\n");
    }
}
