// SPDX-License-Identifier: MIT
// ck::wrapper layouts and tensors on the host: packed column-major strides, nested coordinates and
// one-index coordinates, sizes, pad (invalid padded elements), unmerge, slices, tiles and
// partitions, register tensors, copies.
#include <doctest/doctest.h>

#include <vector>
#include "ck/wrapper/layout.hpp"
#include "ck/wrapper/tensor.hpp"
#include "ck/wrapper/operations/copy.hpp"

using ck::Number;
namespace w = ck::wrapper;

TEST_CASE("make_layout(shape) is packed column-major, compile-time where the shape is")
{
    constexpr auto l = w::make_layout(ck::make_tuple(Number<4>{}, Number<8>{}));
    static_assert(w::size(l) == 32 && w::size<0>(l) == 4 && w::size<1>(l) == 8);
    static_assert(l.template operator()<ck::Tuple<Number<1>, Number<1>>>() == 5);
    CHECK(l(ck::make_tuple(3, 2)) == 3 + 4 * 2);
    CHECK(l(ck::make_tuple(13)) == 13); // one index over the whole layout
}

TEST_CASE("nested modes: a coordinate per sub-mode or one index per mode, column-major")
{
    const auto l = w::make_layout(ck::make_tuple(4, ck::make_tuple(2, 4)), ck::make_tuple(2, ck::make_tuple(1, 8)));
    for(int h = 0; h < 4; ++h)
        for(int w0 = 0; w0 < 2; ++w0)
            for(int w1 = 0; w1 < 4; ++w1)
            {
                const int want = 2 * h + w0 + 8 * w1;
                CHECK(l(ck::make_tuple(h, ck::make_tuple(w0, w1))) == want);
                CHECK(l(ck::make_tuple(h, w0 + 2 * w1)) == want);
            }
    CHECK(w::size(l) == 32);
    CHECK(w::rank(l) == 2);
    CHECK(w::depth(l) == 2);
    const auto inner = w::get<1>(l);
    CHECK(w::size(inner) == 8);
    CHECK(inner(ck::make_tuple(1, 3)) == 1 + 24);
}

TEST_CASE("unmerge splits a mode (first slowest) and reorders the modes")
{
    // (M, K) = (6, 8) row-major -> (K0, M, K1) with K = K0 x K1 = 2 x 4
    const auto l = w::make_layout(ck::make_tuple(6, 8), ck::make_tuple(8, 1));
    const auto u =
        w::unmerge<1>(l, ck::make_tuple(2, 4), ck::make_tuple(Number<1>{}, ck::make_tuple(Number<0>{}, Number<2>{})));
    CHECK(w::size<0>(u) == 2);
    CHECK(w::size<1>(u) == 6);
    CHECK(w::size<2>(u) == 4);
    for(int k0 = 0; k0 < 2; ++k0)
        for(int m = 0; m < 6; ++m)
            for(int k1 = 0; k1 < 4; ++k1)
                CHECK(u(ck::make_tuple(k0, m, k1)) == m * 8 + k0 * 4 + k1);
}

TEST_CASE("pad, slice, tile and partition: indices past the original extent are invalid")
{
    std::vector<float> mem(5 * 7);
    for(std::size_t i = 0; i < mem.size(); ++i)
        mem[i] = static_cast<float>(i);
    const auto l =
        w::pad(w::make_layout(ck::make_tuple(5, 7), ck::make_tuple(7, 1)), ck::make_tuple(Number<4>{}, Number<4>{}));
    CHECK(w::size<0>(l) == 8);
    CHECK(w::size<1>(l) == 8);
    auto t = w::make_tensor<w::MemoryTypeEnum::Global>(mem.data(), l);
    // the tile (1, 1) of 4 x 4: rows 4..7, columns 4..7; only rows 4 and columns 4..6 exist
    auto tile = w::make_local_tile(t, ck::make_tuple(Number<4>{}, Number<4>{}), ck::make_tuple(1, 1));
    CHECK(tile.load({0, 0}) == 4 * 7 + 4);
    CHECK(tile.load({0, 2}) == 4 * 7 + 6);
    CHECK(tile.load({0, 3}) == 0); // column 7: padding
    CHECK(tile.load({1, 0}) == 0); // row 5: padding
    // a slice of columns 2..5 and the partition of thread (1, 0) of a 2 x 2 thread layout
    auto s = t(w::slice(), w::slice(2, 6));
    CHECK(s.load({3, 1}) == 3 * 7 + 3);
    const auto threads =
        w::make_layout(ck::make_tuple(Number<2>{}, Number<2>{}), ck::make_tuple(Number<2>{}, Number<1>{}));
    auto p = w::make_local_partition(tile, threads, 2); // thread id 2 = coordinate (1, 0): tile rows 2, 3
    CHECK(w::size<0>(p) == 2);
    CHECK(p.load({0, 0}) == 0);                          // tile row 2 (row 6): padding
    CHECK(p.load({0, 1}) == 0);                          // tile (2, 1)
    auto p0 = w::make_local_partition(tile, threads, 0); // tile rows 0, 1 and columns 0, 1
    CHECK(p0.load({0, 1}) == 4 * 7 + 5);                 // tile (0, 1)
    auto p1 = w::make_local_partition(tile, threads, 1); // coordinate (0, 1): columns 2, 3
    CHECK(p1.load({0, 0}) == 4 * 7 + 6);                 // tile (0, 2)
    CHECK(p1.load({0, 1}) == 0);                         // tile (0, 3): column 7, padding
}

TEST_CASE("copy between memory and register tensors converts and skips invalid elements")
{
    std::vector<float> src(3 * 4), dst(3 * 4, -1.f);
    for(std::size_t i = 0; i < src.size(); ++i)
        src[i] = static_cast<float>(i) + 0.5f;
    const auto l = w::make_layout(ck::make_tuple(Number<3>{}, Number<4>{}), ck::make_tuple(Number<4>{}, Number<1>{}));
    auto a       = w::make_tensor<w::MemoryTypeEnum::Global>(src.data(), l);
    auto b       = w::make_tensor<w::MemoryTypeEnum::Global>(dst.data(), l);
    auto r       = w::make_register_tensor<w::MemoryTypeEnum::Vgpr, int>(l);
    w::clear(r);
    CHECK(r(ck::make_tuple(2, 3)) == 0);
    w::copy(a, r);
    CHECK(r(ck::make_tuple(1, 2)) == 6); // 6.5 converted to int
    w::copy(r, b);
    CHECK(dst[4 * 1 + 2] == 6.f);
    CHECK(dst[11] == 11.f);
}
