// SPDX-License-Identifier: MIT
// reference_batched_transpose: NCHW -> NHWC places x(n, c, h, w) at y(n, h, w, c), NHWC -> NCHW
// undoes it, and anything else is refused.
#include <doctest/doctest.h>

#include <stdexcept>
#include "ck_tile/host.hpp"
#include "ck_tile/host/reference/reference_batched_transpose.hpp"

using namespace ck_tile;

TEST_CASE("NCHW -> NHWC moves every element, and NHWC -> NCHW brings it back")
{
    const std::size_t N = 2, C = 3, H = 4, W = 5;
    HostTensor<float> x({N, C, H, W}), y({N, H, W, C}), z({N, C, H, W});
    float v = 0;
    x.ForEach([&](auto& self, const auto& i) { self(i) = v++; });
    reference_batched_transpose(x, y, "NCHW", "NHWC");
    for(std::size_t n = 0; n < N; ++n)
        for(std::size_t c = 0; c < C; ++c)
            for(std::size_t h = 0; h < H; ++h)
                for(std::size_t w = 0; w < W; ++w)
                    CHECK(y(n, h, w, c) == x(n, c, h, w));
    reference_batched_transpose(y, z, "NHWC", "NCHW");
    CHECK(z.mData == x.mData);
}

TEST_CASE("equal or unknown layouts and mismatched lengths are refused")
{
    HostTensor<float> x({1, 2, 3, 4}), y({1, 3, 4, 2}), bad({1, 2, 4, 3});
    CHECK_THROWS_AS(reference_batched_transpose(x, y, "NCHW", "NCHW"), std::invalid_argument);
    CHECK_THROWS_AS(reference_batched_transpose(x, y, "NCHW", "CHWN"), std::invalid_argument);
    CHECK_THROWS_AS(reference_batched_transpose(x, bad, "NCHW", "NHWC"), std::invalid_argument);
    CHECK_NOTHROW(reference_batched_transpose(x, y, "NCHW", "NHWC"));
}
