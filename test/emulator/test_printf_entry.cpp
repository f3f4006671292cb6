// SPDX-License-Identifier: MIT
// CK_TILE_PRINTF through the library's own headers: device printf in kernels without any macro on
// the name `printf` (the library leaves it alone unless a source includes printf_capture.hpp).
#include <doctest/doctest.h>

#include <cstdio>
#include <string>

#include "ck_tile/core.hpp"
#include "ck_tile/host/kernel_launch.hpp"
#include "test_common.hpp"

#if defined(printf)
#error "the ck_tile headers must not define a printf macro"
#endif

namespace emu = ck_tile::emu;
using emu_test::worker_threads_guard;

namespace {

void capture(const char* data, std::size_t size, void* user) { static_cast<std::string*>(user)->append(data, size); }

struct printing_kernel
{
    void operator()(int tag) const
    {
        CK_TILE_PRINTF("%d: b%d t%d\n", tag, ck_tile::get_block_id(), ck_tile::get_thread_id());
        ck_tile::block_sync_lds();
        CK_TILE_PRINTF("%d: b%d t%d after\n", tag, ck_tile::get_block_id(), ck_tile::get_thread_id());
    }
};

} // namespace

TEST_SUITE("printf")
{
    TEST_CASE("CK_TILE_PRINTF in a kernel: one piece per workgroup, in order")
    {
        std::string expect;
        char line[64];
        for(int b = 0; b < 5; ++b)
            for(const char* phase : {"", " after"})
                for(int t = 0; t < 3; ++t)
                {
                    std::snprintf(line, sizeof(line), "7: b%d t%d%s\n", b, t, phase);
                    expect += line;
                }
        (void)hipGetLastError(); // launch_kernel checks it: drop what earlier tests left there
        for(unsigned threads : {1u, 2u})
        {
            worker_threads_guard g(threads);
            std::string got;
            emu::set_printf_sink(&capture, &got);
            ck_tile::launch_kernel(ck_tile::stream_config{},
                                   ck_tile::make_kernel<64>(printing_kernel{}, dim3(5), dim3(3), 0, 7));
            emu::set_printf_sink(nullptr);
            CHECK(got == expect);
        }
    }

    TEST_CASE("plain printf is the C library's")
    {
        int (*const p)(const char*, ...) = &printf;
        const bool is_std                = p == &std::printf;
        CHECK(is_std);
    }
}
