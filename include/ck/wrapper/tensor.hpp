// SPDX-License-Identifier: MIT
// ck::wrapper::Tensor: a layout over memory of one kind (MemoryTypeEnum: Global, Lds, Vgpr, ...).
//
//   auto a   = ck::wrapper::make_tensor<ck::wrapper::MemoryTypeEnum::Global>(p_a, layout);
//   auto reg = ck::wrapper::make_register_tensor<ck::wrapper::MemoryTypeEnum::Vgpr, float>(layout);
//   a(ck::make_tuple(i, j))                 // the element (a reference)
//   a(ck::wrapper::slice(), ck::wrapper::slice(k0, k1))   // a sub-tensor: every mode sliced
//
// Global, LDS and generic tensors point at memory; register (Vgpr, Sgpr) tensors own an array of
// the layout's compile-time size, row-major over the extents (the last mode fastest; a layout
// whose lengths are run-time values, e.g. constexpr ints, gets CK_WRAPPER_REGISTER_TENSOR_CAPACITY
// = 64 elements; a larger one traps). Copies (operations/copy.hpp) read elements a padded layout
// marks invalid as 0 and do not write them.
#pragma once
#include <type_traits>
#include "ck/ck.hpp"
#include "ck/wrapper/layout.hpp"

namespace ck {
enum struct AddressSpaceEnum
{
    Generic,
    Global,
    Lds,
    Sgpr,
    Vgpr
};
} // namespace ck

namespace ck::wrapper {

using MemoryTypeEnum = ck::AddressSpaceEnum;

// slice(): a whole mode; slice(to): [0, to); slice(from, to): [from, to) (to = -1: the end)
struct Slice
{
    index_t from_;
    index_t to_;
    CK_TILE_HOST_DEVICE constexpr Slice() : from_(0), to_(-1) {}
    CK_TILE_HOST_DEVICE constexpr Slice(index_t to) : from_(0), to_(to) {}
    CK_TILE_HOST_DEVICE constexpr Slice(index_t from, index_t to) : from_(from), to_(to) {}
    CK_TILE_HOST_DEVICE constexpr index_t length(index_t extent) const { return (to_ < 0 ? extent : to_) - from_; }
};

namespace detail {
template <typename T>
inline constexpr bool is_slice_v = std::is_same_v<std::remove_cvref_t<T>, Slice>;

template <typename T>
struct is_slice_tuple : std::false_type
{};
template <typename... Ts>
struct is_slice_tuple<ck_tile::tuple<Ts...>> : std::bool_constant<(sizeof...(Ts) > 0) && (is_slice_v<Ts> && ...)>
{};
template <typename T>
inline constexpr bool is_slice_tuple_v = is_slice_tuple<std::remove_cvref_t<T>>::value;

template <MemoryTypeEnum Mem>
inline constexpr bool is_register_v = Mem == MemoryTypeEnum::Vgpr || Mem == MemoryTypeEnum::Sgpr;

template <typename T, index_t N, bool kOwning>
struct tensor_storage
{
    T* ptr_;
    CK_TILE_HOST_DEVICE constexpr T* data() const { return ptr_; }
};
template <typename T, index_t N>
struct tensor_storage<T, N, true>
{
    T data_[N];
    CK_TILE_HOST_DEVICE constexpr T* data() { return data_; }
    CK_TILE_HOST_DEVICE constexpr const T* data() const { return data_; }
};

// register tensors whose lengths are not all compile-time hold up to this many elements
#ifndef CK_WRAPPER_REGISTER_TENSOR_CAPACITY
#define CK_WRAPPER_REGISTER_TENSOR_CAPACITY 64
#endif

// the elements a register tensor of this layout holds: its size when compile-time, else the capacity
template <typename LayoutT>
CK_TILE_HOST_DEVICE constexpr index_t static_size()
{
    using R = decltype(detail::shape_size(std::declval<const typename LayoutT::extents_type&>()));
    if constexpr(is_number_v<R>)
        return R::value;
    else
        return CK_WRAPPER_REGISTER_TENSOR_CAPACITY;
}
} // namespace detail

template <MemoryTypeEnum Mem, typename T, typename LayoutT>
struct Tensor;
template <MemoryTypeEnum Mem, typename T, typename LayoutT, typename... Slices>
    requires((detail::is_slice_v<Slices> && ...))
CK_TILE_HOST_DEVICE constexpr auto slice_tensor(const Tensor<Mem, T, LayoutT>& t, const ck_tile::tuple<Slices...>& s);

template <MemoryTypeEnum Mem, typename T, typename LayoutT>
struct Tensor
{
    static constexpr MemoryTypeEnum memory_type = Mem;
    static constexpr bool kOwning               = detail::is_register_v<Mem>;
    static constexpr index_t rank               = LayoutT::rank;
    using DataType                              = std::remove_const_t<T>;
    using ElementType                           = T;
    using layout_type                           = LayoutT;
    using index_array                           = typename LayoutT::index_array;

    LayoutT layout_;
    detail::tensor_storage<T, kOwning ? detail::static_size<LayoutT>() : 1, kOwning> storage_;

    CK_TILE_HOST_DEVICE constexpr auto* GetPointer() const { return storage_.data(); }
    CK_TILE_HOST_DEVICE constexpr auto* GetPointer() { return storage_.data(); }
    CK_TILE_HOST_DEVICE constexpr const LayoutT& GetLayout() const { return layout_; }

    // logical indices (one per mode): the element as a value (0 where the layout marks it
    // invalid), and a store that skips invalid ones
    // where an element lives: its layout offset in memory; in a register tensor, its row-major
    // index over the extents (the last mode fastest: the copies walk registers in this order, so
    // that their register indices are constants, and a vector along the last mode is a run of
    // consecutive registers even where the extents are run-time values)
    CK_TILE_HOST_DEVICE constexpr index_t storage_index(const index_array& idx) const
    {
        if constexpr(kOwning)
        {
            index_t flat = 0;
            ck_tile::static_for<0, rank, 1>{}(
                [&](auto i) { flat = flat * static_cast<index_t>(layout_.extents_.at(i)) + idx[i]; });
            return flat;
        }
        else
            return layout_.offset(idx);
    }
    // the inverse for a register tensor: register `flat` -> logical indices
    CK_TILE_HOST_DEVICE constexpr index_array storage_indices(index_t flat) const
    {
        index_array idx{};
        ck_tile::static_for<0, rank, 1>{}([&](auto j) {
            constexpr index_t i = rank - 1 - j.value;
            const index_t n     = static_cast<index_t>(layout_.extents_.at(Number<i>{}));
            idx[i]              = i == 0 ? flat : flat % n;
            flat                = i == 0 ? 0 : flat / n;
        });
        return idx;
    }
    // a coordinate (one index per mode, nested or not, or one index in all) as logical indices
    template <typename Coord>
    CK_TILE_HOST_DEVICE constexpr index_array coordinate_to_indices(const Coord& c) const
    {
        if constexpr(detail::is_tuple_v<Coord>)
        {
            if constexpr(detail::tuple_size_v<Coord> == rank)
            {
                index_array idx{};
                ck_tile::static_for<0, rank, 1>{}(
                    [&](auto i) { idx[i] = detail::crd2flat(c.at(i), layout_.shape_.at(i)); });
                return idx;
            }
            else
                return layout_.unflatten(static_cast<index_t>(c.at(Number<0>{})));
        }
        else
            return layout_.unflatten(static_cast<index_t>(c));
    }

    CK_TILE_HOST_DEVICE constexpr DataType load(const index_array& idx) const
    {
        return layout_.is_valid(idx) ? GetPointer()[storage_index(idx)] : DataType{};
    }
    CK_TILE_HOST_DEVICE constexpr void store(const index_array& idx, const DataType& v)
    {
        if(layout_.is_valid(idx))
            GetPointer()[storage_index(idx)] = v;
    }
    CK_TILE_HOST_DEVICE constexpr void store(const index_array& idx, const DataType& v) const
        requires(!kOwning)
    {
        if(layout_.is_valid(idx))
            GetPointer()[storage_index(idx)] = v;
    }

    // an element by coordinate (see Layout::operator())
    template <typename Coord>
        requires(!detail::is_slice_v<Coord> && !detail::is_slice_tuple_v<Coord>)
    CK_TILE_HOST_DEVICE constexpr auto& operator()(const Coord& c)
    {
        if constexpr(kOwning)
            return GetPointer()[storage_index(coordinate_to_indices(c))];
        else
            return GetPointer()[layout_(c)];
    }
    template <typename Coord>
        requires(!detail::is_slice_v<Coord> && !detail::is_slice_tuple_v<Coord>)
    CK_TILE_HOST_DEVICE constexpr auto& operator()(const Coord& c) const
    {
        if constexpr(kOwning)
            return GetPointer()[storage_index(coordinate_to_indices(c))];
        else
            return GetPointer()[layout_(c)];
    }
    template <typename Coord>
    CK_TILE_HOST_DEVICE constexpr auto& operator[](const Coord& c) const
    {
        if constexpr(kOwning)
            return GetPointer()[storage_index(coordinate_to_indices(c))];
        else
            return GetPointer()[layout_(c)];
    }

    // a sub-tensor: one Slice per mode (of a tensor over memory), or a tuple of them
    template <typename... Slices>
        requires(sizeof...(Slices) == rank && (detail::is_slice_v<Slices> && ...))
    CK_TILE_HOST_DEVICE constexpr auto operator()(const ck_tile::tuple<Slices...>& slices) const
    {
        return slice_tensor(*this, slices);
    }

    // a sub-tensor: one Slice per mode (of a tensor over memory)
    template <typename... Slices>
        requires(sizeof...(Slices) == rank && sizeof...(Slices) > 1 && (detail::is_slice_v<Slices> && ...))
    CK_TILE_HOST_DEVICE constexpr auto operator()(const Slices&... slices) const
    {
        static_assert(!kOwning, "ck::wrapper::Tensor: slice a tensor over memory, not a register tensor");
        const Slice s[rank] = {slices...};
        auto base           = layout_.base_;
        const auto extents  = [&]<index_t... Is>(std::integer_sequence<index_t, Is...>) {
            return ck_tile::make_tuple(s[Is].length(static_cast<index_t>(layout_.extents_.at(Number<Is>{})))...);
        }(std::make_integer_sequence<index_t, rank>{});
        for(index_t i = 0; i < rank; ++i)
            base[i] += layout_.step_[i] * s[i].from_;
        using L = Layout<typename LayoutT::shape_type, typename LayoutT::strides_type, decltype(extents)>;
        return Tensor<Mem, T, L>{L(layout_.shape_, layout_.strides_, extents, base, layout_.step_, layout_.valid_),
                                 {GetPointer()}};
    }
};

// the same, the slices as one tuple
template <MemoryTypeEnum Mem, typename T, typename LayoutT, typename... Slices>
    requires((detail::is_slice_v<Slices> && ...))
CK_TILE_HOST_DEVICE constexpr auto slice_tensor(const Tensor<Mem, T, LayoutT>& t, const ck_tile::tuple<Slices...>& s)
{
    return [&]<index_t... Is>(std::integer_sequence<index_t, Is...>) {
        return t(s.at(Number<Is>{})...);
    }(std::make_integer_sequence<index_t, sizeof...(Slices)>{});
}

// a tensor over memory of kind Mem at ptr
template <MemoryTypeEnum Mem, typename T, typename LayoutT>
CK_TILE_HOST_DEVICE constexpr auto make_tensor(T* ptr, const LayoutT& layout)
{
    static_assert(!detail::is_register_v<Mem>, "ck::wrapper::make_tensor: use make_register_tensor for registers");
    return Tensor<Mem, T, LayoutT>{layout, {ptr}};
}

// a register tensor of the layout's (compile-time) size
template <MemoryTypeEnum Mem, typename T, typename LayoutT>
CK_TILE_HOST_DEVICE constexpr auto make_register_tensor(const LayoutT& layout)
{
    static_assert(detail::is_register_v<Mem>, "ck::wrapper::make_register_tensor: Vgpr or Sgpr");
    // a layout of run-time lengths (constexpr values the type does not carry) gets the capacity;
    // more elements than that is a programming error: the kernel traps
    if(static_cast<index_t>(detail::shape_size(layout.extents_)) > detail::static_size<LayoutT>())
        __builtin_trap();
    return Tensor<Mem, T, LayoutT>{layout, {}};
}

} // namespace ck::wrapper

#include "ck/wrapper/utils/tensor_utils.hpp"
