// SPDX-License-Identifier: MIT
// The differential tests' shared part (DESIGN.md, "How it is tested without hardware", (1)): a kernel
// applies one operation to many inputs, one input per lane, and the host evaluates the same C++
// expression, or where C++ leaves the result undefined the ISA's definition, on the same inputs.
//
//   An operation is a struct:
//     using in = ..., out = ...;           the types of its inputs and result
//     static constexpr int arity;           how many inputs it reads (1 to 3)
//     __host__ __device__ static out f(in a, in b, in c)   the expression: compiled for both archs
//                                                          and for the host
//     static out ref(in a, in b, in c)      optional: the ISA's result where C++'s is undefined
//                                           (shifts >= 32, out-of-range conversions, ...)
//     static constexpr check mode           optional: how results compare (default: bit for bit)
//     static bool is_nan(out r)             optional: whether a result held as bits is a NaN
//     static bool valid(in a, in b, in c)   optional: the inputs on which the result is defined
//     static constexpr bool all_values      optional, for a 16-bit input: every value, not the edges
//   Its inputs (differential_values.hpp): every combination of the type's edge cases (0, -0,
//   denormals, inf, NaN, INT_MIN, 0xffffffff, 31/32/33 for shift amounts, ...), sampled when there
//   are too many, then pseudo-random values from a fixed seed. run<Op> computes it on the vector
//   unit, run<Op, true> on the scalar unit (inputs read into SGPRs).
//
// Each mismatch prints a line (operation, inputs, expected, got); the program prints valid:y when
// every result matched, else valid:n and exits with 1. Each program's run is its ctest test.
#pragma once
#include "differential_values.hpp"

#include <hip/hip_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#define DIFF_HIP_CHECK(expr)                                                                                           \
    do                                                                                                                 \
    {                                                                                                                  \
        const hipError_t e_ = (expr);                                                                                  \
        if(e_ != hipSuccess)                                                                                           \
        {                                                                                                              \
            std::printf("%s:%d: %s: %s\nvalid:n\n", __FILE__, __LINE__, #expr, hipGetErrorString(e_));                 \
            std::exit(1);                                                                                              \
        }                                                                                                              \
    } while(0)

namespace diff {

// failures so far; at most `limit` lines per operation, then a count
struct report
{
    int failures   = 0;
    int operations = 0;
    std::string arch; // gfx942, gfx950
    static constexpr int limit = 8;

    report()
    {
        hipDeviceProp_t p;
        DIFF_HIP_CHECK(hipGetDeviceProperties(&p, 0));
        arch = p.gcnArchName;
        arch = arch.substr(0, arch.find(':'));
        std::printf("differential tests on %s\n", p.gcnArchName);
    }
    // one operation's result: its mismatches so far, `n` results compared
    void done(const char* op, int mismatches, int n)
    {
        ++operations;
        failures += mismatches;
        if(mismatches > limit)
            std::printf("FAIL %s: %d more mismatches\n", op, mismatches - limit);
        if(mismatches > 0)
            std::printf("FAIL %s: %d of %d results differ\n", op, mismatches, n);
    }
    int finish() const
    {
        if(failures == 0)
        {
            std::printf("%d operations, every result as expected: valid:y\n", operations);
            return 0;
        }
        std::printf("%d results or launches failed: valid:n\n", failures);
        return 1;
    }
};

// device memory holding a copy of a host vector
template <typename T>
struct device_array
{
    T* p = nullptr;
    std::size_t n;
    explicit device_array(const std::vector<T>& h) : n(h.size())
    {
        DIFF_HIP_CHECK(hipMalloc(&p, n > 0 ? n * sizeof(T) : 1));
        DIFF_HIP_CHECK(hipMemcpy(p, h.data(), n * sizeof(T), hipMemcpyHostToDevice));
    }
    explicit device_array(std::size_t count) : device_array(std::vector<T>(count)) {}
    ~device_array() { (void)hipFree(p); }
    device_array(const device_array&)            = delete;
    device_array& operator=(const device_array&) = delete;
    std::vector<T> to_host() const
    {
        std::vector<T> h(n);
        DIFF_HIP_CHECK(hipMemcpy(h.data(), p, n * sizeof(T), hipMemcpyDeviceToHost));
        return h;
    }
};

// ---- element-wise operations -------------------------------------------------------------------------
template <typename Op>
__global__ void apply_kernel(const typename Op::in* a, const typename Op::in* b, const typename Op::in* c,
                             typename Op::out* r, int n)
{
    const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if(i < n)
        r[i] = Op::f(a[i], b[i], c[i]);
}

// The same on the scalar unit: each wave reads its lanes' inputs one lane at a time into SGPRs
// (v_readlane), so that the compiler computes Op with SALU instructions (s_add_u32, s_bfe_u32, ...),
// and writes lane k's result back to lane k. For 32- and 64-bit integer inputs; n is a multiple of 64.
template <typename T>
__device__ T read_lane(T v, int k)
{
    if constexpr(sizeof(T) == 8)
        return static_cast<T>(
            static_cast<u64>(static_cast<u32>(__builtin_amdgcn_readlane(static_cast<int>(v), k))) |
            static_cast<u64>(static_cast<u32>(__builtin_amdgcn_readlane(static_cast<int>(v >> 32), k))) << 32);
    else
        return static_cast<T>(__builtin_amdgcn_readlane(static_cast<int>(v), k));
}
template <typename Op>
__global__ void apply_scalar_kernel(const typename Op::in* a, const typename Op::in* b, const typename Op::in* c,
                                    typename Op::out* r)
{
    const int i    = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    const int lane = static_cast<int>(threadIdx.x % 64);
    const auto x = a[i], y = b[i], z = c[i];
    typename Op::out result{};
#pragma clang loop unroll(disable)
    for(int k = 0; k < 64; ++k)
    {
        const auto s = Op::f(read_lane(x, k), read_lane(y, k), read_lane(z, k));
        if(lane == k)
            result = s;
    }
    r[i] = result;
}

// ---- the host side, in parts that depend on the types only (so that a file of many operations
// compiles quickly), and the part that depends on the operation --------------------------------------
template <typename T>
struct inputs
{
    std::vector<T> a, b, c;
};

// every combination of the edge cases (or of all 16-bit values), sampled beyond 65536, then
// `randoms` random ones; only those `valid` accepts; whole blocks of 256
template <typename T>
inputs<T> make_inputs(int arity, bool all_values, bool (*valid)(T, T, T), int randoms)
{
    inputs<T> in;
    auto add = [&](T x, T y, T z) {
        if(!valid(x, y, z))
            return false;
        in.a.push_back(x);
        in.b.push_back(y);
        in.c.push_back(z);
        return true;
    };
    std::vector<T> e = edges<T>();
    if(all_values)
    {
        e.clear();
        for(u32 v = 0; v < 0x10000; ++v)
            e.push_back(static_cast<T>(v));
    }
    const std::size_t m   = e.size();
    const std::size_t all = arity == 1 ? m : arity == 2 ? m * m : m * m * m;
    rng g;
    for(std::size_t k = 0; k < all && k < 65536; ++k)
    {
        const std::size_t j = all <= 65536 ? k : g.next() % all; // every combination, or a sample
        add(e[j % m], e[j / m % m], e[j / m / m % m]);
    }
    for(int k = 0; k < randoms;)
    {
        const T x = random_value<T>(g), y = random_value<T>(g), z = random_value<T>(g);
        k += add(x, y, z) ? 1 : 0;
    }
    while(in.a.size() % 256 != 0) // whole blocks, for the scalar kernel
        add(in.a[0], in.b[0], in.c[0]);
    return in;
}

// compares and prints the mismatches (at most report::limit lines)
template <typename T, typename R>
void check_results(report& rep, const char* name, int arity, const inputs<T>& in, const std::vector<R>& want,
                   const std::vector<R>& got, check mode, bool (*is_nan)(R))
{
    int bad = 0;
    for(std::size_t i = 0; i < want.size(); ++i)
    {
        if(same(want[i], got[i], mode, is_nan(want[i]), is_nan(got[i])) || ++bad > report::limit)
            continue;
        std::printf("FAIL %s: a=%s", name, show(in.a[i]).c_str());
        if(arity > 1)
            std::printf(" b=%s", show(in.b[i]).c_str());
        if(arity > 2)
            std::printf(" c=%s", show(in.c[i]).c_str());
        std::printf(" expected %s got %s\n", show(want[i]).c_str(), show(got[i]).c_str());
    }
    rep.done(name, bad, static_cast<int>(want.size()));
}

template <typename Op>
constexpr check mode_of()
{
    if constexpr(requires { Op::mode; })
        return Op::mode;
    else
        return check::exact;
}
template <typename Op>
bool valid_of(typename Op::in a, typename Op::in b, typename Op::in c)
{
    if constexpr(requires { Op::valid(a, b, c); })
        return Op::valid(a, b, c);
    else
        return true;
}
// whether r is a NaN: Op::is_nan where Op says (a result held as bits), else r != r for floats
template <typename Op>
bool nan_of(typename Op::out r)
{
    if constexpr(requires { Op::is_nan(r); })
        return Op::is_nan(r);
    else if constexpr(is_float_v<typename Op::out>)
        return r != r;
    else
        return false;
}

// runs Op on its edge cases and `randoms` random inputs, on the vector unit (or with Scalar, on the
// scalar unit); prints the mismatches
template <typename Op, bool Scalar = false>
void run(report& rep, const char* name, int randoms = 4096)
{
    using T                   = typename Op::in;
    using R                   = typename Op::out;
    constexpr bool all_values = requires { Op::all_values; };
    const inputs<T> in        = make_inputs<T>(Op::arity, all_values, &valid_of<Op>, randoms);
    const int n               = static_cast<int>(in.a.size());
    device_array<T> da(in.a), db(in.b), dc(in.c);
    device_array<R> dr(in.a.size());
    if constexpr(Scalar)
        hipLaunchKernelGGL(apply_scalar_kernel<Op>, dim3(n / 256), dim3(256), 0, 0, da.p, db.p, dc.p, dr.p);
    else
        hipLaunchKernelGGL(apply_kernel<Op>, dim3(n / 256), dim3(256), 0, 0, da.p, db.p, dc.p, dr.p, n);
    if(const hipError_t e = hipGetLastError(); e != hipSuccess)
    {
        std::printf("FAIL %s: the launch failed: %s\n", name, hipGetErrorString(e));
        ++rep.failures;
        return;
    }
    std::vector<R> want(in.a.size());
    for(int i = 0; i < n; ++i)
    {
        if constexpr(requires { Op::ref(in.a[i], in.b[i], in.c[i]); })
            want[i] = Op::ref(in.a[i], in.b[i], in.c[i]);
        else
            want[i] = Op::f(in.a[i], in.b[i], in.c[i]);
    }
    check_results<T, R>(rep, name, Op::arity, in, want, dr.to_host(), mode_of<Op>(), &nan_of<Op>);
}

// Op on the vector unit and on the scalar unit
template <typename Op>
void run_vs(report& rep, const char* name)
{
    run<Op>(rep, name);
    run<Op, true>(rep, (std::string(name) + " [scalar]").c_str());
}

} // namespace diff

// an operation whose host result is the same expression: DIFF_OP(name, in, out, arity, expression
// of a, b, c)
#define DIFF_OP(NAME, IN, OUT, ARITY, ...)                                                                             \
    struct NAME                                                                                                        \
    {                                                                                                                  \
        using in                   = IN;                                                                               \
        using out                  = OUT;                                                                              \
        static constexpr int arity = ARITY;                                                                            \
        __host__ __device__ static out f([[maybe_unused]] in a, [[maybe_unused]] in b, [[maybe_unused]] in c)          \
        {                                                                                                              \
            return __VA_ARGS__;                                                                                        \
        }                                                                                                              \
    }
