// SPDX-License-Identifier: MIT
// Atomic adds into global memory (buffer_atomic_add_checked for fp32 and int32,
// buffer_atomic_pk_add_checked for fp16 and bf16 pairs, buffer_view::atomic_add, atomic_add_tile):
// many workgroups adding into the same elements on several worker threads lose no update,
// invalid / out-of-range / padding accesses are dropped, a misaligned 16-bit pair is reported (by
// the emulator), a lone 16-bit element (an odd vector) is added whatever its alignment without
// touching its neighbour, and racecheck does not take the adds for a race. The emulator's tests run
// it, and so does test/hip_cpu, on the gfx942 and gfx950 machine code of a hip build.
#include <doctest/doctest.h>

#include <string>
#include <vector>
#include "ck_tile/core.hpp"
#include "ck_tile/host.hpp"

using namespace ck_tile;

namespace {
#if CK_TILE_BACKEND_EMULATOR
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
#else
// A hip build (test/hip_cpu runs this file on hip-cpu): the workgroups are spread over the host's
// threads, and race detection is the environment's (CK_TILE_EMU_RACECHECK=1, which the test sets).
struct emulator_guard
{
    explicit emulator_guard(unsigned, bool) {}
};
#endif

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

// Every block adds (block % 5) + 1 to elements 2 lane and 2 lane + 1 of a 128-element int32,
// fp16 or bf16 buffer, as one vector of 2 (a pair for the 16-bit types); lane 0 also adds a pair
// flagged invalid, a pair at the buffer's last two elements (kept) and one whose second element
// lies past the end (dropped whole: the pair is one dword).
template <typename T>
struct AddPairs
{
    CK_TILE_DEVICE void operator()(T* p, index_t size) const
    {
        const auto buf = make_buffer_view<address_space_enum::global>(p, size);
        const T v      = type_convert<T>(static_cast<float>(get_block_id() % 5 + 1));
        thread_buffer<T, 2> x;
        x[0] = v;
        x[1] = v;
        buf.template atomic_add<2>(2 * get_lane_id(), true, x);
        if(get_lane_id() == 0)
        {
            buf.template atomic_add<2>(0, false, x);       // invalid: dropped
            buf.template atomic_add<2>(size - 2, true, x); // the last pair
            buf.template atomic_add<2>(size, true, x);     // past the end: dropped
        }
    }
};

// Every block adds (block % 5) + 1 to each element of a buffer of an odd number of 16-bit
// elements, one element per access (N = 1: each element alone, the other half of its dword -0);
// lane 0 also adds to the elements just before and just after the buffer (outside: dropped) and
// one flagged invalid.
template <typename T>
struct AddAlone
{
    CK_TILE_DEVICE void operator()(T* p, index_t size) const
    {
        const auto buf = make_buffer_view<address_space_enum::global>(p, size);
        thread_buffer<T, 1> x;
        x[0] = type_convert<T>(static_cast<float>(get_block_id() % 5 + 1));
        for(index_t i = get_lane_id(); i < size; i += kLanes)
            buf.template atomic_add<1>(i, true, x);
        if(get_lane_id() == 0)
        {
            buf.template atomic_add<1>(-1, true, x);   // before the buffer: dropped
            buf.template atomic_add<1>(size, true, x); // after it: dropped
            buf.template atomic_add<1>(3, false, x);   // invalid: dropped
        }
    }
};

// One 16-bit pair at an odd element: not a dword, a kernel bug the emulator reports.
struct AddMisalignedPair
{
    CK_TILE_DEVICE void operator()(half_t* p, index_t size) const
    {
        const auto buf = make_buffer_view<address_space_enum::global>(p, size);
        thread_buffer<half_t, 2> x;
        x[0] = x[1] = type_convert<half_t>(1.f);
        buf.template atomic_add<2>(1, true, x);
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

// blocks x ((b % 5) + 1) summed: exact in int32 and fp16 for 500 blocks (sums <= 1500 < 2048) and
// in bf16 for 40 blocks (sums <= 120 < 256, every partial sum an integer bf16 holds)
template <typename T>
void check_pairs(int blocks)
{
    emulator_guard g(4, /*racecheck=*/true);
    const int size = 2 * kLanes + 2; // 128 elements the lanes add into, then a pair of 0s
    std::vector<T> y(size + 2, type_convert<T>(0.f));
    y[size] = y[size + 1] = type_convert<T>(42.f); // the elements after the buffer
    DeviceMem yd(y.size() * sizeof(T));
    yd.ToDevice(y.data());
    launch_kernel(stream_config{}, make_kernel<kLanes>(AddPairs<T>{}, dim3(blocks), dim3(kLanes), 0,
                                                       static_cast<T*>(yd.GetDeviceBuffer()), size));
    yd.FromDevice(y.data());
    float expected = 0;
    for(int b = 0; b < blocks; ++b)
        expected += static_cast<float>(b % 5 + 1);
    for(int i = 0; i < size - 2; ++i)
        CHECK(type_convert<float>(y[i]) == expected);
    CHECK(type_convert<float>(y[size - 2]) == expected);
    CHECK(type_convert<float>(y[size - 1]) == expected);
    CHECK(type_convert<float>(y[size]) == 42.f);
    CHECK(type_convert<float>(y[size + 1]) == 42.f);
}

TEST_CASE("int32 atomic adds and fp16 / bf16 pair atomic adds of many workgroups lose nothing")
{
    SUBCASE("int32") { check_pairs<int32_t>(500); }
    SUBCASE("fp16") { check_pairs<half_t>(500); }
    SUBCASE("bf16") { check_pairs<bf16_t>(40); }
}

#if CK_TILE_BACKEND_EMULATOR // the emulator's own check: hardware drops the address's low bits
TEST_CASE("a 16-bit atomic pair that is not 4-byte aligned is reported")
{
    emulator_guard g(1, /*racecheck=*/false);
    DeviceMem yd(64 * sizeof(half_t));
    yd.SetZero();
    std::string message;
    try
    {
        launch_kernel(stream_config{}, make_kernel<kLanes>(AddMisalignedPair{}, dim3(1), dim3(kLanes), 0,
                                                           static_cast<half_t*>(yd.GetDeviceBuffer()), 64));
    }
    catch(const std::exception& e)
    {
        message = e.what();
    }
    CHECK(message.find("packed 16-bit atomic add at element 1 is not 4-byte aligned") != std::string::npos);
}
#endif

// the buffer at an aligned start (element 2 of the allocation) and at a misaligned one (element 1),
// each of an odd length, between two guard elements (42 and -0) that must keep their bits
template <typename T>
void check_alone(int blocks, int start)
{
    emulator_guard g(4, /*racecheck=*/true);
    const int size = 2 * kLanes - 3;
    std::vector<T> y(size + 4, type_convert<T>(0.f));
    y[start - 1]    = type_convert<T>(42.f);
    y[start + size] = type_convert<T>(-0.f); // the partner of a lone add must keep -0's sign bit
    DeviceMem yd(y.size() * sizeof(T));
    yd.ToDevice(y.data());
    launch_kernel(stream_config{}, make_kernel<kLanes>(AddAlone<T>{}, dim3(blocks), dim3(kLanes), 0,
                                                       static_cast<T*>(yd.GetDeviceBuffer()) + start, size));
    yd.FromDevice(y.data());
    float expected = 0;
    for(int b = 0; b < blocks; ++b)
        expected += static_cast<float>(b % 5 + 1);
    for(int i = 0; i < size; ++i)
        CHECK(type_convert<float>(y[start + i]) == expected);
    CHECK(type_convert<float>(y[start - 1]) == 42.f);
    CHECK(__builtin_bit_cast(uint16_t, y[start + size]) == __builtin_bit_cast(uint16_t, type_convert<T>(-0.f)));
    CHECK(__builtin_bit_cast(uint16_t, type_convert<T>(-0.f)) == 0x8000u);
}

TEST_CASE("lone fp16 / bf16 atomic adds: any element, aligned or not, neighbours untouched")
{
    for(int start : {1, 2})
    {
        CAPTURE(start);
        check_alone<half_t>(500, start);
        check_alone<bf16_t>(40, start);
    }
}
