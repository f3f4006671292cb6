// SPDX-License-Identifier: MIT
// BatchedTransposeCommonPolicy, for the problems tile_example_batched_transpose uses: the input
// distribution covers the [M x N] tile once with runs along N, the output distribution is its
// transpose (transpose_tile2d accepts the pair) with runs along M, and every lane keeps the same
// elements: after transpose_tile2d, output position (n, m) holds what input (m, n) held.
#include <doctest/doctest.h>

#include <set>
#include <utility>
#include "ck_tile/core.hpp"
#include "ck_tile/ops/batched_transpose.hpp"

using namespace ck_tile;

namespace {

template <typename Problem>
void check_policy()
{
    using Policy  = BatchedTransposeCommonPolicy;
    using InDstr  = decltype(Policy::MakeInputDistribution<Problem>());
    using OutDstr = decltype(Policy::MakeOutputDistribution<Problem>());
    static_assert(InDstr::get_vector_y_dim() == InDstr::NDimY - 1 && OutDstr::get_vector_y_dim() == OutDstr::NDimY - 1);
    static_assert(InDstr::get_ys_lengths().back() == Problem::kVector);
    static_assert(OutDstr::get_ys_lengths().back() == Problem::kVector);

    std::set<std::pair<int, int>> seen;
    for(index_t w = 0; w < Problem::kWarpsM * Problem::kWarpsN; ++w)
        for(index_t l = 0; l < 64; ++l)
        {
            const auto ps = make_multi_index(w, l);
            static_distributed_tensor<int, InDstr> x;
            const auto xi0 = InDstr::calculate_index(ps);
            for(index_t d = 0; d < InDstr::thread_buffer_size; ++d)
            {
                const auto xi = xi0 + InDstr::d_to_x_offset(d);
                x[d]          = xi[0] * 100000 + xi[1];
                CHECK(seen.insert({xi[0], xi[1]}).second);
            }
            static_distributed_tensor<int, OutDstr> y;
            transpose_tile2d(y, x);
            const auto xo0 = OutDstr::calculate_index(ps);
            for(index_t d = 0; d < OutDstr::thread_buffer_size; ++d)
            {
                const auto xo = xo0 + OutDstr::d_to_x_offset(d);
                CHECK(y[d] == xo[1] * 100000 + xo[0]);
            }
        }
    CHECK(seen.size() == static_cast<std::size_t>(Problem::kMPerBlock * Problem::kNPerBlock));
}

} // namespace

TEST_CASE("fp16: 64 x 64, one wave, 8 x 8 per lane")
{
    check_policy<BatchedTransposeProblem<half_t, sequence<64, 64>, sequence<1, 1>, false, false>>();
}

TEST_CASE("fp8: 128 x 128, one wave, 16 x 16 per lane")
{
    check_policy<BatchedTransposeProblem<fp8_t, sequence<128, 128>, sequence<1, 1>, true, true>>();
}

TEST_CASE("bf16: 256 x 128, 2 x 1 waves, repeats along M")
{
    using P = BatchedTransposeProblem<bf16_t, sequence<256, 128>, sequence<2, 1>, true, true, false>;
    static_assert(P::kRepeatM == 2 && P::kRepeatN == 2 && P::kBlockSize == 128 && P::kAlignment == 1);
    check_policy<P>();
}

// The LDS pipeline's output distribution: vector dimension last with 16 bytes, every output
// element held by exactly one lane, and lane j of a group of 16 on output row n0 + j (the column of
// the LDS tile its transpose reads return).
template <typename Problem>
void check_transposed_read_distribution()
{
    using Dstr = decltype(BatchedTransposeLdsPolicy::MakeTransposedReadDistribution<Problem>());
    static_assert(Dstr::get_vector_y_dim() == Dstr::NDimY - 1 && Dstr::get_ys_lengths().back() == Problem::kVector);
    std::set<std::pair<int, int>> seen;
    for(index_t w = 0; w < Problem::kWarpsM * Problem::kWarpsN; ++w)
        for(index_t l = 0; l < 64; ++l)
        {
            const auto x0 = Dstr::calculate_index(make_multi_index(w, l));
            CHECK(x0[0] % 16 == l % 16);
            CHECK(x0[1] % (4 * Problem::kVector) == (l / 16) * Problem::kVector);
            for(index_t d = 0; d < Dstr::thread_buffer_size; ++d)
            {
                const auto x = x0 + Dstr::d_to_x_offset(d);
                CHECK(seen.insert({x[0], x[1]}).second);
            }
        }
    CHECK(seen.size() == static_cast<std::size_t>(Problem::kMPerBlock * Problem::kNPerBlock));
}

TEST_CASE("LDS policy: the tile fits, and the transpose reads' distribution covers its transpose once")
{
    using P = BatchedTransposeLdsProblem<half_t, sequence<64, 64>, sequence<1, 1>, false, false>;
    static_assert(BatchedTransposeLdsPolicy::GetSmemSize<P>() == 64 * (64 + 16) * 2); // padded rows
    static_assert(BatchedTransposeLdsReadShape<P>::kElems == 4 && BatchedTransposeLdsReadShape<P>::kReads == 2);
    check_transposed_read_distribution<P>();
    using P8 = BatchedTransposeLdsProblem<fp8_t, sequence<128, 128>, sequence<1, 1>, true, true>;
    static_assert(BatchedTransposeLdsReadShape<P8>::kElems == 8 && BatchedTransposeLdsReadShape<P8>::kReads == 2);
    check_transposed_read_distribution<P8>();
    check_transposed_read_distribution<
        BatchedTransposeLdsProblem<bf16_t, sequence<128, 256>, sequence<2, 2>, true, true>>();
}
