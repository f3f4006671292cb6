// SPDX-License-Identifier: MIT
// ImageToColumn::GetInOffset (which image element, or padding, each output element takes) checked
// against reference_im2col on images whose elements hold their own offset + 1 (0 marks padding),
// and ConvParam's output lengths, including filters that do not fit.
#include <doctest/doctest.h>

#include <vector>

#include "ck_tile/host/convolution_parameter.hpp"
#include "ck_tile/host/reference/reference_im2col.hpp"
#include "ck_tile/ops/image_to_column.hpp"

using ck_tile::index_t;
using Shape =
    ck_tile::TileImageToColumnShape<ck_tile::sequence<8, 8>, ck_tile::sequence<64, 64>, ck_tile::sequence<128, 128>>;
using Kernel = ck_tile::ImageToColumn<ck_tile::BlockImageToColumnProblem<float, float, Shape, 2, 8, 8>>;

namespace {

void check(const ck_tile::conv::ConvParam& p)
{
    const long G = p.G_, N = p.N_, C = p.C_, Hi = p.input_spatial_lengths_[0], Wi = p.input_spatial_lengths_[1];
    const long Y = p.filter_spatial_lengths_[0], X = p.filter_spatial_lengths_[1];
    const long Ho = p.GetOutputSpatialLengths()[0], Wo = p.GetOutputSpatialLengths()[1];
    const long M = N * Ho * Wo, K = Y * X * C;
    ck_tile::HostTensor<float> in({G, N, C, Hi, Wi}, {C, Hi * Wi * G * C, 1l, Wi * G * C, G * C});
    for(std::size_t i = 0; i < in.mData.size(); ++i)
        in.mData[i] = static_cast<float>(i + 1);
    ck_tile::HostTensor<float> ref({G, M, K});
    ck_tile::reference_im2col<float, float, 2>(in, ref, p);

    const auto i    = [](long v) { return static_cast<index_t>(v); };
    const auto args = Kernel::MakeKargs(
        nullptr, nullptr, i(G), i(N), i(C), {i(Hi), i(Wi)}, {i(Y), i(X)}, {i(Ho), i(Wo)},
        {i(C), i(Hi * Wi * G * C), 1, i(Wi * G * C), i(G * C)}, {i(M * K), i(K), 1},
        {i(p.conv_filter_strides_[0]), i(p.conv_filter_strides_[1])},
        {i(p.conv_filter_dilations_[0]), i(p.conv_filter_dilations_[1])},
        {i(p.input_left_pads_[0]), i(p.input_left_pads_[1])}, {i(p.input_right_pads_[0]), i(p.input_right_pads_[1])});
    REQUIRE(args.gemm_m == M);
    REQUIRE(args.gemm_k == K);
    REQUIRE(args.in_space == static_cast<long>(in.mData.size()));
    for(long g = 0; g < G; ++g)
        for(long m = 0; m < M; ++m)
            for(long k = 0; k < K; ++k)
            {
                bool valid;
                const index_t off = Kernel::GetInOffset(args, i(g), i(m), i(k), valid);
                const float got   = valid ? in.mData[off] : 0.f;
                REQUIRE(got == ref(g, m, k));
            }
}

} // namespace

TEST_CASE("ConvParam: output lengths, and a filter that does not fit gives 0")
{
    const ck_tile::conv::ConvParam d{2, 2, 32, 32, 32, {4, 4}, {64, 64}, {1, 1}, {1, 1}, {0, 0}, {0, 0}};
    CHECK(d.GetOutputSpatialLengths() == std::vector<ck_tile::long_index_t>{61, 61});
    const ck_tile::conv::ConvParam s{2, 1, 1, 1, 8, {3, 5}, {13, 17}, {2, 3}, {2, 1}, {3, 0}, {1, 2}};
    CHECK(s.GetOutputSpatialLengths() == std::vector<ck_tile::long_index_t>{7, 5});
    // 3 + 0 - 4 = -1: C++ division would round to 0 and report one output row
    const ck_tile::conv::ConvParam n{2, 1, 1, 1, 8, {4, 1}, {3, 3}, {2, 1}, {1, 1}, {0, 0}, {0, 0}};
    CHECK(n.GetOutputSpatialLengths()[0] == 0);
}

TEST_CASE("GetInOffset matches reference_im2col")
{
    check({2, 2, 2, 1, 8, {3, 3}, {6, 7}, {1, 1}, {1, 1}, {1, 1}, {1, 1}});    // same padding
    check({2, 3, 2, 1, 16, {3, 5}, {13, 17}, {2, 3}, {2, 1}, {3, 0}, {1, 2}}); // strides, dilations, uneven pads
    check({2, 1, 1, 1, 8, {1, 1}, {5, 4}, {1, 1}, {1, 1}, {0, 0}, {0, 0}});    // 1x1 filter
    check({2, 1, 2, 1, 8, {2, 2}, {3, 3}, {4, 4}, {1, 1}, {2, 2}, {2, 2}});    // strides past the image
    check({2, 2, 1, 1, 24, {4, 4}, {9, 9}, {1, 1}, {1, 1}, {0, 0}, {0, 0}});   // upstream's filter, C = 24
}

TEST_CASE("IsSupportedArgument: C must be a multiple of the vector")
{
    const auto k = Kernel::MakeKargs(nullptr, nullptr, 1, 1, 12, {4, 4}, {1, 1}, {4, 4}, {12, 192, 1, 48, 12},
                                     {192, 12, 1}, {1, 1}, {1, 1}, {0, 0}, {0, 0});
    CHECK_FALSE(Kernel::IsSupportedArgument(k));
    CHECK(Kernel::GetUnsupportedReason(k) == "C=12 is not a multiple of 8");
}
