// SPDX-License-Identifier: MIT
// reference_gemm_bias_e_permute: hand-computed elements of a small problem, with a bias broadcast
// over M and F stored permuted ([G0, G1, M0, N0, M1, N1]).
#include <doctest/doctest.h>

#include "ck_tile/host/host_tensor.hpp"
#include "ck_tile/host/reference/reference_gemm_bias_e_permute.hpp"

TEST_CASE("F = (A B^T + D) * E, permuted")
{
    const std::size_t G0 = 1, G1 = 2, M0 = 2, M1 = 3, N0 = 2, N1 = 2, K = 3;
    ck_tile::HostTensor<float> a({G0, G1, M0, M1, K}), b({G0, G1, N0, N1, K});
    ck_tile::HostTensor<float> d({G0, G1, M0, M1, N0, N1}, {G1 * N0 * N1, N0 * N1, 0, 0, N1, 1});
    ck_tile::HostTensor<float> e({G0, G1, M0, M1, N0, N1});
    ck_tile::HostTensor<float> f({G0, G1, M0, M1, N0, N1},
                                 {G1 * M0 * N0 * M1 * N1, M0 * N0 * M1 * N1, N0 * M1 * N1, N1, M1 * N1, 1});
    a.ForEach([](auto& t, const auto& i) { t(i) = float(i[1] + i[2] * 3 + i[3] + i[4]); });
    b.ForEach([](auto& t, const auto& i) { t(i) = float(double(i[2] * 2 + i[3]) - double(i[4])); });
    d.ForEach([](auto& t, const auto& i) { t(i) = float(10 * i[1] + i[4] * 2 + i[5]); });
    e.ForEach([](auto& t, const auto& i) { t(i) = float(1 + (i[3] + i[5]) % 2); });
    ck_tile::reference_gemm_bias_e_permute<float, float, float, float, float>(a, b, d, e, f);
    for(std::size_t g1 = 0; g1 < G1; ++g1)
        for(std::size_t m0 = 0; m0 < M0; ++m0)
            for(std::size_t m1 = 0; m1 < M1; ++m1)
                for(std::size_t n0 = 0; n0 < N0; ++n0)
                    for(std::size_t n1 = 0; n1 < N1; ++n1)
                    {
                        double c = 0;
                        for(std::size_t k = 0; k < K; ++k)
                            c += double(g1 + m0 * 3 + m1 + k) * double(n0 * 2 + n1 - double(k));
                        const double want = (c + double(10 * g1 + n0 * 2 + n1)) * double(1 + (m1 + n1) % 2);
                        // F's storage: [g0, g1, m0, n0, m1, n1]
                        const std::size_t off =
                            g1 * (M0 * N0 * M1 * N1) + m0 * (N0 * M1 * N1) + n0 * (M1 * N1) + m1 * N1 + n1;
                        CHECK(f.mData[off] == doctest::Approx(want));
                    }
}

TEST_CASE("lengths that disagree are refused")
{
    ck_tile::HostTensor<float> a({1, 1, 1, 2, 3}), b({1, 1, 1, 2, 4}), d({1, 1, 1, 2, 1, 2}), e({1, 1, 1, 2, 1, 2}),
        f({1, 1, 1, 2, 1, 2});
    CHECK_THROWS_AS((ck_tile::reference_gemm_bias_e_permute<float, float, float, float, float>(a, b, d, e, f)),
                    std::invalid_argument);
}
