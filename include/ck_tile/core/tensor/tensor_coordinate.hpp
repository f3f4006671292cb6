// SPDX-License-Identifier: MIT
// tensor_coordinate: a top index together with what the descriptor makes of it (every hidden
// index, hence the offset). make_tensor_coordinate builds one, move_tensor_coordinate steps it,
// coordinate_has_valid_offset says whether it lies outside any padding.
#pragma once
#include "ck_tile/core/config.hpp"
#include "ck_tile/core/tensor/tensor_descriptor.hpp"

namespace ck_tile {

template <typename Desc>
struct tensor_coordinate
{
    multi_index<Desc::ndim_top> top;
    multi_index<Desc::ndim_hidden> hidden;

    CK_TILE_HOST_DEVICE constexpr const multi_index<Desc::ndim_top>& get_index() const { return top; }
    CK_TILE_HOST_DEVICE constexpr index_t get_offset() const { return hidden[0]; }
    CK_TILE_HOST_DEVICE constexpr const multi_index<Desc::ndim_hidden>& get_hidden_index() const { return hidden; }
};

template <typename Desc>
CK_TILE_HOST_DEVICE constexpr auto make_tensor_coordinate(const Desc& desc, const multi_index<Desc::ndim_top>& idx)
{
    return tensor_coordinate<Desc>{idx, desc.calculate_hidden_index(idx)};
}

template <typename Desc>
CK_TILE_HOST_DEVICE constexpr void move_tensor_coordinate(const Desc& desc, tensor_coordinate<Desc>& coord,
                                                          const multi_index<Desc::ndim_top>& step)
{
    coord.top += step;
    coord.hidden = desc.calculate_hidden_index(coord.top);
}

template <typename Desc>
CK_TILE_HOST_DEVICE constexpr bool coordinate_has_valid_offset(const Desc& desc, const tensor_coordinate<Desc>& coord)
{
    const auto lengths = desc.get_lengths();
    for(index_t i = 0; i < Desc::ndim_top; ++i)
        if(coord.top[i] < 0 || coord.top[i] >= lengths[i])
            return false;
    return desc.is_valid_hidden_index(coord.hidden);
}

template <typename Desc>
CK_TILE_HOST_DEVICE constexpr bool
coordinate_has_valid_offset_assuming_top_index_is_valid(const Desc& desc, const tensor_coordinate<Desc>& coord)
{
    return desc.is_valid_hidden_index(coord.hidden);
}

} // namespace ck_tile
