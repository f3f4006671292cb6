// SPDX-License-Identifier: MIT
// Layernorm2dFwd<Pipeline, Epilogue>: the layernorm forward kernel (upstream's names), one block per
// Block_M rows of an m x n matrix with row strides:
//
//   x' = x (+ x_bias[n]) (+ x_residual)           y_residual = x'         (optional)
//   mean, var over each row (Welford, fp32)       mean[m], inv_std[m]     (optional)
//   y  = (x' - mean) * inv_std * gamma[n] + beta[n]
//   y  -> Y (Default2DEpilogue), or (y * sm_scale[n]) -> y_scale[m] = absmax / qmax, y / y_scale
//         -> int8 / fp8 (DynamicQuantEpilogue)
//
// Layernorm2dFwdHostArgs holds upstream's fields; a null pointer switches its fusion off (see
// Layernorm2dFwdTraits): p_x_bias, p_x_residual, p_y_residual, p_mean with p_invStd (both or
// neither), p_sm_scale.
// The one-pass pipeline needs n <= Block_N; the two-pass one takes any n. Every row access is
// Vector_N elements wide, so n and every stride used must be multiples of Vector_N
// (IsSupportedArgument); rows and columns past m and n are padding (read 0, never written).
#pragma once
#include <string>
#include "ck_tile/core.hpp"
#include "ck_tile/ops/layernorm2d/pipeline/layernorm2d_fwd_traits.hpp"

namespace ck_tile {

struct Layernorm2dFwdHostArgs
{
    const void* p_x;          // [m, x_stride]
    const void* p_x_residual; // [m, xr_stride], fused add
    const void* p_sm_scale;   // [n], smooth quant
    const void* p_x_bias;     // [n]
    const void* p_gamma;      // [n]
    const void* p_beta;       // [n]

    void* p_y;          // [m, y_stride]
    void* p_y_residual; // [m, yr_stride], fused add with store
    void* p_y_scale;    // [m], fused quant
    void* p_mean;       // [m], save_mv
    void* p_invStd;     // [m], save_mv

    float epsilon;

    index_t m;
    index_t n;
    index_t x_stride;
    index_t xr_stride;
    index_t y_stride;
    index_t yr_stride;
};

namespace detail {
template <typename T>
struct layernorm2d_type_name
{
    static constexpr const char* name = "?";
};
template <>
struct layernorm2d_type_name<half_t>
{
    static constexpr const char* name = "fp16";
};
template <>
struct layernorm2d_type_name<bf16_t>
{
    static constexpr const char* name = "bf16";
};
template <>
struct layernorm2d_type_name<float>
{
    static constexpr const char* name = "fp32";
};
template <>
struct layernorm2d_type_name<int8_t>
{
    static constexpr const char* name = "int8";
};
template <>
struct layernorm2d_type_name<fp8_t>
{
    static constexpr const char* name = "fp8";
};
} // namespace detail

template <typename Pipeline_, typename Epilogue_>
struct Layernorm2dFwd
{
    using Pipeline = std::remove_cvref_t<Pipeline_>;
    using Epilogue = std::remove_cvref_t<Epilogue_>;
    using Problem  = typename Pipeline::Problem;
    using Traits   = typename Problem::Traits;
    using Shape    = typename Problem::BlockShape;

    using XDataType           = typename Problem::XDataType;
    using XBiasDataType       = typename Problem::XBiasDataType;
    using GammaDataType       = typename Problem::GammaDataType;
    using BetaDataType        = typename Problem::BetaDataType;
    using ComputeDataType     = typename Problem::ComputeDataType;
    using YDataType           = typename Problem::YDataType;
    using MeanDataType        = typename Problem::MeanDataType;
    using InvStdDataType      = typename Problem::InvStdDataType;
    using SmoothScaleDataType = typename Problem::SmoothScaleDataType;
    using YScaleDataType      = typename Problem::YScaleDataType;
    using XResidualDataType   = typename Problem::XResidualDataType;
    using YResidualDataType   = typename Problem::YResidualDataType;

    static constexpr index_t Block_M    = Shape::Block_M;
    static constexpr index_t Block_N    = Shape::Block_N;
    static constexpr index_t Vector_N   = Shape::Vector_N;
    static constexpr index_t kBlockSize = Shape::BlockSize;
    static constexpr bool kTwoPass      = Pipeline::kTwoPass;
    static constexpr bool kQuant        = Traits::kFusedQuant != Layernorm2dFusedQuantEnum::NO_SWEEP;

    using Hargs = Layernorm2dFwdHostArgs;
    struct Kargs : Layernorm2dFwdHostArgs
    {};

    CK_TILE_HOST static constexpr Kargs MakeKargs(const Hargs& h) { return Kargs{h}; }
    CK_TILE_HOST static constexpr index_t BlockSize() { return kBlockSize; }
    CK_TILE_HOST static constexpr index_t GridSize(const Hargs& h) { return integer_divide_ceil(h.m, Block_M); }

    CK_TILE_HOST_DEVICE static constexpr index_t GetSmemSize()
    {
        return max(Pipeline::GetSmemSize(), Epilogue::GetSmemSize());
    }

    // what this instance can run: the row fits (one pass), the vector divides n and the strides
    // in use, the fusions asked for are compiled in, the quantized output has its scale
    CK_TILE_HOST static bool IsSupportedArgument(const Hargs& h)
    {
        if(h.m < 1 || h.n < 1 || h.x_stride < h.n || h.y_stride < h.n)
            return false;
        if(!kTwoPass && h.n > Block_N)
            return false;
        const auto vec_ok = [](index_t v) { return v % Vector_N == 0; };
        if(!vec_ok(h.n) || !vec_ok(h.x_stride) || !vec_ok(h.y_stride))
            return false;
        if(h.p_x_residual != nullptr &&
           (Traits::kFusedAdd == Layernorm2dFusedAddEnum::NO_ADD || h.xr_stride < h.n || !vec_ok(h.xr_stride)))
            return false;
        if(h.p_y_residual != nullptr && (Traits::kFusedAdd != Layernorm2dFusedAddEnum::PRE_ADD_STORE ||
                                         h.p_x_residual == nullptr || h.yr_stride < h.n || !vec_ok(h.yr_stride)))
            return false;
        if(h.p_x_bias != nullptr && Traits::kXbias != Layernorm2dXBiasEnum::ADD_BIAS)
            return false;
        if((h.p_mean != nullptr) != (h.p_invStd != nullptr) || (h.p_mean != nullptr && !Traits::kSaveMeanInvStd))
            return false;
        if(kQuant != (h.p_y_scale != nullptr))
            return false;
        if(h.p_sm_scale != nullptr && Traits::kFusedQuant != Layernorm2dFusedQuantEnum::SMOOTH_DYNAMIC_QUANT)
            return false;
        return true;
    }

    // e.g. layernorm2d_fwd_fp16_int8_b4x2048_t4x64_v8_twopass_xbias_pras_smdqt_mv
    CK_TILE_HOST static std::string GetName()
    {
        using namespace detail;
        std::string s = std::string("layernorm2d_fwd_") + layernorm2d_type_name<XDataType>::name;
        if constexpr(!std::is_same_v<YDataType, XDataType>)
            s += std::string("_") + layernorm2d_type_name<YDataType>::name;
        s += "_b" + std::to_string(Block_M) + "x" + std::to_string(Block_N) + "_t" +
             std::to_string(Shape::ThreadPerBlock_M) + "x" + std::to_string(Shape::ThreadPerBlock_N) + "_v" +
             std::to_string(Vector_N) + "_" + Pipeline::name;
        if constexpr(Traits::kXbias != Layernorm2dXBiasEnum::NO_BIAS)
            s += std::string("_") + Layernorm2dXBiasEnumName<Traits::kXbias>::name;
        if constexpr(Traits::kFusedAdd != Layernorm2dFusedAddEnum::NO_ADD)
            s += std::string("_") + Layernorm2dFusedAddEnumName<Traits::kFusedAdd>::name;
        if constexpr(kQuant)
            s += std::string("_") + Layernorm2dFusedQuantEnumName<Traits::kFusedQuant>::name;
        if constexpr(Traits::kSaveMeanInvStd)
            s += "_mv";
        return s;
    }

    CK_TILE_DEVICE void operator()(Kargs k) const
    {
        const index_t row0 = get_block_id() * Block_M;
        const auto tile2   = make_tuple(number<Block_M>{}, number<Block_N>{});
        const auto tile_n  = make_tuple(number<Block_N>{});
        const auto tile_m  = make_tuple(number<Block_M>{});
        const auto pad2    = sequence<true, true>{};
        const auto pad1    = sequence<true>{};
        constexpr auto vec = number<Vector_N>{};

        const auto rows = [&](auto* p, index_t stride) {
            const auto view = pad_tensor_view(
                make_naive_tensor_view<address_space_enum::global>(p, make_tuple(k.m, k.n), make_tuple(stride, 1), vec),
                tile2, pad2);
            return make_tile_window(view, tile2, make_multi_index(row0, 0));
        };
        const auto columns = [&](auto* p) {
            const auto view = pad_tensor_view(
                make_naive_tensor_view<address_space_enum::global>(p, make_tuple(k.n), make_tuple(1), vec), tile_n,
                pad1);
            return make_tile_window(view, tile_n, make_multi_index(0));
        };
        const auto per_row = [&](auto* p) {
            const auto view = pad_tensor_view(
                make_naive_tensor_view<address_space_enum::global>(p, make_tuple(k.m), make_tuple(1)), tile_m, pad1);
            return make_tile_window(view, tile_m, make_multi_index(row0));
        };

        const Layernorm2dFwdFlags flags{k.p_x_bias != nullptr, k.p_x_residual != nullptr, k.p_y_residual != nullptr,
                                        k.p_mean != nullptr && k.p_invStd != nullptr, k.p_sm_scale != nullptr};

        __shared__ char smem[GetSmemSize() > 0 ? GetSmemSize() : 4];
        Pipeline{}(rows(static_cast<const XDataType*>(k.p_x), k.x_stride),
                   rows(static_cast<const XResidualDataType*>(k.p_x_residual), k.xr_stride),
                   columns(static_cast<const XBiasDataType*>(k.p_x_bias)),
                   columns(static_cast<const GammaDataType*>(k.p_gamma)),
                   columns(static_cast<const BetaDataType*>(k.p_beta)),
                   rows(static_cast<YDataType*>(k.p_y), k.y_stride),
                   rows(static_cast<YResidualDataType*>(k.p_y_residual), k.yr_stride),
                   columns(static_cast<const SmoothScaleDataType*>(k.p_sm_scale)),
                   per_row(static_cast<YScaleDataType*>(k.p_y_scale)), per_row(static_cast<MeanDataType*>(k.p_mean)),
                   per_row(static_cast<InvStdDataType*>(k.p_invStd)), static_cast<ComputeDataType>(k.epsilon), k.n,
                   flags, smem, Epilogue{});
    }
};

} // namespace ck_tile
