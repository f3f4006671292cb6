// SPDX-License-Identifier: MIT
// The O check of tile_example_fused_moe (fused_moe_tolerance with the example's slice width, the
// same call the example makes) against planted bugs, on a host model of the kernel's arithmetic:
// Y in fp32 with the hidden sum in another order than the reference's, rounded to T; per expert
// and per slice of 256 intermediate columns a partial w * Y D^T in fp32, rounded to T and added
// into O with a rounding to T per add, as the atomic adds do. The correct model must pass; a
// first GEMM that drops one hidden column and a second GEMM that drops one intermediate column
// must fail. At fp16 and hidden 65536 the dropped hidden column moved O by less than the former
// tolerance (1e-2 max|O| + 1e-2 |O_ref|) allowed: the test shows the old check accepting it. The
// kernel's own output passes the same check in the example's cases.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <vector>
#include "ck_tile/core.hpp"
#include "ck_tile/host.hpp"
#include "ck_tile/host/fused_moe_tolerance.hpp"
#include "ck_tile/host/reference/reference_fused_moe.hpp"
#include "ck_tile/ops/elementwise/unary_element_wise_operation.hpp"

using namespace ck_tile;

namespace {

constexpr int kSlice = 256; // the example's block_n0: intermediate columns per atomic add

enum class Bug
{
    none,
    skip_hidden_column, // the first GEMM's K loop stops one hidden column early
    skip_interm_column, // the second GEMM's K loop stops one intermediate column early
};

struct Problem
{
    int tokens, experts, topk, hidden, interm;
};

template <typename T>
struct Data
{
    HostTensor<T> a, g, d;
    HostTensor<index_t> ids, eids; // one sorted row per (token, slot): block_m 1
    HostTensor<float> w;
};

template <typename T>
Data<T> make_data(const Problem& p)
{
    const int rows = p.tokens * p.topk;
    Data<T> x{HostTensor<T>({p.tokens, p.hidden}),
              HostTensor<T>({p.experts, p.interm, p.hidden}),
              HostTensor<T>({p.experts, p.hidden, p.interm}),
              HostTensor<index_t>({rows}),
              HostTensor<index_t>({rows}),
              HostTensor<float>({rows})};
    FillUniformDistribution<T>{-.5f, .5f, 11939}(x.a);
    FillUniformDistribution<T>{-.5f, .5f, 11940}(x.g);
    FillUniformDistribution<T>{-.5f, .5f, 11941}(x.d);
    HostTensor<float> raw({rows});
    FillUniformDistribution<float>{1e-3f, 1.f, 11942}(raw);
    for(int t = 0; t < p.tokens; ++t)
    {
        float sum = 0;
        for(int s = 0; s < p.topk; ++s)
            sum += raw(t * p.topk + s);
        for(int s = 0; s < p.topk; ++s)
        {
            const int r = t * p.topk + s;
            x.ids(r)    = t;
            x.eids(r)   = (t * p.topk + s) % p.experts;
            x.w(r)      = raw(r) / sum; // the weights of a token sum to 1, as the example's
        }
    }
    return x;
}

// the kernel's arithmetic on the host (gate only, gelu), with `bug` planted
template <typename T>
HostTensor<T> host_kernel(const Problem& p, const Data<T>& x, Bug bug)
{
    const element_wise::FastGelu act{};
    HostTensor<T> o({p.tokens, p.hidden});
    for(auto& v : o.mData)
        v = type_convert<T>(0.f);
    std::vector<float> y(p.interm);
    const int hidden_used = bug == Bug::skip_hidden_column ? p.hidden - 1 : p.hidden;
    const int interm_used = bug == Bug::skip_interm_column ? p.interm - 1 : p.interm;
    for(int r = 0; r < p.tokens * p.topk; ++r)
    {
        const int t = x.ids(r), e = x.eids(r);
        for(int j = 0; j < p.interm; ++j)
        {
            // 64 interleaved fp32 partial sums (lanes), then added up: another order than the
            // reference's
            float lane[64] = {};
            for(int c = 0; c < hidden_used; ++c)
                lane[c % 64] += type_convert<float>(x.a(t, c)) * type_convert<float>(x.g(e, j, c));
            float gate = 0;
            for(float l : lane)
                gate += l;
            y[j] = type_convert<float>(type_convert<T>(act(gate)));
        }
        for(int j0 = 0; j0 < p.interm; j0 += kSlice)
            for(int c = 0; c < p.hidden; ++c)
            {
                float s = 0;
                for(int j = j0; j < std::min(j0 + kSlice, interm_used); ++j)
                    s += y[j] * type_convert<float>(x.d(e, c, j));
                // the partial rounded to T, then the atomic add rounds the running sum to T
                const T q = type_convert<T>(x.w(r) * s);
                o(t, c)   = type_convert<T>(type_convert<float>(o(t, c)) + type_convert<float>(q));
            }
    }
    return o;
}

struct Outcome
{
    bool correct_passes, hidden_passes, interm_passes, hidden_passes_old;
};

template <typename T>
Outcome run(const Problem& p)
{
    const Data<T> x = make_data<T>(p);
    HostTensor<T> o_ref({p.tokens, p.hidden});
    reference_fused_moe<float>(x.a, x.g, x.d, o_ref, x.ids, x.w, x.eids, p.tokens * p.topk, 1, true,
                               element_wise::FastGelu{});
    double max_ref = 0;
    for(const auto& v : o_ref.mData)
        max_ref = std::max(max_ref, std::fabs(static_cast<double>(type_convert<float>(v))));
    const tolerance t = fused_moe_tolerance<T>(fused_moe_adds_per_element(p.topk, p.interm, kSlice), max_ref);
    const auto check  = [&](Bug bug, double rtol, double atol) {
        return check_err(host_kernel(p, x, bug), o_ref, "(a planted bug is expected to fail)", rtol, atol);
    };
    // the example's former check: rtol 1e-2, atol max(1e-2, sqrt(n_adds) u) max(1, max|O|)
    const double u       = std::is_same_v<T, bf16_t> ? 0x1p-8 : 0x1p-11;
    const double n_adds  = fused_moe_adds_per_element(p.topk, p.interm, kSlice);
    const double old_tol = std::max(1e-2, std::sqrt(n_adds) * u) * std::max(1.0, max_ref);
    return {check(Bug::none, t.rtol, t.atol), check(Bug::skip_hidden_column, t.rtol, t.atol),
            check(Bug::skip_interm_column, t.rtol, t.atol), check(Bug::skip_hidden_column, 1e-2, old_tol)};
}

} // namespace

TEST_CASE("fused MoE O check: a dropped hidden or intermediate column fails, the kernel's roundings pass")
{
    // two experts per token and 2 or 3 slices: 4 to 6 atomic adds per element, as in the example's
    // cases; interm 520 leaves a last slice of 8 columns
    for(const Problem& p : {Problem{32, 8, 2, 256, 512}, Problem{33, 3, 2, 64, 520}, Problem{16, 4, 2, 1024, 256}})
    {
        CAPTURE(p.hidden);
        CAPTURE(p.interm);
        const Outcome h = run<half_t>(p);
        CHECK(h.correct_passes);
        CHECK_FALSE(h.hidden_passes);
        CHECK_FALSE(h.interm_passes);
        const Outcome b = run<bf16_t>(p);
        CHECK(b.correct_passes);
        CHECK_FALSE(b.hidden_passes);
        CHECK_FALSE(b.interm_passes);
    }
}

TEST_CASE("fused MoE O check: at fp16 and a large hidden size a dropped hidden column passed the former check")
{
    // one hidden column of 65536 moves each gate by ~1/256 of its size: O moves by ~0.7e-2 of
    // max|O|, several fp16 ulps, but below the former 1e-2 floor
    const Problem p{4, 2, 1, 65536, 256};
    const Outcome h = run<half_t>(p);
    CHECK(h.correct_passes);
    CHECK_FALSE(h.hidden_passes);
    CHECK(h.hidden_passes_old);
}

TEST_CASE("fused MoE O check: the tolerance counts ulps of the largest output")
{
    // 2 adds: 4 roundings, all in one direction at worst (2 ulps); 50 adds: sqrt(100) = 10 ulps
    CHECK(fused_moe_tolerance<half_t>(2, 10.0).atol == doctest::Approx(2 * 0x1p-7).epsilon(1e-6));
    CHECK(fused_moe_tolerance<bf16_t>(2, 30.75).atol == doctest::Approx(2 * 0x1p-3).epsilon(1e-6));
    CHECK(fused_moe_tolerance<bf16_t>(50, 1.0).atol == doctest::Approx(10 * 0x1p-7).epsilon(1e-6));
    CHECK(fused_moe_tolerance<half_t>(4, 60.25).rtol == 0);
    CHECK(fused_moe_adds_per_element(5, 1024, 256) == 20);
    CHECK(fused_moe_adds_per_element(2, 520, 256) == 6);
}
