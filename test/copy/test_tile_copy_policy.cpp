// SPDX-License-Identifier: MIT
// TileCopyPolicy's distribution, for the shapes tile_example_copy uses: the block's threads cover
// the block tile exactly once, and each thread's last ThreadTile N registers are one contiguous
// run of a row (what makes one 16-byte access per run possible).
#include <doctest/doctest.h>

#include <set>
#include <utility>
#include "ck_tile/core.hpp"
#include "ck_tile/ops/copy.hpp"

using namespace ck_tile;

namespace {

template <typename Shape>
void check_cover()
{
    using Problem = TileCopyProblem<half_t, Shape>;
    using Dstr    = decltype(TileCopyPolicy<Problem>::MakeDistribution());
    static_assert(Dstr::get_vector_y_dim() == Dstr::NDimY - 1, "the vector is the last Y dimension");
    constexpr auto len = Dstr::get_lengths();
    static_assert(len[number<0>{}] == Shape::kBlockM && len[number<1>{}] == Shape::kBlockN);

    std::set<std::pair<int, int>> seen;
    for(index_t w = 0; w < Shape::kWavesM * Shape::kWavesN; ++w)
        for(index_t l = 0; l < 64; ++l)
        {
            const auto x0 = Dstr::calculate_index(make_multi_index(w, l));
            for(index_t d = 0; d < Dstr::thread_buffer_size; ++d)
            {
                const auto x = x0 + Dstr::d_to_x_offset(d);
                CHECK(seen.insert({x[0], x[1]}).second);
                if(d % Shape::kVector != 0) // inside a run: the next column of the same row
                {
                    const auto prev = x0 + Dstr::d_to_x_offset(d - 1);
                    CHECK(x[0] == prev[0]);
                    CHECK(x[1] == prev[1] + 1);
                }
            }
        }
    CHECK(seen.size() == static_cast<std::size_t>(Shape::kBlockM * Shape::kBlockN));
}

} // namespace

TEST_CASE("fp16 shape of the example: 4 waves, 64 x 64, 8-element runs")
{
    check_cover<TileCopyShape<sequence<4, 1>, sequence<64, 64>, sequence<8, 64>, sequence<1, 8>>>();
}

TEST_CASE("fp32 shape of the example: 4 waves, 32 x 64, 4-element runs")
{
    check_cover<TileCopyShape<sequence<4, 1>, sequence<32, 64>, sequence<4, 64>, sequence<1, 4>>>();
}

TEST_CASE("waves side by side along N, repeats in both dimensions, 2 rows per thread")
{
    using S = TileCopyShape<sequence<2, 2>, sequence<64, 256>, sequence<16, 64>, sequence<2, 8>>;
    static_assert(S::kRepeatM == 2 && S::kRepeatN == 2 && S::kBlockSize == 256);
    check_cover<S>();
}

TEST_CASE("TileCopyProblem: element accesses when the rows do not allow vectors")
{
    using S = TileCopyShape<sequence<4, 1>, sequence<64, 64>, sequence<8, 64>, sequence<1, 8>>;
    static_assert(TileCopyProblem<half_t, S, true>::kVector == 8);
    static_assert(TileCopyProblem<half_t, S, false>::kVector == 1);
    static_assert(TileCopyPolicy<TileCopyProblem<half_t, S>>::GetSmemSize() == 64 * 64 * 2);
}
