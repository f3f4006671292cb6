// SPDX-License-Identifier: MIT
// Fault reports: each case runs in a child process (fork) that is expected to die with one clear
// line on stderr and exit status 1.
#include <doctest/doctest.h>

#include <csignal>
#include <cstdint>
#include <cstdio>
#include <string>

#include <sys/wait.h>
#include <unistd.h>

#include "test_common.hpp"

namespace emu = ck_tile::emu;

namespace {

struct child_result
{
    bool exited = false;
    int status  = -1; // exit status, when exited
    int signal  = 0;  // terminating signal, when not exited
    std::string err;  // what the child wrote on stderr
};

// Runs f() in a child process; the child exits with 0 when f returns.
template <typename F>
child_result run_in_child(F&& f)
{
    std::fflush(stdout);
    std::fflush(stderr);
    int fds[2];
    REQUIRE(pipe(fds) == 0);
    const pid_t pid = fork();
    REQUIRE(pid >= 0);
    if(pid == 0)
    {
        close(fds[0]);
        dup2(fds[1], 2);
        close(fds[1]);
        emu::set_worker_threads(1);
        f();
        _exit(0);
    }
    close(fds[1]);
    child_result r;
    char buf[512];
    ssize_t n;
    while((n = read(fds[0], buf, sizeof(buf))) > 0)
        r.err.append(buf, static_cast<std::size_t>(n));
    close(fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    r.exited = WIFEXITED(status);
    if(r.exited)
        r.status = WEXITSTATUS(status);
    else if(WIFSIGNALED(status))
        r.signal = WTERMSIG(status);
    return r;
}

bool contains(const std::string& s, const char* what) { return s.find(what) != std::string::npos; }

// Recursion the compiler cannot flatten: every level keeps a live 1 KiB buffer.
int deep(int n)
{
    volatile char buf[1024];
    buf[0]               = static_cast<char>(n);
    buf[sizeof(buf) - 1] = static_cast<char>(n);
    if(n == 0)
        return buf[0];
    return deep(n - 1) + buf[sizeof(buf) - 1];
}

} // namespace

TEST_SUITE("faults")
{
    TEST_CASE("reading one element past the end of a device allocation")
    {
        const child_result r = run_in_child([] {
            float* p = static_cast<float*>(emu::device_malloc(256 * sizeof(float)));
            emu::launch({{2}, {64}, 0, "oob_kernel"}, [=] {
                const int i      = emu::block_idx_x() * 64 + emu::thread_idx_x();
                volatile float x = p[i + (emu::block_idx_x() == 1 && emu::thread_idx_x() == 63 ? 129 : 0)];
                (void)x;
            });
        });
        INFO(r.err);
        CHECK(r.exited);
        CHECK(r.status == 1);
        CHECK(contains(r.err, "out-of-bounds"));
        CHECK(contains(r.err, "(0 bytes past the end of a 1024-byte device allocation)"));
        CHECK(contains(r.err, "kernel 'oob_kernel'"));
        CHECK(contains(r.err, "block (1,0,0)"));
        CHECK(contains(r.err, "thread (63,0,0)"));
    }

    TEST_CASE("writing before the start of a device allocation")
    {
        const child_result r = run_in_child([] {
            char* p = static_cast<char*>(emu::device_malloc(1000));
            emu::launch({{1}, {1}, 0, "underflow"}, [=] { *(volatile char*)(p - 4096) = 1; });
        });
        INFO(r.err);
        CHECK(r.status == 1);
        CHECK(contains(r.err, "out-of-bounds global memory access"));
        CHECK(contains(r.err, "bytes before the start of a 1000-byte device allocation"));
    }

    TEST_CASE("host code reading past the end is reported too")
    {
        const child_result r = run_in_child([] {
            int* p         = static_cast<int*>(emu::device_malloc(64 * sizeof(int)));
            volatile int x = p[64 + 3];
            (void)x;
        });
        INFO(r.err);
        CHECK(r.status == 1);
        CHECK(contains(r.err, "(12 bytes past the end of a 256-byte device allocation)"));
        CHECK_FALSE(contains(r.err, "kernel"));
    }

    TEST_CASE("stack overflow in an emulated thread")
    {
        const child_result r = run_in_child([] {
            emu::launch({{1}, {64}, 0, "recursive"}, [] {
                if(emu::thread_idx_x() == 3)
                    (void)deep(100000);
            });
        });
        INFO(r.err);
        CHECK(r.status == 1);
        CHECK(contains(r.err, "stack overflow in an emulated thread (raise CK_TILE_EMU_STACK_KB"));
        CHECK(contains(r.err, "kernel 'recursive'"));
        CHECK(contains(r.err, "thread (3,0,0)"));
    }

    TEST_CASE("LDS access beyond the arch's LDS")
    {
        const child_result r = run_in_child([] {
            emu::launch({{1}, {64}, 256, "lds_oob"}, [] {
                auto* lds                       = static_cast<volatile char*>(emu::dynamic_lds());
                lds[emu::lds_bytes_limit() + 8] = 1;
            });
        });
        INFO(r.err);
        CHECK(r.status == 1);
        CHECK(contains(r.err, "out-of-bounds LDS access"));
        CHECK(contains(r.err, "kernel 'lds_oob'"));
    }

    TEST_CASE("other faults inside a kernel: memory fault, division by zero")
    {
        child_result r = run_in_child([] {
            emu::launch({{1}, {1}, 0, "null_kernel"}, [] {
                volatile int* q = reinterpret_cast<int*>(static_cast<std::uintptr_t>(emu::thread_idx_x() + 16));
                *q              = 1;
            });
        });
        INFO(r.err);
        CHECK(r.status == 1);
        CHECK(contains(r.err, "memory fault"));
        CHECK(contains(r.err, "kernel 'null_kernel'"));

#if defined(__x86_64__) // integer division by zero traps on x86-64 only
        r = run_in_child([] {
            emu::launch({{1}, {1}, 0, "div_kernel"}, [] {
                volatile int zero = emu::thread_idx_x();
                volatile int x    = 7 / zero;
                (void)x;
            });
        });
        INFO(r.err);
        CHECK(r.status == 1);
        CHECK(contains(r.err, "arithmetic exception"));
        CHECK(contains(r.err, "kernel 'div_kernel'"));
#endif
    }

    TEST_CASE("unrelated faults outside kernels keep their default action")
    {
        const child_result r = run_in_child([] {
            void* p = emu::device_malloc(16); // installs the handler
            (void)p;
            volatile std::uintptr_t address           = 16;
            *reinterpret_cast<volatile int*>(address) = 1;
        });
#if !CK_TILE_EMU_ASAN // under AddressSanitizer, its own handler is the previous one and reports it
        CHECK_FALSE(r.exited);
        CHECK(r.signal == SIGSEGV);
#endif
        CHECK_FALSE(contains(r.err, "ck_tile emulator"));
    }

    TEST_CASE("printf output of the faulting workgroup is not lost")
    {
        std::fflush(stdout);
        int fds[2];
        REQUIRE(pipe(fds) == 0);
        const int saved = dup(1);
        dup2(fds[1], 1);
        const child_result r = run_in_child([] {
            int* p = static_cast<int*>(emu::device_malloc(16 * sizeof(int)));
            emu::launch({{1}, {4}, 0, "printer"}, [=] {
                emu::device_printf("t%d\n", emu::thread_idx_x());
                emu::barrier();
                if(emu::thread_idx_x() == 2)
                    p[16] = 0;
            });
        });
        dup2(saved, 1);
        close(saved);
        close(fds[1]);
        std::string out;
        char buf[256];
        ssize_t n;
        while((n = read(fds[0], buf, sizeof(buf))) > 0)
            out.append(buf, static_cast<std::size_t>(n));
        close(fds[0]);
        CHECK(r.status == 1);
        CHECK(out == "t0\nt1\nt2\nt3\n");
    }
}
