// SPDX-License-Identifier: MIT
// The pieces of the multiblock reduction that can be checked alone: Reduce2dTilePartitioner's
// split of the reduced length over a group of blocks, and reference_multiple_reduce_multiblock's
// chunked fold (element-wise op, reduction, accumulator op per chunk, inter-block combine).
#include <doctest/doctest.h>

#include "ck_tile/host.hpp"
#include "ck_tile/host/reference/reference_reduce.hpp"
#include "ck_tile/ops/epilogue/element_wise.hpp"
#include "ck_tile/ops/reduce.hpp"

using namespace ck_tile;

namespace {
// 16 rows per block step, as tile_example_multi_reduce_blockwise
using Shape       = Reduce2dShape<sequence<1, 1>, sequence<512, 16>, sequence<512, 1>, sequence<8, 1>>;
using Partitioner = Reduce2dTilePartitioner<Shape>;

struct Square
{
    void operator()(float& y, const float& x) const { y = x * x; }
};
} // namespace

TEST_CASE("the partitioner gives up to 128 blocks one step each, then more steps per block")
{
    const auto params = [](index_t L) {
        const auto g = Partitioner{L}.GetBlockGroupParams();
        return std::pair{g.at(number<0>{}), g.at(number<1>{})};
    };
    CHECK(params(1) == std::pair{1, 1});
    CHECK(params(16) == std::pair{1, 1});
    CHECK(params(17) == std::pair{1, 2});
    CHECK(params(133) == std::pair{1, 9}); // upstream's default 19 x 7
    CHECK(params(2048) == std::pair{1, 128});
    CHECK(params(2049) == std::pair{2, 65});
    CHECK(params(4096) == std::pair{2, 128});
    CHECK(params(0) == std::pair{0, 1});
    // every block of a group has rows, and the group covers all of them
    for(index_t L = 1; L <= 20000; L += (L < 300 ? 1 : 37))
    {
        CAPTURE(L);
        const auto [iters, g] = params(L);
        REQUIRE(g >= 1);
        REQUIRE(g <= Partitioner::kMaxBlockGroupSize);
        REQUIRE(Partitioner::GetInputRowOffset(g - 1, iters) < L);
        REQUIRE(Partitioner::GetInputRowOffset(g, iters) >= L);
    }
    const auto tile_local = Partitioner::GetOutputTileIndexMultiBlock(23, 9);
    CHECK(tile_local.at(number<0>{}) == 2);
    CHECK(tile_local.at(number<1>{}) == 5);
}

TEST_CASE("reference_multiple_reduce_multiblock folds each chunk, divides it, and adds the chunks")
{
    // x[n, h, w, c] = c == 0 ? h * 2 + w + 1 : -1, a 1 x 2 x 2 x 2 NHWC tensor: over (h, w) channel
    // 0 holds 1, 2, 3, 4 and channel 1 holds -1 four times
    HostTensor<half_t> x({1, 2, 2, 2});
    for(int h = 0; h < 2; ++h)
        for(int w = 0; w < 2; ++w)
        {
            x(0, h, w, 0) = type_convert<half_t>(float(h * 2 + w + 1));
            x(0, h, w, 1) = type_convert<half_t>(-1.f);
        }
    for(index_t blocks : {1, 2, 3, 4})
    {
        CAPTURE(blocks);
        auto ys = make_tuple(HostTensor<float>({1, 2}), HostTensor<float>({1, 2}), HostTensor<float>({1, 2}));
        reference_multiple_reduce_multiblock<half_t, float, float>(
            x, ys, make_tuple(ReduceOp::Add{}, ReduceOp::SquareAdd{}, ReduceOp::Add{}), sequence<0, 3>{},
            sequence<1, 2>{}, make_tuple(element_wise::PassThrough{}, element_wise::PassThrough{}, Square{}),
            make_tuple(element_wise::PassThrough{}, element_wise::UnaryDivide{4}, element_wise::UnaryDivide{4}),
            make_tuple(ReduceOp::Add{}, ReduceOp::Add{}, ReduceOp::Add{}), blocks);
        // sums 10 and -4; means of squares (1 + 4 + 9 + 16) / 4 = 7.5 and 1, whichever the split
        // (each chunk's sum of squares / 4 is exact here); squaring as an element-wise op before Add
        // is the same as SquareAdd
        CHECK(ys.at(number<0>{})(0, 0) == 10.f);
        CHECK(ys.at(number<0>{})(0, 1) == -4.f);
        CHECK(ys.at(number<1>{})(0, 0) == 7.5f);
        CHECK(ys.at(number<1>{})(0, 1) == 1.f);
        CHECK(ys.at(number<2>{})(0, 0) == 7.5f);
        CHECK(ys.at(number<2>{})(0, 1) == 1.f);
    }
    // the accumulator op is applied per chunk: Max of per-chunk divided sums shows the split
    {
        auto ys = make_tuple(HostTensor<float>({1, 2}));
        reference_multiple_reduce_multiblock<half_t, float, float>(
            x, ys, make_tuple(ReduceOp::Add{}), sequence<0, 3>{}, sequence<1, 2>{},
            make_tuple(element_wise::PassThrough{}), make_tuple(element_wise::UnaryDivide{2}),
            make_tuple(ReduceOp::Max{}), 2);
        CHECK(ys.at(number<0>{})(0, 0) == 3.5f); // chunks {1, 2} and {3, 4}: max(1.5, 3.5)
        CHECK(ys.at(number<0>{})(0, 1) == -1.f); // max(-1, -1)
    }
}
