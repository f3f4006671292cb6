// SPDX-License-Identifier: MIT
// UniversalGemmKernel with the universal pipelines (Mem intrawave / interwave, CompV3, CompV4):
// any K (one step, a hot loop, odd and even tails, K below the block tile), split-K (atomic adds
// into fp16, bf16, fp32 and int32 C; more splits than K tiles), the persistent grid, the
// spatially local tile partitioner (a bijection on the tiles), and what IsSupportedArgument
// refuses. Small integer inputs: every result is exact.
#include <doctest/doctest.h>

#include <set>
#include "gemm_kernel_test_common.hpp"

using namespace gemm_test;
using ck_tile::bf16_t;
using ck_tile::half_t;

template <Pipe kPipe, typename A = half_t, typename C = half_t, typename ALayout = Row, typename BLayout = Col,
          Epi kEpi = Epi::default_2d, bool kVector = true, bool kPersistent = false, typename Shape = Shape16,
          typename Partitioner = ck_tile::TilePartitioner<Shape>>
using U = Instance<A, A, C, ALayout, BLayout, kPipe, kEpi, kVector, ck_tile::element_wise::PassThrough, Shape,
                   ck_tile::GemmPipelineAGmemBGmemCRegV2DefaultPolicy, true, kPersistent, Partitioner>;

TEST_CASE("universal pipelines: every K loop length, whole and partial tiles")
{
    // K / 32 = 1 (no hot loop), 2, 3 (odd), 4 (even), 5; K = 17 pads the only step
    for(auto [M, N, K] : {std::tuple{128, 128, 32}, std::tuple{256, 128, 64}, std::tuple{200, 136, 96},
                          std::tuple{128, 256, 128}, std::tuple{72, 40, 160}})
    {
        CAPTURE(M);
        CAPTURE(N);
        CAPTURE(K);
        CHECK(run<U<Pipe::mem_intrawave>>(M, N, K));
        CHECK(run<U<Pipe::mem_interwave>>(M, N, K));
        CHECK(run<U<Pipe::compv3>>(M, N, K));
        CHECK(run<U<Pipe::compv4>>(M, N, K));
    }
    CHECK(run<U<Pipe::compv3, half_t, half_t, Row, Col, Epi::default_2d, false>>(33, 65, 17));
    CHECK(run<U<Pipe::compv4, half_t, half_t, Col, Row, Epi::cshuffle, false>>(1, 1, 1));
    CHECK(run<U<Pipe::mem_interwave, half_t, half_t, Col, Col, Epi::cshuffle, false>>(100, 30, 70));
}

TEST_CASE("the deeper fp16 / bf16 warp tiles: gfx950's MFMAs, or two CDNA3 ones in a row")
{
    using K16 = ck_tile::TileGemmShape<ck_tile::sequence<128, 128, 64>, ck_tile::sequence<2, 2, 1>,
                                       ck_tile::sequence<32, 32, 16>>;
    using K32 = ck_tile::TileGemmShape<ck_tile::sequence<64, 128, 64>, ck_tile::sequence<2, 2, 1>,
                                       ck_tile::sequence<16, 16, 32>>;
    CHECK(run<U<Pipe::compv3, half_t, half_t, Row, Col, Epi::default_2d, true, false, K16>>(256, 128, 192));
    CHECK(run<U<Pipe::compv4, bf16_t, bf16_t, Col, Row, Epi::cshuffle, true, false, K16>>(136, 72, 100, {.range = 1}));
    CHECK(run<U<Pipe::mem_intrawave, half_t, half_t, Row, Row, Epi::cshuffle, true, false, K32>>(64, 256, 128));
    CHECK(run<U<Pipe::compv3, bf16_t, bf16_t, Col, Col, Epi::default_2d, false, false, K32>>(33, 47, 95, {.range = 1}));
}

TEST_CASE("split-K adds every split once, into 16-bit, fp32 and int32 C")
{
    using F16  = U<Pipe::compv3>;
    using F16E = U<Pipe::compv3, half_t, half_t, Row, Col, Epi::default_2d, false>; // element-wise C
    using Bf16 = U<Pipe::compv4, bf16_t, bf16_t, Col, Row, Epi::cshuffle>;
    using F32  = U<Pipe::mem_intrawave, half_t, float>;
    using I32  = U<Pipe::compv3, int8_t, int32_t, Row, Col, Epi::default_2d, true, false, Shape8>;
    for(int k_batch : {1, 2, 3, 7})
    {
        CAPTURE(k_batch);
        CHECK(run<F16>(128, 256, 160, {.k_batch = k_batch}));
        CHECK(run<F16E>(77, 301, 129, {.k_batch = k_batch}));            // odd N: lone 16-bit atomics, both halves
        CHECK(run<Bf16>(136, 72, 96, {.k_batch = k_batch, .range = 1})); // partial sums stay exact in bf16
        CHECK(run<F32>(64, 128, 200, {.k_batch = k_batch}));
        CHECK(run<I32>(128, 128, 320, {.k_batch = k_batch}));
    }
    // more splits than K tiles (96 = 3 tiles of 32): the empty splits add nothing
    CHECK(run<F16>(128, 128, 96, {.k_batch = 5}));
    CHECK(run<F16>(128, 128, 8, {.k_batch = 4}));
}

TEST_CASE("the persistent grid loops over tiles and K splits")
{
    using P = U<Pipe::compv3, half_t, half_t, Row, Col, Epi::cshuffle, true, true>;
    CHECK(run<P>(512, 384, 64));
    CHECK(run<P>(300, 200, 160, {.k_batch = 3}));
}

TEST_CASE("GemmSpatiallyLocalTilePartitioner is a bijection on the C tiles, and the kernel uses it")
{
    using SL = ck_tile::GemmSpatiallyLocalTilePartitioner<Shape16, 8, 4>;
    for(auto [M, N] : {std::pair{128, 128}, std::pair{1280, 384}, std::pair{1000, 2000}, std::pair{129, 4000}})
    {
        const int tiles = SL::GetNumTiles(M, N);
        std::set<std::pair<int, int>> seen;
        for(int t = 0; t < tiles; ++t)
        {
            const auto idx = SL::GetOutputTileIndex(t, M, N);
            const int m = idx.at(ck_tile::number<0>{}), n = idx.at(ck_tile::number<1>{});
            CHECK((m >= 0 && m < SL::GetNumTilesM(M) && n >= 0 && n < SL::GetNumTilesN(N)));
            seen.insert({m, n});
        }
        CHECK(static_cast<int>(seen.size()) == tiles);
    }
    // tile ids 0, 8, 16, 24 (one group of 8) walk down the first M01 = 4 tile rows of column 0
    for(int i = 0; i < 4; ++i)
    {
        const auto idx = SL::GetOutputTileIndex(8 * i, 1280, 384);
        CHECK(idx.at(ck_tile::number<0>{}) == i);
        CHECK(idx.at(ck_tile::number<1>{}) == 0);
    }
    using K = U<Pipe::compv3, half_t, half_t, Row, Col, Epi::default_2d, true, false, Shape16, SL>;
    CHECK(run<K>(640, 384, 64));
}

TEST_CASE("the universal kernel refuses what it cannot run")
{
    using Vec    = typename U<Pipe::compv3>::Kernel;
    using Scalar = typename U<Pipe::compv3, half_t, half_t, Row, Col, Epi::default_2d, false>::Kernel;
    alignas(16) static half_t buf[16];
    auto args = [&](int k_batch) { return ck_tile::GemmHostArgs{buf, buf, buf, k_batch, 128, 128, 64, 64, 64, 128}; };
    CHECK(Vec::GetUnsupportedReason(Vec::MakeKernelArgs(args(1))) == "");
    CHECK(Vec::GetUnsupportedReason(Vec::MakeKernelArgs(args(3))) == "");
    CHECK(Vec::GetUnsupportedReason(Vec::MakeKernelArgs(args(0))) == "k_batch must be at least 1 (got 0)");
    CHECK(Scalar::GetUnsupportedReason(Scalar::MakeKernelArgs(args(1))) == "");
    // split-K on the element-wise instance: its 16-bit C elements are added one by one
    CHECK(Scalar::GetUnsupportedReason(Scalar::MakeKernelArgs(args(2))) == "");
}

TEST_CASE("hot loop and tail of the universal pipelines")
{
    using Mem = ck_tile::BaseGemmPipelineAgBgCr<2>;
    CHECK_FALSE(Mem::BlockHasHotloop(2));
    CHECK(Mem::BlockHasHotloop(3));
    CHECK(Mem::GetBlockLoopTailNum(1) == ck_tile::TailNumber::One);
    CHECK(Mem::GetBlockLoopTailNum(2) == ck_tile::TailNumber::Two);
    CHECK(Mem::GetBlockLoopTailNum(7) == ck_tile::TailNumber::Odd);
    CHECK(Mem::GetBlockLoopTailNum(8) == ck_tile::TailNumber::Even);
    using Mem4 = ck_tile::BaseGemmPipelineAgBgCr<4>;
    CHECK(Mem4::GetBlockLoopTailNum(8) == ck_tile::TailNumber::Full);
    CHECK(Mem4::GetBlockLoopTailNum(10) == ck_tile::TailNumber::Two);
}

TEST_CASE("reference_gemm_gpu agrees with reference_gemm, every layout")
{
    auto check = [](auto a_layout, auto b_layout, int M, int N, int K, int sa, int sb) {
        using AL         = decltype(a_layout);
        using BL         = decltype(b_layout);
        const bool a_row = ck_tile::is_row_major_v<AL>, b_row = ck_tile::is_row_major_v<BL>;
        auto a = make_matrix<half_t>(M, K, sa, a_row, 5, true);
        auto b = make_matrix<half_t>(K, N, sb, b_row, 6, true);
        ck_tile::HostTensor<float> c(ck_tile::host_tensor_descriptor(M, N, 0, true));
        ck_tile::HostTensor<float> c_ref(ck_tile::host_tensor_descriptor(M, N, 0, true));
        ck_tile::DeviceMem a_dev(a.get_element_space_size_in_bytes()), b_dev(b.get_element_space_size_in_bytes()),
            c_dev(c.get_element_space_size_in_bytes());
        a_dev.ToDevice(a.data());
        b_dev.ToDevice(b.data());
        c_dev.SetZero();
        ck_tile::reference_gemm_gpu<half_t, half_t, float, float, AL, BL, Row>(
            static_cast<const half_t*>(a_dev.GetDeviceBuffer()), static_cast<const half_t*>(b_dev.GetDeviceBuffer()),
            static_cast<float*>(c_dev.GetDeviceBuffer()), M, N, K, static_cast<int>(a.get_stride(a_row ? 0 : 1)),
            static_cast<int>(b.get_stride(b_row ? 0 : 1)), static_cast<int>(c.get_stride(0)));
        c_dev.FromDevice(c.data());
        ck_tile::reference_gemm<half_t, half_t, float, float>(a, b, c_ref);
        return ck_tile::check_err(c.mData, c_ref.mData, "reference_gemm_gpu", 0, 0);
    };
    CHECK(check(Row{}, Col{}, 67, 45, 33, 0, 0));
    CHECK(check(Col{}, Row{}, 30, 70, 19, 40, 80)); // strides past the dimensions, gaps of NaN
    CHECK(check(Row{}, Row{}, 1, 1, 1, 0, 0));
    CHECK(check(Col{}, Col{}, 64, 64, 128, 70, 130));
}
