// SPDX-License-Identifier: MIT
// GemmKernel with fp16: both pipelines, both epilogues, the four A/B layouts, padded sizes and
// strides, fused element-wise ops, IsSupportedArgument, and a broken pipeline caught by check_err.
#include <doctest/doctest.h>

#include "gemm_kernel_test_common.hpp"

using namespace gemm_test;
using ck_tile::half_t;

TEST_CASE("fp16 RCR: pipelines x epilogues, whole and partial tiles")
{
    using V1D = Instance<half_t, half_t, half_t, Row, Col, Pipe::v1, Epi::default_2d, true>;
    using V1S = Instance<half_t, half_t, half_t, Row, Col, Pipe::v1, Epi::cshuffle, true>;
    using V2D = Instance<half_t, half_t, half_t, Row, Col, Pipe::v2, Epi::default_2d, true>;
    using V2S = Instance<half_t, half_t, half_t, Row, Col, Pipe::v2, Epi::cshuffle, true>;
    for(auto [M, N, K] : {std::tuple{256, 256, 32}, std::tuple{128, 384, 96}, std::tuple{200, 136, 72}})
    {
        CAPTURE(M);
        CAPTURE(N);
        CAPTURE(K);
        CHECK(run<V1D>(M, N, K));
        CHECK(run<V1S>(M, N, K));
        CHECK(run<V2D>(M, N, K));
        CHECK(run<V2S>(M, N, K));
    }
}

TEST_CASE("fp16 scalar access: the other layouts, sizes and strides off the vector")
{
    using RR = Instance<half_t, half_t, half_t, Row, Row, Pipe::v2, Epi::default_2d, false>;
    using CR = Instance<half_t, half_t, half_t, Col, Row, Pipe::v1, Epi::cshuffle, false>;
    using CC = Instance<half_t, half_t, half_t, Col, Col, Pipe::v2, Epi::cshuffle, false>;
    CHECK(run<RR>(129, 257, 65));
    CHECK(run<CR>(1, 1, 1));
    CHECK(run<CC>(1000, 24, 17));
    // strides larger than the dimensions, the gaps full of NaN: nothing of them may reach C
    const RunOptions gaps{.stride_a = 211, .stride_b = 150, .stride_c = 301, .nan_gaps = true};
    CHECK(run<RR>(129, 257, 65, {.stride_a = 71, .stride_b = 263, .stride_c = 260, .nan_gaps = true}));
    CHECK(run<CR>(200, 140, 90, gaps));
    CHECK(run<CC>(200, 140, 90, {.stride_a = 203, .stride_b = 97, .stride_c = 141, .nan_gaps = true}));
}

TEST_CASE("fused element-wise ops in both epilogues")
{
    using ck_tile::element_wise::Relu;
    using ck_tile::element_wise::Scale;
    using ReluShuffle  = Instance<half_t, half_t, half_t, Row, Col, Pipe::v1, Epi::cshuffle, true, Relu>;
    using ScaleDefault = Instance<half_t, half_t, half_t, Col, Row, Pipe::v2, Epi::default_2d, true, Scale>;
    CHECK(run<ReluShuffle>(256, 128, 64));
    CHECK(run<ScaleDefault>(128, 256, 64, {}, Scale{0.5f}));
    CHECK(run<ScaleDefault>(136, 264, 40, {}, Scale{-2.f}));
}

TEST_CASE("the two pipelines give the same bits")
{
    using V1 = Instance<half_t, half_t, half_t, Row, Col, Pipe::v1, Epi::default_2d, true>;
    using V2 = Instance<half_t, half_t, half_t, Row, Col, Pipe::v2, Epi::default_2d, true>;
    // random reals: the exact-check helper does not apply, so compare the two kernels directly
    const int M = 256, N = 128, K = 160;
    ck_tile::HostTensor<half_t> a({M, K}), b(ck_tile::host_tensor_descriptor(K, N, 0, false));
    ck_tile::FillUniformDistribution<half_t>{-1.f, 1.f, 5}(a);
    ck_tile::FillUniformDistribution<half_t>{-1.f, 1.f, 6}(b);
    ck_tile::DeviceMem a_dev(a.get_element_space_size_in_bytes()), b_dev(b.get_element_space_size_in_bytes());
    a_dev.ToDevice(a.data());
    b_dev.ToDevice(b.data());
    auto run_one = [&](auto inst) {
        using Kernel = typename decltype(inst)::Kernel;
        ck_tile::HostTensor<half_t> c({M, N});
        ck_tile::DeviceMem c_dev(c.get_element_space_size_in_bytes());
        const auto kargs = Kernel::MakeKernelArgs(
            {a_dev.GetDeviceBuffer(), b_dev.GetDeviceBuffer(), c_dev.GetDeviceBuffer(), 1, M, N, K, K, K, N});
        REQUIRE(Kernel::IsSupportedArgument(kargs));
        ck_tile::launch_kernel(
            ck_tile::stream_config{},
            ck_tile::make_kernel<Kernel::kBlockSize>(Kernel{}, Kernel::GridSize(M, N), Kernel::BlockSize(), 0, kargs));
        c_dev.FromDevice(c.data());
        return c;
    };
    const auto c1 = run_one(V1{});
    const auto c2 = run_one(V2{});
    CHECK(ck_tile::check_err(c2.mData, c1.mData, "v2 differs from v1", 0, 0));
}

TEST_CASE("IsSupportedArgument says why not")
{
    using Vec   = typename Instance<half_t, half_t, half_t, Row, Col, Pipe::v1, Epi::default_2d, true>::Kernel;
    using NoPad = typename Instance<half_t, half_t, half_t, Row, Col, Pipe::v1, Epi::default_2d, true,
                                    ck_tile::element_wise::PassThrough, Shape16,
                                    ck_tile::GemmPipelineAGmemBGmemCRegV2DefaultPolicy, false>::Kernel;
    alignas(16) static char buf[64];
    auto args = [&](int M, int N, int K, int sa, int sb, int sc) {
        return ck_tile::GemmHostArgs{buf, buf, buf, 1, M, N, K, sa, sb, sc};
    };
    CHECK(Vec::GetUnsupportedReason(Vec::MakeKernelArgs(args(256, 256, 64, 64, 64, 256))) == "");
    CHECK(Vec::GetUnsupportedReason(Vec::MakeKernelArgs(args(0, 256, 64, 64, 64, 256))).find("positive") !=
          std::string::npos);
    CHECK(Vec::GetUnsupportedReason(Vec::MakeKernelArgs(args(256, 256, 64, 60, 64, 256))) ==
          "stride_A=60 is smaller than K=64, the contiguous dimension of A (row-major)");
    CHECK(Vec::GetUnsupportedReason(Vec::MakeKernelArgs(args(256, 256, 65, 65, 65, 256))) ==
          "A (row-major): K=65 is not a multiple of the vector size 8");
    CHECK(Vec::GetUnsupportedReason(Vec::MakeKernelArgs(args(256, 256, 64, 64, 68, 256))) ==
          "B (column-major): stride_B=68 is not a multiple of the vector size 8");
    CHECK(Vec::GetUnsupportedReason(Vec::MakeKernelArgs(args(256, 200, 64, 64, 64, 200))) == "");
    CHECK(NoPad::GetUnsupportedReason(NoPad::MakeKernelArgs(args(256, 200, 64, 64, 64, 200))) ==
          "N=200 is not a multiple of the block tile's 128 (this instance does not pad N)");
    CHECK_FALSE(Vec::IsSupportedArgument(Vec::MakeKernelArgs(args(256, 256, 64, 64, 64, 255))));
    // pointer alignment
    const ck_tile::GemmHostArgs odd{buf + 2, buf, buf, 1, 256, 256, 64, 64, 64, 256};
    CHECK(Vec::GetUnsupportedReason(Vec::MakeKernelArgs(odd)) ==
          "A (row-major): the pointer is not aligned to 16 bytes");
}

// The V2 schedule (store the next tile, then multiply the current one, one barrier) is only right
// with two LDS buffers. With both "buffers" at the same place, threads overwrite the tile their
// neighbours are still multiplying: check_err must report it.
struct AliasedLdsBuffersPolicy : ck_tile::GemmPipelineAGmemBGmemCRegV2DefaultPolicy
{
    template <typename Problem>
    CK_TILE_HOST_DEVICE static constexpr ck_tile::index_t GetLdsBufferStride()
    {
        return 0;
    }
};

TEST_CASE("a V2 pipeline without its second LDS buffer gives a wrong result that check_err reports")
{
    using Broken = Instance<half_t, half_t, half_t, Row, Col, Pipe::v2, Epi::default_2d, true,
                            ck_tile::element_wise::PassThrough, Shape16, AliasedLdsBuffersPolicy>;
    std::cerr << "(the mismatch report below is expected)\n";
    CHECK_FALSE(run<Broken>(256, 256, 256));
}
