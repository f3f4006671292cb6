// SPDX-License-Identifier: MIT
// ck::wrapper's vectorised copy (copy<DimAccessOrder, VectorDim, ScalarPerVector>) and
// make_local_partition with a projection, run in kernels on the emulator: values moved through
// global memory, registers and LDS arrive where the host expects them, converted; runs a padded
// layout cuts read 0 past the padding and write nothing there; a vector mode that is not
// contiguous or not divisible is refused at compile time where the types say so, and with a
// clear message at run time otherwise.
#include <doctest/doctest.h>

#include <string>
#include <vector>
#include "ck_tile/core.hpp"
#include "ck_tile/host.hpp"
#include "ck/wrapper/layout.hpp"
#include "ck/wrapper/tensor.hpp"
#include "ck/wrapper/operations/copy.hpp"

using ck::index_t;
using ck::Number;
namespace w = ck::wrapper;

namespace {
constexpr index_t kM = 8, kK = 16, kThreads = 8;

// A [8, 16] fp32 row-major (run-time strides) -> B [8, 16] fp16 in three vectorised copies:
// global -> registers (4 x 2 threads, each a packed 2 x 8 share, vectors of 4 along K), registers
// -> LDS (rows padded by 4), then LDS -> global with another thread layout (8 x 1 threads, one
// row each, vectors of 8), so the data crosses threads through LDS.
struct CopyThroughLds
{
    CK_TILE_DEVICE void operator()(const float* pa, ck_tile::half_t* pb, index_t M, index_t K) const
    {
        using Order = ck::Tuple<Number<0>, Number<1>>;
        const auto a =
            w::make_tensor<w::MemoryTypeEnum::Global>(pa, w::make_layout(ck::make_tuple(M, K), ck::make_tuple(K, 1)));
        auto b =
            w::make_tensor<w::MemoryTypeEnum::Global>(pb, w::make_layout(ck::make_tuple(M, K), ck::make_tuple(K, 1)));
        const auto t   = ck::make_tuple(Number<kM>{}, Number<kK>{});
        const auto a_t = w::make_local_tile(a, t, ck::make_tuple(0, 0));
        auto b_t       = w::make_local_tile(b, t, ck::make_tuple(0, 0));

        const auto threads_4x2 =
            w::make_layout(ck::make_tuple(Number<4>{}, Number<2>{}), ck::make_tuple(Number<2>{}, Number<1>{}));
        const auto a_p = w::make_local_partition(a_t, threads_4x2, ck_tile::get_thread_id());
        static_assert(w::size<0>(a_p) == 2 && w::size<1>(a_p) == 8);
        auto reg = w::make_register_tensor<w::MemoryTypeEnum::Vgpr, ck_tile::half_t>(w::make_layout(w::shape(a_p)));
        w::copy<Order, 1, 4>(a_p, reg);

        __shared__ ck_tile::half_t lds[kM * (kK + 4)];
        auto l =
            w::make_tensor<w::MemoryTypeEnum::Lds>(lds, w::make_layout(ck::make_tuple(Number<kM>{}, Number<kK>{}),
                                                                       ck::make_tuple(Number<kK + 4>{}, Number<1>{})));
        auto l_p = w::make_local_partition(l, threads_4x2, ck_tile::get_thread_id());
        w::copy<Order, 1, 4>(reg, l_p);
        ck_tile::block_sync_lds();

        const auto rows = ck::make_tuple(Number<kThreads>{}, Number<1>{}); // row-major thread lengths
        w::copy<ck::Tuple<Number<1>, Number<0>>, 1, 8>(w::make_local_partition(l, rows, ck_tile::get_thread_id()),
                                                       w::make_local_partition(b_t, rows, ck_tile::get_thread_id()));
    }
};

// A 5 x 7 fp32 matrix padded to 8 x 8, copied whole by one thread in vectors of 4 along the rows:
// into registers (the padding reads 0), from there into a padded 5 x 7 output (the padding is not
// written) and into an unpadded 8 x 8 one (where the zeros show).
struct CopyPadded
{
    CK_TILE_DEVICE void operator()(const float* pa, float* pb, float* pc) const
    {
        using Order     = ck::Tuple<Number<0>, Number<1>>;
        const auto tile = ck::make_tuple(Number<8>{}, Number<8>{});
        const auto l57  = w::pad(w::make_layout(ck::make_tuple(5, 7), ck::make_tuple(7, 1)), tile);
        const auto a =
            w::make_local_tile(w::make_tensor<w::MemoryTypeEnum::Global>(pa, l57), tile, ck::make_tuple(0, 0));
        auto b = w::make_local_tile(w::make_tensor<w::MemoryTypeEnum::Global>(pb, l57), tile, ck::make_tuple(0, 0));
        auto c = w::make_tensor<w::MemoryTypeEnum::Global>(
            pc, w::make_layout(ck::make_tuple(Number<8>{}, Number<8>{}), ck::make_tuple(Number<8>{}, Number<1>{})));
        auto reg = w::make_register_tensor<w::MemoryTypeEnum::Vgpr, float>(w::make_layout(tile));
        w::copy<Order, 1, 4>(a, reg);
        w::copy<Order, 1, 4>(reg, b);
        w::copy<Order, 1, 4>(reg, c);
    }
};

// A [M, 8] fp32 matrix (M a run-time value) through a register tensor of run-time extents (the
// capacity bound, its registers walked in order) and back, in vectors of 4 along the rows.
struct CopyRuntimeRegisters
{
    CK_TILE_DEVICE void operator()(const float* pa, float* pb, index_t M) const
    {
        using Order  = ck::Tuple<Number<0>, Number<1>>;
        const auto l = w::make_layout(ck::make_tuple(M, 8), ck::make_tuple(8, 1));
        auto reg     = w::make_register_tensor<w::MemoryTypeEnum::Vgpr, float>(l);
        w::copy<Order, 1, 4>(w::make_tensor<w::MemoryTypeEnum::Global>(pa, l), reg);
        w::copy<Order, 1, 4>(reg, w::make_tensor<w::MemoryTypeEnum::Global>(pb, l));
    }
};

// Vectors along a mode whose stride is a run-time K: not contiguous, refused when the copy runs.
struct CopyAlongRows
{
    CK_TILE_DEVICE void operator()(const float* pa, float* pb, index_t M, index_t K) const
    {
        const auto l = w::make_layout(ck::make_tuple(M, K), ck::make_tuple(K, 1));
        w::copy<ck::Tuple<Number<1>, Number<0>>, 0, 2>(w::make_tensor<w::MemoryTypeEnum::Global>(pa, l),
                                                       w::make_tensor<w::MemoryTypeEnum::Global>(pb, l));
    }
};

// Vectors of 4 along a mode of run-time extent 6: not divisible, refused when the copy runs.
struct CopyNotDivisible
{
    CK_TILE_DEVICE void operator()(const float* pa, float* pb, index_t M, index_t K) const
    {
        const auto l = w::make_layout(ck::make_tuple(M, K), ck::make_tuple(K, 1));
        w::copy<ck::Tuple<Number<0>, Number<1>>, 1, 4>(w::make_tensor<w::MemoryTypeEnum::Global>(pa, l),
                                                       w::make_tensor<w::MemoryTypeEnum::Global>(pb, l));
    }
};

// the message a kernel launch ends with ("" when it ends well)
template <typename Kernel, typename... Args>
std::string launch_message(index_t threads, Args... args)
{
    try
    {
        ck_tile::launch_kernel(ck_tile::stream_config{},
                               ck_tile::make_kernel<64>(Kernel{}, dim3(1), dim3(threads), 0, args...));
    }
    catch(const std::exception& e)
    {
        return e.what();
    }
    return "";
}
} // namespace

TEST_CASE("vectorised copy: global -> registers -> LDS -> global across threads, fp32 to fp16")
{
    std::vector<float> a(kM * kK);
    for(std::size_t i = 0; i < a.size(); ++i)
        a[i] = static_cast<float>(i) - 50.f; // small integers: exact in fp16
    std::vector<ck_tile::half_t> b(a.size(), ck_tile::type_convert<ck_tile::half_t>(-1.f));
    ck_tile::DeviceMem ad(a.size() * sizeof(float)), bd(b.size() * sizeof(ck_tile::half_t));
    ad.ToDevice(a.data());
    bd.ToDevice(b.data());
    CHECK(launch_message<CopyThroughLds>(kThreads, static_cast<const float*>(ad.GetDeviceBuffer()),
                                         static_cast<ck_tile::half_t*>(bd.GetDeviceBuffer()), kM, kK) == "");
    bd.FromDevice(b.data());
    for(std::size_t i = 0; i < a.size(); ++i)
        CHECK(ck_tile::type_convert<float>(b[i]) == a[i]);
}

TEST_CASE("vectorised copy of a padded layout: runs the padding cuts read 0 there and write nothing")
{
    std::vector<float> a(5 * 7), b(5 * 7 + 4, -1.f), c(8 * 8, -1.f);
    for(std::size_t i = 0; i < a.size(); ++i)
        a[i] = static_cast<float>(i) + 0.5f;
    ck_tile::DeviceMem ad(a.size() * sizeof(float)), bd(b.size() * sizeof(float)), cd(c.size() * sizeof(float));
    ad.ToDevice(a.data());
    bd.ToDevice(b.data());
    cd.ToDevice(c.data());
    CHECK(launch_message<CopyPadded>(1, static_cast<const float*>(ad.GetDeviceBuffer()),
                                     static_cast<float*>(bd.GetDeviceBuffer()),
                                     static_cast<float*>(cd.GetDeviceBuffer())) == "");
    bd.FromDevice(b.data());
    cd.FromDevice(c.data());
    for(int i = 0; i < 5 * 7; ++i)
        CHECK(b[i] == a[i]);
    for(int i = 5 * 7; i < 5 * 7 + 4; ++i)
        CHECK(b[i] == -1.f); // past the 5 x 7 output: not written
    for(int m = 0; m < 8; ++m)
        for(int k = 0; k < 8; ++k)
            CHECK(c[m * 8 + k] == (m < 5 && k < 7 ? a[m * 7 + k] : 0.f));
}

TEST_CASE("vectorised copy through a register tensor of run-time extents")
{
    const int M = 3;
    std::vector<float> a(M * 8), b(M * 8 + 4, -1.f);
    for(std::size_t i = 0; i < a.size(); ++i)
        a[i] = static_cast<float>(i) * 0.25f;
    ck_tile::DeviceMem ad(a.size() * sizeof(float)), bd(b.size() * sizeof(float));
    ad.ToDevice(a.data());
    bd.ToDevice(b.data());
    CHECK(launch_message<CopyRuntimeRegisters>(1, static_cast<const float*>(ad.GetDeviceBuffer()),
                                               static_cast<float*>(bd.GetDeviceBuffer()), M) == "");
    bd.FromDevice(b.data());
    for(int i = 0; i < M * 8; ++i)
        CHECK(b[i] == a[i]);
    for(int i = M * 8; i < M * 8 + 4; ++i)
        CHECK(b[i] == -1.f);
}

TEST_CASE("vectorised copy: a vector mode that is not contiguous or not divisible fails with the reason")
{
    ck_tile::DeviceMem ad(4 * 8 * sizeof(float)), bd(4 * 8 * sizeof(float));
    const auto* pa = static_cast<const float*>(ad.GetDeviceBuffer());
    auto* pb       = static_cast<float*>(bd.GetDeviceBuffer());
    CHECK(launch_message<CopyAlongRows>(1, pa, pb, 4, 8)
              .find("ck::wrapper::copy: VectorDim is not contiguous in memory") != std::string::npos);
    CHECK(launch_message<CopyNotDivisible>(1, pa, pb, 4, 6)
              .find("ck::wrapper::copy: the extent of VectorDim is not a multiple of ScalarPerVector") !=
          std::string::npos);

    // what the types fix is refused at compile time: these are the conditions of copy's
    // static_asserts (a copy with them does not compile)
    using L =
        decltype(w::make_layout(ck::make_tuple(Number<4>{}, Number<8>{}), ck::make_tuple(Number<8>{}, Number<1>{})));
    static_assert(w::detail::vector_mode_contiguous<1, 4, L>() && w::detail::vector_extent_divisible<1, 4, L>());
    static_assert(!w::detail::vector_mode_contiguous<0, 2, L>());  // stride 8
    static_assert(!w::detail::vector_extent_divisible<1, 3, L>()); // 8 is not a multiple of 3
    // a nested mode (6, 2) with strides (1, 6): runs of 2 stay inside the inner 6, runs of 4 do not
    using N = decltype(w::make_layout(ck::make_tuple(Number<4>{}, ck::make_tuple(Number<6>{}, Number<2>{})),
                                      ck::make_tuple(Number<12>{}, ck::make_tuple(Number<1>{}, Number<6>{}))));
    static_assert(w::detail::vector_mode_contiguous<1, 2, N>() && !w::detail::vector_mode_contiguous<1, 4, N>());
    // run-time strides: left to the run-time check
    using R = decltype(w::make_layout(ck::make_tuple(4, 8), ck::make_tuple(8, 1)));
    static_assert(w::detail::vector_mode_contiguous<0, 4, R>() && w::detail::vector_extent_divisible<1, 3, R>());
}

TEST_CASE("make_local_partition with a projection: the dropped thread modes share a partition")
{
    std::vector<float> mem(6 * 8);
    for(std::size_t i = 0; i < mem.size(); ++i)
        mem[i] = static_cast<float>(i);
    // a [6, 8] row-major tensor (M, K) shared by a (2, 3, 4) thread layout over (M, N, K), N
    // projected out: thread (cm, cn, ck) gets rows 3 cm .. 3 cm + 2 and columns 2 ck, 2 ck + 1
    const auto t = w::make_tensor<w::MemoryTypeEnum::Global>(
        mem.data(), w::make_layout(ck::make_tuple(Number<6>{}, Number<8>{}), ck::make_tuple(Number<8>{}, Number<1>{})));
    const auto threads = w::make_layout(ck::make_tuple(Number<2>{}, Number<3>{}, Number<4>{}),
                                        ck::make_tuple(Number<12>{}, Number<4>{}, Number<1>{})); // row-major ids
    const auto proj    = ck::make_tuple(Number<1>{}, w::slice(3), Number<1>{});
    for(index_t id = 0; id < 24; ++id)
    {
        CAPTURE(id);
        const index_t cm = id / 12, ck_ = id % 4;
        const auto p = w::make_local_partition(t, threads, id, proj);
        static_assert(w::size<0>(p) == 3 && w::size<1>(p) == 2);
        for(index_t i = 0; i < 3; ++i)
            for(index_t j = 0; j < 2; ++j)
                CHECK(p.load({i, j}) == mem[(3 * cm + i) * 8 + 2 * ck_ + j]);
    }
    // the thread lengths as a tuple (row-major ids) take a projection too: the same partitions
    const auto q = w::make_local_partition(t, ck::make_tuple(Number<2>{}, Number<3>{}, Number<4>{}), 23, proj);
    CHECK(q.load({2, 1}) == mem[5 * 8 + 7]);
}
