// SPDX-License-Identifier: MIT
// reference_rmsnorm2d_fwd against values worked out by hand: the plain normalization, saved
// invrms and y_unquant, the T5-like rounding, strided rows, and the dynamic-quant epilogue with
// and without a smooth scale. Also the short names of the rmsnorm2d fusion enums.
#include <doctest/doctest.h>

#include <cmath>
#include "ck_tile/core.hpp"
#include "ck_tile/host.hpp"
#include "ck_tile/host/reference/reference_rmsnorm2d_fwd.hpp"
#include "ck_tile/ops/rmsnorm2d.hpp"

using namespace ck_tile;

TEST_CASE("plain rmsnorm: invrms, y and y_unquant by hand")
{
    // row 0: (9 + 16) / 2 = 12.5, invrms = 1 / sqrt(12.5); row 1: (1 + 1) / 2 = 1, invrms = 1
    HostTensor<float> x({2, 2}), gamma({2}), y({2, 2}), invrms({2}), unq({2, 2});
    x(0, 0) = 3.f, x(0, 1) = 4.f, x(1, 0) = 1.f, x(1, 1) = -1.f;
    gamma(0) = 1.f, gamma(1) = 2.f;
    reference_rmsnorm2d_fwd<float, float, float, float, float, float>(x, gamma, y, invrms, unq, 0.f);
    const float r0 = 1.f / std::sqrt(12.5f);
    CHECK(invrms(0) == doctest::Approx(r0).epsilon(1e-6));
    CHECK(invrms(1) == 1.f);
    CHECK(y(0, 0) == doctest::Approx(3.f * r0).epsilon(1e-6));
    CHECK(y(0, 1) == doctest::Approx(8.f * r0).epsilon(1e-6));
    CHECK(y(1, 0) == 1.f);
    CHECK(y(1, 1) == -2.f);
    CHECK(unq(0, 1) == y(0, 1));
}

TEST_CASE("epsilon enters under the root; empty invrms / y_unquant are skipped")
{
    HostTensor<half_t> x({1, 4}), gamma({4}), y({1, 4});
    HostTensor<half_t> invrms({0}), unq({0, 4});
    for(int n = 0; n < 4; ++n)
    {
        x(0, n)  = type_convert<half_t>(0.5f); // mean square 0.25, + eps 0.75 -> invrms 1 / sqrt(1) = 1
        gamma(n) = type_convert<half_t>(1.f);
    }
    reference_rmsnorm2d_fwd<half_t, half_t, float, half_t, half_t, half_t>(x, gamma, y, invrms, unq, 0.75f);
    for(int n = 0; n < 4; ++n)
        CHECK(type_convert<float>(y(0, n)) == 0.5f);
}

TEST_CASE("T5-like: x * invrms is rounded to the input type before gamma")
{
    // one element: invrms = 1 / |x| (eps 0), x * invrms = 1 exactly; use two elements so that the
    // product is not representable: x = (1, 2): invrms = 1 / sqrt(2.5); 1 * invrms = 0.632455...
    HostTensor<bf16_t> x({1, 2}), gamma({2}), y({1, 2}), y5({1, 2}), invrms({0}), unq({0, 2});
    x(0, 0) = type_convert<bf16_t>(1.f), x(0, 1) = type_convert<bf16_t>(2.f);
    gamma(0) = type_convert<bf16_t>(3.f), gamma(1) = type_convert<bf16_t>(3.f);
    HostTensor<float> yf({1, 2}), yf5({1, 2});
    HostTensor<float> no_ir({0}), no_uq({0, 2});
    reference_rmsnorm2d_fwd<bf16_t, bf16_t, float, float, float, float>(x, gamma, yf, no_ir, no_uq, 0.f, {}, 0);
    reference_rmsnorm2d_fwd<bf16_t, bf16_t, float, float, float, float>(x, gamma, yf5, no_ir, no_uq, 0.f, {}, 1);
    const float r = 1.f / std::sqrt(2.5f);
    CHECK(yf(0, 0) == doctest::Approx(3.f * r).epsilon(1e-6));
    // bf16 keeps 8 significant bits: 0.632455 -> 0.6328125 (ties to even), times 3
    const float t5 = type_convert<float>(type_convert<bf16_t>(r));
    CHECK(t5 == 0.6328125f);
    CHECK(yf5(0, 0) == 3.f * t5);
    CHECK(yf5(0, 0) != yf(0, 0));
    // the output rounding comes on top (y in bf16)
    reference_rmsnorm2d_fwd<bf16_t, bf16_t, float, bf16_t, bf16_t, bf16_t>(x, gamma, y5, invrms, unq, 0.f, {}, 1);
    CHECK(type_convert<float>(y5(0, 0)) == type_convert<float>(type_convert<bf16_t>(3.f * t5)));
    (void)y;
}

TEST_CASE("strided rows: the gaps are left alone")
{
    HostTensor<float> x({2, 3}, {5, 1}), gamma({3}), y({2, 3}, {4, 1}), no_ir({0}), no_uq({0, 3});
    for(auto& v : x.mData)
        v = 7.f; // the gaps hold 7 and must not count
    for(auto& v : y.mData)
        v = -9.f;
    for(int m = 0; m < 2; ++m)
        for(int n = 0; n < 3; ++n)
            x(m, n) = 2.f;
    for(int n = 0; n < 3; ++n)
        gamma(n) = 1.f;
    reference_rmsnorm2d_fwd<float, float, float, float, float, float>(x, gamma, y, no_ir, no_uq, 0.f);
    for(int m = 0; m < 2; ++m)
        for(int n = 0; n < 3; ++n)
            CHECK(y(m, n) == 1.f);
    CHECK(y.mData[3] == -9.f); // the gap after row 0
}

TEST_CASE("dynamic quant epilogue: y_scale = absmax / qmax, with and without smoothing")
{
    // x = (1, -2), gamma = 1: invrms = 1 / sqrt(2.5), y = (1, -2) * invrms
    HostTensor<float> x({1, 2}), gamma({2}), sm({2}), no_ir({0}), no_uq({0, 2});
    x(0, 0) = 1.f, x(0, 1) = -2.f, gamma(0) = 1.f, gamma(1) = 1.f;
    sm(0) = 2.f, sm(1) = 0.5f; // smoothed: (2, -1) * invrms
    const float r = 1.f / std::sqrt(2.5f);

    HostTensor<int8_t> q({1, 2});
    HostTensor<float> ys({1});
    reference_rmsnorm2d_fwd<float, float, float, int8_t, float, float>(
        x, gamma, q, no_ir, no_uq, 0.f, reference_rmsnorm2d_dynamic_quant_epilogue<float, float>{nullptr, &ys});
    CHECK(ys(0) == doctest::Approx(2.f * r / 127.f).epsilon(1e-6));
    CHECK(q(0, 1) == -127);
    CHECK((q(0, 0) == 63 || q(0, 0) == 64)); // 63.5, up to the fp32 rounding of the scale

    reference_rmsnorm2d_fwd<float, float, float, int8_t, float, float>(
        x, gamma, q, no_ir, no_uq, 0.f, reference_rmsnorm2d_dynamic_quant_epilogue<float, float>{&sm, &ys});
    CHECK(ys(0) == doctest::Approx(2.f * r / 127.f).epsilon(1e-6));
    CHECK(q(0, 0) == 127);
    CHECK((q(0, 1) == -63 || q(0, 1) == -64));
}

TEST_CASE("fp8: the scale uses the arch's fp8 maximum")
{
    HostTensor<float> x({1, 1}), gamma({1}), no_ir({0}), no_uq({0, 1}), ys({1});
    HostTensor<fp8_t> q({1, 1});
    x(0, 0) = -3.f, gamma(0) = 1.f; // invrms = 1/3, y = -1
    reference_rmsnorm2d_fwd<float, float, float, fp8_t, float, float>(
        x, gamma, q, no_ir, no_uq, 0.f, reference_rmsnorm2d_dynamic_quant_epilogue<float, float>{nullptr, &ys});
    const float qmax = type_convert<float>(numeric<fp8_t>::max());
    CHECK((qmax == 240.f || qmax == 448.f));
    CHECK(ys(0) == doctest::Approx(1.f / qmax).epsilon(1e-6));
    CHECK(type_convert<float>(q(0, 0)) == -qmax);
}

TEST_CASE("fusion enums: upstream's values and short names")
{
    CHECK(static_cast<int>(Rmsnorm2dFusedAddEnum::PRE_ADD_STORE) == 1);
    CHECK(static_cast<int>(Rmsnorm2dFusedAddEnum::PRE_ADD) == 2);
    CHECK(static_cast<int>(Rmsnorm2dFusedQuantEnum::SMOOTH_DYNAMIC_QUANT) == 1);
    CHECK(static_cast<int>(Rmsnorm2dFusedQuantEnum::DYNAMIC_QUANT) == 2);
    CHECK(static_cast<int>(Rmsnorm2dSensitiveEnum::T5_MODEL_LIKE) == 1);
    CHECK(std::string(Rmsnorm2dFusedAddEnumName<Rmsnorm2dFusedAddEnum::PRE_ADD_STORE>::name) == "pras");
    CHECK(std::string(Rmsnorm2dFusedQuantEnumName<Rmsnorm2dFusedQuantEnum::DYNAMIC_QUANT>::name) == "dqt");
    CHECK(std::string(Rmsnorm2dSensitiveEnumName<Rmsnorm2dSensitiveEnum::T5_MODEL_LIKE>::name) == "t5ml");
    using T =
        Rmsnorm2dFwdTraits<true, false, true, false, Rmsnorm2dFusedAddEnum::PRE_ADD,
                           Rmsnorm2dFusedQuantEnum::SMOOTH_DYNAMIC_QUANT, Rmsnorm2dSensitiveEnum::NO_SPECIFIC_MODEL>;
    CHECK(T::kHasAdd);
    CHECK(T::kHasQuant);
    CHECK(!T::kHasT5);
}
