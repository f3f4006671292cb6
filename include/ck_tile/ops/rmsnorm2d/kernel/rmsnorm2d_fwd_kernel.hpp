// SPDX-License-Identifier: MIT
// Rmsnorm2dFwd<Pipeline, Epilogue>: row-wise RMS normalization of an m x n matrix (upstream's
// names), with the fusions of Rmsnorm2dFwdTraits:
//
//   x'       = x (+ x_residual)                          y_residual = x' (fused add and store)
//   invrms   = 1 / sqrt(mean_n(x'^2) + eps)              fp32; saved to invrms[m] on request
//   y        = x' * invrms * gamma                       T5-like: round(x' * invrms) * gamma
//   quant:   y_unquant = y (on request); y *= sm_scale[n] (smooth); y_scale[m] = absmax / qmax;
//            y = saturate_convert(y / y_scale)           DynamicQuantEpilogue
//
// One block per Block_M rows (the one-pass pipeline: n <= Block_N) or per row (the two-pass
// pipeline, Block_M = 1: any n). Every row has its own stride (x, x_residual, y / y_unquant,
// y_residual); a vectorized instance needs n and every stride to be multiples of its vector
// (IsSupportedArgument); views are padded up to whole tiles, padded reads give 0 and padded writes
// are dropped. Optional inputs and outputs are null pointers when a launch does not use them.
#pragma once
#include <string>
#include "ck_tile/core.hpp"
#include "ck_tile/ops/rmsnorm2d/pipeline/rmsnorm2d_fwd_traits.hpp"
#include "ck_tile/ops/rmsnorm2d/pipeline/rmsnorm2d_fwd_pipeline_default_policy.hpp"

namespace ck_tile {

// host side arguments (upstream's fields; `sensitive` is ours: the T5-like switch of a launch)
struct Rmsnorm2dFwdHostArgs
{
    const void* p_x;          // [m, n] input
    const void* p_x_residual; // [m, n] residual, null without the fused add
    const void* p_sm_scale;   // [n] smooth scale, null unless smooth quant
    const void* p_gamma;      // [n]

    void* p_y;          // [m, n] output (quantized with a quant fusion)
    void* p_y_residual; // [m, n] x', null unless the fused add stores it
    void* p_y_scale;    // [m] per-row scale, null without quant
    void* p_invRms;     // [m] inverse rms, null unless saved
    void* p_y_unquant;  // [m, n] y before quantization (y_stride), null unless saved

    float epsilon;

    index_t m;
    index_t n;
    index_t x_stride;  // row stride of x
    index_t xr_stride; // row stride of x_residual
    index_t y_stride;  // row stride of y and y_unquant
    index_t yr_stride; // row stride of y_residual

    Rmsnorm2dSensitiveEnum sensitive = Rmsnorm2dSensitiveEnum::NO_SPECIFIC_MODEL;
};

namespace detail {
template <typename T>
constexpr const char* rmsnorm2d_type_name()
{
    if constexpr(std::is_same_v<T, half_t>)
        return "fp16";
    else if constexpr(std::is_same_v<T, bf16_t>)
        return "bf16";
    else if constexpr(std::is_same_v<T, int8_t>)
        return "int8";
    else if constexpr(std::is_same_v<T, fp8_t>)
        return "fp8";
    else if constexpr(std::is_same_v<T, float>)
        return "fp32";
    else
        return "?";
}
} // namespace detail

template <typename Pipeline_, typename Epilogue_>
struct Rmsnorm2dFwd
{
    using Pipeline = std::remove_cvref_t<Pipeline_>;
    using Epilogue = std::remove_cvref_t<Epilogue_>;
    using Problem  = typename Pipeline::Problem;
    using Traits   = typename Problem::Traits;
    using S        = typename Problem::BlockShape;

    using XDataType           = typename Problem::XDataType;
    using GammaDataType       = typename Problem::GammaDataType;
    using YDataType           = typename Problem::YDataType;
    using InvRmsDataType      = typename Problem::InvRmsDataType;
    using UnquantYDataType    = typename Problem::UnquantYDataType;
    using SmoothScaleDataType = typename Problem::SmoothScaleDataType;
    using YScaleDataType      = typename Problem::YScaleDataType;

    static constexpr index_t kBlockSize = S::BlockSize;
    static constexpr index_t kVector    = S::Vector_N;
    static constexpr bool kTwoPass      = Traits::kTwoPass;
    static_assert(kTwoPass == Pipeline::kTwoPass, "Rmsnorm2dFwd: Traits::kTwoPass and the pipeline disagree");
    static_assert(!kTwoPass || S::Block_M == 1, "Rmsnorm2dFwd: the two-pass pipeline takes one row per block");

    struct Kargs
    {
        const XDataType* p_x;
        const XDataType* p_x_residual;
        const SmoothScaleDataType* p_sm_scale;
        const GammaDataType* p_gamma;
        YDataType* p_y;
        XDataType* p_y_residual;
        YScaleDataType* p_y_scale;
        InvRmsDataType* p_invRms;
        UnquantYDataType* p_y_unquant;
        float epsilon;
        index_t m, n, x_stride, xr_stride, y_stride, yr_stride;
        Rmsnorm2dFwdRunFlags flags;
    };

    CK_TILE_HOST static Kargs MakeKargs(const Rmsnorm2dFwdHostArgs& h)
    {
        Rmsnorm2dFwdRunFlags f;
        f.add_residual   = Traits::kHasAdd && h.p_x_residual != nullptr;
        f.store_residual = f.add_residual && h.p_y_residual != nullptr;
        f.save_inv_rms   = Traits::kSaveInvRms && h.p_invRms != nullptr;
        f.save_unquant   = Traits::kSaveUnquant && h.p_y_unquant != nullptr;
        f.smooth         = Traits::kHasQuant && h.p_sm_scale != nullptr;
        f.t5             = Traits::kHasT5 && h.sensitive == Rmsnorm2dSensitiveEnum::T5_MODEL_LIKE;
        return {static_cast<const XDataType*>(h.p_x),
                static_cast<const XDataType*>(h.p_x_residual),
                static_cast<const SmoothScaleDataType*>(h.p_sm_scale),
                static_cast<const GammaDataType*>(h.p_gamma),
                static_cast<YDataType*>(h.p_y),
                static_cast<XDataType*>(h.p_y_residual),
                static_cast<YScaleDataType*>(h.p_y_scale),
                static_cast<InvRmsDataType*>(h.p_invRms),
                static_cast<UnquantYDataType*>(h.p_y_unquant),
                h.epsilon,
                h.m,
                h.n,
                h.x_stride,
                h.xr_stride,
                h.y_stride,
                h.yr_stride,
                f};
    }

    CK_TILE_HOST static constexpr dim3 GridSize(const Rmsnorm2dFwdHostArgs& h)
    {
        return dim3(integer_divide_ceil(h.m, S::Block_M));
    }
    CK_TILE_HOST static constexpr dim3 BlockSize() { return dim3(kBlockSize); }

    CK_TILE_HOST_DEVICE static constexpr index_t GetSmemSize()
    {
        if constexpr(Traits::kHasQuant)
            return max(Pipeline::GetSmemSize(), Epilogue::GetSmemSize());
        else
            return Pipeline::GetSmemSize();
    }

    // n fits (one pass), and n and the strides of the buffers used are vector multiples
    CK_TILE_HOST static bool IsSupportedArgument(const Rmsnorm2dFwdHostArgs& h)
    {
        if(h.m < 1 || h.n < 1 || h.x_stride < h.n || h.y_stride < h.n)
            return false;
        if(!kTwoPass && h.n > S::Block_N)
            return false;
        if(!Traits::kPadN && h.n % S::Block_N != 0)
            return false;
        const auto aligned = [](index_t v) { return v % kVector == 0; };
        if(!aligned(h.n) || !aligned(h.x_stride) || !aligned(h.y_stride))
            return false;
        if(h.p_x_residual != nullptr && (h.xr_stride < h.n || !aligned(h.xr_stride)))
            return false;
        if(h.p_y_residual != nullptr && (h.yr_stride < h.n || !aligned(h.yr_stride)))
            return false;
        return true;
    }

    CK_TILE_HOST static std::string GetName()
    {
        std::string s = std::string("rmsnorm2d_fwd_") + detail::rmsnorm2d_type_name<XDataType>();
        if(!std::is_same_v<XDataType, YDataType>)
            s += std::string("_") + detail::rmsnorm2d_type_name<YDataType>();
        s += "_b" + std::to_string(S::Block_M) + "x" + std::to_string(S::Block_N) + "_t" +
             std::to_string(S::ThreadPerBlock_M) + "x" + std::to_string(S::ThreadPerBlock_N) + "_v" +
             std::to_string(kVector) + "_" + Pipeline::name;
        s += std::string("_") + Rmsnorm2dFusedAddEnumName<Traits::kFusedAdd>::name;
        s += std::string("_") + Rmsnorm2dFusedQuantEnumName<Traits::kFusedQuant>::name;
        if(Traits::kSaveUnquant)
            s += "_saveunquant";
        s += std::string("_") + Rmsnorm2dSensitiveEnumName<Traits::kUseModelSensitiveRMSNorm>::name;
        return s;
    }

    CK_TILE_DEVICE void operator()(Kargs k) const
    {
        constexpr auto vec  = number<kVector>{};
        constexpr auto tile = make_tuple(number<S::Block_M>{}, number<S::Block_N>{});
        constexpr auto row  = make_tuple(number<S::Block_N>{});
        constexpr auto col  = make_tuple(number<S::Block_M>{});
        constexpr auto pad2 = sequence<true, Traits::kPadN>{};
        const index_t m0    = get_block_id() * S::Block_M;

        const auto view2d = [&](auto* p, index_t stride) {
            return pad_tensor_view(make_naive_tensor_view<address_space_enum::global>(
                                       p, make_tuple(k.m, k.n), make_tuple(stride, 1), vec, number<1>{}),
                                   tile, pad2);
        };
        const auto view1d = [&](auto* p, index_t len, auto t, auto v) {
            return pad_tensor_view(
                make_naive_tensor_view<address_space_enum::global>(p, make_tuple(len), make_tuple(1), v, number<1>{}),
                t, sequence<true>{});
        };
        const auto origin = make_multi_index(m0, 0);

        const auto x_window  = make_tile_window(view2d(k.p_x, k.x_stride), tile, origin);
        const auto xr_window = make_tile_window(view2d(k.p_x_residual, k.xr_stride), tile, origin);
        const auto y_window  = make_tile_window(view2d(k.p_y, k.y_stride), tile, origin);
        const auto yr_window = make_tile_window(view2d(k.p_y_residual, k.yr_stride), tile, origin);
        const auto uq_window = make_tile_window(view2d(k.p_y_unquant, k.y_stride), tile, origin);
        const auto g_window  = make_tile_window(view1d(k.p_gamma, k.n, row, vec), row, make_multi_index(0));
        const auto sm_window = make_tile_window(view1d(k.p_sm_scale, k.n, row, vec), row, make_multi_index(0));
        const auto ir_window = make_tile_window(view1d(k.p_invRms, k.m, col, number<1>{}), col, make_multi_index(m0));
        const auto ys_window = make_tile_window(view1d(k.p_y_scale, k.m, col, number<1>{}), col, make_multi_index(m0));

        constexpr index_t kSmem = GetSmemSize();
        __shared__ char smem[kSmem > 0 ? kSmem : 4];
        Pipeline{}(x_window, xr_window, g_window, y_window, yr_window, ir_window, sm_window, ys_window, uq_window,
                   k.epsilon, k.n, k.flags, smem, Epilogue{});
    }
};

} // namespace ck_tile
