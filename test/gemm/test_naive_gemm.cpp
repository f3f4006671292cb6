// SPDX-License-Identifier: MIT
// The naive GEMM tutorial's kernel (on the emulator; test/hip_cpu runs it on hip-cpu): right with the standard and with
// the transposed C distribution, and detectably wrong when the C distribution does not match the warp GEMM (the
// standard C encoding with the transposed warp GEMM).
#include <doctest/doctest.h>

#include <iostream>
#include "ck_tile/core.hpp"
#include "ck_tile/host.hpp"
#include "tutorial/ck_tile/gemm/01_naive_gemm/practice_gemm.hpp"
#include "tutorial/ck_tile/gemm/01_naive_gemm/reference_gemm.hpp"

using namespace ck_tile;

namespace {
using Shape   = PracticeGemmBlockShape<256, 128, 32>;
using Problem = PracticeGemmProblem<half_t, half_t, float, half_t, Shape, 256>;

template <typename WarpGemm_>
struct BlockPolicyWith : BlockGemmASmemBSmemCRegPolicy
{
    template <typename>
    CK_TILE_HOST_DEVICE static constexpr auto GetWarpGemm()
    {
        return WarpGemm_{};
    }
};

// the transposed warp GEMM, wrongly described by the standard C layout
struct MismatchedAttribute : WarpGemmAttributeMfmaTransposedCDistribution<mfma_instr::v_mfma_f32_32x32x8_f16>
{
    using CWarpDstrEncoding = typename WarpGemmAttributeMfma<mfma_instr::v_mfma_f32_32x32x8_f16>::CWarpDstrEncoding;
};

template <typename WarpGemm>
bool run_gemm(int M, int N, int K)
{
    using Kernel = PracticeGemm<Problem, BlockGemmPipelineAGmemBGmemCRegPolicy<BlockPolicyWith<WarpGemm>>>;
    HostTensor<half_t> a({M, K}), b({N, K}), c({M, N}), c_ref({M, N});
    FillUniformDistributionIntegerValue<half_t>{-3, 3, 1}(a);
    FillUniformDistributionIntegerValue<half_t>{-3, 3, 2}(b);
    DeviceMem a_dev(a.get_element_space_size_in_bytes()), b_dev(b.get_element_space_size_in_bytes()),
        c_dev(c.get_element_space_size_in_bytes());
    a_dev.ToDevice(a.data());
    b_dev.ToDevice(b.data());
    c_dev.SetZero();
    launch_kernel(stream_config{}, make_kernel<256>(Kernel{}, dim3(Kernel::Grid::GetGridSize(M, N)), dim3(256), 0,
                                                    static_cast<const half_t*>(a_dev.GetDeviceBuffer()),
                                                    static_cast<const half_t*>(b_dev.GetDeviceBuffer()),
                                                    static_cast<half_t*>(c_dev.GetDeviceBuffer()), M, N, K));
    c_dev.FromDevice(c.data());
    reference_gemm<half_t, half_t, float, half_t>(a, b, c_ref);
    // small integers: every product and sum is exact, so the result must match bit for bit
    return check_err(c.mData, c_ref.mData, "naive gemm differs from the reference", 0, 0);
}
} // namespace

TEST_CASE("standard C distribution")
{
    CHECK(run_gemm<WarpGemmMfmaF16F16F32M32N32K8>(256, 128, 32));
    CHECK(run_gemm<WarpGemmMfmaF16F16F32M32N32K8>(512, 256, 96));
}

TEST_CASE("transposed C distribution")
{
    CHECK(run_gemm<WarpGemmMfmaF16F16F32M32N32K8TransposedCDistribution>(256, 128, 32));
    CHECK(run_gemm<WarpGemmMfmaF16F16F32M32N32K8TransposedCDistribution>(512, 256, 96));
}

TEST_CASE("a C distribution that does not match the warp GEMM gives a wrong result")
{
    std::cerr << "(the mismatch report below is expected)\n";
    CHECK_FALSE(run_gemm<WarpGemmImpl<MismatchedAttribute>>(256, 128, 32));
}
