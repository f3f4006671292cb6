// SPDX-License-Identifier: MIT
// BatchedGemmKernel and GroupedGemmKernel: their pieces alone (batch offsets past 32 bits, the
// per-batch kernel arguments, the group lookup against a linear search, the work-item ranges of
// MakeKargs with empty and K = 0 groups, what each refuses), reference_batched_gemm against
// reference_gemm, and small runs checked exactly (small integers): a batched GEMM sharing one A
// between batches, and a grouped GEMM, non-persistent and persistent, with empty, K = 0 and
// split-K groups written over NaN.
#include <doctest/doctest.h>

#include <limits>
#include <random>
#include "gemm_kernel_test_common.hpp"
#include "ck_tile/host/reference/reference_batched_gemm.hpp"
#include "ck_tile/ops/gemm/kernel/batched_gemm_kernel.hpp"
#include "ck_tile/ops/gemm/kernel/grouped_gemm_kernel.hpp"

using namespace gemm_test;
using ck_tile::half_t;

namespace {

template <bool kPersistent>
struct Parts
{
    using Base    = Instance<half_t, half_t, half_t, Row, Col, Pipe::compv3, Epi::cshuffle, true,
                             ck_tile::element_wise::PassThrough, Shape16,
                             ck_tile::GemmPipelineAGmemBGmemCRegV2DefaultPolicy, true, kPersistent>;
    using P       = ck_tile::GemmSpatiallyLocalTilePartitioner<Shape16, 8, 4>;
    using Batched = ck_tile::BatchedGemmKernel<P, typename Base::Pipeline, typename Base::Epilogue>;
    using Grouped = ck_tile::GroupedGemmKernel<P, typename Base::Pipeline, typename Base::Epilogue>;
};
using Batched    = Parts<false>::Batched;
using Grouped    = Parts<false>::Grouped;
using GroupedPer = Parts<true>::Grouped;

} // namespace

TEST_CASE("batch offsets are 64-bit products of the batch and its strides")
{
    const auto o = ck_tile::GetBatchedGemmOffsets(3, 1 << 30, 0, 7);
    CHECK(o.a == 3ll * (1 << 30)); // past 2^31: the pointers move in 64 bits
    CHECK(o.b == 0);
    CHECK(o.c == 21);
    alignas(16) static half_t buf[64];
    const ck_tile::BatchedGemmHostArgs h(buf, buf + 8, buf + 16, 1, 4, 4, 8, 8, 8, 8, 1000, 0, 32, 4);
    const auto kargs = Batched::MakeKernelArgs(h);
    const auto g     = Batched::GetBatchKernelArgs(kargs, 2);
    CHECK(g.a_ptr == buf + 2000);
    CHECK(g.b_ptr == buf + 8);
    CHECK(g.c_ptr == buf + 16 + 64);
    CHECK(g.M == 4);
    CHECK(g.K == 8);
    const dim3 grid = Batched::GridSize(300, 200, 3, 5);
    CHECK(grid.x == 3u * 2u);
    CHECK(grid.y == 5u);
    CHECK(grid.z == 3u);
}

TEST_CASE("BatchedGemmKernel refuses overlapping outputs, negative or misaligned batch strides")
{
    alignas(16) static half_t buf[64];
    auto reason = [&](int bsa, int bsb, int bsc, int count) {
        return Batched::GetUnsupportedReason(Batched::MakeKernelArgs(
            ck_tile::BatchedGemmHostArgs(buf, buf, buf, 1, 64, 64, 64, 64, 64, 64, bsa, bsb, bsc, count)));
    };
    CHECK(reason(4096, 4096, 4096, 3) == "");
    CHECK(reason(0, 0, 4096, 3) == ""); // A and B shared by every batch
    CHECK(reason(4096, 4096, 4095, 3) ==
          "batch_stride_C=4095 is smaller than one C matrix (4096 elements): the batches' outputs would overlap");
    CHECK(reason(4096, 4096, 0, 1) == ""); // one batch: no other output to overlap
    CHECK(reason(4096, 4096, 4096, 0) == "batch_count must be at least 1 (got 0)");
    CHECK(reason(-8, 4096, 4096, 2) == "batch strides must not be negative (got A -8, B 4096, C 4096)");
    CHECK(reason(4100, 4096, 4096, 2) ==
          "batch strides (A 4100, B 4096, C 4096) must be multiples of the vector sizes (A 8, B 8, C 8)");
}

TEST_CASE("FindGroupId finds the group of every work item, as a linear search does")
{
    std::mt19937 gen(7);
    for(int groups : {1, 2, 3, 8, 17, 100})
    {
        std::vector<ck_tile::GemmTransKernelArg<int>> descs;
        int start = 0;
        std::uniform_int_distribution<int> len(1, 9);
        for(int g = 0; g < groups; ++g)
        {
            const int n = len(gen);
            descs.push_back({0, start, start + n});
            start += n;
        }
        for(int w = 0; w < start; ++w)
        {
            int linear = 0;
            while(!(descs[linear].block_start <= w && w < descs[linear].block_end))
                ++linear;
            CAPTURE(groups);
            CAPTURE(w);
            CHECK(ck_tile::FindGroupId(descs.data(), groups, w) == linear);
        }
    }
}

TEST_CASE("GroupedGemmKernel::MakeKargs: one contiguous range per non-empty group")
{
    alignas(16) static half_t buf[64];
    auto desc = [&](int M, int N, int K, int k_batch) {
        return ck_tile::GroupedGemmHostArgs(buf, buf, buf, k_batch, M, N, K, std::max(K, 8), std::max(K, 8),
                                            std::max(N, 8));
    };
    // tiles of 128 x 128: 300 x 200 -> 3 x 2 = 6 tiles
    const std::vector<ck_tile::GroupedGemmHostArgs> descs = {
        desc(300, 200, 64, 2), desc(0, 128, 64, 2), desc(128, 0, 64, 2), desc(128, 256, 0, 2), desc(8, 8, 8, 3)};
    const auto kargs = Grouped::MakeKargs(descs);
    REQUIRE(kargs.size() == 3);
    CHECK(kargs[0].block_start == 0);
    CHECK(kargs[0].block_end == 12); // 6 tiles x 2 splits
    CHECK(kargs[1].group_karg.K == 0);
    CHECK(kargs[1].block_start == 12);
    CHECK(kargs[1].block_end == 14); // K = 0: one item per tile, whatever k_batch
    CHECK(kargs[2].block_start == 14);
    CHECK(kargs[2].block_end == 17); // 1 tile x 3 splits
    CHECK(Grouped::GridSize(descs).x == 17u);
    CHECK(Grouped::GetWorkSpaceSize(descs) == 5 * sizeof(Grouped::TransKernelArg));
    CHECK(Grouped::GetUnsupportedReason(descs) == "");
}

TEST_CASE("GroupedGemmKernel names the group it cannot run")
{
    alignas(16) static half_t buf[64];
    using H = ck_tile::GroupedGemmHostArgs;
    CHECK(Grouped::GetUnsupportedReason(
              {H(buf, buf, buf, 1, 64, 64, 64, 64, 64, 64), H(buf, buf, buf, 1, 64, -1, 64, 64, 64, 64)}) ==
          "group 1: M, N and K must not be negative (got 64 x -1 x 64)");
    CHECK(Grouped::GetUnsupportedReason({H(buf, buf, buf, 1, 64, 64, 64, 60, 64, 64)}) ==
          "group 0: stride_A=60 is smaller than K=64, the contiguous dimension of A (row-major)");
    // K = 0: only C is read from the arguments (A and B may be null)
    CHECK(Grouped::GetUnsupportedReason({H(nullptr, nullptr, buf, 1, 64, 64, 0, 0, 0, 64)}) == "");
    CHECK(Grouped::GetUnsupportedReason({H(nullptr, nullptr, buf, 1, 64, 64, 0, 0, 0, 60)}) ==
          "group 0: stride_C=60 is smaller than N=64, the contiguous dimension of C (row-major)");
    CHECK(Grouped::GetUnsupportedReason({H(nullptr, nullptr, buf, 1, 64, 60, 0, 0, 0, 60)}) ==
          "group 0: C (row-major): N=60, stride_C=60 and the pointer must be multiples of the vector size 8");
    // M = 0 or N = 0: nothing is read or written
    CHECK(Grouped::GetUnsupportedReason({H(nullptr, nullptr, nullptr, 1, 0, 64, 64, 0, 0, 0)}) == "");
}

TEST_CASE("reference_batched_gemm agrees with reference_gemm on each batch, B in either storage")
{
    const int batches = 3, M = 5, N = 7, K = 6;
    for(bool b_row : {false, true})
    {
        using D = std::vector<std::size_t>;
        // A: batch x M x K, row stride 8, batch stride 50; B: batch x N x K, stored K x N (b_row) or N x K
        ck_tile::HostTensor<float> a(ck_tile::HostTensorDescriptor(D{3, 5, 6}, D{50, 8, 1}));
        ck_tile::HostTensor<float> b(ck_tile::HostTensorDescriptor(D{3, 7, 6}, b_row ? D{60, 1, 9} : D{60, 8, 1}));
        ck_tile::HostTensor<float> c(ck_tile::HostTensorDescriptor(D{3, 5, 7}, D{40, 7, 1}));
        std::mt19937 gen(3);
        std::uniform_int_distribution<int> dist(-3, 3);
        for(auto& x : a.mData)
            x = static_cast<float>(dist(gen));
        for(auto& x : b.mData)
            x = static_cast<float>(dist(gen));
        ck_tile::reference_batched_gemm<float, float, float, float>(a, b, c);
        for(int g = 0; g < batches; ++g)
        {
            ck_tile::HostTensor<float> a2(ck_tile::host_tensor_descriptor(M, K, 0, true));
            ck_tile::HostTensor<float> b2(ck_tile::host_tensor_descriptor(K, N, 0, true));
            ck_tile::HostTensor<float> c2(ck_tile::host_tensor_descriptor(M, N, 0, true));
            for(int m = 0; m < M; ++m)
                for(int k = 0; k < K; ++k)
                    a2(m, k) = a(g, m, k);
            for(int n = 0; n < N; ++n)
                for(int k = 0; k < K; ++k)
                    b2(k, n) = b(g, n, k);
            ck_tile::reference_gemm<float, float, float, float>(a2, b2, c2);
            for(int m = 0; m < M; ++m)
                for(int n = 0; n < N; ++n)
                    CHECK(c(g, m, n) == c2(m, n));
        }
    }
}

TEST_CASE("a batched GEMM with one A for every batch, split-K")
{
    const int batches = 3, M = 130, N = 72, K = 96, k_batch = 2;
    auto a = make_matrix<half_t>(M, K, 0, true, 1, false);
    std::vector<ck_tile::HostTensor<half_t>> b;
    for(int g = 0; g < batches; ++g)
        b.push_back(make_matrix<half_t>(K, N, 0, false, 10 + g, false));
    const int bs_b = N * K, bs_c = M * N;
    ck_tile::DeviceMem a_dev(a.get_element_space_size_in_bytes()), b_dev(batches * bs_b * sizeof(half_t)),
        c_dev(batches * bs_c * sizeof(half_t));
    a_dev.ToDevice(a.data());
    for(int g = 0; g < batches; ++g)
        HIP_CHECK_ERROR(hipMemcpy(static_cast<half_t*>(b_dev.GetDeviceBuffer()) + g * bs_b, b[g].data(),
                                  bs_b * sizeof(half_t), hipMemcpyHostToDevice));
    c_dev.SetZero();
    const ck_tile::BatchedGemmHostArgs h(a_dev.GetDeviceBuffer(), b_dev.GetDeviceBuffer(), c_dev.GetDeviceBuffer(),
                                         k_batch, M, N, K, K, K, N, 0, bs_b, bs_c, batches);
    const auto kargs = Batched::MakeKernelArgs(h);
    REQUIRE(Batched::GetUnsupportedReason(kargs) == "");
    ck_tile::launch_kernel(ck_tile::stream_config{},
                           ck_tile::make_kernel<Batched::kBlockSize>(
                               Batched{}, Batched::GridSize(M, N, k_batch, batches), Batched::BlockSize(), 0, kargs));
    for(int g = 0; g < batches; ++g)
    {
        ck_tile::HostTensor<half_t> c(ck_tile::host_tensor_descriptor(M, N, 0, true)), c_ref(c.mDesc);
        HIP_CHECK_ERROR(hipMemcpy(c.data(), static_cast<half_t*>(c_dev.GetDeviceBuffer()) + g * bs_c,
                                  bs_c * sizeof(half_t), hipMemcpyDeviceToHost));
        ck_tile::reference_gemm<half_t, half_t, float, half_t>(a, b[g], c_ref);
        CAPTURE(g);
        CHECK(ck_tile::check_err(c.mData, c_ref.mData, "batched GEMM differs from the reference", 0, 0));
    }
}

namespace {

// group shapes {M, N, K}; C starts as NaN, so a tile the kernel misses shows
template <typename Kernel>
bool run_grouped(const std::vector<std::array<int, 3>>& shapes, int k_batch)
{
    std::vector<ck_tile::HostTensor<half_t>> a, b, c;
    std::vector<ck_tile::DeviceMem> a_dev, b_dev, c_dev;
    std::vector<ck_tile::GroupedGemmHostArgs> descs;
    for(std::size_t i = 0; i < shapes.size(); ++i)
    {
        const auto [M, N, K] = shapes[i];
        a.push_back(make_matrix<half_t>(M, K, 0, true, 20 + i, false));
        b.push_back(make_matrix<half_t>(K, N, 0, false, 40 + i, false));
        c.emplace_back(ck_tile::host_tensor_descriptor(M, N, 0, true));
        for(auto& x : c.back().mData)
            x = ck_tile::type_convert<half_t>(k_batch == 1 ? std::numeric_limits<float>::quiet_NaN() : 0.f);
        a_dev.emplace_back(a.back().get_element_space_size_in_bytes());
        b_dev.emplace_back(b.back().get_element_space_size_in_bytes());
        c_dev.emplace_back(c.back().get_element_space_size_in_bytes());
        a_dev.back().ToDevice(a.back().data());
        b_dev.back().ToDevice(b.back().data());
        c_dev.back().ToDevice(c.back().data());
        descs.emplace_back(a_dev.back().GetDeviceBuffer(), b_dev.back().GetDeviceBuffer(),
                           c_dev.back().GetDeviceBuffer(), k_batch, M, N, K, K, K, N);
    }
    const std::string reason = Kernel::GetUnsupportedReason(descs);
    if(!reason.empty())
    {
        std::cerr << "unsupported: " << reason << "\n";
        return false;
    }
    const auto kargs = Kernel::MakeKargs(descs);
    ck_tile::DeviceMem ws(Kernel::GetWorkSpaceSize(descs));
    ws.ToDevice(kargs.data(), kargs.size() * sizeof(kargs[0]));
    const dim3 grid = Kernel::kPersistent ? Kernel::MaxOccupancyGridSize() : Kernel::GridSize(descs);
    ck_tile::launch_kernel(ck_tile::stream_config{},
                           ck_tile::make_kernel<Kernel::kBlockSize>(Kernel{}, grid, Kernel::BlockSize(), 0,
                                                                    static_cast<const void*>(ws.GetDeviceBuffer()),
                                                                    static_cast<ck_tile::index_t>(kargs.size())));
    bool ok = true;
    for(std::size_t i = 0; i < shapes.size(); ++i)
    {
        c_dev[i].FromDevice(c[i].data());
        ck_tile::HostTensor<half_t> c_ref(c[i].mDesc);
        ck_tile::reference_gemm<half_t, half_t, float, half_t>(a[i], b[i], c_ref);
        ok = ck_tile::check_err(c[i].mData, c_ref.mData, "group " + std::to_string(i), 0, 0) && ok;
    }
    return ok;
}

} // namespace

TEST_CASE("grouped GEMMs with empty, K = 0 and split-K groups, non-persistent and persistent")
{
    const std::vector<std::array<int, 3>> shapes = {{200, 136, 96}, {0, 64, 64},  {64, 0, 64},
                                                    {130, 264, 0},  {64, 64, 32}, {256, 128, 160}};
    for(int k_batch : {1, 3})
    {
        CAPTURE(k_batch);
        CHECK(run_grouped<Grouped>(shapes, k_batch));
        CHECK(run_grouped<GroupedPer>(shapes, k_batch));
    }
}
