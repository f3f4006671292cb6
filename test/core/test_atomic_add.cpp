// SPDX-License-Identifier: MIT
// Atomic adds into global fp32 memory (buffer_atomic_add_checked, buffer_view::atomic_add,
// atomic_add_tile): many workgroups adding into the same elements on several worker threads lose
// no update, invalid / out-of-range / padding accesses are dropped, and racecheck does not take
// the adds for a race.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <vector>
#include "ck_tile/core.hpp"
#include "ck_tile/host.hpp"

using namespace ck_tile;

namespace {
// Restores the default worker-thread count and turns racecheck off when a test ends.
struct emulator_guard
{
    explicit emulator_guard(unsigned threads, bool racecheck)
    {
        emu::set_worker_threads(threads);
        emu::set_racecheck(racecheck);
    }
    ~emulator_guard()
    {
        emu::set_worker_threads(0);
        emu::set_racecheck(false);
    }
};

constexpr index_t kLanes = 64;

// Every block adds (block % 5) + 1 to elements lane and lane + 64 of a 128-element buffer; lanes
// 0..3 also add a pair flagged invalid (dropped) and a pair at the last element, whose second
// element lies past the buffer's end (each element is its own atomic: only that one is dropped).
struct AddBlockNumbers
{
    CK_TILE_DEVICE void operator()(float* p, index_t size) const
    {
        const auto buf = make_buffer_view<address_space_enum::global>(p, size);
        const float v  = static_cast<float>(get_block_id() % 5 + 1);
        thread_buffer<float, 2> x;
        x[0] = v;
        x[1] = v;
        buf.atomic_add<1>(get_lane_id(), true, thread_buffer<float, 1>{x[0]});
        buf.atomic_add<1>(get_lane_id() + kLanes, true, thread_buffer<float, 1>{x[1]});
        if(get_lane_id() < 4)
        {
            buf.atomic_add<2>(get_lane_id(), false, x); // invalid: dropped
            buf.atomic_add<2>(size - 1, true, x);       // the last element, and one outside
        }
    }
};

// A 4 x 64 tile (2 warps x 2 rows, 64 lanes along the columns) added into the top-left corner of
// an M x N row-major fp32 matrix through a padded view: padding rows and columns are dropped.
using Encoding =
    tile_distribution_encoding<sequence<>, tuple<sequence<2, 2>, sequence<64>>, tuple<sequence<1>, sequence<2>>,
                               tuple<sequence<0>, sequence<0>>, sequence<1>, sequence<1>>;
struct AddTile
{
    CK_TILE_DEVICE void operator()(float* p, index_t M, index_t N) const
    {
        constexpr auto tile = make_tuple(number<4>{}, number<64>{});
        const auto view =
            pad_tensor_view(make_naive_tensor_view<address_space_enum::global>(p, make_tuple(M, N), make_tuple(N, 1)),
                            tile, sequence<true, true>{});
        auto w = make_tile_window(view, tile, make_multi_index(0, 0), make_static_tile_distribution(Encoding{}));
        static_distributed_tensor<float, decltype(make_static_tile_distribution(Encoding{}))> t;
        set_tile(t, 0.5f);
        atomic_add_tile(w, t);
    }
};
} // namespace

TEST_CASE("atomic adds of many workgroups on several worker threads lose nothing")
{
    for(unsigned threads : {1u, 4u})
    {
        CAPTURE(threads);
        emulator_guard g(threads, /*racecheck=*/true);
        const int blocks = 500, size = 2 * kLanes;
        std::vector<float> y(size + 1, 0.f);
        y[size] = 42.f; // the element after the buffer
        DeviceMem yd(y.size() * sizeof(float));
        yd.ToDevice(y.data());
        launch_kernel(stream_config{}, make_kernel<kLanes>(AddBlockNumbers{}, dim3(blocks), dim3(kLanes), 0,
                                                           static_cast<float*>(yd.GetDeviceBuffer()), size));
        yd.FromDevice(y.data());
        // sum over blocks of (b % 5) + 1: 100 of each of 1..5; small integers, exact in fp32
        const float expected = 100.f * (1 + 2 + 3 + 4 + 5);
        for(int i = 0; i < size - 1; ++i)
            CHECK(y[i] == expected);
        CHECK(y[size - 1] == 5 * expected); // its own add and the four lanes' extra ones
        CHECK(y[size] == 42.f);
    }
}

TEST_CASE("atomic_add_tile adds a tile through a padded view and drops the padding")
{
    emulator_guard g(4, /*racecheck=*/true);
    const int M = 3, N = 37, blocks = 64; // a 4 x 64 tile over a 3 x 37 matrix
    std::vector<float> y(M * N + 8, 1.f);
    DeviceMem yd(y.size() * sizeof(float));
    yd.ToDevice(y.data());
    launch_kernel(stream_config{}, make_kernel<128>(AddTile{}, dim3(blocks), dim3(128), 0,
                                                    static_cast<float*>(yd.GetDeviceBuffer()), M, N));
    yd.FromDevice(y.data());
    for(int i = 0; i < M * N; ++i)
        CHECK(y[i] == 1.f + 0.5f * blocks);
    for(int i = M * N; i < M * N + 8; ++i)
        CHECK(y[i] == 1.f); // padding columns / rows land past M x N in memory: untouched
}
