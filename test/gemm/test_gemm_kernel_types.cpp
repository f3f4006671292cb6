// SPDX-License-Identifier: MIT
// The tile partitioner and the host reference. GemmKernel with bf16 and fp8 is checked by the
// cases of example/ck_tile/03_gemm (every type x layout x pipeline, awkward sizes and strides).
#include <doctest/doctest.h>

#include "gemm_kernel_test_common.hpp"

using namespace gemm_test;

TEST_CASE("GemmTile2DPartitioner")
{
    using P = ck_tile::TilePartitioner<Shape16>;
    CHECK(P::GridSize(256, 256).x == 4);
    CHECK(P::GridSize(129, 257).x == 6);
    CHECK(P::GridSize(1, 1).x == 1);
    CHECK(P::GetLoopNum(32) == 1);
    CHECK(P::GetLoopNum(65) == 3);
    const auto t = P::GetOutputTileIndex(5, 257);
    CHECK(t.at(ck_tile::number<0>{}) == 1);
    CHECK(t.at(ck_tile::number<1>{}) == 2);
}

TEST_CASE("reference_gemm follows the layouts' strides")
{
    const int M = 7, N = 5, K = 9;
    auto a = make_matrix<float>(M, K, 11, false, 3, false);
    auto b = make_matrix<float>(K, N, 6, true, 4, false);
    ck_tile::HostTensor<float> c({M, N});
    ck_tile::reference_gemm<float, float, double, float>(a, b, c);
    for(int m = 0; m < M; ++m)
        for(int n = 0; n < N; ++n)
        {
            double s = 0;
            for(int k = 0; k < K; ++k)
                s += double(a(m, k)) * b(k, n);
            CHECK(c(m, n) == doctest::Approx(s));
        }
}
