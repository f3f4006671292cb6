// SPDX-License-Identifier: MIT
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iostream>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "ck_tile/core/numeric/bfloat16.hpp"
#include "ck_tile/core/numeric/half.hpp"
#include "ck_tile/host/check_err.hpp"
#include "ck_tile/host/host_tensor.hpp"

using ck_tile::bf16_t;
using ck_tile::half_t;

// Captures what is written to std::cerr while alive.
struct cerr_capture
{
    std::ostringstream buf;
    std::streambuf* old;
    cerr_capture() : old(std::cerr.rdbuf(buf.rdbuf())) {}
    ~cerr_capture() { std::cerr.rdbuf(old); }
    std::string str() const { return buf.str(); }
};

static int count_lines(const std::string& s) { return static_cast<int>(std::count(s.begin(), s.end(), '\n')); }

TEST_CASE("equal ranges pass silently")
{
    cerr_capture cap;
    std::vector<float> a{1.f, 2.f, -3.f}, b = a;
    CHECK(ck_tile::check_err(a, b));
    ck_tile::HostTensor<int> x({2, 2}), y({2, 2});
    x.SetZero();
    y.SetZero();
    CHECK(ck_tile::check_err(x, y));
    CHECK(cap.str().empty());
}

TEST_CASE("one mismatch fails and is reported with index and values")
{
    std::vector<float> out(100, 1.f), ref(100, 1.f);
    out[42] = 1.5f;
    cerr_capture cap;
    CHECK_FALSE(ck_tile::check_err(out, ref, "my message"));
    const std::string s = cap.str();
    CHECK(s.find("my message") != std::string::npos);
    CHECK(s.find("1 of 100 elements differ") != std::string::npos);
    CHECK(s.find("max error 0.5 at index 42") != std::string::npos);
    CHECK(s.find("[42] out 1.5, ref 1") != std::string::npos);
}

TEST_CASE("at most 5 mismatches are listed; the count and max error are exact")
{
    std::vector<double> out(20, 0.0), ref(20, 0.0);
    for(int i = 0; i < 8; ++i)
        out[static_cast<std::size_t>(2 * i)] = i + 1.0;
    cerr_capture cap;
    CHECK_FALSE(ck_tile::check_err(out, ref));
    const std::string s = cap.str();
    CHECK(s.find("Error: Incorrect results!") != std::string::npos);
    CHECK(s.find("8 of 20 elements differ") != std::string::npos);
    CHECK(s.find("max error 8 at index 14") != std::string::npos);
    CHECK(s.find("[0] out 1") != std::string::npos);
    CHECK(s.find("[8] out 5") != std::string::npos);
    CHECK(s.find("[10] out") == std::string::npos);
    CHECK(s.find("... 3 more") != std::string::npos);
    CHECK(count_lines(s) == 2 + 5 + 1);
}

TEST_CASE("float tolerance: |out - ref| > atol + rtol * |ref|")
{
    cerr_capture cap;
    std::vector<float> ref{1000.f}, close{1000.f + 0.005f}, far{1000.f + 0.02f};
    CHECK(ck_tile::check_err(close, ref)); // 0.005 <= 3e-6 + 1e-5 * 1000 = 0.010003
    CHECK_FALSE(ck_tile::check_err(far, ref));
    CHECK(ck_tile::check_err(far, ref, "", 1e-4, 0.0));
    std::vector<float> zref{0.f}, tiny{2e-6f}, small{5e-6f};
    CHECK(ck_tile::check_err(tiny, zref));
    CHECK_FALSE(ck_tile::check_err(small, zref));
}

TEST_CASE("per-type default tolerances")
{
    constexpr auto f32 = ck_tile::default_tolerance<float>();
    constexpr auto f16 = ck_tile::default_tolerance<half_t>();
    constexpr auto b16 = ck_tile::default_tolerance<bf16_t>();
    constexpr auto i32 = ck_tile::default_tolerance<std::int32_t>();
    CHECK(f32.rtol == 1e-5);
    CHECK(f16.rtol == 1e-3);
    CHECK(b16.rtol == 1e-2);
    CHECK(i32.rtol == 0.0);
    CHECK(i32.atol == 0.0);
    // mixed: the coarser of the two
    CHECK(ck_tile::default_tolerance<half_t, float>().rtol == 1e-3);

    cerr_capture cap;
    // fp16: one ulp at 1.0 (2^-10) passes the fp16 default, fails the fp32 one
    std::vector<half_t> h_out{half_t(1.0f + 0x1p-10f)}, h_ref{half_t(1.0f)};
    CHECK(ck_tile::check_err(h_out, h_ref));
    std::vector<float> f_out{1.0f + 0x1p-10f}, f_ref{1.0f};
    CHECK_FALSE(ck_tile::check_err(f_out, f_ref));
    // half output against a float reference uses the half tolerance
    CHECK(ck_tile::check_err(h_out, f_ref));
    // bf16: one ulp at 1.0 (2^-7) passes the bf16 default, 4 ulps do not
    std::vector<bf16_t> b_out{bf16_t(1.0f + 0x1p-7f)}, b_out4{bf16_t(1.0f + 0x1p-5f)}, b_ref{bf16_t(1.0f)};
    CHECK(ck_tile::check_err(b_out, b_ref));
    CHECK_FALSE(ck_tile::check_err(b_out4, b_ref));
}

TEST_CASE("integers compare exactly")
{
    cerr_capture cap;
    std::vector<std::int8_t> a{1, -2, 127}, b{1, -2, 127}, c{1, -1, 127};
    CHECK(ck_tile::check_err(a, b));
    CHECK_FALSE(ck_tile::check_err(c, b));
    CHECK(cap.str().find("[1] out -1, ref -2") != std::string::npos); // printed as numbers
    std::vector<std::int32_t> big{2000000001}, big_ref{2000000000};
    CHECK_FALSE(ck_tile::check_err(big, big_ref));
    CHECK(ck_tile::check_err(big, big_ref, "", 0, 1)); // explicit atol of 1
    std::vector<std::int64_t> l{std::numeric_limits<std::int64_t>::max()},
        l_ref{std::numeric_limits<std::int64_t>::max() - 1};
    CHECK_FALSE(ck_tile::check_err(l, l_ref)); // not lost in a conversion to double
}

TEST_CASE("size mismatch fails")
{
    cerr_capture cap;
    std::vector<float> a(3), b(4);
    CHECK_FALSE(ck_tile::check_err(a, b, "sizes"));
    CHECK(cap.str().find("size mismatch: out has 3 elements, ref has 4") != std::string::npos);
}

TEST_CASE("NaN and infinity")
{
    cerr_capture cap;
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float inf = std::numeric_limits<float>::infinity();
    std::vector<float> ref{1.f, 2.f}, out_nan{1.f, nan};
    CHECK_FALSE(ck_tile::check_err(out_nan, ref)); // NaN in out, not in ref
    CHECK_FALSE(ck_tile::check_err(ref, out_nan)); // NaN in ref, not in out
    CHECK(ck_tile::check_err(out_nan, out_nan));   // both NaN: agree
    std::vector<float> out_inf{1.f, inf}, ref_inf{1.f, inf};
    CHECK_FALSE(ck_tile::check_err(out_inf, ref));     // inf where ref is finite
    CHECK_FALSE(ck_tile::check_err(out_inf, ref_inf)); // inf in ref: not allowed by default
    CHECK(ck_tile::check_err(out_inf, ref_inf, "", 1e-5, 3e-6, true));
    std::vector<float> out_ninf{1.f, -inf};
    CHECK_FALSE(ck_tile::check_err(out_ninf, ref_inf, "", 1e-5, 3e-6, true));
    std::vector<half_t> h_nan{half_t(1.f), half_t(nan)};
    std::vector<half_t> h_ref{half_t(1.f), half_t(2.f)};
    CHECK_FALSE(ck_tile::check_err(h_nan, h_ref));
    CHECK(cap.str().find("nan") != std::string::npos);
}

TEST_CASE("thresholds from precisions and accumulation count")
{
    // fp16 in/out, fp32 accumulation over 4096 terms: fp16 output rounding dominates (2^-11)
    CHECK(ck_tile::get_relative_threshold<half_t, half_t, float>(4096) == 0x1p-11);
    // fp32 accumulation over 2^16 terms: 2^-24 * 2^16 = 2^-8
    CHECK(ck_tile::get_relative_threshold<half_t, float, float>(65536) == 0x1p-8);
    CHECK(ck_tile::get_relative_threshold<std::int8_t, std::int32_t, std::int32_t>(1000) == 0.0);
    CHECK(ck_tile::get_absolute_threshold<half_t, half_t, float>(100.0, 1) == 0x1p-11 * 128);
    CHECK(ck_tile::get_absolute_threshold<float, float, float>(0.0) == 0.0);
}

TEST_CASE("GEMM thresholds: another summation order passes, an fp16 C rounded through bf16 fails")
{
    // C = A B^T, fp16 inputs, fp32 sums of K products, fp16 C, as the GEMM examples and the naive
    // GEMM tutorial check it (calculate_rtol_atol); the former tutorial check was 1e-2, 1e-2
    constexpr int M = 8, N = 8, K = 256;
    std::vector<half_t> a(M * K), b(N * K);
    for(int i = 0; i < M * K; ++i)
        a[i] = ck_tile::type_convert<half_t>(static_cast<float>((i * 37) % 201) / 100.f - 1.f);
    for(int i = 0; i < N * K; ++i)
        b[i] = ck_tile::type_convert<half_t>(static_cast<float>((i * 53) % 199) / 99.f - 1.f);
    std::vector<half_t> ref(M * N), other_order(M * N), through_bf16(M * N);
    double max_ref = 0;
    for(int m = 0; m < M; ++m)
        for(int n = 0; n < N; ++n)
        {
            float up = 0.f, down = 0.f;
            for(int k = 0; k < K; ++k)
            {
                up += ck_tile::type_convert<float>(a[m * K + k]) * ck_tile::type_convert<float>(b[n * K + k]);
                const int r = K - 1 - k;
                down += ck_tile::type_convert<float>(a[m * K + r]) * ck_tile::type_convert<float>(b[n * K + r]);
            }
            ref[m * N + n]          = ck_tile::type_convert<half_t>(up);
            other_order[m * N + n]  = ck_tile::type_convert<half_t>(down);
            through_bf16[m * N + n] = ck_tile::type_convert<half_t>(
                ck_tile::type_convert<float>(ck_tile::type_convert<bf16_t>(up))); // planted: a bf16 C on the way
            max_ref = std::max(max_ref, std::abs(static_cast<double>(up)));
        }
    const auto [rtol, atol] = ck_tile::calculate_rtol_atol<half_t, half_t, float, half_t>(K, 1, max_ref);
    CHECK(ck_tile::check_err(other_order, ref, "another order", rtol, atol));
    CHECK_FALSE(ck_tile::check_err(through_bf16, ref, "planted: rounded through bf16", rtol, atol));
    CHECK(ck_tile::check_err(through_bf16, ref, "the former 1e-2 let it pass", 1e-2, 1e-2));
}

TEST_CASE("8-bit floats: agreement within rounding steps")
{
    using ck_tile::fp8_t;
    const auto f = [](float v) { return ck_tile::type_convert<fp8_t>(v); };
    // 1.0 and its next representable value (1.125 in E4M3) are one step apart
    std::vector<fp8_t> a{f(1.0f), f(-2.0f), f(0.0f)}, b{f(1.125f), f(-2.0f), f(0.0f)}, c{f(1.25f), f(-2.0f), f(0.0f)};
    CHECK(ck_tile::check_err(a, b));                   // default: one step allowed
    CHECK_FALSE(ck_tile::check_err(a, b, "exact", 0)); // none allowed
    CHECK_FALSE(ck_tile::check_err(a, c));             // two steps
    CHECK(ck_tile::check_err(a, c, "atol", 1, 0.25));  // within atol
    // the smallest positive and the smallest negative subnormal straddle zero: two steps
    std::vector<fp8_t> p{fp8_t::from_raw(0x01)}, n{fp8_t::from_raw(0x81)};
    CHECK_FALSE(ck_tile::check_err(p, n));
    CHECK(ck_tile::check_err(p, n, "two steps", 2));
}

TEST_CASE("quantized outputs: within one rounding step, int8 and 8-bit floats")
{
    using ck_tile::fp8_t;
    const std::vector<std::int8_t> q{-128, 0, 127}, q1{-127, 1, 126}, q2{-126, 0, 127};
    CHECK(ck_tile::check_quantized_err(q, q));
    CHECK(ck_tile::check_quantized_err(q, q1)); // every element one step off
    CHECK_FALSE(ck_tile::check_quantized_err(q, q2));
    const auto f = [](float v) { return ck_tile::type_convert<fp8_t>(v); };
    std::vector<fp8_t> a{f(1.0f), f(-2.0f)}, b{f(1.125f), f(-2.0f)}, c{f(1.25f), f(-2.0f)};
    CHECK(ck_tile::check_quantized_err(a, b));
    CHECK_FALSE(ck_tile::check_quantized_err(a, c));
}
