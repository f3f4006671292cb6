// SPDX-License-Identifier: MIT
// BatchedTransposeCommonPolicy, for the problems tile_example_batched_transpose uses: the input
// distribution covers the [M x N] tile once with runs along N, the output distribution is its
// transpose (transpose_tile2d accepts the pair) with runs along M, and every lane keeps the same
// elements: after transpose_tile2d, output position (n, m) holds what input (m, n) held.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
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

TEST_CASE("LDS policy: the tile in LDS fits and is read back transposed")
{
    using P = BatchedTransposeLdsProblem<half_t, sequence<64, 64>, sequence<1, 1>, false, false>;
    static_assert(BatchedTransposeLdsPolicy::GetSmemSize<P>() == 64 * 64 * 2);
    constexpr auto st = BatchedTransposeLdsPolicy::MakeLdsStoreDescriptor<P>();
    constexpr auto tr = BatchedTransposeLdsPolicy::MakeLdsTransposedDescriptor<P>();
    for(index_t m = 0; m < 64; m += 7)
        for(index_t n = 0; n < 64; n += 5)
            CHECK(st.calculate_hidden_index(make_multi_index(m, n))[0] ==
                  tr.calculate_hidden_index(make_multi_index(n, m))[0]);
}
