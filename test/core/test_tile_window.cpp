// SPDX-License-Identifier: MIT
// Tile windows (on the emulator; test/hip_cpu runs them on hip-cpu): load_tile/store_tile through padded views, and the
// copy tutorial's kernel, right with its distribution and detectably wrong with a broken one.
#include <doctest/doctest.h>

#include <vector>
#include "ck_tile/core.hpp"
#include "ck_tile/host.hpp"
#include "tutorial/ck_tile/00_copy_kernel/copy_kernel.hpp"

using namespace ck_tile;

namespace {
using Shape = CopyShape<half_t>;

// The copy kernel's data flow with a distribution of our choice.
template <typename Encoding>
struct CopyWithDistribution
{
    CK_TILE_DEVICE void operator()(const half_t* p_x, half_t* p_y, index_t M, index_t N) const
    {
        constexpr auto tile = make_tuple(number<Shape::kMPerBlock>{}, number<Shape::kNPerBlock>{});
        const auto x =
            pad_tensor_view(make_naive_tensor_view<address_space_enum::global>(p_x, make_tuple(M, N), make_tuple(N, 1)),
                            tile, sequence<true, true>{});
        const auto y =
            pad_tensor_view(make_naive_tensor_view<address_space_enum::global>(p_y, make_tuple(M, N), make_tuple(N, 1)),
                            tile, sequence<true, true>{});
        const index_t m0 = get_block_id() * Shape::kMPerBlock;
        auto xw = make_tile_window(x, tile, make_multi_index(m0, 0), make_static_tile_distribution(Encoding{}));
        auto yw = make_tile_window(y, tile, make_multi_index(m0, 0));
        for(index_t n = 0; n < N; n += Shape::kNPerBlock)
        {
            store_tile(yw, load_tile(xw));
            move_tile_window(xw, make_multi_index(0, Shape::kNPerBlock));
            move_tile_window(yw, make_multi_index(0, Shape::kNPerBlock));
        }
    }
};

template <typename Kernel>
std::vector<half_t> run_copy(int M, int N, std::vector<half_t>& x)
{
    HostTensor<half_t> xh({M, N});
    FillMonotonicSeq<half_t>{0.f, 1.f}(xh); // distinct values (exact in fp16 up to 2048)
    x = xh.mData;
    DeviceMem xd(x.size() * sizeof(half_t)), yd(x.size() * sizeof(half_t));
    xd.ToDevice(x.data());
    yd.SetZero();
    launch_kernel(stream_config{}, make_kernel<256>(Kernel{}, dim3(integer_divide_ceil(M, Shape::kMPerBlock)),
                                                    dim3(256), 0, static_cast<const half_t*>(xd.GetDeviceBuffer()),
                                                    static_cast<half_t*>(yd.GetDeviceBuffer()), M, N));
    std::vector<half_t> y(x.size());
    yd.FromDevice(y.data());
    return y;
}
} // namespace

TEST_CASE("the tutorial's copy kernel copies, including sizes that are not whole tiles")
{
    for(auto [M, N] : {std::pair{64, 64}, std::pair{128, 192}, std::pair{33, 17}, std::pair{1, 1}, std::pair{70, 72}})
    {
        CAPTURE(M);
        CAPTURE(N);
        std::vector<half_t> x;
        const auto y = N % Shape::kVector == 0 ? run_copy<TileCopyKernel<Shape, true>>(M, N, x)
                                               : run_copy<TileCopyKernel<Shape, false>>(M, N, x);
        CHECK(check_err(y, x, "copy differs", 0, 0));
    }
}

TEST_CASE("a wrong distribution gives a wrong copy")
{
    // The tutorial's encoding, and the same with the lane id's two components merged in the other
    // order: with it lanes walk the columns first. Every element is still written exactly once,
    // but data loaded with one and stored with the other lands in the wrong place.
    using good      = tile_distribution_encoding<sequence<>, tuple<sequence<2, 4, 8>, sequence<8, 8>>,
                                                 tuple<sequence<1>, sequence<1, 2>>, tuple<sequence<1>, sequence<2, 0>>,
                                                 sequence<1, 2>, sequence<0, 1>>;
    using bad_store = tile_distribution_encoding<sequence<>, tuple<sequence<2, 4, 8>, sequence<8, 8>>,
                                                 tuple<sequence<1>, sequence<2, 1>>, tuple<sequence<1>, sequence<0, 2>>,
                                                 sequence<1, 2>, sequence<0, 1>>;
    std::vector<half_t> x;
    CHECK(check_err(run_copy<CopyWithDistribution<good>>(64, 64, x), x, "copy differs", 0, 0));
    struct Broken
    {
        CK_TILE_DEVICE void operator()(const half_t* p_x, half_t* p_y, index_t M, index_t N) const
        {
            constexpr auto tile = make_tuple(number<64>{}, number<64>{});
            const auto xv = make_naive_tensor_view<address_space_enum::global>(p_x, make_tuple(M, N), make_tuple(N, 1));
            const auto yv = make_naive_tensor_view<address_space_enum::global>(p_y, make_tuple(M, N), make_tuple(N, 1));
            const auto t =
                load_tile(make_tile_window(xv, tile, make_multi_index(0, 0), make_static_tile_distribution(good{})));
            // same registers, stored as if they were laid out by another distribution
            static_distributed_tensor<half_t, tile_distribution<bad_store>> u;
            u.get_thread_buffer() = t.get_thread_buffer();
            store_tile(make_tile_window(yv, tile, make_multi_index(0, 0)), u);
        }
    };
    const auto y = run_copy<Broken>(64, 64, x);
    std::cerr << "(the mismatch report below is expected)\n";
    CHECK_FALSE(check_err(y, x, "copy with a wrong distribution differs, as it must", 0, 0));
}

#if CK_TILE_BACKEND_EMULATOR // buffer views called from host code: the emulator runs them there
TEST_CASE("a global access outside its buffer reads zeros and stores nothing, in buffers shorter than it too")
{
    // The range test is one comparison against buffer_size - N + 1 (none when the buffer is shorter
    // than one access): every first element from 0 to there is inside, -1 and the one after are not.
    std::vector<float> mem(16);
    for(int k = 0; k < 16; ++k)
        mem[k] = float(k + 1);
    for(long_index_t size : {long_index_t{0}, long_index_t{3}, long_index_t{4}, long_index_t{9}, long_index_t{16}})
    {
        CAPTURE(size);
        const auto buf = make_buffer_view<address_space_enum::global>(mem.data(), size);
        for(long_index_t i = -5; i <= 16; ++i)
        {
            CAPTURE(i);
            const bool inside = i >= 0 && i + 4 <= size;
            const auto v      = buf.template get<4>(i, true);
            for(int k = 0; k < 4; ++k)
                CHECK(v[k] == (inside ? mem[i + k] : 0.f));
            CHECK(buf.template get<4>(i, false)[0] == 0.f); // padding reads 0, inside or not
        }
        std::vector<float> out(16, -1.f);
        const auto obuf = make_buffer_view<address_space_enum::global>(out.data(), size);
        thread_buffer<float, 4> x;
        for(int k = 0; k < 4; ++k)
            x[k] = 7.f;
        for(long_index_t i = -5; i <= 16; ++i)
            obuf.template set<4>(i, true, x);
        for(long_index_t e = 0; e < 16; ++e)
            CHECK(out[e] == (e < size && size >= 4 ? 7.f : -1.f));
    }
}
#endif
