// SPDX-License-Identifier: MIT
// The multiple-D GEMM's pieces: the CDE ops (MultiplyMultiply, AddAdd, Add) and their split-K rule,
// reference_gemm_multiple_d, and GemmKernelMultiD with the C-shuffle epilogue reading the Ds (row-
// and column-major Ds, one to three of them, split-K adding the Ds exactly once). Small integer
// inputs: every result is exact.
#include <doctest/doctest.h>

#include "gemm_kernel_test_common.hpp"
#include "ck_tile/host/reference/reference_gemm_multiple_d.hpp"

using namespace gemm_test;
using ck_tile::half_t;
namespace ew = ck_tile::element_wise;

TEST_CASE("CDE ops: values and split-K rule")
{
    half_t e{};
    ew::MultiplyMultiply{}(e, 3.f, half_t(2.f), half_t(-0.5f));
    CHECK(ck_tile::type_convert<float>(e) == -3.f);
    ew::MultiplyMultiply{}(e, 1.5f, half_t(2.f));
    CHECK(ck_tile::type_convert<float>(e) == 3.f);
    ew::MultiplyMultiply{}(e, 1.f, half_t(2.f), half_t(2.f), half_t(2.f), half_t(2.f));
    CHECK(ck_tile::type_convert<float>(e) == 16.f);
    ew::AddAdd{}(e, 3.f, half_t(2.f), half_t(-0.5f));
    CHECK(ck_tile::type_convert<float>(e) == 4.5f);
    ew::AddAdd{}(e, 1.f, half_t(1.f), half_t(1.f), half_t(1.f), half_t(1.f));
    CHECK(ck_tile::type_convert<float>(e) == 5.f);
    ew::Add{}(e, 3.f, half_t(-1.f));
    CHECK(ck_tile::type_convert<float>(e) == 2.f);
    float f = 0;
    ew::Add{}(f, 0.25f, 0.5f); // upstream's binary form
    CHECK(f == 0.75f);

    CHECK(ck_tile::get_splitk_apply(ew::MultiplyMultiply{}) == ck_tile::splitk_apply::each_split);
    CHECK(ck_tile::get_splitk_apply(ew::AddAdd{}) == ck_tile::splitk_apply::first_split_only);
    CHECK(ck_tile::get_splitk_apply(ew::Add{}) == ck_tile::splitk_apply::first_split_only);
    CHECK(ck_tile::get_splitk_apply(ew::PassThrough{}) == ck_tile::splitk_apply::each_split);
    CHECK(ck_tile::get_splitk_apply(ew::Relu{}) == ck_tile::splitk_apply::unsupported);
}

TEST_CASE("reference_gemm_multiple_d: C op Ds per element, any D layout")
{
    ck_tile::HostTensor<half_t> a(ck_tile::host_tensor_descriptor(2, 3, 0, true));
    ck_tile::HostTensor<half_t> b(ck_tile::host_tensor_descriptor(3, 2, 0, false));
    std::array<ck_tile::HostTensor<half_t>, 2> ds{
        ck_tile::HostTensor<half_t>(ck_tile::host_tensor_descriptor(2, 2, 0, true)),
        ck_tile::HostTensor<half_t>(ck_tile::host_tensor_descriptor(2, 2, 0, false))};
    ck_tile::HostTensor<half_t> e(ck_tile::host_tensor_descriptor(2, 2, 0, true));
    for(int m = 0; m < 2; ++m)
        for(int k = 0; k < 3; ++k)
            a(m, k) = half_t(float(m + k));
    for(int k = 0; k < 3; ++k)
        for(int n = 0; n < 2; ++n)
            b(k, n) = half_t(float(k - n));
    for(int m = 0; m < 2; ++m)
        for(int n = 0; n < 2; ++n)
        {
            ds[0](m, n) = half_t(float(10 * m + n));
            ds[1](m, n) = half_t(2.f);
        }
    using Ds = ck_tile::tuple<half_t, half_t>;
    ck_tile::reference_gemm_multiple_d<half_t, half_t, Ds, float, half_t>(a, b, ds, e, ew::AddAdd{});
    // C = [[5, 2], [8, 2]] (sum_k (m + k)(k - n))
    CHECK(ck_tile::type_convert<float>(e(0, 0)) == 5.f + 0 + 2);
    CHECK(ck_tile::type_convert<float>(e(0, 1)) == 2.f + 1 + 2);
    CHECK(ck_tile::type_convert<float>(e(1, 0)) == 8.f + 10 + 2);
    CHECK(ck_tile::type_convert<float>(e(1, 1)) == 2.f + 11 + 2);
    ck_tile::reference_gemm_multiple_d<half_t, half_t, Ds, float, half_t>(a, b, ds, e, ew::MultiplyMultiply{});
    CHECK(ck_tile::type_convert<float>(e(1, 1)) == 2.f * 11 * 2);
}

namespace {

template <int NumD, typename DLayout, typename Op, bool kVector = true>
struct MultiD
{
    template <std::size_t... I>
    static auto rep(std::index_sequence<I...>) -> ck_tile::tuple<std::conditional_t<(I >= 0), half_t, half_t>...>;
    template <std::size_t... I>
    static auto rep_l(std::index_sequence<I...>) -> ck_tile::tuple<std::conditional_t<(I >= 0), DLayout, DLayout>...>;
    using Ds                            = decltype(rep(std::make_index_sequence<NumD>{}));
    using DsLayout                      = decltype(rep_l(std::make_index_sequence<NumD>{}));
    static constexpr ck_tile::index_t v = kVector ? 8 : 1;
    using Traits                        = ck_tile::TileGemmUniversalTraits<true, true, true, false, Row, Col, Row>;
    using Problem  = ck_tile::UniversalGemmPipelineProblem<half_t, half_t, float, Shape16, Traits,
                                                           ck_tile::GemmPipelineScheduler::Intrawave, v, v>;
    using Epilogue = ck_tile::CShuffleEpilogue<ck_tile::CShuffleEpilogueProblemWithDs<
        float, half_t, Ds, DsLayout, Shape16::BlockSize, Shape16::kM, Shape16::kN, true, true, Op, v, v>>;
    using Kernel   = ck_tile::GemmKernelMultiD<ck_tile::GemmSpatiallyLocalTilePartitioner<Shape16, 8, 4>,
                                               ck_tile::GemmPipelineAgBgCrCompV3<Problem>, Epilogue>;
};

// runs M x N x K and compares with reference_gemm_multiple_d exactly
template <typename Inst>
bool run_multi_d(int M, int N, int K, int k_batch, int stride_d = 0)
{
    using Kernel       = typename Inst::Kernel;
    constexpr int NumD = Kernel::NumDTensor;
    constexpr bool d_row =
        ck_tile::is_row_major_v<std::remove_cvref_t<decltype(typename Inst::DsLayout{}.at(ck_tile::number<0>{}))>>;
    auto a = make_matrix<half_t>(M, K, 0, true, 1, false);
    auto b = make_matrix<half_t>(K, N, 0, false, 2, false);
    std::array<ck_tile::HostTensor<half_t>, NumD> ds;
    std::array<ck_tile::DeviceMem, NumD> ds_dev;
    ck_tile::GemmMultiDHostArgs<NumD> h{};
    for(int j = 0; j < NumD; ++j)
    {
        ds[j] = make_matrix<half_t>(M, N, stride_d, d_row, 10 + j, true, 2);
        ds_dev[j].Realloc(ds[j].get_element_space_size_in_bytes());
        ds_dev[j].ToDevice(ds[j].data());
        h.ds_ptr[j]    = ds_dev[j].GetDeviceBuffer();
        h.stride_Ds[j] = static_cast<int>(ds[j].get_stride(d_row ? 0 : 1));
    }
    ck_tile::HostTensor<half_t> e(ck_tile::host_tensor_descriptor(M, N, 0, true)), e_ref = e;
    ck_tile::DeviceMem a_dev(a.get_element_space_size_in_bytes()), b_dev(b.get_element_space_size_in_bytes()),
        e_dev(e.get_element_space_size_in_bytes());
    a_dev.ToDevice(a.data());
    b_dev.ToDevice(b.data());
    e_dev.SetZero();
    h.a_ptr   = a_dev.GetDeviceBuffer();
    h.b_ptr   = b_dev.GetDeviceBuffer();
    h.e_ptr   = e_dev.GetDeviceBuffer();
    h.k_batch = k_batch;
    h.M = M, h.N = N, h.K = K, h.stride_A = K, h.stride_B = K, h.stride_E = N;
    const auto kargs         = Kernel::MakeKernelArgs(h);
    const std::string reason = Kernel::GetUnsupportedReason(kargs);
    if(!reason.empty())
    {
        std::cerr << "unsupported: " << reason << "\n";
        return false;
    }
    ck_tile::launch_kernel(ck_tile::stream_config{},
                           ck_tile::make_kernel<Kernel::kBlockSize>(Kernel{}, Kernel::GridSize(M, N, k_batch),
                                                                    Kernel::BlockSize(), 0, kargs));
    e_dev.FromDevice(e.data());
    ck_tile::reference_gemm_multiple_d<half_t, half_t, typename Inst::Ds, float, half_t>(
        a, b, ds, e_ref, typename Kernel::CDEElementwise{});
    return ck_tile::check_err(e.mData, e_ref.mData, "GemmKernelMultiD differs from the reference", 0, 0);
}

} // namespace

TEST_CASE("GemmKernelMultiD: the Ds read in the epilogue's distribution, both layouts, split-K once")
{
    using MM2R = MultiD<2, Row, ew::MultiplyMultiply>;
    using AA2C = MultiD<2, Col, ew::AddAdd>;
    using A1S  = MultiD<1, Row, ew::Add, false>;
    for(int kb : {1, 3})
    {
        CAPTURE(kb);
        CHECK(run_multi_d<MM2R>(256, 128, 32, kb));
        CHECK(run_multi_d<MM2R>(136, 200, 96, kb, 208)); // D rows 208 apart, NaN in the gaps
        CHECK(run_multi_d<AA2C>(256, 128, 64, kb));
        CHECK(run_multi_d<AA2C>(100, 72, 96, kb, 104));
    }
    CHECK(run_multi_d<AA2C>(64, 64, 64, 7)); // more splits than K tiles: split 0 adds the Ds
    CHECK(run_multi_d<A1S>(1, 1, 1, 1));
    CHECK(run_multi_d<A1S>(131, 67, 29, 1, 71));
}

TEST_CASE("GemmKernelMultiD refuses what it cannot do")
{
    using MM2R = MultiD<2, Row, ew::MultiplyMultiply>;
    using K    = MM2R::Kernel;
    alignas(16) static half_t buf[64];
    ck_tile::GemmMultiDHostArgs<2> h{buf, buf, {buf, buf}, buf, 1, 8, 8, 8, 8, 8, {8, 8}, 8};
    CHECK(K::GetUnsupportedReason(K::MakeKernelArgs(h)).empty());
    h.stride_Ds[1] = 4;
    CHECK(K::GetUnsupportedReason(K::MakeKernelArgs(h)).find("stride_Ds[1]=4 is smaller than N=8") !=
          std::string::npos);
    h.stride_Ds[1] = 12;
    CHECK(K::GetUnsupportedReason(K::MakeKernelArgs(h)).find("not a multiple of the vector size 8") !=
          std::string::npos);
    h.stride_Ds[1] = 8;
    h.ds_ptr[0]    = nullptr;
    CHECK(K::GetUnsupportedReason(K::MakeKernelArgs(h)).find("null D0") != std::string::npos);
}
