// SPDX-License-Identifier: MIT
// Rmsnorm2dFwd on the emulator against reference_rmsnorm2d_fwd, with block shapes the example does
// not build: a one-pass block whose rows span two warps (the cross-warp sums through LDS, and the
// epilogue's cross-warp absmax), and two-pass blocks with short chunks (many chunks per row, a
// padded last chunk), every fusion switched on at run time.
#include <doctest/doctest.h>

#include <type_traits>
#include "ck_tile/core.hpp"
#include "ck_tile/host.hpp"
#include "ck_tile/host/normalization_tolerance.hpp"
#include "ck_tile/host/reference/reference_rmsnorm2d_fwd.hpp"
#include "ck_tile/ops/epilogue.hpp"
#include "ck_tile/ops/rmsnorm2d.hpp"

using namespace ck_tile;

namespace {

// 2 rows per block, 2 warps per row, 2 elements per lane: Block_N 512
using OnePassTwoWarps = Generic2dBlockShape<sequence<2, 512>, sequence<2, 128>, sequence<1, 2>>;
// one warp per row, chunks of 128 columns
using TwoPassShortChunks = Generic2dBlockShape<sequence<1, 128>, sequence<1, 64>, sequence<1, 1>>;
// two warps per row, chunks of 512 columns, 2 elements per lane
using TwoPassTwoWarps = Generic2dBlockShape<sequence<1, 512>, sequence<1, 256>, sequence<1, 2>>;

struct Fusions
{
    bool add, store_residual, save_rms, save_unquant, smooth, t5;
};

template <typename Shape, bool kTwoPass, typename X, typename Y>
void check_kernel(int m, int n, int stride, const Fusions& fu)
{
    constexpr bool kQuant = !std::is_same_v<X, Y>;
    using Traits =
        Rmsnorm2dFwdTraits<true, true, kQuant, kTwoPass, Rmsnorm2dFusedAddEnum::PRE_ADD_STORE,
                           kQuant ? Rmsnorm2dFusedQuantEnum::SMOOTH_DYNAMIC_QUANT : Rmsnorm2dFusedQuantEnum::NO_SWEEP,
                           Rmsnorm2dSensitiveEnum::T5_MODEL_LIKE>;
    using Problem = Rmsnorm2dFwdPipelineProblem<X, X, float, Y, X, X, float, float, Shape, Traits>;
    using Pipeline =
        std::conditional_t<kTwoPass, Rmsnorm2dFwdPipelineTwoPass<Problem>, Rmsnorm2dFwdPipelineOnePass<Problem>>;
    using Epilogue =
        std::conditional_t<kQuant,
                           DynamicQuantEpilogue<DynamicQuantEpilogueProblem<
                               float, float, float, Y, Shape, DynamicQuantEpilogueTraits<true, true, true>>>,
                           Default2DEpilogue<Default2DEpilogueProblem<float, Y, true, true>>>;
    using Kernel = Rmsnorm2dFwd<Pipeline, Epilogue>;

    const std::size_t M = m, N = n, S = stride;
    HostTensor<X> x({M, N}, {S, 1}), xr({M, N}, {S, 1}), gamma({N}), yr({M, N}, {S, 1}), unq({M, N}, {S, 1});
    HostTensor<Y> y({M, N}, {S, 1});
    HostTensor<float> sm({N}), ys({M});
    HostTensor<X> ir({M});
    FillUniformDistribution<X>{-1.f, 1.f, 1}(x);
    FillUniformDistribution<X>{-1.f, 1.f, 2}(xr);
    FillUniformDistribution<X>{-1.f, 1.f, 3}(gamma);
    FillUniformDistribution<float>{0.1f, 2.f, 4}(sm);

    DeviceMem x_d(x.get_element_space_size_in_bytes()), xr_d(xr.get_element_space_size_in_bytes()),
        g_d(gamma.get_element_space_size_in_bytes()), sm_d(sm.get_element_space_size_in_bytes()),
        y_d(y.get_element_space_size_in_bytes()), yr_d(yr.get_element_space_size_in_bytes()),
        ys_d(ys.get_element_space_size_in_bytes()), ir_d(ir.get_element_space_size_in_bytes()),
        uq_d(unq.get_element_space_size_in_bytes());
    x_d.ToDevice(x.data());
    xr_d.ToDevice(xr.data());
    g_d.ToDevice(gamma.data());
    sm_d.ToDevice(sm.data());
    for(auto* d : {&y_d, &yr_d, &ys_d, &ir_d, &uq_d})
        d->SetZero();

    const auto ptr = [](bool on, DeviceMem& d) { return on ? d.GetDeviceBuffer() : nullptr; };
    Rmsnorm2dFwdHostArgs a{x_d.GetDeviceBuffer(),
                           ptr(fu.add, xr_d),
                           ptr(kQuant && fu.smooth, sm_d),
                           g_d.GetDeviceBuffer(),
                           y_d.GetDeviceBuffer(),
                           ptr(fu.add && fu.store_residual, yr_d),
                           ptr(kQuant, ys_d),
                           ptr(fu.save_rms, ir_d),
                           ptr(kQuant && fu.save_unquant, uq_d),
                           1e-5f,
                           m,
                           n,
                           stride,
                           stride,
                           stride,
                           stride,
                           fu.t5 ? Rmsnorm2dSensitiveEnum::T5_MODEL_LIKE : Rmsnorm2dSensitiveEnum::NO_SPECIFIC_MODEL};
    REQUIRE(Kernel::IsSupportedArgument(a));
    launch_kernel(stream_config{}, make_kernel<Kernel::kBlockSize>(Kernel{}, Kernel::GridSize(a), Kernel::BlockSize(),
                                                                   0, Kernel::MakeKargs(a)));

    HostTensor<X> xp = x;
    if(fu.add)
        for(std::size_t i = 0; i < M; ++i)
            for(std::size_t j = 0; j < N; ++j)
                xp(i, j) = type_convert<X>(type_convert<float>(x(i, j)) + type_convert<float>(xr(i, j)));
    HostTensor<Y> y_ref({M, N}, {S, 1});
    HostTensor<X> ir_ref({fu.save_rms ? M : 0}), unq_ref({kQuant && fu.save_unquant ? M : 0, N}, {S, 1});
    HostTensor<float> ys_ref({M});
    if constexpr(kQuant)
        reference_rmsnorm2d_fwd<X, X, float, Y, X, X>(
            xp, gamma, y_ref, ir_ref, unq_ref, 1e-5f,
            reference_rmsnorm2d_dynamic_quant_epilogue<float, float>{fu.smooth ? &sm : nullptr, &ys_ref}, fu.t5);
    else
        reference_rmsnorm2d_fwd<X, X, float, Y, X, X>(xp, gamma, y_ref, ir_ref, unq_ref, 1e-5f, {}, fu.t5);

    INFO(Kernel::GetName() << " m=" << m << " n=" << n << " stride=" << stride);
    // the example's tolerances (normalization_tolerance.hpp); the T5-like mode rounds twice
    const double z_max   = normalized_magnitude(xp, 1e-5, false);
    const tolerance t_y  = normalization_tolerance<X>(N, z_max * max_abs_value(gamma), fu.t5 ? 2 : 1);
    const tolerance t_ir = normalization_tolerance<X>(N, z_max * z_max);
    y_d.FromDevice(y.data());
    if constexpr(std::is_same_v<Y, fp8_t>)
        CHECK(check_err(y, y_ref, "y", 1u, 0.0));
    else if constexpr(std::is_same_v<Y, int8_t>)
        CHECK(check_err(y, y_ref, "y", 0, 1));
    else
    {
        CHECK(check_err(y, y_ref, "y", t_y.rtol, t_y.atol));
        CHECK(check_unbiased_rounding(y, y_ref, N, "y"));
    }
    if constexpr(kQuant)
    {
        ys_d.FromDevice(ys.data());
        CHECK(check_err(ys, ys_ref, "y_scale", 1e-4, 1e-6));
        if(fu.save_unquant)
        {
            uq_d.FromDevice(unq.data());
            CHECK(check_err(unq, unq_ref, "y_unquant", t_y.rtol, t_y.atol));
        }
    }
    if(fu.save_rms)
    {
        ir_d.FromDevice(ir.data());
        CHECK(check_err(ir, ir_ref, "invrms", t_ir.rtol + t_ir.atol, 0));
    }
    if(fu.add && fu.store_residual)
    {
        yr_d.FromDevice(yr.data());
        HostTensor<X> yr_ref({M, N}, {S, 1});
        for(auto& v : yr_ref.mData)
            v = type_convert<X>(0.f);
        for(std::size_t i = 0; i < M; ++i)
            for(std::size_t j = 0; j < N; ++j)
                yr_ref(i, j) = xp(i, j);
        CHECK(check_err(yr, yr_ref, "y_residual", 0, 0));
    }
}

} // namespace

TEST_CASE("one pass, rows spanning two warps: plain and quantized")
{
    check_kernel<OnePassTwoWarps, false, half_t, half_t>(5, 334, 340, {true, true, true, false, false, false});
    check_kernel<OnePassTwoWarps, false, half_t, half_t>(3, 512, 512, {false, false, false, false, false, true});
    check_kernel<OnePassTwoWarps, false, half_t, int8_t>(5, 334, 336, {true, true, true, true, true, false});
    check_kernel<OnePassTwoWarps, false, half_t, int8_t>(2, 2, 2, {false, false, false, false, false, true});
}

TEST_CASE("two pass, many short chunks: every fusion")
{
    check_kernel<TwoPassShortChunks, true, bf16_t, bf16_t>(3, 1001, 1003, {true, true, true, false, false, true});
    check_kernel<TwoPassShortChunks, true, bf16_t, fp8_t>(3, 1001, 1001, {true, true, true, true, true, true});
    check_kernel<TwoPassShortChunks, true, bf16_t, fp8_t>(2, 1, 1, {true, false, false, true, false, false});
}

TEST_CASE("two pass, rows spanning two warps")
{
    check_kernel<TwoPassTwoWarps, true, half_t, int8_t>(2, 1500, 1502, {true, true, true, true, false, true});
    check_kernel<TwoPassTwoWarps, true, half_t, half_t>(2, 2048, 2048, {false, false, true, false, false, false});
}
