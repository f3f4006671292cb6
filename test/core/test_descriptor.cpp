// SPDX-License-Identifier: MIT
// Tensor descriptors: offsets and validity through every coordinate transform, hand-worked.
#include <doctest/doctest.h>

#include "ck_tile/core.hpp"

using namespace ck_tile;

TEST_CASE("naive strided descriptor")
{
    // 4 x 6 with row stride 10: element (2, 3) is at 2*10 + 3
    constexpr auto d = make_naive_tensor_descriptor(make_tuple(4, 6), make_tuple(10, 1));
    static_assert(d.calculate_offset(make_multi_index(2, 3)) == 23);
    static_assert(d.get_element_space_size() == 3 * 10 + 5 + 1);
    static_assert(d.get_length(number<1>{}) == 6);
    static_assert(d.get_element_size() == 24);
    // column-major 4 x 6, leading dimension 5
    constexpr auto c = make_naive_tensor_descriptor(make_tuple(4, 6), make_tuple(1, 5));
    static_assert(c.calculate_offset(make_multi_index(3, 2)) == 13);
}

TEST_CASE("packed descriptor")
{
    constexpr auto d = make_naive_tensor_descriptor_packed(make_tuple(number<2>{}, 3, 4));
    static_assert(d.calculate_offset(make_multi_index(1, 2, 3)) == 12 + 8 + 3);
    static_assert(d.get_element_space_size() == 24);
}

TEST_CASE("pad: valid inside the original range only")
{
    const auto d = make_naive_tensor_descriptor(make_tuple(5, 6), make_tuple(6, 1));
    const auto p =
        transform_tensor_descriptor(d, make_tuple(make_right_pad_transform(5, 3), make_pad_transform(6, 2, 0)),
                                    make_tuple(sequence<0>{}, sequence<1>{}), make_tuple(sequence<0>{}, sequence<1>{}));
    CHECK(p.get_lengths() == make_multi_index(8, 8));
    // (1, 2) -> original (1, 0)
    auto h = p.calculate_hidden_index(make_multi_index(1, 2));
    CHECK(h[0] == 6);
    CHECK(p.is_valid_hidden_index(h));
    CHECK_FALSE(p.is_valid_hidden_index(p.calculate_hidden_index(make_multi_index(1, 1)))); // left padding
    CHECK_FALSE(p.is_valid_hidden_index(p.calculate_hidden_index(make_multi_index(5, 4)))); // bottom padding
    CHECK(p.is_valid_hidden_index(p.calculate_hidden_index(make_multi_index(4, 7))));
}

TEST_CASE("merge and unmerge")
{
    const auto d = make_naive_tensor_descriptor(make_tuple(4, 6), make_tuple(10, 1));
    // merge (4, 6) into 24: index 9 -> (1, 3) -> 13
    const auto m = transform_tensor_descriptor(d, make_tuple(make_merge_transform(make_tuple(4, 6))),
                                               make_tuple(sequence<0, 1>{}), make_tuple(sequence<0>{}));
    CHECK(m.get_length(number<0>{}) == 24);
    CHECK(m.calculate_offset(make_multi_index(9)) == 13);
    CHECK(m.calculate_offset(make_multi_index(23)) == 35);
    // unmerge the 6 columns into (2, 3): (r, a, b) -> r*10 + a*3 + b
    const auto u = transform_tensor_descriptor(
        d, make_tuple(make_pass_through_transform(4), make_unmerge_transform(make_tuple(2, 3))),
        make_tuple(sequence<0>{}, sequence<1>{}), make_tuple(sequence<0>{}, sequence<1, 2>{}));
    CHECK(u.get_lengths() == make_multi_index(4, 2, 3));
    CHECK(u.calculate_offset(make_multi_index(3, 1, 2)) == 35);
}

TEST_CASE("embed and xor")
{
    // embed: a 3 x 4 window with coefficients (7, 2) into a 1-D buffer
    const auto base = make_naive_tensor_descriptor_packed(make_tuple(100));
    const auto e =
        transform_tensor_descriptor(base, make_tuple(make_embed_transform(make_tuple(3, 4), make_tuple(7, 2))),
                                    make_tuple(sequence<0>{}), make_tuple(sequence<0, 1>{}));
    CHECK(e.calculate_offset(make_multi_index(2, 3)) == 20);
    // xor: (row, col) -> (row, col ^ (row % 4)) in a packed 3 x 4 tensor
    const auto p = make_naive_tensor_descriptor_packed(make_tuple(3, 4));
    const auto x = transform_tensor_descriptor(p, make_tuple(make_xor_transform(make_tuple(3, 4))),
                                               make_tuple(sequence<0, 1>{}), make_tuple(sequence<0, 1>{}));
    CHECK(x.calculate_offset(make_multi_index(2, 1)) == 2 * 4 + (1 ^ 2));
    CHECK(x.calculate_offset(make_multi_index(1, 0)) == 4 + 1);
    // every (row, col) maps to a distinct element: a permutation within each row
    for(int r = 0; r < 3; ++r)
    {
        int seen = 0;
        for(int c = 0; c < 4; ++c)
            seen |= 1 << (x.calculate_offset(make_multi_index(r, c)) - 4 * r);
        CHECK(seen == 0xf);
    }
}

TEST_CASE("tensor coordinates")
{
    const auto d = make_naive_tensor_descriptor(make_tuple(4, 6), make_tuple(10, 1));
    auto c       = make_tensor_coordinate(d, make_multi_index(1, 1));
    CHECK(c.get_offset() == 11);
    move_tensor_coordinate(d, c, make_multi_index(2, 3));
    CHECK(c.get_index() == make_multi_index(3, 4));
    CHECK(c.get_offset() == 34);
    CHECK(coordinate_has_valid_offset(d, c));
    move_tensor_coordinate(d, c, make_multi_index(1, 0));
    CHECK_FALSE(coordinate_has_valid_offset(d, c));
}

TEST_CASE("vector-length guarantee survives padding, not merging")
{
    const auto d = make_naive_tensor_descriptor(make_tuple(4, 8), make_tuple(8, 1), number<8>{});
    static_assert(decltype(d)::guaranteed_vector_length == 8);
    const auto p =
        transform_tensor_descriptor(d, make_tuple(make_right_pad_transform(4, 4), make_right_pad_transform(8, 8)),
                                    make_tuple(sequence<0>{}, sequence<1>{}), make_tuple(sequence<0>{}, sequence<1>{}));
    static_assert(decltype(p)::guaranteed_vector_length == 8);
    const auto m = transform_tensor_descriptor(d, make_tuple(make_merge_transform(make_tuple(4, 8))),
                                               make_tuple(sequence<0, 1>{}), make_tuple(sequence<0>{}));
    static_assert(decltype(m)::guaranteed_vector_length == -1);
}
