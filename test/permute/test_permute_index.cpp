// SPDX-License-Identifier: MIT
// GenericPermute's simplified problem (MakeKargs) and offsets (GetSrcOffset), and the
// matrix-core swizzle's destination offsets, checked element by element against
// reference_permute on tensors that hold their own linear index.
#include <doctest/doctest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <vector>

#include "ck_tile/host/reference/reference_permute.hpp"
#include "ck_tile/ops/permute.hpp"

using ck_tile::index_t;
using ck_tile::matrix_core_inst_enum;
using ck_tile::matrix_core_permute_style;
using ck_tile::matrix_core_swizzle_host_args;
using ck_tile::matrix_core_swizzle_kernel;
using Scalar = ck_tile::GenericPermute<ck_tile::GenericPermuteProblem<float, 256, 8, false>>;
using Vector = ck_tile::GenericPermute<ck_tile::GenericPermuteProblem<ck_tile::half_t, 256, 8, true>>;

namespace {

ck_tile::GenericPermuteHostArgs make_args(const std::vector<int>& shape, const std::vector<int>& perm)
{
    ck_tile::GenericPermuteHostArgs a{};
    a.rank = static_cast<index_t>(shape.size());
    for(std::size_t i = 0; i < shape.size(); ++i)
    {
        a.shape[i] = shape[i];
        a.perm[i]  = perm[i];
    }
    return a;
}

// y from reference_permute on x = 0, 1, 2, ...: y[i] is x's offset of y's element i
std::vector<int> reference_offsets(const std::vector<int>& shape, const std::vector<int>& perm)
{
    ck_tile::HostTensor<int> x(shape);
    std::iota(x.mData.begin(), x.mData.end(), 0);
    std::vector<int> ys(shape.size());
    for(std::size_t i = 0; i < shape.size(); ++i)
        ys[i] = shape[perm[i]];
    ck_tile::HostTensor<int> y(ys);
    ck_tile::reference_permute(x, y, std::vector<index_t>(perm.begin(), perm.end()));
    return y.mData;
}

void check_generic(const std::vector<int>& shape, const std::vector<int>& perm)
{
    const auto ref = reference_offsets(shape, perm);
    const auto k   = Scalar::MakeKargs(make_args(shape, perm));
    REQUIRE(k.total == static_cast<index_t>(ref.size()));
    for(index_t i = 0; i < k.total; ++i)
        REQUIRE(Scalar::GetSrcOffset(k, i) == ref[i]);
}

} // namespace

TEST_CASE("reference_permute: a 2x3 transpose")
{
    ck_tile::HostTensor<int> x({2, 3}), y({3, 2});
    std::iota(x.mData.begin(), x.mData.end(), 0);
    ck_tile::reference_permute(x, y, {1, 0});
    CHECK(y.mData == std::vector<int>{0, 3, 1, 4, 2, 5});
}

TEST_CASE("reference_permute: refuses a repeated axis and mismatched lengths")
{
    ck_tile::HostTensor<int> x({2, 3}), y({3, 2}), z({2, 3});
    CHECK_THROWS(ck_tile::reference_permute(x, y, {0, 0}));
    CHECK_THROWS(ck_tile::reference_permute(x, z, {1, 0}));
    CHECK_THROWS(ck_tile::reference_permute(x, y, {1, 0, 2}));
}

TEST_CASE("MakeKargs: merges neighbours and drops length-1 dimensions")
{
    auto k = Scalar::MakeKargs(make_args({2, 3, 4}, {0, 1, 2}));
    CHECK(k.rank == 1);
    CHECK(k.lengths[7] == 24);
    CHECK(k.src_strides[7] == 1);

    k = Scalar::MakeKargs(make_args({4, 8, 64}, {1, 0, 2}));
    CHECK(k.rank == 3);
    CHECK(k.lengths[5] == 8);
    CHECK(k.lengths[6] == 4);
    CHECK(k.lengths[7] == 64);
    CHECK(k.src_strides[5] == 64);
    CHECK(k.src_strides[6] == 512);
    CHECK(k.src_strides[7] == 1);

    k = Scalar::MakeKargs(make_args({1, 5, 1, 6, 1}, {4, 3, 2, 1, 0}));
    CHECK(k.rank == 2);
    CHECK(k.lengths[6] == 6);
    CHECK(k.lengths[7] == 5);

    k = Scalar::MakeKargs(make_args({1, 1}, {1, 0}));
    CHECK(k.rank == 1);
    CHECK(k.total == 1);
}

TEST_CASE("IsSupportedArgument: the vector instance needs a kept innermost run of whole vectors")
{
    CHECK(Vector::IsSupportedArgument(Vector::MakeKargs(make_args({4, 8, 64}, {1, 0, 2}))));
    CHECK(Vector::IsSupportedArgument(Vector::MakeKargs(make_args({3, 2, 4}, {0, 1, 2})))); // merged: 24
    CHECK_FALSE(Vector::IsSupportedArgument(Vector::MakeKargs(make_args({4, 8, 9}, {1, 0, 2}))));
    CHECK_FALSE(Vector::IsSupportedArgument(Vector::MakeKargs(make_args({16, 16}, {1, 0}))));
    CHECK(Scalar::IsSupportedArgument(Scalar::MakeKargs(make_args({16, 16}, {1, 0}))));
}

TEST_CASE("GetSrcOffset: upstream's smoke shapes")
{
    check_generic({3, 8}, {1, 0});
    check_generic({48, 6, 8}, {2, 1, 0});
    check_generic({24, 128, 3}, {0, 2, 1});
    check_generic({4, 10, 7, 6}, {0, 2, 3, 1});
    check_generic({8, 24, 36, 10}, {3, 1, 2, 0});
    check_generic({8, 1, 36, 4}, {2, 1, 0, 3});
    check_generic({5, 10, 16, 2, 36, 4}, {4, 5, 2, 1, 0, 3});
    check_generic({2, 32, 8, 3, 6, 2, 5, 4}, {5, 2, 4, 7, 1, 6, 3, 0});
}

TEST_CASE("GetSrcOffset: random shapes and permutations of rank 1..8")
{
    std::mt19937 rng(7);
    for(int iter = 0; iter < 200; ++iter)
    {
        const int rank = 1 + static_cast<int>(rng() % 8);
        std::vector<int> shape(rank), perm(rank);
        for(int& s : shape)
            s = 1 + static_cast<int>(rng() % 4);
        std::iota(perm.begin(), perm.end(), 0);
        std::shuffle(perm.begin(), perm.end(), rng);
        CAPTURE(iter);
        check_generic(shape, perm);
    }
}

template <matrix_core_permute_style Style, matrix_core_inst_enum Inst>
void check_swizzle(const std::vector<int>& shape, const std::vector<int>& perm, int batch, int n, int k)
{
    using Kernel   = matrix_core_swizzle_kernel<256, 256, 128, Style, Inst>;
    const auto ref = reference_offsets(shape, perm);
    const matrix_core_swizzle_host_args a{nullptr, nullptr, batch, n, k};
    REQUIRE(static_cast<int>(ref.size()) == batch * n * k);
    // ref[i] = x's offset of y's element i; invert it: y's offset of each x vector's start
    std::vector<int> dst_of(ref.size());
    for(std::size_t i = 0; i < ref.size(); ++i)
        dst_of[ref[i]] = static_cast<int>(i);
    for(int b = 0; b < batch; ++b)
        for(int r = 0; r < n; ++r)
            for(int c = 0; c < k; c += 8)
                REQUIRE(Kernel::GetDstOffset(a, b, r, c) == dst_of[(b * n + r) * k + c]);
}

TEST_CASE("matrix_core_swizzle: destination offsets of every layout match reference_permute")
{
    using S = matrix_core_permute_style;
    using I = matrix_core_inst_enum;
    check_swizzle<S::permute_b_n0_k0_n1_k1_n2_k2, I::MFMA_32x32x8_F16>({2, 2, 4, 32, 8, 2, 8}, {0, 1, 4, 2, 5, 3, 6}, 2,
                                                                       256, 128);
    check_swizzle<S::permute_b_n0_n1_k0_k1_n2_k2, I::MFMA_32x32x8_F16>({2, 2, 4, 32, 8, 2, 8}, {0, 1, 2, 4, 5, 3, 6}, 2,
                                                                       256, 128);
    check_swizzle<S::permute_b_n0_k0_n1_k1_n2_k2, I::MFMA_16x16x16_F16>({1, 4, 4, 16, 4, 4, 8}, {0, 1, 4, 2, 5, 3, 6},
                                                                        1, 256, 128);
    check_swizzle<S::permute_b_n0_n1_k0_k1_n2_k2, I::MFMA_16x16x16_F16>({1, 4, 4, 16, 4, 4, 8}, {0, 1, 2, 4, 5, 3, 6},
                                                                        1, 256, 128);
    check_swizzle<S::permute_b_nr_kr_kw_nw_kv, I::MFMA_16x16x16_F16>({2, 4, 16, 8, 4, 8}, {0, 1, 3, 4, 2, 5}, 2, 64,
                                                                     256);
    check_swizzle<S::permute_b_nr_kr_kw_nw_kv, I::MFMA_32x32x8_F16>({1, 4, 32, 8, 2, 8}, {0, 1, 3, 4, 2, 5}, 1, 128,
                                                                    128);
}
