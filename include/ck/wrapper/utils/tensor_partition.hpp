// SPDX-License-Identifier: MIT
// Tiles and partitions of tensors:
//
//   make_local_tile(tensor, tile_shape, block_idxs[, projection])
//     the tile of the block: mode d of the tensor becomes [idx_d * tile_d, (idx_d + 1) * tile_d)
//     (slice() as the index keeps the whole mode). A projection names, per dimension of
//     tile_shape and block_idxs, whether the tensor has it (Number<1>) or not (slice(...)): the
//     tensor's modes are the dimensions kept, in order.
//   make_local_partition(tensor, thread_layout, thread_id[, projection])
//     the thread's share of a tile, packed (as upstream's): with the thread's coordinate c in
//     thread_layout (the coordinate the layout maps to thread_id) and its lengths P, mode d of
//     extent E gives the thread the E / P consecutive indices from c_d * (E / P) on (consecutive
//     elements stay together, so a copy can move them as vectors). A projection (one entry per
//     thread mode: Number<1> keeps it, slice(...) drops it) partitions a tensor of fewer modes
//     than the thread layout: the tensor's modes are the kept thread modes, in order, and the
//     threads that differ only in dropped modes get the same share (e.g. a [M, K] tile shared by
//     an (M, N, K) thread layout with N projected out).
//
// Both keep compile-time lengths compile-time (a tile of Number lengths has Number extents).
#pragma once
#include "ck/wrapper/tensor.hpp"
#include "ck/wrapper/utils/tensor_utils.hpp"

namespace ck::wrapper {

namespace detail {
// which dimensions of a projection the tensor has: Number<1> kept, a Slice dropped
template <typename Projection, index_t N>
CK_TILE_HOST_DEVICE constexpr auto kept_dims()
{
    ck_tile::array<index_t, N> kept{};
    index_t n = 0;
    ck_tile::static_for<0, N, 1>{}([&](auto d) {
        if constexpr(!is_slice_v<decltype(std::declval<Projection>().at(d))>)
            kept[n++] = d.value;
    });
    return ck_tile::make_tuple(kept, n);
}

template <index_t N>
struct no_projection
{};

// the thread's coordinate in a thread layout (the inverse of a compact layout of Number lengths and strides)
template <typename ThreadLayout>
CK_TILE_HOST_DEVICE constexpr auto thread_coordinate(const ThreadLayout& tl, index_t tid)
{
    constexpr index_t r = ThreadLayout::rank;
    ck_tile::array<index_t, r> c{};
    ck_tile::static_for<0, r, 1>{}([&](auto i) {
        const index_t len    = static_cast<index_t>(shape_size(tl.shape_.at(i)));
        const index_t stride = static_cast<index_t>(tl.strides_.at(i));
        c[i]                 = (tid / stride) % len;
    });
    return c;
}
// element i (a run-time index) of a tuple of integers
template <typename Tup>
CK_TILE_HOST_DEVICE constexpr index_t runtime_at(const Tup& t, index_t i)
{
    index_t v = 0;
    ck_tile::static_for<0, tuple_size_v<Tup>, 1>{}([&](auto j) {
        if(j.value == i)
            v = static_cast<index_t>(t.at(j));
    });
    return v;
}
} // namespace detail

// a layout of thread ids over the given lengths, row-major (the last mode fastest)
template <typename... Ls>
CK_TILE_HOST_DEVICE constexpr auto make_row_major_thread_layout(const ck_tile::tuple<Ls...>& lengths)
{
    constexpr index_t r = sizeof...(Ls);
    const auto strides  = [&]<index_t... Is>(std::integer_sequence<index_t, Is...>) {
        return ck_tile::make_tuple([&](auto i) {
            auto s = Number<1>{};
            return [&]<index_t... Js>(std::integer_sequence<index_t, Js...>) {
                return detail::shape_size(ck_tile::make_tuple(s, lengths.at(Number<i.value + 1 + Js>{})...));
            }(std::make_integer_sequence<index_t, r - 1 - i.value>{});
        }(Number<Is>{})...);
    }(std::make_integer_sequence<index_t, r>{});
    return make_layout(lengths, strides);
}

template <MemoryTypeEnum Mem, typename T, typename L, typename TileShape, typename BlockIdxs, typename Projection>
CK_TILE_HOST_DEVICE constexpr auto make_local_tile(const Tensor<Mem, T, L>& tensor, const TileShape& tile_shape,
                                                   const BlockIdxs& block_idxs, const Projection&)
{
    constexpr index_t nd  = detail::tuple_size_v<TileShape>;
    constexpr auto kept_n = detail::kept_dims<Projection, nd>();
    constexpr auto kept   = kept_n.at(Number<0>{});
    static_assert(kept_n.at(Number<1>{}) == L::rank, "ck::wrapper::make_local_tile: the projection keeps one "
                                                     "dimension per mode of the tensor");
    auto base          = tensor.layout_.base_;
    const auto extents = [&]<index_t... Is>(std::integer_sequence<index_t, Is...>) {
        return ck_tile::make_tuple([&](auto i) {
            constexpr index_t d = kept[i.value];
            if constexpr(detail::is_slice_v<decltype(block_idxs.at(Number<d>{}))>)
                return tensor.layout_.extents_.at(i);
            else
                return tile_shape.at(Number<d>{});
        }(Number<Is>{})...);
    }(std::make_integer_sequence<index_t, L::rank>{});
    ck_tile::static_for<0, L::rank, 1>{}([&](auto i) {
        constexpr index_t d = kept[i.value];
        if constexpr(!detail::is_slice_v<decltype(block_idxs.at(Number<d>{}))>)
            base[i] += tensor.layout_.step_[i] * static_cast<index_t>(block_idxs.at(Number<d>{})) *
                       static_cast<index_t>(tile_shape.at(Number<d>{}));
    });
    using NL = Layout<typename L::shape_type, typename L::strides_type, std::remove_cvref_t<decltype(extents)>>;
    return Tensor<Mem, T, NL>{
        NL(tensor.layout_.shape_, tensor.layout_.strides_, extents, base, tensor.layout_.step_, tensor.layout_.valid_),
        {tensor.GetPointer()}};
}

template <MemoryTypeEnum Mem, typename T, typename L, typename TileShape, typename BlockIdxs>
    requires(detail::is_tuple_v<BlockIdxs>)
CK_TILE_HOST_DEVICE constexpr auto make_local_tile(const Tensor<Mem, T, L>& tensor, const TileShape& tile_shape,
                                                   const BlockIdxs& block_idxs)
{
    const auto all = [&]<index_t... Is>(std::integer_sequence<index_t, Is...>) {
        return ck_tile::make_tuple((void(Is), Number<1>{})...);
    }(std::make_integer_sequence<index_t, detail::tuple_size_v<TileShape>>{});
    return make_local_tile(tensor, tile_shape, block_idxs, all);
}

// one block index for all modes: the tiles numbered row-major (the last mode's tiles fastest)
template <MemoryTypeEnum Mem, typename T, typename L, typename TileShape>
CK_TILE_HOST_DEVICE constexpr auto make_local_tile(const Tensor<Mem, T, L>& tensor, const TileShape& tile_shape,
                                                   index_t block_idx)
{
    constexpr index_t r = detail::tuple_size_v<TileShape>;
    static_assert(r == L::rank, "ck::wrapper::make_local_tile: one tile length per mode");
    index_t idx[r];
    for(index_t i = r; i-- > 0;)
    {
        const index_t tiles = ck_tile::integer_divide_ceil(detail::runtime_at(tensor.layout_.extents_, i),
                                                           detail::runtime_at(tile_shape, i));
        idx[i]              = block_idx % tiles;
        block_idx           = block_idx / tiles;
    }
    const auto idxs = [&]<index_t... Is>(std::integer_sequence<index_t, Is...>) {
        return ck_tile::make_tuple(idx[Is]...);
    }(std::make_integer_sequence<index_t, r>{});
    return make_local_tile(tensor, tile_shape, idxs);
}

// the thread's share of tensor: thread mode kept[i] of thread_layout partitions tensor mode i
template <MemoryTypeEnum Mem, typename T, typename L, typename ThreadLayout, typename Projection>
    requires(!detail::is_tuple_v<ThreadLayout> && detail::is_tuple_v<Projection>)
CK_TILE_HOST_DEVICE constexpr auto make_local_partition(const Tensor<Mem, T, L>& tensor,
                                                        const ThreadLayout& thread_layout, index_t thread_id,
                                                        const Projection&)
{
    constexpr index_t nt = ThreadLayout::rank;
    static_assert(detail::tuple_size_v<Projection> == nt,
                  "ck::wrapper::make_local_partition: one projection entry per thread mode");
    constexpr auto kept_n = detail::kept_dims<Projection, nt>();
    constexpr auto kept   = kept_n.at(Number<0>{});
    static_assert(kept_n.at(Number<1>{}) == L::rank, "ck::wrapper::make_local_partition: the projection keeps one "
                                                     "thread mode per mode of the tensor");
    // the coordinate over all thread modes; the dropped ones are not used
    const auto c       = detail::thread_coordinate(thread_layout, thread_id);
    auto base          = tensor.layout_.base_;
    const auto extents = [&]<index_t... Is>(std::integer_sequence<index_t, Is...>) {
        return ck_tile::make_tuple(detail::div(tensor.layout_.extents_.at(Number<Is>{}),
                                               detail::shape_size(thread_layout.shape_.at(Number<kept[Is]>{})))...);
    }(std::make_integer_sequence<index_t, L::rank>{});
    ck_tile::static_for<0, L::rank, 1>{}([&](auto i) {
        const index_t len = static_cast<index_t>(extents.at(i));
        base[i] += tensor.layout_.step_[i] * c[kept[i.value]] * len;
    });
    using NL = Layout<typename L::shape_type, typename L::strides_type, std::remove_cvref_t<decltype(extents)>>;
    return Tensor<Mem, T, NL>{
        NL(tensor.layout_.shape_, tensor.layout_.strides_, extents, base, tensor.layout_.step_, tensor.layout_.valid_),
        {tensor.GetPointer()}};
}

// no projection: one thread mode per tensor mode
template <MemoryTypeEnum Mem, typename T, typename L, typename ThreadLayout>
    requires(!detail::is_tuple_v<ThreadLayout>)
CK_TILE_HOST_DEVICE constexpr auto make_local_partition(const Tensor<Mem, T, L>& tensor,
                                                        const ThreadLayout& thread_layout, index_t thread_id)
{
    static_assert(ThreadLayout::rank == L::rank, "ck::wrapper::make_local_partition: one thread mode per tensor "
                                                 "mode (or a projection)");
    const auto all = [&]<index_t... Is>(std::integer_sequence<index_t, Is...>) {
        return ck_tile::make_tuple((void(Is), Number<1>{})...);
    }(std::make_integer_sequence<index_t, L::rank>{});
    return make_local_partition(tensor, thread_layout, thread_id, all);
}

// a thread layout given as its lengths: threads numbered row-major (the last mode fastest)
template <MemoryTypeEnum Mem, typename T, typename L, typename... Ls, typename... Rest>
CK_TILE_HOST_DEVICE constexpr auto make_local_partition(const Tensor<Mem, T, L>& tensor,
                                                        const ck_tile::tuple<Ls...>& thread_shape, index_t thread_id,
                                                        const Rest&... projection)
{
    return make_local_partition(tensor, make_row_major_thread_layout(thread_shape), thread_id, projection...);
}

} // namespace ck::wrapper
