// SPDX-License-Identifier: MIT
// What one CPU core of this machine does on the work of a bench case, measured in the same bench
// run as the case (ck_tile_nox/reference.py compiles this file with -O3 -march=native and runs it):
//
//   bench_reference memcpy BYTES    std::memcpy of BYTES between two buffers; GB/s counts the
//                                   bytes read and the bytes written, as the copy kernels do
//   bench_reference gemm M N K      C = A B in fp32, row-major, the i-k-j triple loop (the compiler
//                                   vectorises the inner j loop); TFlops counts 2 M N K
//
// Each measurement repeats the work until a batch lasts at least 50 ms, takes five batches and
// prints the median batch's time per repetition as `Perf: X ms, Y GB/s` or `Perf: X ms, Y TFlops`
// (the kernels' own format, so that the bench reads both the same way).
#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

using clock_type = std::chrono::steady_clock;

// Keeps the compiler from dropping work whose result is never read.
void keep(const void* p) { asm volatile("" : : "r"(p) : "memory"); }

template <typename Work>
double median_ms_per_rep(Work work)
{
    long reps = 1;
    for(;;) // grow the batch until it lasts 50 ms
    {
        const auto t0 = clock_type::now();
        for(long i = 0; i < reps; ++i)
            work();
        const double s = std::chrono::duration<double>(clock_type::now() - t0).count();
        if(s >= 0.05 || reps >= (1L << 30))
            break;
        reps *= 2;
    }
    std::vector<double> ms;
    for(int b = 0; b < 5; ++b)
    {
        const auto t0 = clock_type::now();
        for(long i = 0; i < reps; ++i)
            work();
        ms.push_back(std::chrono::duration<double, std::milli>(clock_type::now() - t0).count() / reps);
    }
    std::sort(ms.begin(), ms.end());
    return ms[2];
}

bool positive(const char* s, long& out)
{
    char* end = nullptr;
    out       = std::strtol(s, &end, 10);
    return end != s && *end == '\0' && out > 0;
}

int usage()
{
    std::fprintf(stderr, "usage: bench_reference memcpy BYTES | gemm M N K (positive integers)\n");
    return 2;
}

} // namespace

int main(int argc, char** argv)
{
    const std::string what = argc > 1 ? argv[1] : "";
    if(what == "memcpy" && argc == 3)
    {
        long bytes = 0;
        if(!positive(argv[2], bytes))
            return usage();
        std::vector<char> src(static_cast<std::size_t>(bytes), 1), dst(static_cast<std::size_t>(bytes), 0);
        const double ms = median_ms_per_rep([&] {
            std::memcpy(dst.data(), src.data(), src.size());
            keep(dst.data());
        });
        std::printf("memcpy %ld bytes, one core\nPerf: %g ms, %g GB/s\n", bytes, ms, 2.0 * bytes / 1e6 / ms);
        return 0;
    }
    if(what == "gemm" && argc == 5)
    {
        long m = 0, n = 0, k = 0;
        if(!positive(argv[2], m) || !positive(argv[3], n) || !positive(argv[4], k))
            return usage();
        std::vector<float> a(static_cast<std::size_t>(m * k)), b(static_cast<std::size_t>(k * n)),
            c(static_cast<std::size_t>(m * n));
        for(std::size_t i = 0; i < a.size(); ++i)
            a[i] = static_cast<float>(i % 7) * 0.25f;
        for(std::size_t i = 0; i < b.size(); ++i)
            b[i] = static_cast<float>(i % 5) * 0.5f;
        const double ms = median_ms_per_rep([&] {
            std::fill(c.begin(), c.end(), 0.0f);
            for(long i = 0; i < m; ++i)
                for(long kk = 0; kk < k; ++kk)
                {
                    const float aik = a[static_cast<std::size_t>(i * k + kk)];
                    float* ci       = c.data() + i * n;
                    const float* bk = b.data() + kk * n;
                    for(long j = 0; j < n; ++j)
                        ci[j] += aik * bk[j];
                }
            keep(c.data());
        });
        std::printf("fp32 ikj gemm %ld x %ld x %ld, one core\nPerf: %g ms, %g TFlops\n", m, n, k, ms,
                    2.0 * m * n * k / 1e9 / ms);
        return 0;
    }
    return usage();
}
