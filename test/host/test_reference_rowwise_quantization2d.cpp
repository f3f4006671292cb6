// SPDX-License-Identifier: MIT
// The row-wise quantization references on hand-computed rows.
#include <doctest/doctest.h>

#include <stdexcept>
#include "ck_tile/host.hpp"
#include "ck_tile/host/reference/reference_rowwise_quantization2d.hpp"

using namespace ck_tile;

TEST_CASE("dynamic quant to int8: scale = absmax / 127, values rounded to nearest")
{
    HostTensor<float> x({2, 3});
    x(0, 0) = 254.f;
    x(0, 1) = -1.f;
    x(0, 2) = 5.f; // scale 2: 127, -0.5 -> 0 (ties to even), 2.5 -> 2
    x(1, 0) = 0.f;
    x(1, 1) = 0.f;
    x(1, 2) = 0.f; // an all-zero row: scale 0, values 0
    HostTensor<float> s({2});
    HostTensor<int8_t> q({2, 3});
    reference_rowwise_dynamic_quant(x, s, q);
    CHECK(s(0) == 2.f);
    CHECK(s(1) == 0.f);
    CHECK(q(0, 0) == 127);
    CHECK(q(0, 1) == 0);
    CHECK(q(0, 2) == 2);
    CHECK(q(1, 1) == 0);
}

TEST_CASE("dynamic quant to fp8 uses the arch's fp8 maximum")
{
    HostTensor<float> x({1, 2});
    x(0, 0) = -3.f;
    x(0, 1) = 1.f;
    HostTensor<float> s({1});
    HostTensor<fp8_t> q({1, 2});
    reference_rowwise_dynamic_quant(x, s, q);
    const float qmax = type_convert<float>(numeric<fp8_t>::max());
    CHECK(s(0) == 3.f / qmax);
    CHECK(type_convert<float>(q(0, 0)) == -qmax);
}

TEST_CASE("shapes are checked")
{
    HostTensor<float> x({2, 3}), s({3});
    HostTensor<int8_t> q({2, 3});
    CHECK_THROWS_AS(reference_rowwise_dynamic_quant(x, s, q), std::invalid_argument);
}
