// SPDX-License-Identifier: MIT
// tensor_view = buffer_view (where the data is) + tensor_descriptor (how an index maps to it).
// make_naive_tensor_view(_packed) build one from a pointer and lengths/strides; pad_tensor_view
// pads chosen dimensions up to a multiple of a tile length so that tile windows never need a
// partial tile: the padding reads as 0 and writes to it are dropped.
#pragma once
#include "ck_tile/core/config.hpp"
#include "ck_tile/core/tensor/buffer_view.hpp"
#include "ck_tile/core/tensor/tensor_descriptor.hpp"

namespace ck_tile {

template <typename BufferView, typename Descriptor>
struct tensor_view
{
    using buffer_view_t           = BufferView;
    using descriptor_t            = Descriptor;
    using DataType                = typename BufferView::type;
    static constexpr index_t ndim = Descriptor::ndim_top;

    BufferView buf;
    Descriptor desc;

    CK_TILE_HOST_DEVICE constexpr const Descriptor& get_tensor_descriptor() const { return desc; }
    CK_TILE_HOST_DEVICE constexpr const BufferView& get_buffer_view() const { return buf; }
    CK_TILE_HOST_DEVICE static constexpr index_t get_num_of_dimension() { return ndim; }

    // element access by a top index (no vectorisation; tile windows do the fast path)
    CK_TILE_DEVICE DataType get_element(const multi_index<ndim>& idx,
                                        const access_site& site = access_site::current()) const
    {
        const auto h = desc.calculate_hidden_index(idx);
        return buf.template get<1>(h[0], desc.is_valid_hidden_index(h), site)[0];
    }
    CK_TILE_DEVICE void set_element(const multi_index<ndim>& idx, const DataType& v,
                                    const access_site& site = access_site::current()) const
    {
        const auto h = desc.calculate_hidden_index(idx);
        buf.template set<1>(h[0], desc.is_valid_hidden_index(h), thread_buffer<DataType, 1>{{v}}, site);
    }
};

template <address_space_enum AS, typename T, typename Desc>
CK_TILE_HOST_DEVICE constexpr auto make_tensor_view(T* p, const Desc& desc)
{
    return tensor_view<buffer_view<AS, T>, Desc>{buffer_view<AS, T>{p, desc.get_element_space_size()}, desc};
}

// GuaranteedLastDimensionVectorLength: the caller promises that the last dimension's length and
// every row start are multiples of this many elements (enables vector loads/stores).
template <address_space_enum AS, typename T, typename... Ls, typename... Ss, index_t VecLen = -1,
          index_t VecStride = -1>
CK_TILE_HOST_DEVICE constexpr auto make_naive_tensor_view(T* p, const tuple<Ls...>& lengths,
                                                          const tuple<Ss...>& strides, number<VecLen> v = number<-1>{},
                                                          number<VecStride> s = number<-1>{})
{
    return make_tensor_view<AS>(p, make_naive_tensor_descriptor(lengths, strides, v, s));
}

template <address_space_enum AS, typename T, typename... Ls, index_t VecLen = -1>
CK_TILE_HOST_DEVICE constexpr auto make_naive_tensor_view_packed(T* p, const tuple<Ls...>& lengths,
                                                                 number<VecLen> v = number<-1>{})
{
    return make_tensor_view<AS>(p, make_naive_tensor_descriptor_packed(lengths, v));
}

// Applies transforms to a view's descriptor (same arguments as transform_tensor_descriptor).
template <typename View, typename Ts, typename Lows, typename Ups>
CK_TILE_HOST_DEVICE constexpr auto transform_tensor_view(const View& view, const Ts& ts, Lows lows, Ups ups)
{
    auto desc = transform_tensor_descriptor(view.get_tensor_descriptor(), ts, lows, ups);
    return tensor_view<typename View::buffer_view_t, decltype(desc)>{view.get_buffer_view(), desc};
}

// Right-pads dimension i up to a multiple of tile_lengths[i] where DoPads[i] is non-zero
// (upstream's spelling: sequence<false, true>{}); the other dimensions pass through unchanged.
template <typename View, typename... TileLs, index_t... DoPads>
CK_TILE_HOST_DEVICE constexpr auto pad_tensor_view(const View& view, const tuple<TileLs...>& tile_lengths,
                                                   sequence<DoPads...>)
{
    constexpr index_t n = View::ndim;
    static_assert(sizeof...(TileLs) == n && sizeof...(DoPads) == n,
                  "pad_tensor_view: one tile length and one flag per dimension");
    const auto lengths    = view.get_tensor_descriptor().get_lengths();
    const auto tiles      = to_multi_index(tile_lengths);
    const auto transforms = generate_tuple(
        [&](auto i) {
            const index_t len = lengths[i];
            if constexpr(sequence<DoPads...>::at(i) != 0)
                return make_right_pad_transform(len, (len + tiles[i] - 1) / tiles[i] * tiles[i] - len);
            else
                return make_pass_through_transform(len);
        },
        number<n>{});
    using ids = decltype(generate_tuple([](auto i) { return sequence<i.value>{}; }, number<n>{}));
    return transform_tensor_view(view, transforms, ids{}, ids{});
}

} // namespace ck_tile
