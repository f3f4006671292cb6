// SPDX-License-Identifier: MIT
// The y check of tile_example_layernorm2d_fwd (normalization_tolerance with normalization_scale,
// the same calls the example makes) against planted bugs: the statistics of a Welford that skips
// the last column, and a variance divided by n - 1 instead of n. Both passed the example's former
// rtol = atol = 1e-2 (the n - 1 variance at every size, the skipped column from n ~ 1000 on); the
// check must reject them at small sizes and at n = 1024, and still accept a correct fp32 layernorm
// that reduces in another order (per-lane Welford states merged as a tree, as the kernel does),
// rounded once to fp16 / bf16. The kernel's own output passes the same check in
// test_layernorm2d.cpp.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>
#include "ck_tile/core.hpp"
#include "ck_tile/host.hpp"
#include "ck_tile/host/normalization_tolerance.hpp"
#include "ck_tile/host/reference/reference_layernorm2d_fwd.hpp"
#include "ck_tile/ops/welford/thread/thread_welford.hpp"

using namespace ck_tile;

namespace {

enum class Stats
{
    tree,              // correct: 64 interleaved Welford states (lanes) merged pairwise
    skip_last_column,  // bug: the Welford loop stops one column early
    unbiased_variance, // bug: m2 / (n - 1)
};

// layernorm of every row in fp32 with the statistics of `how`, y rounded once to T
template <typename T>
HostTensor<T> host_layernorm(const HostTensor<T>& x, const HostTensor<T>& gamma, const HostTensor<T>& beta, float eps,
                             Stats how)
{
    const int M = static_cast<int>(x.get_length(0)), N = static_cast<int>(x.get_length(1));
    HostTensor<T> y({M, N});
    for(int m = 0; m < M; ++m)
    {
        float mean = 0, m2 = 0;
        if(how == Stats::tree)
        {
            constexpr int kLanes = 64;
            std::vector<float> lm(kLanes, 0.f), lv(kLanes, 0.f);
            std::vector<int> lc(kLanes, 0);
            for(int n = 0; n < N; ++n)
                welford_update(lm[n % kLanes], lv[n % kLanes], type_convert<float>(x(m, n)), ++lc[n % kLanes]);
            for(int w = 1; w < kLanes; w *= 2)
                for(int l = 0; l + w < kLanes; l += 2 * w)
                    welford_merge(lm[l], lv[l], lc[l], lm[l + w], lv[l + w], lc[l + w]);
            mean = lm[0];
            m2   = lv[0];
        }
        else
        {
            const int count = how == Stats::skip_last_column ? N - 1 : N;
            for(int n = 0; n < count; ++n)
                welford_update(mean, m2, type_convert<float>(x(m, n)), n + 1);
        }
        // the skipped column divides by its count, n - 1, as a loop bound bug would
        const int divisor   = how == Stats::tree ? N : N - 1;
        const float inv_std = 1.f / std::sqrt(m2 / static_cast<float>(divisor) + eps);
        for(int n = 0; n < N; ++n)
            y(m, n) = type_convert<T>((type_convert<float>(x(m, n)) - mean) * inv_std * type_convert<float>(gamma(n)) +
                                      type_convert<float>(beta(n)));
    }
    return y;
}

struct Outcome
{
    bool tree_passes, skip_passes, unbiased_passes, skip_passes_old, unbiased_passes_old;
};

// the example's inputs (uniform in [-0.5, 0.5]) and its check of y, for each way of computing y
template <typename T>
Outcome run(int M, int N)
{
    const float eps = 1e-5f;
    HostTensor<T> x({M, N}), gamma({N}), beta({N});
    FillUniformDistribution<T>{-.5f, .5f, 11939}(x);
    FillUniformDistribution<T>{-.5f, .5f, 11942}(gamma);
    FillUniformDistribution<T>{-.5f, .5f, 11943}(beta);
    HostTensor<T> y_ref({M, N});
    HostTensor<float> none({0});
    reference_layernorm2d_fwd<T, T, T, float, T, float, float>(x, gamma, beta, y_ref, none, none, eps);

    const tolerance t = normalization_tolerance<T>(N, normalization_scale(x, gamma, &beta, eps, true));
    const auto check  = [&](Stats how, double rtol, double atol) {
        return check_err(host_layernorm(x, gamma, beta, eps, how), y_ref, "(a planted bug is expected to fail)", rtol,
                         atol);
    };
    return {check(Stats::tree, t.rtol, t.atol), check(Stats::skip_last_column, t.rtol, t.atol),
            check(Stats::unbiased_variance, t.rtol, t.atol), check(Stats::skip_last_column, 1e-2, 1e-2),
            check(Stats::unbiased_variance, 1e-2, 1e-2)};
}

template <typename T>
void planted_bugs_fail(int M)
{
    for(int n : {2, 5, 13, 64, 127, 512, 1000, 1024, 2040, 4096})
    {
        CAPTURE(n);
        const Outcome o = run<T>(M, n);
        CHECK(o.tree_passes);
        CHECK_FALSE(o.skip_passes);
        CHECK_FALSE(o.unbiased_passes);
        // the former tolerance let these bugs through: the n - 1 variance at every size here from
        // 64 on, the skipped column at n >= 1000. Beyond n ~ 6000 both move y (by ~1/n of its
        // normalized part) less than the sqrt(n) accumulation term, and the check cannot see them.
        if(n >= 1000)
        {
            CHECK(o.skip_passes_old);
            CHECK(o.unbiased_passes_old);
        }
    }
}

} // namespace

TEST_CASE("layernorm y check: a skipped column and an n - 1 variance fail, a reordered reduction passes (fp16)")
{
    planted_bugs_fail<half_t>(64);
}

TEST_CASE("layernorm y check: a skipped column and an n - 1 variance fail, a reordered reduction passes (bf16)")
{
    planted_bugs_fail<bf16_t>(64);
}

TEST_CASE("layernorm y check: the tolerance is one ulp of y plus a sqrt(n) accumulation term")
{
    // fp16: one ulp relative 2^-10; bf16 2^-7; the absolute part grows as sqrt(n)
    CHECK(normalization_tolerance<half_t>(1024, 1.0).rtol == 0x1p-10);
    CHECK(normalization_tolerance<bf16_t>(1024, 1.0).rtol == 0x1p-7);
    const double a1 = normalization_tolerance<float>(1024, 1.0).atol;
    const double a4 = normalization_tolerance<float>(4096, 1.0).atol;
    CHECK(a4 / a1 == doctest::Approx((8 * 64 + 4) / (8 * 32 + 4.0)).epsilon(1e-6));
    CHECK(normalization_tolerance<float>(1024, 2.0).atol == doctest::Approx(2 * a1).epsilon(1e-6));
}
