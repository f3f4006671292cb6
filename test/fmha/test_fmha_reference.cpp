// SPDX-License-Identifier: MIT
// The FMHA host references on small hand-computed cases: masking to -inf, the row softmax and its
// natural-log LSE (a fully masked row gives zeros and LSE -inf), and dropout's keep rule.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include "ck_tile/core.hpp"
#include "ck_tile/host.hpp"
#include "ck_tile/host/reference/reference_batched_dropout.hpp"
#include "ck_tile/host/reference/reference_batched_masking.hpp"
#include "ck_tile/host/reference/reference_batched_softmax.hpp"
#include "ck_tile/ops/fmha/block/block_masking.hpp"

using namespace ck_tile;

namespace {
constexpr float kInf = std::numeric_limits<float>::infinity();
}

TEST_CASE("masking sets the dropped scores to -inf")
{
    HostTensor<float> s({2, 3, 4});
    s.ForEach([](auto& self, auto idx) { self(idx) = 1.f; });
    // causal from the top-left: keep j <= i
    reference_batched_masking(
        s, make_generic_attention_mask_from_lr_window<GenericAttentionMask<true, false>>(-1, 0, 3, 4));
    for(int b = 0; b < 2; ++b)
        for(int i = 0; i < 3; ++i)
            for(int j = 0; j < 4; ++j)
                CHECK(s(b, i, j) == (j <= i ? 1.f : -kInf));

    // no mask: nothing changes
    HostTensor<half_t> h({1, 2, 2});
    h.ForEach([](auto& self, auto idx) { self(idx) = type_convert<half_t>(2.f); });
    reference_batched_masking(h, GenericAttentionMask<false>{2, 2});
    h.ForEach([](auto& self, auto idx) { CHECK(type_convert<float>(self(idx)) == 2.f); });
}

TEST_CASE("softmax and LSE of hand-computed rows")
{
    HostTensor<float> s({1, 3, 3}), p({1, 3, 3}), lse({1, 3});
    // row 0: 1, 2, 3; row 1: 0, -inf, 0; row 2: all -inf (a row the mask removed)
    const float rows[3][3] = {{1.f, 2.f, 3.f}, {0.f, -kInf, 0.f}, {-kInf, -kInf, -kInf}};
    for(int i = 0; i < 3; ++i)
        for(int j = 0; j < 3; ++j)
            s(0, i, j) = rows[i][j];
    reference_batched_softmax<float, float, float>(s, p, identity{}, lse);

    const double sum0 = std::exp(1.0) + std::exp(2.0) + std::exp(3.0);
    for(int j = 0; j < 3; ++j)
        CHECK(p(0, 0, j) == doctest::Approx(std::exp(1.0 + j) / sum0).epsilon(1e-6));
    CHECK(lse(0, 0) == doctest::Approx(std::log(sum0)).epsilon(1e-6));

    CHECK(p(0, 1, 0) == doctest::Approx(0.5));
    CHECK(p(0, 1, 1) == 0.f);
    CHECK(p(0, 1, 2) == doctest::Approx(0.5));
    CHECK(lse(0, 1) == doctest::Approx(std::log(2.0)).epsilon(1e-6));

    for(int j = 0; j < 3; ++j)
        CHECK(p(0, 2, j) == 0.f);
    CHECK(std::isinf(lse(0, 2)));
    CHECK(lse(0, 2) < 0.f);
}

TEST_CASE("softmax applies the element op to the probabilities and converts")
{
    HostTensor<float> s({1, 1, 2});
    HostTensor<half_t> p({1, 1, 2});
    s(0, 0, 0) = 5.f;
    s(0, 0, 1) = 5.f;
    reference_batched_softmax<float, float, half_t>(s, p, [](float x) { return 3.f * x; });
    CHECK(type_convert<float>(p(0, 0, 0)) == 1.5f);
    CHECK(type_convert<float>(p(0, 0, 1)) == 1.5f);
}

TEST_CASE("bottom-right causal with sq > sk: masked rows give zeros and LSE -inf")
{
    // sq = 3, sk = 2: row i keeps j <= i - 1, so row 0 keeps nothing
    HostTensor<float> s({1, 3, 2}), p({1, 3, 2}), lse({1, 3});
    s.ForEach([](auto& self, auto idx) { self(idx) = 0.25f; });
    reference_batched_masking(
        s, make_generic_attention_mask_from_lr_window<GenericAttentionMask<true, false>>(-1, 0, 3, 2, false));
    reference_batched_softmax<float, float, float>(s, p, identity{}, lse);
    CHECK((p(0, 0, 0) == 0.f && p(0, 0, 1) == 0.f));
    CHECK(lse(0, 0) == -kInf);
    CHECK((p(0, 1, 0) == 1.f && p(0, 1, 1) == 0.f));
    CHECK(lse(0, 1) == doctest::Approx(0.25f));
    CHECK(p(0, 2, 0) == doctest::Approx(0.5));
    CHECK(lse(0, 2) == doctest::Approx(0.25 + std::log(2.0)).epsilon(1e-6));
}

TEST_CASE("softmax over many rows (the threaded path) matches row by row")
{
    const int B = 3, M = 64, N = 2048;
    HostTensor<float> s({B, M, N}), p({B, M, N}), lse({B, M});
    s.ForEach([](auto& self, auto idx) { self(idx) = 0.001f * static_cast<float>((idx[1] * 31 + idx[2] * 7) % 101); });
    reference_batched_softmax<float, float, float>(s, p, identity{}, lse);
    for(int b = 0; b < B; b += 2)
        for(int m = 0; m < M; m += 13)
        {
            double mx = -1e30, sum = 0;
            for(int n = 0; n < N; ++n)
                mx = std::max(mx, double(s(b, m, n)));
            for(int n = 0; n < N; ++n)
                sum += std::exp(double(s(b, m, n)) - mx);
            CHECK(lse(b, m) == doctest::Approx(mx + std::log(sum)).epsilon(1e-5));
            CHECK(p(b, m, 5) == doctest::Approx(std::exp(double(s(b, m, 5)) - mx) / sum).epsilon(1e-5));
        }
}

TEST_CASE("dropout keeps an element iff its random value is <= p_undrop, then scales it")
{
    HostTensor<float> x({1, 1, 5});
    HostTensor<uint8_t> r({1, 1, 5});
    const float xs[5]   = {1.f, 2.f, 3.f, 4.f, 5.f};
    const uint8_t rs[5] = {0, 100, 200, 201, 255};
    for(int j = 0; j < 5; ++j)
    {
        x(0, 0, j) = xs[j];
        r(0, 0, j) = rs[j];
    }
    reference_batched_dropout(x, r, uint8_t{200}, 2.f);
    CHECK(x(0, 0, 0) == 2.f);
    CHECK(x(0, 0, 1) == 4.f);
    CHECK(x(0, 0, 2) == 6.f); // equal to the threshold: kept
    CHECK(x(0, 0, 3) == 0.f);
    CHECK(x(0, 0, 4) == 0.f);

    // p_undrop 255 keeps everything
    HostTensor<half_t> h({1, 1, 2});
    HostTensor<uint8_t> r2({1, 1, 2});
    h(0, 0, 0)  = type_convert<half_t>(1.f);
    h(0, 0, 1)  = type_convert<half_t>(-1.f);
    r2(0, 0, 0) = 255;
    r2(0, 0, 1) = 0;
    reference_batched_dropout(h, r2, uint8_t{255}, 0.5f);
    CHECK(type_convert<float>(h(0, 0, 0)) == 0.5f);
    CHECK(type_convert<float>(h(0, 0, 1)) == -0.5f);
}
