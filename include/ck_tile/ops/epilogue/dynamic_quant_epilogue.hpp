// SPDX-License-Identifier: MIT
// DynamicQuantEpilogue: row-wise dynamic quantization of a block's fp32 result tile y[m, n], the
// epilogue the norms and smoothquant share (upstream's names):
//
//   (smooth: y[m, n] *= sm_scale[n])           when the caller passes the smooth-scale window
//   y_scale[m] = max_n |y[m, n]| / qmax        qmax = numeric<ODataType>::max(): 127 for int8,
//                                              the arch's fp8 maximum (240 FNUZ, 448 OCP)
//   o[m, n]    = saturate_convert<O>(y[m, n] / y_scale[m])     (0 where a row is all zeros)
//
// One-pass callers hold whole rows in the tile and call operator(). Callers whose rows span
// several tiles (two- and three-pass pipelines) use the pieces in the same order:
//
//   auto absmax = MakeRowAbsMaxTile<YTile>();           // zeros
//   for each chunk: smooth (apply_smooth_scale), accumulate_row_absmax(absmax, y)
//   sync_row_absmax(absmax, smem);                      // lanes, then warps through LDS
//   auto y_scale = make_y_scale(absmax);  store_y_scale(y_scale_window, y_scale);
//   for each chunk again: smooth, quantize_and_store(o_window, y, y_scale)
//
// Windows: o and y_scale are windows without a distribution (store_tile uses the tile's); the
// smooth-scale window is 1-D over the tile's columns (Block_N) and is loaded with each lane's own
// columns. y_scale is stored by every replica of a row (the same value).
//
//   DynamicQuantEpilogueTraits<kPadM, kPadN, UseSmoothInputScale, UseRawStore, UseMax3>
//   DynamicQuantEpilogueProblem<AccDataType, SmoothScaleDataType, YScaleDataType, ODataType,
//                               BlockShape, Traits>
// UseRawStore and UseMax3 are upstream's store and max3 tuning switches; our stores and max are
// the same on every path, so they are accepted and have no effect.
#pragma once
#include "ck_tile/core.hpp"
#include "ck_tile/ops/reduce/block/block_reduce2d.hpp"
#include "ck_tile/ops/reduce/block/block_reduce2d_broadcast.hpp"

namespace ck_tile {

template <bool kPadM_, bool kPadN_, bool UseSmoothInputScale_, bool UseRawStore_ = true, bool UseMax3_ = false>
struct DynamicQuantEpilogueTraits
{
    static constexpr bool kPadM               = kPadM_;
    static constexpr bool kPadN               = kPadN_;
    static constexpr bool UseSmoothInputScale = UseSmoothInputScale_;
    static constexpr bool UseRawStore         = UseRawStore_;
    static constexpr bool UseMax3             = UseMax3_;
};

template <typename AccDataType_, typename SmoothScaleDataType_, typename YScaleDataType_, typename ODataType_,
          typename BlockShape_, typename Traits_>
struct DynamicQuantEpilogueProblem
{
    using AccDataType         = std::remove_cvref_t<AccDataType_>;
    using SmoothScaleDataType = std::remove_cvref_t<SmoothScaleDataType_>;
    using YScaleDataType      = std::remove_cvref_t<YScaleDataType_>;
    using ODataType           = std::remove_cvref_t<ODataType_>;
    using BlockShape          = std::remove_cvref_t<BlockShape_>;
    using Traits              = std::remove_cvref_t<Traits_>;
};

template <typename Problem_, typename Policy_ = void>
struct DynamicQuantEpilogue
{
    using Problem             = std::remove_cvref_t<Problem_>;
    using AccDataType         = typename Problem::AccDataType;
    using SmoothScaleDataType = typename Problem::SmoothScaleDataType;
    using YScaleDataType      = typename Problem::YScaleDataType;
    using ODataType           = typename Problem::ODataType;
    using BlockShape          = typename Problem::BlockShape;

    static constexpr bool kPadM               = Problem::Traits::kPadM;
    static constexpr bool kPadN               = Problem::Traits::kPadN;
    static constexpr bool UseSmoothInputScale = Problem::Traits::UseSmoothInputScale;

    static_assert(std::is_same_v<AccDataType, float>, "DynamicQuantEpilogue: the result tile is fp32");

    static constexpr const char* name = UseSmoothInputScale ? "smdqt" : "dqt";

    using ReduceProblem = BlockReduce2dProblem<AccDataType, AccDataType, BlockShape>;

    // the largest value of the output type, the scale's denominator
    CK_TILE_HOST_DEVICE static constexpr AccDataType quant_max()
    {
        return type_convert<AccDataType>(numeric<ODataType>::max());
    }

    // LDS of the cross-warp absmax: one value per lane and row register of every warp, when warps
    // share a row (none when a warp holds whole rows)
    CK_TILE_HOST_DEVICE static constexpr index_t GetSmemSize()
    {
        if constexpr(BlockShape::WarpPerBlock_N == 1)
            return 0;
        else
            return BlockShape::BlockSize * BlockShape::Repeat_M * BlockShape::Vector_M *
                   static_cast<index_t>(sizeof(AccDataType));
    }

    // ---- the pieces ----

    // y[m, n] *= sm_scale[n]; the window covers the tile's columns
    template <typename YTile, typename SmScaleWindow>
    CK_TILE_DEVICE static void apply_smooth_scale(YTile& y, const SmScaleWindow& sm_scale_window)
    {
        constexpr auto col_dstr = make_reduce_tile_distribution<YTile, sequence<0>>();
        const auto sm_scale     = load_tile(make_tile_window(sm_scale_window, col_dstr));
        static_for<0, YTile::thread_buffer_size>{}([&](auto d) {
            constexpr index_t c = reduced_register<YTile, sequence<0>>(d);
            y[d]                = y[d] * type_convert<AccDataType>(sm_scale[c]);
        });
    }

    template <typename YTile>
    CK_TILE_DEVICE static auto MakeRowAbsMaxTile()
    {
        auto absmax = BlockReduce2d<ReduceProblem>::template MakeYBlockTile<YTile>();
        set_tile(absmax, AccDataType(0));
        return absmax;
    }

    // absmax[m] = max(absmax[m], |y[m, n]|) over the calling thread's elements. Padding elements
    // must hold 0 (the pipelines load them as 0 and compute 0 for them, or mask them).
    template <typename YTile, typename AbsMaxTile>
    CK_TILE_DEVICE static void accumulate_row_absmax(AbsMaxTile& absmax, const YTile& y)
    {
        BlockReduce2d<ReduceProblem>{}(y, absmax, ReduceOp::AbsMax{});
    }

    // combine the threads' partial maxima: every thread ends with its rows' full absmax
    template <typename AbsMaxTile>
    CK_TILE_DEVICE static void sync_row_absmax(AbsMaxTile& absmax, void* smem)
    {
        const auto f_max = [](AccDataType a, AccDataType b) { return a < b ? b : a; };
        BlockReduce2dSync<ReduceProblem>{}(absmax, f_max);
        static_assert(BlockReduce2dCrossWarpSync<ReduceProblem>::template GetSmemSize<AbsMaxTile>() <= GetSmemSize(),
                      "DynamicQuantEpilogue: GetSmemSize() is smaller than the cross-warp reduction needs");
        BlockReduce2dCrossWarpSync<ReduceProblem>{}(absmax, smem, f_max);
    }

    template <typename AbsMaxTile>
    CK_TILE_DEVICE static auto make_y_scale(const AbsMaxTile& absmax)
    {
        return tile_elementwise_in([](AccDataType a) { return a / quant_max(); }, absmax);
    }

    template <typename YScaleWindow, typename YScaleTile>
    CK_TILE_DEVICE static void store_y_scale(const YScaleWindow& y_scale_window, const YScaleTile& y_scale)
    {
        store_tile(y_scale_window, cast_tile<YScaleDataType>(y_scale));
    }

    // o[m, n] = saturate_convert<O>(y[m, n] / y_scale[m]); a zero scale (an all-zero row) gives 0
    template <typename OWindow, typename YTile, typename YScaleTile>
    CK_TILE_DEVICE static void quantize_and_store(const OWindow& o_window, const YTile& y, const YScaleTile& y_scale)
    {
        auto o = make_static_distributed_tensor<ODataType>(typename YTile::StaticTileDistribution{});
        if constexpr(std::is_integral_v<ODataType>)
        {
            // A zero scale's row divides by NaN instead, which saturate_convert turns into 0: the
            // same result without a select per element, so the loop vectorises on the emulator
            const auto divisor = tile_elementwise_in(
                [](AccDataType s) { return s > AccDataType(0) ? s : numeric<AccDataType>::quiet_NaN(); }, y_scale);
            static_for<0, YTile::thread_buffer_size>{}([&](auto d) {
                constexpr index_t r = reduced_register<YTile, sequence<1>>(d);
                o[d]                = saturate_convert<ODataType>(y[d] / divisor[r]);
            });
        }
        else // an 8-bit float would keep the NaN: select per element
        {
            static_for<0, YTile::thread_buffer_size>{}([&](auto d) {
                constexpr index_t r = reduced_register<YTile, sequence<1>>(d);
                const AccDataType s = y_scale[r];
                o[d]                = saturate_convert<ODataType>(s > AccDataType(0) ? y[d] / s : AccDataType(0));
            });
        }
        store_tile(o_window, o);
    }

    // ---- one pass: the tile holds whole rows ----

    // smooth dynamic quant
    template <typename OWindow, typename SmScaleWindow, typename YScaleWindow, typename YTile>
    CK_TILE_DEVICE void operator()(const OWindow& o_window, const SmScaleWindow& sm_scale_window,
                                   const YScaleWindow& y_scale_window, const YTile& y_tile, void* smem) const
    {
        auto y = y_tile;
        apply_smooth_scale(y, sm_scale_window);
        quantize_rows(o_window, y_scale_window, y, smem);
    }

    // dynamic quant
    template <typename OWindow, typename YScaleWindow, typename YTile>
    CK_TILE_DEVICE void operator()(const OWindow& o_window, const YScaleWindow& y_scale_window, const YTile& y_tile,
                                   void* smem) const
    {
        quantize_rows(o_window, y_scale_window, y_tile, smem);
    }

private:
    template <typename OWindow, typename YScaleWindow, typename YTile>
    CK_TILE_DEVICE static void quantize_rows(const OWindow& o_window, const YScaleWindow& y_scale_window,
                                             const YTile& y, void* smem)
    {
        auto absmax = MakeRowAbsMaxTile<YTile>();
        accumulate_row_absmax(absmax, y);
        sync_row_absmax(absmax, smem);
        const auto y_scale = make_y_scale(absmax);
        store_y_scale(y_scale_window, y_scale);
        quantize_and_store(o_window, y, y_scale);
    }
};

} // namespace ck_tile
