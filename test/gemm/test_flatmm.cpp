// SPDX-License-Identifier: MIT
// The flatmm pieces: shuffle_b / unshuffle_b (a round trip for sizes that are not whole warp
// tiles; a lane's run holds its MFMA B operand), and FlatmmKernel on the shuffled B against
// reference_gemm on the unshuffled one (both warp tiles, awkward sizes, split-K). Small integer
// inputs: every result is exact.
#include <doctest/doctest.h>

#include "gemm_kernel_test_common.hpp"
#include "ck_tile/host/tensor_shuffle_utils.hpp"
#include "ck_tile/ops/flatmm.hpp"

using namespace gemm_test;
using ck_tile::half_t;

TEST_CASE("shuffle_b: round trip and the lane layout")
{
    for(auto [K, N, nw, kw, d] : {std::tuple{64, 64, 32, 16, 2}, std::tuple{29, 67, 16, 32, 4},
                                  std::tuple{1, 1, 32, 16, 2}, std::tuple{130, 17, 16, 64, 4}})
    {
        CAPTURE(K);
        CAPTURE(N);
        auto b  = make_matrix<half_t>(K, N, 0, false, 5, false, 100);
        auto fl = ck_tile::shuffle_b(b, nw, kw, d);
        CHECK(fl.size() == std::size_t((N + nw - 1) / nw) * ((K + kw - 1) / kw) * kw * nw);
        ck_tile::HostTensor<half_t> back(ck_tile::host_tensor_descriptor(K, N, 0, false));
        ck_tile::unshuffle_b(fl, back, nw, kw, d);
        CHECK(back.mData == b.mData);
    }
    // 32 x 16 warp tiles, 2 lane groups: lane l = kd * 32 + n holds k = kd * 8 + [0, 8) of column n
    ck_tile::HostTensor<float> b(ck_tile::host_tensor_descriptor(32, 64, 0, false));
    for(int k = 0; k < 32; ++k)
        for(int n = 0; n < 64; ++n)
            b(k, n) = float(1000 * n + k);
    const auto fl = ck_tile::shuffle_b(b, 32, 16, 2);
    CHECK(fl[0] == 0.f);
    CHECK(fl[7] == 7.f);
    CHECK(fl[8] == 1000.f);        // lane 1: column 1
    CHECK(fl[32 * 8] == 8.f);      // lane 32: column 0, k = 8
    CHECK(fl[32 * 16] == 16.f);    // the next K warp tile
    CHECK(fl[32 * 32] == 32000.f); // the next N warp tile (row)
}

namespace {

template <int kWT, bool kVector>
struct Flat
{
    using Shape = ck_tile::TileGemmShape<
        ck_tile::sequence<128, 128, 64>, ck_tile::sequence<1, 4, 1>,
        std::conditional_t<kWT == 0, ck_tile::sequence<16, 16, 32>, ck_tile::sequence<32, 32, 16>>>;
    static constexpr ck_tile::index_t v = kVector ? 8 : 1;
    using Traits                        = ck_tile::TileGemmUniversalTraits<true, true, true, false, Row, Col, Row>;
    using Problem  = ck_tile::UniversalGemmPipelineProblem<half_t, half_t, float, Shape, Traits,
                                                           ck_tile::GemmPipelineScheduler::Intrawave, v, 1>;
    using Epilogue = ck_tile::CShuffleEpilogue<ck_tile::CShuffleEpilogueProblem<
        float, half_t, Shape::BlockSize, Shape::kM, Shape::kN, true, true, ck_tile::element_wise::PassThrough, v>>;
    using Kernel   = ck_tile::FlatmmKernel<ck_tile::TilePartitioner<Shape>,
                                           ck_tile::FlatmmPipelineAGmemBGmemCRegV1<Problem>, Epilogue>;
};

template <typename Inst>
bool run_flat(int M, int N, int K, int k_batch = 1)
{
    using Kernel  = typename Inst::Kernel;
    auto a        = make_matrix<half_t>(M, K, 0, true, 1, false);
    auto b        = make_matrix<half_t>(K, N, 0, false, 2, false);
    const auto fl = ck_tile::shuffle_b(b, Kernel::kNWarpTile, Kernel::kKWarpTile, Kernel::kKLaneGroups);
    ck_tile::HostTensor<half_t> c(ck_tile::host_tensor_descriptor(M, N, 0, true)), c_ref = c;
    ck_tile::DeviceMem a_dev(a.get_element_space_size_in_bytes()), b_dev(fl.size() * sizeof(half_t)),
        c_dev(c.get_element_space_size_in_bytes());
    a_dev.ToDevice(a.data());
    b_dev.ToDevice(fl.data());
    c_dev.SetZero();
    const auto kargs         = Kernel::MakeKernelArgs(ck_tile::FlatmmHostArgs{
        a_dev.GetDeviceBuffer(), b_dev.GetDeviceBuffer(), c_dev.GetDeviceBuffer(), k_batch, M, N, K, K, K, N});
    const std::string reason = Kernel::GetUnsupportedReason(kargs);
    if(!reason.empty())
    {
        std::cerr << "unsupported: " << reason << "\n";
        return false;
    }
    ck_tile::launch_kernel(ck_tile::stream_config{},
                           ck_tile::make_kernel<Kernel::kBlockSize>(Kernel{}, Kernel::GridSize(M, N, k_batch),
                                                                    Kernel::BlockSize(), 0, kargs));
    c_dev.FromDevice(c.data());
    ck_tile::reference_gemm<half_t, half_t, float, half_t>(a, b, c_ref);
    return ck_tile::check_err(c.mData, c_ref.mData, "FlatmmKernel differs from the reference", 0, 0);
}

} // namespace

TEST_CASE("FlatmmKernel: both warp tiles, awkward sizes, split-K")
{
    CHECK(run_flat<Flat<0, true>>(256, 128, 128));
    CHECK(run_flat<Flat<1, true>>(128, 256, 192));
    CHECK(run_flat<Flat<0, true>>(200, 136, 96, 3));
    CHECK(run_flat<Flat<1, true>>(64, 64, 48, 4)); // more splits than K tiles
    CHECK(run_flat<Flat<1, false>>(1, 1, 1));
    CHECK(run_flat<Flat<0, false>>(131, 67, 29));
}
