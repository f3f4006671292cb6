// SPDX-License-Identifier: MIT
// transpose_tile2d: every thread's registers, reordered, hold the transposed tile. Each element of
// the input tile carries its own (row, column); after the transpose the element a thread holds at
// output position (r, c) must be the one that was at input position (c, r), and the output's
// vector dimension must walk contiguous output elements.
#include <doctest/doctest.h>

#include <set>
#include <utility>
#include "ck_tile/core.hpp"

using namespace ck_tile;

namespace {

// [M x N] input: M = <RepM, WarpsM, LanesM, V>, N = <RepN, WarpsN, LanesN, V>; the output is the
// same with M and N swapped and its Ys reordered so that M's V (contiguous in the output) is last.
template <index_t RepM, index_t RepN, index_t WarpsM, index_t WarpsN, index_t V>
struct encodings
{
    static constexpr index_t LanesN = 8, LanesM = 64 / LanesN;
    using in  = tile_distribution_encoding<sequence<>,
                                           tuple<sequence<RepM, WarpsM, LanesM, V>, sequence<RepN, WarpsN, LanesN, V>>,
                                           tuple<sequence<1, 2>, sequence<1, 2>>, tuple<sequence<1, 1>, sequence<2, 2>>,
                                           sequence<1, 2, 1, 2>, sequence<0, 0, 3, 3>>;
    using out = tile_distribution_encoding<sequence<>,
                                           tuple<sequence<RepN, WarpsN, LanesN, V>, sequence<RepM, WarpsM, LanesM, V>>,
                                           tuple<sequence<2, 1>, sequence<2, 1>>, tuple<sequence<1, 1>, sequence<2, 2>>,
                                           sequence<1, 2, 1, 2>, sequence<0, 0, 3, 3>>;
    static constexpr index_t warps = WarpsM * WarpsN;
};

template <typename E>
void check_transpose()
{
    using in_dstr  = tile_distribution<typename E::in>;
    using out_dstr = tile_distribution<typename E::out>;
    static_assert(out_dstr::get_vector_y_dim() == out_dstr::NDimY - 1, "output vector must be the last Y");
    constexpr auto in_len = in_dstr::get_lengths();
    const index_t rows = in_len[number<0>{}], cols = in_len[number<1>{}];
    std::set<std::pair<int, int>> seen;
    for(index_t w = 0; w < E::warps; ++w)
        for(index_t l = 0; l < 64; ++l)
        {
            const auto ps = make_multi_index(w, l);
            static_distributed_tensor<int, in_dstr> x;
            const auto xi0 = in_dstr::calculate_index(ps);
            for(index_t d = 0; d < in_dstr::thread_buffer_size; ++d)
            {
                const auto xi = xi0 + in_dstr::d_to_x_offset(d);
                x[d]          = xi[0] * 100000 + xi[1];
            }
            static_distributed_tensor<int, out_dstr> y;
            transpose_tile2d(y, x);
            const auto xo0 = out_dstr::calculate_index(ps);
            for(index_t d = 0; d < out_dstr::thread_buffer_size; ++d)
            {
                const auto xo = xo0 + out_dstr::d_to_x_offset(d);
                CHECK(y[d] == xo[1] * 100000 + xo[0]);
                CHECK(seen.insert({xo[0], xo[1]}).second);
            }
        }
    CHECK(seen.size() == static_cast<std::size_t>(rows * cols));
}

} // namespace

TEST_CASE("transpose_tile2d: one wave, 8 x 8 fp16-like sub-tiles (64 x 64)")
{
    check_transpose<encodings<1, 1, 1, 1, 8>>();
}

TEST_CASE("transpose_tile2d: 16 x 16 sub-tiles (fp8-like, 128 x 128)") { check_transpose<encodings<1, 1, 1, 1, 16>>(); }

TEST_CASE("transpose_tile2d: repeats and several waves (2x3 repeats, 2x2 waves, 4 x 4 sub-tiles)")
{
    check_transpose<encodings<2, 3, 2, 2, 4>>();
}

TEST_CASE("transpose_tile2d: the mapping is a permutation of the registers")
{
    using E        = encodings<2, 3, 2, 2, 4>;
    using in_dstr  = tile_distribution<E::in>;
    using out_dstr = tile_distribution<E::out>;
    std::set<index_t> sources;
    for(index_t d = 0; d < out_dstr::thread_buffer_size; ++d)
        sources.insert(detail::transpose_source_register<in_dstr, out_dstr>(d));
    CHECK(sources.size() == static_cast<std::size_t>(in_dstr::thread_buffer_size));
    static_assert(detail::is_transposed_encoding<E::in, E::out>());
    static_assert(!detail::is_transposed_encoding<E::in, E::in>());
}
