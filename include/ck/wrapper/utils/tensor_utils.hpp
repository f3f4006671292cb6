// SPDX-License-Identifier: MIT
// Tensor helpers: slice(), slice(to), slice(from, to); clear(tensor) (every element 0); and the
// layout queries on tensors: layout(t), shape(t), size(t), size<I>(t), rank(t), depth(t).
#pragma once
#include "ck/wrapper/tensor.hpp"
#include "ck/wrapper/utils/layout_utils.hpp"

namespace ck::wrapper {

CK_TILE_HOST_DEVICE constexpr Slice slice() { return Slice{}; }
CK_TILE_HOST_DEVICE constexpr Slice slice(index_t to) { return Slice{to}; }
CK_TILE_HOST_DEVICE constexpr Slice slice(index_t from, index_t to) { return Slice{from, to}; }

template <MemoryTypeEnum Mem, typename T, typename L>
CK_TILE_HOST_DEVICE constexpr const L& layout(const Tensor<Mem, T, L>& t)
{
    return t.layout_;
}
template <MemoryTypeEnum Mem, typename T, typename L>
CK_TILE_HOST_DEVICE constexpr const auto& shape(const Tensor<Mem, T, L>& t)
{
    return t.layout_.extents_;
}
template <MemoryTypeEnum Mem, typename T, typename L>
CK_TILE_HOST_DEVICE constexpr auto size(const Tensor<Mem, T, L>& t)
{
    return size(t.layout_);
}
template <index_t I, MemoryTypeEnum Mem, typename T, typename L>
CK_TILE_HOST_DEVICE constexpr auto size(const Tensor<Mem, T, L>& t)
{
    return size<I>(t.layout_);
}
template <MemoryTypeEnum Mem, typename T, typename L>
CK_TILE_HOST_DEVICE constexpr index_t rank(const Tensor<Mem, T, L>&)
{
    return L::rank;
}
template <MemoryTypeEnum Mem, typename T, typename L>
CK_TILE_HOST_DEVICE constexpr index_t depth(const Tensor<Mem, T, L>&)
{
    return detail::depth_of<typename L::shape_type>();
}

// every element of the tensor (its logical extents) set to 0
template <MemoryTypeEnum Mem, typename T, typename L>
CK_TILE_HOST_DEVICE constexpr void clear(Tensor<Mem, T, L>& t)
{
    const index_t n = static_cast<index_t>(size(t.layout_));
    if constexpr(Tensor<Mem, T, L>::kOwning)
        ck_tile::static_for<0, detail::static_size<L>(), 1>{}([&](auto i) {
            if(i.value < n)
                t.storage_.data()[i.value] = T{};
        });
    else
        for(index_t i = 0; i < n; ++i)
            t.store(t.layout_.unflatten(i), T{});
}

} // namespace ck::wrapper
