// SPDX-License-Identifier: MIT
// Tile distributions: which elements each thread holds, checked against hand-worked cases.
#include <doctest/doctest.h>

#include <set>
#include <utility>
#include <vector>
#include "ck_tile/core.hpp"

using namespace ck_tile;

namespace {
// The A tile of a 256 x 32 block GEMM: Hs=<4,4,16>,<4,8>, Ps=(<1>,<1,2>)/(<1>,<2,0>), Ys=<1,2>/<0,1>
using a_encoding = tile_distribution_encoding<sequence<>, tuple<sequence<4, 4, 16>, sequence<4, 8>>,
                                              tuple<sequence<1>, sequence<1, 2>>, tuple<sequence<1>, sequence<2, 0>>,
                                              sequence<1, 2>, sequence<0, 1>>;
using a_dstr     = tile_distribution<a_encoding>;

// all (row, col) a thread holds, in register order
template <typename Dstr>
std::vector<std::pair<int, int>> elements_of(int warp, int lane)
{
    std::vector<std::pair<int, int>> r;
    multi_index<Dstr::NDimP> ps{};
    if constexpr(Dstr::NDimP == 1)
        ps[0] = lane;
    else
        ps = make_multi_index(warp, lane);
    const auto x0 = Dstr::calculate_index(ps);
    for(int d = 0; d < Dstr::thread_buffer_size; ++d)
    {
        const auto x = x0 + Dstr::d_to_x_offset(d);
        r.emplace_back(x[0], x[1]);
    }
    return r;
}
} // namespace

TEST_CASE("A-tile encoding: lengths")
{
    static_assert(a_dstr::NDimX == 2);
    static_assert(a_dstr::NDimP == 2);
    static_assert(a_dstr::ys_lengths{} == sequence<4, 8>{});
    static_assert(a_dstr::thread_buffer_size == 32);
    static_assert(a_encoding::get_p_length(0) == 4);
    static_assert(a_encoding::get_p_length(1) == 64);
    constexpr auto lengths = a_dstr::get_lengths();
    static_assert(lengths[number<0>{}] == 256);
    static_assert(lengths[number<1>{}] == 32);
    static_assert(a_dstr::get_vector_y_dim() == 1);
}

TEST_CASE("A-tile encoding: thread 0 holds rows 0, 64, 128, 192 and columns 0..7")
{
    const auto e = elements_of<a_dstr>(0, 0);
    REQUIRE(e.size() == 32);
    for(int i = 0; i < 4; ++i)
        for(int j = 0; j < 8; ++j)
            CHECK(e[i * 8 + j] == std::make_pair(64 * i, j));
}

TEST_CASE("A-tile encoding: warp 1, lane 5")
{
    // warp 1 -> rows +16; lane 5 = (row 5/4 = 1, column group 5%4 = 1) -> row +1, columns 8..15
    const auto e = elements_of<a_dstr>(1, 5);
    for(int i = 0; i < 4; ++i)
        for(int j = 0; j < 8; ++j)
            CHECK(e[i * 8 + j] == std::make_pair(64 * i + 17, 8 + j));
}

TEST_CASE("A-tile encoding: the 256 threads cover the 256 x 32 tile exactly once")
{
    std::set<std::pair<int, int>> all;
    for(int w = 0; w < 4; ++w)
        for(int l = 0; l < 64; ++l)
            for(auto e : elements_of<a_dstr>(w, l))
                CHECK(all.insert(e).second);
    CHECK(all.size() == 256 * 32);
    CHECK(all.begin()->first == 0);
    CHECK(all.rbegin()->first == 255);
    CHECK(all.rbegin()->second == 31);
}

TEST_CASE("R components replicate: lanes that differ only in R hold the same elements")
{
    // one wave; R = 2 (lane / 32), X0 = 4 rows x X1 = 32 columns split <32> over the low lane bits
    using enc  = tile_distribution_encoding<sequence<2>, tuple<sequence<4>, sequence<32>>, tuple<sequence<0, 2>>,
                                            tuple<sequence<0, 0>>, sequence<1>, sequence<0>>;
    using dstr = tile_distribution<enc>;
    static_assert(dstr::NDimP == 1);
    static_assert(dstr::thread_buffer_size == 4);
    for(int l = 0; l < 32; ++l)
    {
        const auto a = elements_of<dstr>(0, l);
        const auto b = elements_of<dstr>(0, l + 32);
        CHECK(a == b);
        CHECK(a[0] == std::make_pair(0, l));
        CHECK(a[3] == std::make_pair(3, l));
    }
    // one P: the partition index is the lane alone
    CHECK(dstr::calculate_index(make_multi_index(37)) == make_multi_index(0, 5));
}

TEST_CASE("register order is row-major over the Y lengths")
{
    static_assert(a_dstr::y_to_d(make_multi_index(2, 3)) == 19);
    static_assert(a_dstr::d_to_y(19) == make_multi_index(2, 3));
    static_assert(a_dstr::d_to_x_offset(19) == make_multi_index(128, 3));
}
