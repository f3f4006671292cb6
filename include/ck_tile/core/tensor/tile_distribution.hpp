// SPDX-License-Identifier: MIT
// tile_distribution: an encoding made usable. It answers, for the calling thread,
//   - calculate_index(): the X coordinate (inside the tile) of the thread's first element (Y = 0);
//   - y_to_x_offset(y): how far the element with register index y lies from that first element.
// Because every Y dimension is exactly one H component, the X offset is linear in y and known at
// compile time; only the thread's starting point depends on run-time values (warp and lane id).
// The thread's registers are ordered row-major over the Y lengths (the last Y dimension fastest).
#pragma once
#include "ck_tile/core/config.hpp"
#include "ck_tile/core/arch/arch.hpp"
#include "ck_tile/core/container/multi_index.hpp"
#include "ck_tile/core/tensor/tile_distribution_encoding.hpp"

namespace ck_tile {

template <typename Encoding_>
struct tile_distribution
{
    using Encoding                 = Encoding_;
    static constexpr index_t NDimX = Encoding::NDimX;
    static constexpr index_t NDimY = Encoding::NDimY;
    static constexpr index_t NDimP = Encoding::NDimP;
    static constexpr index_t NDimR = Encoding::NDimR;

    using ys_lengths                            = decltype(Encoding::get_y_lengths());
    static constexpr index_t thread_buffer_size = sequence_product(ys_lengths{});

    CK_TILE_HOST_DEVICE static constexpr auto get_lengths() { return Encoding::get_x_lengths(); }
    CK_TILE_HOST_DEVICE static constexpr auto get_ys_lengths() { return ys_lengths{}; }
    CK_TILE_HOST_DEVICE static constexpr index_t get_num_of_dimension_x() { return NDimX; }
    CK_TILE_HOST_DEVICE static constexpr index_t get_num_of_dimension_y() { return NDimY; }
    CK_TILE_HOST_DEVICE static constexpr index_t get_num_of_dimension_p() { return NDimP; }
    CK_TILE_HOST_DEVICE static constexpr index_t get_thread_buffer_size() { return thread_buffer_size; }

    // The calling thread's P index: (lane id) for one P dimension, (warp id, lane id) for two.
    CK_TILE_DEVICE static multi_index<NDimP> get_partition_index()
    {
        if constexpr(NDimP == 1)
            return {{get_lane_id()}};
        else
            return {{get_warp_id(), get_lane_id()}};
    }

    // X coordinate of element y = 0 for the thread with P index ps.
    CK_TILE_HOST_DEVICE static constexpr multi_index<NDimX> calculate_index(const multi_index<NDimP>& ps)
    {
        multi_index<NDimX> x{};
        static_for<0, NDimP>{}([&](auto p) {
            constexpr auto maj = typename Encoding::Ps2RHssMajor{}.at(p);
            constexpr auto mnr = typename Encoding::Ps2RHssMinor{}.at(p);
            index_t rest       = ps[p];
            // a P index is a merge of its components, the last one fastest
            static_for<0, maj.size()>{}([&](auto r) {
                constexpr index_t k      = maj.size() - 1 - r;
                constexpr index_t major  = maj.at(k);
                constexpr index_t minor  = mnr.at(k);
                constexpr index_t length = Encoding::component_length(major, minor);
                const index_t c          = k == 0 ? rest : rest % length;
                rest                     = k == 0 ? 0 : rest / length;
                if constexpr(major > 0)
                    x[major - 1] += c * Encoding::component_x_stride(major, minor);
            });
        });
        return x;
    }
    CK_TILE_DEVICE static multi_index<NDimX> calculate_index() { return calculate_index(get_partition_index()); }

    // register index (row-major over Y lengths) <-> Y index
    CK_TILE_HOST_DEVICE static constexpr multi_index<NDimY> d_to_y(index_t d)
    {
        multi_index<NDimY> y{};
        for(index_t i = NDimY - 1; i >= 0; --i)
        {
            const index_t l = ys_lengths::at(i);
            y[i]            = d % l;
            d /= l;
        }
        return y;
    }
    CK_TILE_HOST_DEVICE static constexpr index_t y_to_d(const multi_index<NDimY>& y)
    {
        index_t d = 0;
        for(index_t i = 0; i < NDimY; ++i)
            d = d * ys_lengths::at(i) + y[i];
        return d;
    }

    // X offset of the element with Y index y relative to the thread's element y = 0.
    CK_TILE_HOST_DEVICE static constexpr multi_index<NDimX> y_to_x_offset(const multi_index<NDimY>& y)
    {
        multi_index<NDimX> x{};
        for(index_t i = 0; i < NDimY; ++i)
        {
            const index_t major = Encoding::Ys2RHsMajor::at(i);
            const index_t minor = Encoding::Ys2RHsMinor::at(i);
            if(major > 0)
                x[major - 1] += y[i] * Encoding::component_x_stride(major, minor);
        }
        return x;
    }
    CK_TILE_HOST_DEVICE static constexpr multi_index<NDimX> d_to_x_offset(index_t d)
    {
        return y_to_x_offset(d_to_y(d));
    }

    // The Y dimension that walks the last X dimension with stride 1 (-1 if none): the direction
    // in which a thread's registers are contiguous in memory, used for vector loads and stores.
    CK_TILE_HOST_DEVICE static constexpr index_t get_vector_y_dim()
    {
        for(index_t i = NDimY - 1; i >= 0; --i)
            if(Encoding::Ys2RHsMajor::at(i) == NDimX &&
               Encoding::component_is_last_of_x(NDimX, Encoding::Ys2RHsMinor::at(i)))
                return i;
        return -1;
    }
};

template <typename Encoding>
CK_TILE_HOST_DEVICE constexpr auto make_static_tile_distribution(Encoding)
{
    return tile_distribution<Encoding>{};
}

template <typename T>
struct is_tile_distribution : false_type
{};
template <typename E>
struct is_tile_distribution<tile_distribution<E>> : true_type
{};

} // namespace ck_tile
