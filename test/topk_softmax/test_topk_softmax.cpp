// SPDX-License-Identifier: MIT
// reference_topk_softmax on hand-computed rows (ties, k = e, strides, sigmoid), and the ranking key
// of TopkSoftmaxWarpPerRowPolicy: it orders every fp16 and bf16 value as the floats compare.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>
#include "ck_tile/host.hpp"
#include "ck_tile/host/reference/reference_topk_softmax.hpp"
#include "ck_tile/ops/topk_softmax.hpp"

using namespace ck_tile;

namespace {

HostTensor<half_t> rows(const std::vector<std::vector<float>>& v, std::size_t stride = 0)
{
    const std::size_t e = v[0].size();
    HostTensor<half_t> x({v.size(), e}, {stride ? stride : e, std::size_t{1}});
    for(std::size_t r = 0; r < v.size(); ++r)
        for(std::size_t c = 0; c < e; ++c)
            x(r, c) = type_convert<half_t>(v[r][c]);
    return x;
}

} // namespace

TEST_CASE("softmax then top k, largest first")
{
    // row 0: softmax of (0, ln 2, ln 4 ... as 0, 1, 2) computed by hand: exp(x - 2) / sum
    const auto x = rows({{0.f, 2.f, 1.f, -1.f}, {3.f, -2.f, 5.f, 4.f}});
    HostTensor<float> w({2, 2});
    HostTensor<int32_t> idx({2, 2});
    reference_topk_softmax(x, w, idx);
    const float s0 = std::exp(-2.f) + 1.f + std::exp(-1.f) + std::exp(-3.f);
    CHECK(idx(0, 0) == 1);
    CHECK(idx(0, 1) == 2);
    CHECK(w(0, 0) == doctest::Approx(1.f / s0).epsilon(1e-6));
    CHECK(w(0, 1) == doctest::Approx(std::exp(-1.f) / s0).epsilon(1e-6));
    const float s1 = std::exp(-2.f) + std::exp(-7.f) + 1.f + std::exp(-1.f);
    CHECK(idx(1, 0) == 2);
    CHECK(idx(1, 1) == 3);
    CHECK(w(1, 0) == doctest::Approx(1.f / s1).epsilon(1e-6));
    CHECK(w(1, 1) == doctest::Approx(std::exp(-1.f) / s1).epsilon(1e-6));
}

TEST_CASE("equal logits rank by the lower index; -0 equals +0")
{
    const auto x = rows({{1.f, 3.f, 1.f, 3.f, 2.f, 3.f}, {-0.f, 0.f, -1.f, -0.f, -1.f, -2.f}});
    HostTensor<float> w({2, 5});
    HostTensor<int32_t> idx({2, 5});
    reference_topk_softmax(x, w, idx);
    const std::vector<int32_t> want0{1, 3, 5, 4, 0}, want1{0, 1, 3, 2, 4};
    for(std::size_t i = 0; i < 5; ++i)
    {
        CHECK(idx(0, i) == want0[i]);
        CHECK(idx(1, i) == want1[i]);
    }
    CHECK(w(0, 0) == w(0, 1)); // equal logits, equal weights
    CHECK(w(0, 1) == w(0, 2));
    CHECK(w(1, 0) == doctest::Approx(1.f / (3.f + 2.f * std::exp(-1.f) + std::exp(-2.f))).epsilon(1e-6));
}

TEST_CASE("k = e: the whole row sorted, weights summing to 1")
{
    const auto x = rows({{0.5f, -4.f, 2.f, 2.f, -0.25f}});
    HostTensor<float> w({1, 5});
    HostTensor<int32_t> idx({1, 5});
    reference_topk_softmax(x, w, idx);
    const std::vector<int32_t> want{2, 3, 0, 4, 1};
    float sum = 0.f;
    for(std::size_t i = 0; i < 5; ++i)
    {
        CHECK(idx(0, i) == want[i]);
        sum += w(0, i);
    }
    CHECK(sum == doctest::Approx(1.f).epsilon(1e-6));
}

TEST_CASE("one expert: weight 1 (softmax) or sigmoid of the logit")
{
    const auto x = rows({{-3.f}, {0.f}});
    HostTensor<float> w({2, 1});
    HostTensor<int32_t> idx({2, 1});
    reference_topk_softmax(x, w, idx);
    CHECK(w(0, 0) == 1.f);
    CHECK(idx(1, 0) == 0);
    reference_topk_softmax(x, w, idx, "sigmoid");
    CHECK(w(0, 0) == doctest::Approx(1.f / (1.f + std::exp(3.f))).epsilon(1e-6));
    CHECK(w(1, 0) == 0.5f);
}

TEST_CASE("sigmoid: the top k logits, then their sigmoid; strided rows")
{
    const auto x = rows({{-1.f, 4.f, 0.f, 4.f}, {2.f, -3.f, 1.f, 0.5f}}, 7);
    HostTensor<float> w({2, 3}, {5, 1});
    HostTensor<int32_t> idx({2, 3}, {5, 1});
    reference_topk_softmax(x, w, idx, "sigmoid");
    CHECK(idx(0, 0) == 1);
    CHECK(idx(0, 1) == 3);
    CHECK(idx(0, 2) == 2);
    CHECK(w(0, 0) == doctest::Approx(1.f / (1.f + std::exp(-4.f))).epsilon(1e-6));
    CHECK(w(0, 2) == 0.5f);
    CHECK(idx(1, 0) == 0);
    CHECK(idx(1, 1) == 2);
    CHECK(idx(1, 2) == 3);
    CHECK(w(1, 2) == doctest::Approx(1.f / (1.f + std::exp(-0.5f))).epsilon(1e-6));
}

TEST_CASE("bad arguments are refused")
{
    const auto x = rows({{1.f, 2.f}});
    HostTensor<float> w({1, 3}), w1({1, 1});
    HostTensor<int32_t> idx({1, 3}), idx1({1, 1});
    CHECK_THROWS_AS(reference_topk_softmax(x, w, idx), std::invalid_argument); // k > e
    CHECK_THROWS_AS(reference_topk_softmax(x, w1, idx1, "relu"), std::invalid_argument);
}

// Every 16-bit pattern that is not NaN, sorted as the floats compare, gets a non-decreasing
// orderable value, equal only for equal floats (+0 and -0); the key adds the lower-index rule.
template <typename T>
void check_order()
{
    using P = TopkSoftmaxWarpPerRowPolicy;
    std::vector<uint16_t> bits;
    for(uint32_t b = 0; b < 0x10000u; ++b)
        if(!std::isnan(type_convert<float>(__builtin_bit_cast(T, static_cast<uint16_t>(b)))))
            bits.push_back(static_cast<uint16_t>(b));
    const auto val = [](uint16_t b) { return type_convert<float>(__builtin_bit_cast(T, b)); };
    std::stable_sort(bits.begin(), bits.end(), [&](uint16_t a, uint16_t b) { return val(a) < val(b); });
    int bad = 0;
    for(std::size_t i = 1; i < bits.size(); ++i)
    {
        const uint32_t a = P::orderable_bits(bits[i - 1]), b = P::orderable_bits(bits[i]);
        if(val(bits[i - 1]) < val(bits[i]) ? !(a < b) : a != b)
            ++bad;
        if(P::float_bits(b) != (bits[i] == 0x8000u ? 0u : bits[i]))
            ++bad;
    }
    CHECK(bad == 0);
    const T two = type_convert<T>(2.f), three = type_convert<T>(3.f);
    CHECK(P::make_key(three, 7) > P::make_key(two, 0));
    CHECK(P::make_key(two, 3) > P::make_key(two, 4));
    CHECK(P::make_key(type_convert<T>(-0.f), 1) < P::make_key(type_convert<T>(0.f), 0));
    CHECK(P::make_key(type_convert<T>(-0.f), 0) > P::make_key(type_convert<T>(0.f), 1));
    CHECK(P::key_index(P::make_key(two, 511)) == 511);
    CHECK(P::template key_value<T>(P::make_key(three, 5)) == 3.f);
    CHECK(P::make_key(type_convert<T>(-65000.f), 511) > 0u); // every real key is above padding's 0
}

TEST_CASE("ranking key: fp16") { check_order<half_t>(); }
TEST_CASE("ranking key: bf16") { check_order<bf16_t>(); }

namespace {

// softmax weights of one row computed as a kernel might: the sum in another order (from the last
// expert down, in pairs), the weight as exp times the inverse sum; `through` rounds each weight
// to another type on the way (a planted bug when it is not fp32)
template <typename Through>
std::vector<float> kernel_like_softmax(const std::vector<float>& x)
{
    const float max = *std::max_element(x.begin(), x.end());
    float even = 0.f, odd = 0.f;
    for(std::size_t i = x.size(); i-- > 0;)
        ((i % 2) ? odd : even) += std::exp(x[i] - max);
    const float inv = 1.f / (even + odd);
    std::vector<float> w(x.size());
    for(std::size_t i = 0; i < x.size(); ++i)
        w[i] = type_convert<float>(type_convert<Through>(std::exp(x[i] - max) * inv));
    return w;
}

} // namespace

TEST_CASE("the weights' tolerance: another summation order passes, a weight rounded through fp16 fails")
{
    for(const std::size_t e : {8, 64, 256, 1024})
    {
        CAPTURE(e);
        std::vector<float> xf(e);
        for(std::size_t i = 0; i < e; ++i) // fp16 logits in about [-6, 6]
            xf[i] = type_convert<float>(type_convert<half_t>(6.f * std::sin(0.7f * static_cast<float>(i) + 0.3f)));
        HostTensor<half_t> x({std::size_t{1}, e});
        for(std::size_t i = 0; i < e; ++i)
            x(0, i) = type_convert<half_t>(xf[i]);
        HostTensor<float> w_ref({std::size_t{1}, e});
        HostTensor<int32_t> i_ref({std::size_t{1}, e});
        reference_topk_softmax(x, w_ref, i_ref, "softmax");

        // the kernel-like weights in the reference's order (largest first)
        const auto in_ref_order = [&](const std::vector<float>& w) {
            std::vector<float> out(e);
            for(std::size_t i = 0; i < e; ++i)
                out[i] = w[static_cast<std::size_t>(i_ref(0, i))];
            return out;
        };
        const tolerance tol = reference_topk_softmax_tolerance(e);
        CHECK(tol.rtol < 0x1p-12); // below the half ulp of fp16 a planted rounding adds
        CHECK(check_err(in_ref_order(kernel_like_softmax<float>(xf)), w_ref.mData, "correct", tol.rtol, tol.atol));
        const auto rounded = in_ref_order(kernel_like_softmax<half_t>(xf));
        CHECK_FALSE(check_err(rounded, w_ref.mData, "planted: weights rounded to fp16", tol.rtol, tol.atol));
        CHECK(check_err(rounded, w_ref.mData, "the former tolerance let it pass", 1e-3, 1e-3));
    }
}
