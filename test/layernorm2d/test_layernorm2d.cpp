// SPDX-License-Identifier: MIT
// reference_layernorm2d_fwd against values computed by hand, and the Layernorm2dFwd kernel on the
// emulator against the reference on block shapes other than the example's: two warps sharing a row
// (the cross-warp Welford merge and absmax through LDS) and a warp holding several rows, in one
// and two passes, with n not a multiple of the tile (padding must not count in Welford), bias,
// fused add with store, saved statistics and both quantizations.
#include <doctest/doctest.h>

#include <cmath>
#include <memory>
#include <vector>
#include "ck_tile/core.hpp"
#include "ck_tile/host.hpp"
#include "ck_tile/host/normalization_tolerance.hpp"
#include "ck_tile/host/reference/reference_layernorm2d_fwd.hpp"
#include "ck_tile/host/reference/reference_rowwise_quantization2d.hpp"
#include "ck_tile/ops/common.hpp"
#include "ck_tile/ops/epilogue.hpp"
#include "ck_tile/ops/layernorm2d.hpp"

using namespace ck_tile;

TEST_CASE("reference_layernorm2d_fwd: a hand-computed 2 x 4 example with a row stride")
{
    // row 0: 1 2 3 4 -> mean 2.5, var 1.25; row 1: -2 0 0 2 -> mean 0, var 2
    HostTensor<float> x({2, 4}, {6, 1});
    const float rows[2][4] = {{1, 2, 3, 4}, {-2, 0, 0, 2}};
    for(int m = 0; m < 2; ++m)
        for(int n = 0; n < 4; ++n)
            x(m, n) = rows[m][n];
    HostTensor<float> gamma({4}), beta({4}), y({2, 4}), mean({2}), inv_std({2});
    const float g[4] = {1, 2, 0.5f, -1}, b[4] = {0, 1, -1, 0.25f};
    for(int n = 0; n < 4; ++n)
    {
        gamma(n) = g[n];
        beta(n)  = b[n];
    }
    const float eps = 1e-3f;
    reference_layernorm2d_fwd<float, float, float, float, float, float, float>(x, gamma, beta, y, mean, inv_std, eps);
    const double mu[2] = {2.5, 0}, var[2] = {1.25, 2};
    for(int m = 0; m < 2; ++m)
    {
        const double is = 1 / std::sqrt(var[m] + eps);
        CHECK(mean(m) == doctest::Approx(mu[m]).epsilon(1e-6));
        CHECK(inv_std(m) == doctest::Approx(is).epsilon(1e-6));
        for(int n = 0; n < 4; ++n)
            CHECK(y(m, n) == doctest::Approx((rows[m][n] - mu[m]) * is * g[n] + b[n]).epsilon(1e-5));
    }

    // empty mean / inv_std are skipped; a custom epilogue sees each row's fp32 values
    HostTensor<float> none({0});
    HostTensor<half_t> y16({2, 4});
    int calls = 0;
    reference_layernorm2d_fwd<float, float, float, float, half_t, float, float>(
        x, gamma, beta, y16, none, none, eps,
        [&](std::size_t m, HostTensor<half_t>& yt, const std::vector<float>& row) {
            ++calls;
            REQUIRE(row.size() == 4);
            for(std::size_t n = 0; n < 4; ++n)
                yt(m, n) = type_convert<half_t>(row[n] * 2.f);
        });
    CHECK(calls == 2);
    CHECK(type_convert<float>(y16(1, 3)) == doctest::Approx(2 * y(1, 3)).epsilon(1e-3));
}

namespace {

// two warps share each row (cross-warp merge through LDS): 1 x 256 per step, 2 elements a lane
// (vector 1: any n and stride)
using TwoWarpsPerRow = Generic2dBlockShape<sequence<1, 256>, sequence<1, 128>, sequence<1, 1>>;
// one warp holds 4 rows of 16 lanes, 4 elements each along N: 8 x 64 per step (two warps)
using RowsPerWarp = Generic2dBlockShape<sequence<8, 64>, sequence<8, 16>, sequence<1, 1>>;

template <typename Shape, typename Y, bool kTwoPass>
struct Inst
{
    static constexpr bool kQuant = !std::is_same_v<Y, half_t>;
    using Traits                 = Layernorm2dFwdTraits<
        true, true, false, true, kTwoPass, Layernorm2dXBiasEnum::ADD_BIAS, Layernorm2dFusedAddEnum::PRE_ADD_STORE,
        kQuant ? Layernorm2dFusedQuantEnum::SMOOTH_DYNAMIC_QUANT : Layernorm2dFusedQuantEnum::NO_SWEEP>;
    using Problem = Layernorm2dFwdPipelineProblem<half_t, half_t, half_t, half_t, float, Y, float, float, float, float,
                                                  Shape, Traits>;
    using Pipeline =
        std::conditional_t<kTwoPass, Layernorm2dFwdPipelineTwoPass<Problem>, Layernorm2dFwdPipelineOnePass<Problem>>;
    using Epilogue =
        std::conditional_t<kQuant,
                           DynamicQuantEpilogue<DynamicQuantEpilogueProblem<
                               float, float, float, Y, Shape, DynamicQuantEpilogueTraits<true, true, true>>>,
                           Default2DEpilogue<Default2DEpilogueProblem<float, Y, true, true>>>;
    using Kernel = Layernorm2dFwd<Pipeline, Epilogue>;
};

template <typename Shape, typename Y, bool kTwoPass>
void check_kernel(int M, int N, bool fused, int quant)
{
    using K = typename Inst<Shape, Y, kTwoPass>::Kernel;
    CAPTURE(M);
    CAPTURE(N);
    CAPTURE(fused);
    CAPTURE(quant);
    const int stride = N + 3;
    HostTensor<half_t> x({M, N}, {stride, 1}), xr({M, N}, {stride, 1}), bias({N}), gamma({N}), beta({N});
    HostTensor<float> sm({N});
    FillUniformDistribution<half_t>{-1.f, 1.f, 1}(x);
    FillUniformDistribution<half_t>{-1.f, 1.f, 2}(xr);
    FillUniformDistribution<half_t>{-1.f, 1.f, 3}(bias);
    FillUniformDistribution<half_t>{-1.f, 1.f, 4}(gamma);
    FillUniformDistribution<half_t>{-1.f, 1.f, 5}(beta);
    FillUniformDistribution<float>{0.1f, 2.f, 6}(sm);
    // x is offset by 3: the mean is not near 0, so a wrong merge of counts or means shows
    for(auto& v : x.mData)
        v = type_convert<half_t>(type_convert<float>(v) + 3.f);

    HostTensor<Y> y({M, N}, {stride, 1});
    HostTensor<half_t> yr({M, N}, {stride, 1});
    HostTensor<float> ys({M}), mean({M}), inv_std({M});
    const auto dev = [](const auto& t) {
        auto d = std::make_unique<DeviceMem>(t.get_element_space_size_in_bytes());
        d->ToDevice(t.data());
        return d;
    };
    auto x_d = dev(x), xr_d = dev(xr), b_d = dev(bias), g_d = dev(gamma), be_d = dev(beta), sm_d = dev(sm),
         y_d = dev(y), yr_d = dev(yr), ys_d = dev(ys), mean_d = dev(mean), is_d = dev(inv_std);

    Layernorm2dFwdHostArgs h{};
    h.p_x          = x_d->GetDeviceBuffer();
    h.p_x_residual = fused ? xr_d->GetDeviceBuffer() : nullptr;
    h.p_sm_scale   = quant == 1 ? sm_d->GetDeviceBuffer() : nullptr;
    h.p_x_bias     = fused ? b_d->GetDeviceBuffer() : nullptr;
    h.p_gamma      = g_d->GetDeviceBuffer();
    h.p_beta       = be_d->GetDeviceBuffer();
    h.p_y          = y_d->GetDeviceBuffer();
    h.p_y_residual = fused ? yr_d->GetDeviceBuffer() : nullptr;
    h.p_y_scale    = quant ? ys_d->GetDeviceBuffer() : nullptr;
    h.p_mean       = mean_d->GetDeviceBuffer();
    h.p_invStd     = is_d->GetDeviceBuffer();
    h.epsilon      = 1e-5f;
    h.m            = M;
    h.n            = N;
    h.x_stride = h.xr_stride = h.y_stride = h.yr_stride = stride;
    REQUIRE(K::IsSupportedArgument(h));
    launch_kernel(stream_config{nullptr, false},
                  make_kernel<K::kBlockSize>(K{}, dim3(K::GridSize(h)), dim3(K::BlockSize()), 0, K::MakeKargs(h)));

    HostTensor<half_t> xp({M, N});
    for(int m = 0; m < M; ++m)
        for(int n = 0; n < N; ++n)
        {
            float v = type_convert<float>(x(m, n));
            if(fused)
                v = v + type_convert<float>(bias(n)) + type_convert<float>(xr(m, n));
            xp(m, n) = type_convert<half_t>(v);
        }
    HostTensor<float> y_ref({M, N}), mean_ref({M}), is_ref({M});
    reference_layernorm2d_fwd<half_t, half_t, half_t, float, float, float, float>(xp, gamma, beta, y_ref, mean_ref,
                                                                                  is_ref, 1e-5f);
    mean_d->FromDevice(mean.data());
    is_d->FromDevice(inv_std.data());
    y_d->FromDevice(y.data());
    // the example's checks (normalization_tolerance.hpp): one rounding plus the reordered reduction
    const double r      = normalized_magnitude(xp, 1e-5, true);
    const tolerance t_m = normalization_tolerance<float>(N, max_abs_value(xp));
    const tolerance t_i = normalization_tolerance<float>(N, r * r);
    CHECK(check_err(mean, mean_ref, "mean", t_m.rtol, t_m.atol));
    CHECK(check_err(inv_std, is_ref, "inv_std", t_i.rtol + t_i.atol, 0));
    HostTensor<Y> yc({M, N});
    for(int m = 0; m < M; ++m)
        for(int n = 0; n < N; ++n)
            yc(m, n) = y(m, n);
    if constexpr(std::is_same_v<Y, half_t>)
    {
        HostTensor<half_t> y16({M, N});
        for(int m = 0; m < M; ++m)
            for(int n = 0; n < N; ++n)
                y16(m, n) = type_convert<half_t>(y_ref(m, n));
        const tolerance t = normalization_tolerance<half_t>(N, normalization_scale(xp, gamma, &beta, 1e-5, true));
        CHECK(check_err(yc, y16, "y", t.rtol, t.atol));
    }
    else
    {
        if(quant == 1)
            for(int m = 0; m < M; ++m)
                for(int n = 0; n < N; ++n)
                    y_ref(m, n) *= sm(n);
        HostTensor<float> ys_ref({M});
        HostTensor<Y> q_ref({M, N});
        reference_rowwise_dynamic_quant(y_ref, ys_ref, q_ref);
        ys_d->FromDevice(ys.data());
        CHECK(check_err(ys, ys_ref, "y_scale", 1e-3, 1e-6));
        if constexpr(std::is_same_v<Y, int8_t>)
            CHECK(check_err(yc, q_ref, "q", 0, 1.0));
        else
            CHECK(check_err(yc, q_ref, "q", 1u, 0.0));
    }
    if(fused)
    {
        yr_d->FromDevice(yr.data());
        HostTensor<half_t> yrc({M, N});
        for(int m = 0; m < M; ++m)
            for(int n = 0; n < N; ++n)
                yrc(m, n) = yr(m, n);
        CHECK(check_err(yrc, xp, "y_residual", 0, 0));
    }
}

} // namespace

TEST_CASE("Layernorm2dFwd: two warps per row, one pass")
{
    for(int n : {1, 7, 200, 256})
    {
        check_kernel<TwoWarpsPerRow, half_t, false>(3, n, false, 0);
        check_kernel<TwoWarpsPerRow, half_t, false>(3, n, true, 0);
        check_kernel<TwoWarpsPerRow, int8_t, false>(3, n, true, 1);
        check_kernel<TwoWarpsPerRow, fp8_t, false>(2, n, false, 2);
    }
}

TEST_CASE("Layernorm2dFwd: two warps per row, two passes")
{
    for(int n : {1, 255, 257, 1000})
    {
        check_kernel<TwoWarpsPerRow, half_t, true>(2, n, true, 0);
        check_kernel<TwoWarpsPerRow, fp8_t, true>(2, n, true, 1);
        check_kernel<TwoWarpsPerRow, int8_t, true>(2, n, false, 2);
    }
}

TEST_CASE("Layernorm2dFwd: several rows per warp, one and two passes")
{
    for(int n : {1, 5, 50, 64})
    {
        check_kernel<RowsPerWarp, half_t, false>(13, n, true, 0);
        check_kernel<RowsPerWarp, int8_t, false>(9, n, false, 1);
    }
    for(int n : {3, 65, 129, 300})
    {
        check_kernel<RowsPerWarp, half_t, true>(10, n, false, 0);
        check_kernel<RowsPerWarp, fp8_t, true>(17, n, true, 2);
    }
}
