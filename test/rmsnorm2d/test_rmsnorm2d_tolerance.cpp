// SPDX-License-Identifier: MIT
// The y checks of tile_example_rmsnorm2d_fwd (normalization_tolerance element by element, then
// check_unbiased_rounding, the same calls the example makes) against planted bugs in the mean of
// squares: a divisor of n - 1 instead of n, and a loop that skips the last column. Both passed the
// example's former rtol = atol = 1e-2 (from n = 64 and n = 512 on); they must now fail
// at small sizes, at n = 1024 and beyond, in fp16 and bf16, plain and T5-like, while a correct
// fp32 rmsnorm that sums in another order (64 lanes, then a tree, as the kernel does), rounded to
// the output type, passes. The kernel's own output passes the same checks in
// test_rmsnorm2d_fwd_kernel.cpp.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>
#include "ck_tile/core.hpp"
#include "ck_tile/host.hpp"
#include "ck_tile/host/normalization_tolerance.hpp"
#include "ck_tile/host/reference/reference_rmsnorm2d_fwd.hpp"

using namespace ck_tile;

namespace {

enum class Sum
{
    tree,             // correct: 64 interleaved partial sums (lanes) added as a tree, / n
    unbiased,         // bug: / (n - 1)
    skip_last_column, // bug: the loop stops one column early, / n
};

template <typename T>
HostTensor<T> host_rmsnorm(const HostTensor<T>& x, const HostTensor<T>& gamma, float eps, bool t5, Sum how)
{
    const int M = static_cast<int>(x.get_length(0)), N = static_cast<int>(x.get_length(1));
    HostTensor<T> y({M, N});
    for(int m = 0; m < M; ++m)
    {
        float sq = 0;
        if(how == Sum::tree)
        {
            constexpr int kLanes = 64;
            std::vector<float> lane(kLanes, 0.f);
            for(int n = 0; n < N; ++n)
            {
                const float v = type_convert<float>(x(m, n));
                lane[n % kLanes] += v * v;
            }
            for(int w = 1; w < kLanes; w *= 2)
                for(int l = 0; l + w < kLanes; l += 2 * w)
                    lane[l] += lane[l + w];
            sq = lane[0];
        }
        else
            for(int n = 0; n < (how == Sum::skip_last_column ? N - 1 : N); ++n)
            {
                const float v = type_convert<float>(x(m, n));
                sq += v * v;
            }
        const float inv = 1.f / std::sqrt(sq / static_cast<float>(how == Sum::unbiased ? N - 1 : N) + eps);
        for(int n = 0; n < N; ++n)
        {
            float z = type_convert<float>(x(m, n)) * inv;
            if(t5)
                z = type_convert<float>(type_convert<T>(z));
            y(m, n) = type_convert<T>(z * type_convert<float>(gamma(n)));
        }
    }
    return y;
}

// the example's inputs (uniform in [-0.5, 0.5]) and both of its checks of y
template <typename T>
void planted_bugs_fail(int M, bool t5)
{
    for(int n : {2, 5, 13, 64, 127, 512, 1000, 1024, 2040, 4096})
    {
        CAPTURE(n);
        CAPTURE(t5);
        const float eps = 1e-5f;
        HostTensor<T> x({M, n}), gamma({n});
        FillUniformDistribution<T>{-.5f, .5f, 11939}(x);
        FillUniformDistribution<T>{-.5f, .5f, 11941}(gamma);
        HostTensor<T> y_ref({M, n});
        HostTensor<T> no_ir({0}), no_uq({0, n});
        reference_rmsnorm2d_fwd<T, T, float, T, T, T>(x, gamma, y_ref, no_ir, no_uq, eps, {}, t5 ? 1 : 0);

        const tolerance t =
            normalization_tolerance<T>(n, normalized_magnitude(x, eps, false) * max_abs_value(gamma), t5 ? 2 : 1);
        const auto passes = [&](Sum how) {
            const HostTensor<T> y  = host_rmsnorm(x, gamma, eps, t5, how);
            const std::string msg  = "(a planted bug is expected to fail)";
            const bool elementwise = check_err(y, y_ref, msg, t.rtol, t.atol);
            return check_unbiased_rounding(y, y_ref, n, msg) && elementwise;
        };
        const auto passes_old = [&](Sum how) {
            return check_err(host_rmsnorm(x, gamma, eps, t5, how), y_ref, "", 1e-2, 1e-2);
        };
        CHECK(passes(Sum::tree));
        CHECK_FALSE(passes(Sum::unbiased));
        // with n = 2 the skipped column can be (near) zero: the statistic is then right
        if(n > 2)
            CHECK_FALSE(passes(Sum::skip_last_column));
        // the former check let them through: the n - 1 divisor from n = 64 on, the skipped column
        // from n = 512 on
        if(n >= 64)
            CHECK(passes_old(Sum::unbiased));
        if(n >= 512)
            CHECK(passes_old(Sum::skip_last_column));
    }
}

} // namespace

TEST_CASE("rmsnorm y check: an n - 1 mean of squares and a skipped column fail, a tree sum passes (fp16)")
{
    planted_bugs_fail<half_t>(64, false);
    planted_bugs_fail<half_t>(64, true);
}

TEST_CASE("rmsnorm y check: an n - 1 mean of squares and a skipped column fail, a tree sum passes (bf16)")
{
    planted_bugs_fail<bf16_t>(64, false);
    planted_bugs_fail<bf16_t>(64, true);
}

TEST_CASE("check_unbiased_rounding: one-sided rounding steps fail, balanced ones pass")
{
    // 1000 values; 100 of them one bf16 step up in magnitude: net 100 > 6 sqrt(100) = 60
    HostTensor<bf16_t> ref({1000}), up({1000}), mixed({1000});
    for(int i = 0; i < 1000; ++i)
    {
        const float v = (i % 2 ? 1.f : -1.f) * (1.f + i / 1000.f);
        ref(i)        = type_convert<bf16_t>(v);
        up(i) = mixed(i) = ref(i);
    }
    for(int i = 0; i < 1000; i += 10)
    {
        const float step = (std::fabs(type_convert<float>(ref(i))) >= 1.f ? 0x1p-7f : 0x1p-8f);
        const float v    = type_convert<float>(ref(i));
        up(i)            = type_convert<bf16_t>(v + (v > 0 ? step : -step));
        // every other one down instead: 50 up, 50 down
        mixed(i) = type_convert<bf16_t>(v + ((i / 10) % 2 ? (v > 0 ? step : -step) : (v > 0 ? -step : step)));
    }
    CHECK_FALSE(check_unbiased_rounding(up, ref, 16, "(expected to fail)"));
    CHECK(check_unbiased_rounding(mixed, ref, 16, ""));
}
