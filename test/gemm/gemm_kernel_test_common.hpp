// SPDX-License-Identifier: MIT
// Helpers of the GemmKernel tests: a kernel instance from a few choices, and a run on the emulator
// checked against reference_gemm. Inputs are small integers, so every product and sum is exact and
// the result must match the reference bit for bit.
#pragma once
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <tuple>

#include "ck_tile/core.hpp"
#include "ck_tile/host.hpp"
#include "ck_tile/host/reference/reference_gemm.hpp"
#include "ck_tile/ops/epilogue.hpp"
#include "ck_tile/ops/gemm.hpp"

namespace gemm_test {

using Row = ck_tile::tensor_layout::gemm::RowMajor;
using Col = ck_tile::tensor_layout::gemm::ColumnMajor;

using Shape16 =
    ck_tile::TileGemmShape<ck_tile::sequence<128, 128, 32>, ck_tile::sequence<2, 2, 1>, ck_tile::sequence<32, 32, 8>>;
using Shape8 =
    ck_tile::TileGemmShape<ck_tile::sequence<128, 128, 64>, ck_tile::sequence<2, 2, 1>, ck_tile::sequence<32, 32, 16>>;

enum class Pipe
{
    v1,
    v2,
    mem_intrawave,
    mem_interwave,
    compv3,
    compv4,
};
enum class Epi
{
    default_2d,
    cshuffle
};

template <typename A, typename B, typename C, typename ALayout, typename BLayout, Pipe kPipe, Epi kEpi, bool kVector,
          typename Op = ck_tile::element_wise::PassThrough, typename Shape = Shape16,
          typename V2Policy = ck_tile::GemmPipelineAGmemBGmemCRegV2DefaultPolicy, bool kPad = true,
          bool kPersistent = false, typename Partitioner = ck_tile::TilePartitioner<Shape>>
struct Instance
{
    using Acc = std::conditional_t<std::is_same_v<A, int8_t>, int32_t, float>;
    using Traits =
        ck_tile::TileGemmUniversalTraits<kPad, kPad, kPad, kPipe == Pipe::compv4, ALayout, BLayout, Row, kPersistent>;
    static constexpr ck_tile::index_t va = kVector ? 16 / sizeof(A) : 1;
    static constexpr ck_tile::index_t vb = kVector ? 16 / sizeof(B) : 1;
    static constexpr ck_tile::index_t vc = kVector ? 16 / sizeof(C) : 1;
    static constexpr auto kScheduler     = kPipe == Pipe::mem_interwave ? ck_tile::GemmPipelineScheduler::Interwave
                                                                        : ck_tile::GemmPipelineScheduler::Intrawave;
    using Problem  = ck_tile::UniversalGemmPipelineProblem<A, B, Acc, Shape, Traits, kScheduler, va, vb>;
    using Pipeline = std::conditional_t<
        kPipe == Pipe::v2, ck_tile::GemmPipelineAGmemBGmemCRegV2<Problem, V2Policy>,
        std::conditional_t<
            kPipe == Pipe::mem_intrawave || kPipe == Pipe::mem_interwave, ck_tile::GemmPipelineAgBgCrMem<Problem>,
            std::conditional_t<kPipe == Pipe::compv3, ck_tile::GemmPipelineAgBgCrCompV3<Problem>,
                               std::conditional_t<kPipe == Pipe::compv4, ck_tile::GemmPipelineAgBgCrCompV4<Problem>,
                                                  ck_tile::GemmPipelineAGmemBGmemCRegV1<Problem>>>>>;
    using Epilogue =
        std::conditional_t<kEpi == Epi::cshuffle,
                           ck_tile::CShuffleEpilogue<ck_tile::CShuffleEpilogueProblem<
                               Acc, C, Shape::BlockSize, Shape::kM, Shape::kN, kPad, kPad, Op, vc>>,
                           ck_tile::Default2DEpilogue<ck_tile::Default2DEpilogueProblem<Acc, C, kPad, kPad, Op, vc>>>;
    using Kernel = ck_tile::UniversalGemmKernel<Partitioner, Pipeline, Epilogue>;
};

// A matrix of small random integers; with nan_gaps the elements of the storage that are not part
// of the matrix (the stride's gaps) are NaN, so that a kernel reading them shows.
template <typename T>
ck_tile::HostTensor<T> make_matrix(int rows, int cols, int stride, bool row_major, std::uint32_t seed, bool nan_gaps,
                                   int range = 3)
{
    ck_tile::HostTensor<T> t(ck_tile::host_tensor_descriptor(rows, cols, stride, row_major));
    for(auto& x : t.mData)
        x = nan_gaps ? ck_tile::type_convert<T>(std::numeric_limits<float>::quiet_NaN()) : T{};
    std::mt19937 gen(seed);
    std::uniform_int_distribution<int> dist(-range, range);
    for(int r = 0; r < rows; ++r)
        for(int c = 0; c < cols; ++c)
            t(r, c) = ck_tile::type_convert<T>(static_cast<float>(dist(gen)));
    return t;
}

struct RunOptions
{
    int stride_a = 0, stride_b = 0, stride_c = 0; // 0: packed
    bool nan_gaps = false;
    int range     = 3;
    int k_batch   = 1; // split-K: the splits add into a zeroed C
};

// Runs the instance on M x N x K and compares with the reference (exactly). Returns check_err's
// verdict; a refused argument fails the test.
template <typename Inst, typename Op = typename Inst::Kernel::ElementwiseOp>
bool run(int M, int N, int K, const RunOptions& o = {}, const Op& op = {})
{
    using Kernel     = typename Inst::Kernel;
    using A          = typename Kernel::ADataType;
    using B          = typename Kernel::BDataType;
    using C          = typename Kernel::CDataType;
    const bool a_row = ck_tile::is_row_major_v<typename Kernel::ALayout>;
    const bool b_row = ck_tile::is_row_major_v<typename Kernel::BLayout>;

    auto a = make_matrix<A>(M, K, o.stride_a, a_row, 1, o.nan_gaps, o.range);
    auto b = make_matrix<B>(K, N, o.stride_b, b_row, 2, o.nan_gaps, o.range);
    ck_tile::HostTensor<C> c(ck_tile::host_tensor_descriptor(M, N, o.stride_c, true));
    ck_tile::HostTensor<C> c_ref(ck_tile::host_tensor_descriptor(M, N, o.stride_c, true));

    ck_tile::DeviceMem a_dev(a.get_element_space_size_in_bytes()), b_dev(b.get_element_space_size_in_bytes()),
        c_dev(c.get_element_space_size_in_bytes());
    a_dev.ToDevice(a.data());
    b_dev.ToDevice(b.data());
    c_dev.SetZero();

    const ck_tile::GemmHostArgs args{a_dev.GetDeviceBuffer(),
                                     b_dev.GetDeviceBuffer(),
                                     c_dev.GetDeviceBuffer(),
                                     o.k_batch,
                                     M,
                                     N,
                                     K,
                                     static_cast<ck_tile::index_t>(a.get_stride(a_row ? 0 : 1)),
                                     static_cast<ck_tile::index_t>(b.get_stride(b_row ? 0 : 1)),
                                     static_cast<ck_tile::index_t>(c.get_stride(0))};
    const auto kargs         = Kernel::MakeKernelArgs(args, op);
    const std::string reason = Kernel::GetUnsupportedReason(kargs);
    if(!reason.empty())
    {
        std::cerr << "unsupported: " << reason << "\n";
        return false;
    }
    const dim3 grid = Kernel::kPersistent ? Kernel::MaxOccupancyGridSize() : Kernel::GridSize(M, N, o.k_batch);
    ck_tile::launch_kernel(ck_tile::stream_config{},
                           ck_tile::make_kernel<Kernel::kBlockSize>(Kernel{}, grid, Kernel::BlockSize(), 0, kargs));
    c_dev.FromDevice(c.data());
    ck_tile::reference_gemm<A, B, typename Inst::Acc, C>(a, b, c_ref, ck_tile::identity{}, ck_tile::identity{}, op);
    return ck_tile::check_err(c.mData, c_ref.mData, "GemmKernel differs from the reference", 0, 0);
}

} // namespace gemm_test
