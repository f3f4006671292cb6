// SPDX-License-Identifier: MIT
// GemmKernel with bf16 and fp8 (C in fp16), the tile partitioner and the host reference.
#include <doctest/doctest.h>

#include "gemm_kernel_test_common.hpp"

using namespace gemm_test;
using ck_tile::bf16_t;
using ck_tile::fp8_t;
using ck_tile::half_t;

TEST_CASE("bf16: layouts, pipelines and epilogues")
{
    // |C| <= 2 * 2 * 64 = 256: exact in bf16
    using CCR = Instance<bf16_t, bf16_t, bf16_t, Col, Col, Pipe::v1, Epi::cshuffle, true>;
    using RRR = Instance<bf16_t, bf16_t, bf16_t, Row, Row, Pipe::v2, Epi::default_2d, false>;
    CHECK(run<CCR>(256, 128, 64, {.range = 2}));
    CHECK(run<CCR>(136, 264, 64, {.range = 2}));
    CHECK(run<RRR>(129, 257, 63, {.range = 2}));
    CHECK(run<RRR>(33, 65, 61, {.stride_a = 70, .stride_b = 300, .stride_c = 67, .nan_gaps = true, .range = 2}));
}

TEST_CASE("fp8 A/B with fp16 C")
{
    using RCR = Instance<fp8_t, fp8_t, half_t, Row, Col, Pipe::v2, Epi::cshuffle, true,
                         ck_tile::element_wise::PassThrough, Shape8>;
    using CRR =
        Instance<fp8_t, fp8_t, half_t, Col, Row, Pipe::v1, Epi::default_2d, false, ck_tile::element_wise::Relu, Shape8>;
    CHECK(run<RCR>(256, 256, 128));
    CHECK(run<RCR>(128, 384, 192));
    CHECK(run<CRR>(129, 257, 65));
    CHECK(run<CRR>(100, 40, 130, {.stride_a = 101, .stride_b = 45, .stride_c = 44, .nan_gaps = true}));
}

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
