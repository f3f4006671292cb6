// SPDX-License-Identifier: MIT
// sequence algebra, tuple, array, static_for, integer helpers and numeric conversions.
#include <doctest/doctest.h>

#include <vector>
#include "ck_tile/core.hpp"

using namespace ck_tile;

TEST_CASE("sequence algebra")
{
    using S = sequence<4, 4, 16>;
    static_assert(S::size() == 3);
    static_assert(S::at(number<2>{}) == 16);
    static_assert(S::reverse() == sequence<16, 4, 4>{});
    static_assert(S::pop_front() == sequence<4, 16>{});
    static_assert(S::pop_back() == sequence<4, 4>{});
    static_assert(S::push_back(sequence<7>{}) == sequence<4, 4, 16, 7>{});
    static_assert(S::push_front(number<1>{}) == sequence<1, 4, 4, 16>{});
    static_assert(S::modify(number<1>{}, number<7>{}) == sequence<4, 7, 16>{});
    static_assert(S::extract(sequence<2, 0>{}) == sequence<16, 4>{});
    static_assert(sequence_sum(S{}) == 24);
    static_assert(sequence_product(S{}) == 256);
    static_assert(packed_strides(S{}) == sequence<64, 16, 1>{});
    static_assert((S{} + sequence<1, 2, 3>{}) == sequence<5, 6, 19>{});
    static_assert((S{} * number<2>{}) == sequence<8, 8, 32>{});
    static_assert(merge_sequences(sequence<1>{}, sequence<2, 3>{}, sequence<>{}) == sequence<1, 2, 3>{});
    static_assert(arithmetic_sequence_gen<0, 10, 3>::type{} == sequence<0, 3, 6, 9>{});
    static_assert(uniform_sequence_gen<3, 5>::type{} == sequence<5, 5, 5>{});
    static_assert(is_valid_sequence_map(sequence<2, 0, 1>{}));
    static_assert(!is_valid_sequence_map(sequence<2, 2, 1>{}));
    static_assert(sequence_map_inverse(sequence<2, 0, 1>{}) == sequence<1, 2, 0>{});
    static_assert(sequence_find(S{}, 16) == 2);
    static_assert(sequence_find(S{}, 5) == -1);
}

TEST_CASE("number arithmetic stays compile-time")
{
    constexpr auto x = number<6>{} * number<7>{};
    static_assert(std::is_same_v<std::decay_t<decltype(x)>, number<42>>);
    static_assert(std::is_same_v<std::decay_t<decltype(number<3>{} < number<4>{})>, bool_constant<true>>);
    static_assert(integer_divide_ceil(number<7>{}, number<2>{}) == 4);
    CHECK(integer_divide_ceil(7, 2) == 4);
    CHECK(integer_least_multiple(65, 64) == 128);
    CHECK(gcd(12, 18) == 6);
    CHECK(lcm(4, 6) == 12);
}

TEST_CASE("tuple and array")
{
    auto t = make_tuple(1, number<3>{}, 2.5f);
    static_assert(decltype(t)::size() == 3);
    CHECK(t[number<0>{}] == 1);
    CHECK(t.at(number<2>{}) == 2.5f);
    get<0>(t) = 5;
    CHECK(t[number<0>{}] == 5);
    auto c = tuple_cat(make_tuple(1), make_tuple(2, 3));
    CHECK(c[number<2>{}] == 3);
    CHECK(apply([](auto... xs) { return (0 + ... + xs); }, c) == 6);

    auto m = make_multi_index(1, 2, 3) + make_multi_index(1, 1, 1);
    CHECK(m == make_multi_index(2, 3, 4));
    CHECK(to_multi_index(make_tuple(number<4>{}, 5)) == make_multi_index(4, 5));

    std::vector<int> seen;
    static_for<2, 10, 3>{}([&](auto i) { seen.push_back(i.value); });
    CHECK(seen == std::vector<int>{2, 5, 8});
}

TEST_CASE("numeric types convert with round-to-nearest-even")
{
    CHECK(float(type_convert<bf16_t>(1.0f)) == 1.0f);
    // 1 + 2^-8 lies halfway between bf16 1 and 1 + 2^-7: ties go to the even mantissa (1)
    CHECK(float(type_convert<bf16_t>(1.0f + 1.0f / 256)) == 1.0f);
    CHECK(float(type_convert<bf16_t>(1.0f + 3.0f / 256)) == 1.0f + 1.0f / 64);
    CHECK(float(type_convert<half_t>(0.1f)) == doctest::Approx(0.0999755859375));
    CHECK(type_convert<float>(type_convert<half_t>(65504.f)) == 65504.f);
    CHECK(float(numeric<half_t>::max()) == 65504.f);
    CHECK(float(numeric<bf16_t>::epsilon()) == 0.0078125f);
    CHECK(type_convert<int8_t>(type_convert<float>(int8_t(-7))) == -7);
}
