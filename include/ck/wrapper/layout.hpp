// SPDX-License-Identifier: MIT
// ck::wrapper::Layout: a map from (nested) coordinates to offsets, CuTe style.
//
//   auto l = ck::wrapper::make_layout(ck::make_tuple(4, ck::make_tuple(2, 4)),      // shape
//                                     ck::make_tuple(2, ck::make_tuple(1, 8)));     // strides
//   l(ck::make_tuple(1, ck::make_tuple(1, 2)))  // 1*2 + 1*1 + 2*8 = 19
//   l(ck::make_tuple(1, 5))                     // 5 in mode (2, 4) is (1, 2), column-major: 19
//   l(ck::make_tuple(9))                        // one index over the whole layout, column-major
//
// A shape is a tuple whose elements (the modes) are integers or tuples of them, to any depth;
// strides have the same structure; make_layout(shape) gives packed column-major strides. A
// coordinate gives each mode either a coordinate of the mode's structure or one integer, which
// is decomposed over the mode column-major (first sub-mode fastest). Compile-time integers
// (ck::Number) stay compile-time: sizes, and offsets of Number coordinates
// (layout.template operator()<CoordType>()).
//
// Layouts made by tiling and partitioning (utils/tensor_partition.hpp), slicing and padding see a
// part of the original index space: each mode keeps the original shape and strides and adds a
// base and a step in the mode's column-major index (logical index i -> base + step * i), its
// logical extent, and the length within which an index is valid (pad() makes lengths past it
// invalid: reads give 0, writes are dropped).
#pragma once
#include <type_traits>
#include <utility>
#include "ck/ck.hpp"
#include "ck/utility/tuple.hpp"

namespace ck::wrapper {

namespace detail {
template <typename T>
struct is_tuple : std::false_type
{};
template <typename... Ts>
struct is_tuple<ck_tile::tuple<Ts...>> : std::true_type
{};
template <typename T>
inline constexpr bool is_tuple_v = is_tuple<std::remove_cvref_t<T>>::value;
template <typename T>
inline constexpr bool is_number_v = ck_tile::is_constant_v<std::remove_cvref_t<T>>;

template <typename T>
constexpr index_t tuple_size_v = std::remove_cvref_t<T>::size();

// a * b, compile-time when both are
template <typename A, typename B>
CK_TILE_HOST_DEVICE constexpr auto mul(const A& a, const B& b)
{
    if constexpr(is_number_v<A> && is_number_v<B>)
        return Number<std::remove_cvref_t<A>::value * std::remove_cvref_t<B>::value>{};
    else
        return static_cast<index_t>(a) * static_cast<index_t>(b);
}
// a / b, compile-time when both are
template <typename A, typename B>
CK_TILE_HOST_DEVICE constexpr auto div(const A& a, const B& b)
{
    if constexpr(is_number_v<A> && is_number_v<B>)
        return Number<std::remove_cvref_t<A>::value / std::remove_cvref_t<B>::value>{};
    else
        return static_cast<index_t>(a) / static_cast<index_t>(b);
}

template <typename T, index_t I = 0, typename Acc>
CK_TILE_HOST_DEVICE constexpr auto product(const T& t, const Acc& acc);

// the number of elements of a (nested) shape
template <typename S>
CK_TILE_HOST_DEVICE constexpr auto shape_size(const S& s)
{
    if constexpr(is_tuple_v<S>)
        return product(s, Number<1>{});
    else
        return s;
}

template <typename T, index_t I, typename Acc>
CK_TILE_HOST_DEVICE constexpr auto product(const T& t, const Acc& acc)
{
    if constexpr(I == tuple_size_v<T>)
        return acc;
    else
        return product<T, I + 1>(t, mul(acc, shape_size(t.at(Number<I>{}))));
}

// packed column-major strides of a (nested) shape starting at `start`: (strides, next stride)
template <index_t I = 0, typename S, typename Start, typename... Done>
CK_TILE_HOST_DEVICE constexpr auto packed_strides(const S& s, const Start& start, const Done&... done)
{
    if constexpr(!is_tuple_v<S>)
        return ck_tile::make_tuple(start, mul(start, s));
    else if constexpr(I == tuple_size_v<S>)
        return ck_tile::make_tuple(ck_tile::make_tuple(done...), start);
    else
    {
        const auto r = packed_strides(s.at(Number<I>{}), start);
        return packed_strides<I + 1>(s, r.at(Number<1>{}), done..., r.at(Number<0>{}));
    }
}

// the offset of coordinate c of shape s with strides d (c an integer or a tuple of s's structure)
template <typename C, typename S, typename D>
CK_TILE_HOST_DEVICE constexpr index_t crd2idx(const C& c, const S& s, const D& d)
{
    if constexpr(is_tuple_v<C>)
    {
        static_assert(is_tuple_v<S> && tuple_size_v<C> == tuple_size_v<S>, "ck::wrapper: coordinate and shape differ");
        return [&]<index_t... Is>(std::integer_sequence<index_t, Is...>) {
            return (index_t{0} + ... + crd2idx(c.at(Number<Is>{}), s.at(Number<Is>{}), d.at(Number<Is>{})));
        }(std::make_integer_sequence<index_t, tuple_size_v<C>>{});
    }
    else if constexpr(is_tuple_v<S>)
    {
        // one integer over a nested mode: column-major decomposition
        index_t rem = static_cast<index_t>(c);
        index_t res = 0;
        ck_tile::static_for<0, tuple_size_v<S>, 1>{}([&](auto i) {
            const auto& si = s.at(i);
            if constexpr(i.value + 1 == tuple_size_v<S>)
                res += crd2idx(rem, si, d.at(i));
            else
            {
                const index_t n = static_cast<index_t>(shape_size(si));
                res += crd2idx(rem % n, si, d.at(i));
                rem /= n;
            }
        });
        return res;
    }
    else
        return static_cast<index_t>(c) * static_cast<index_t>(d);
}

// a coordinate of shape s as its column-major index
template <typename C, typename S>
CK_TILE_HOST_DEVICE constexpr index_t crd2flat(const C& c, const S& s)
{
    if constexpr(!is_tuple_v<C>)
        return static_cast<index_t>(c);
    else
    {
        index_t res = 0, mult = 1;
        ck_tile::static_for<0, tuple_size_v<C>, 1>{}([&](auto i) {
            res += crd2flat(c.at(i), s.at(i)) * mult;
            mult *= static_cast<index_t>(shape_size(s.at(i)));
        });
        return res;
    }
}

template <typename T>
CK_TILE_HOST_DEVICE constexpr auto as_tuple(const T& t)
{
    if constexpr(is_tuple_v<T>)
        return t;
    else
        return ck_tile::make_tuple(t);
}

// the depth of a (nested) shape: 0 for an integer
template <typename S>
CK_TILE_HOST_DEVICE constexpr index_t depth_of()
{
    if constexpr(!is_tuple_v<S>)
        return 0;
    else
        return [&]<index_t... Is>(std::integer_sequence<index_t, Is...>) {
            index_t m = 0;
            ((m = m > depth_of<std::remove_cvref_t<decltype(std::declval<S>().at(Number<Is>{}))>>()
                      ? m
                      : depth_of<std::remove_cvref_t<decltype(std::declval<S>().at(Number<Is>{}))>>()),
             ...);
            return m + 1;
        }(std::make_integer_sequence<index_t, tuple_size_v<S>>{});
}
} // namespace detail

// Shape: tuple of modes; Strides: the same structure; Extents: the logical length of each mode.
template <typename Shape, typename Strides, typename Extents>
struct Layout
{
    static constexpr index_t rank = detail::tuple_size_v<Shape>;
    using shape_type              = Shape;
    using strides_type            = Strides;
    using extents_type            = Extents;
    using index_array             = ck_tile::array<index_t, rank>;

    Shape shape_;
    Strides strides_;
    Extents extents_;
    index_array base_{};  // first index of each mode, in the mode's column-major index space
    index_array step_{};  // index step per logical index
    index_array valid_{}; // indices of each mode below this are valid

    CK_TILE_HOST_DEVICE constexpr Layout(const Shape& shape, const Strides& strides, const Extents& extents,
                                         const index_array& base, const index_array& step, const index_array& valid)
        : shape_(shape), strides_(strides), extents_(extents), base_(base), step_(step), valid_(valid)
    {}

    // the offset of a coordinate: one per mode (integer or nested), or one integer for the whole layout
    template <typename Coord>
    CK_TILE_HOST_DEVICE constexpr index_t operator()(const Coord& c) const
    {
        if constexpr(detail::is_tuple_v<Coord>)
        {
            if constexpr(detail::tuple_size_v<Coord> == rank)
                return offset_of_modes(c);
            else
            {
                static_assert(detail::tuple_size_v<Coord> == 1,
                              "ck::wrapper::Layout: one index per mode, or one in all");
                return (*this)(c.at(Number<0>{}));
            }
        }
        else
            return offset(unflatten(static_cast<index_t>(c)));
    }

    template <typename Coord>
    CK_TILE_HOST_DEVICE constexpr index_t offset_of_modes(const Coord& c) const
    {
        {
            index_t off = 0;
            ck_tile::static_for<0, rank, 1>{}([&](auto i) {
                const index_t li = detail::crd2flat(c.at(i), shape_.at(i));
                off += detail::crd2idx(base_[i] + step_[i] * li, shape_.at(i), strides_.at(i));
            });
            return off;
        }
    }

    // the offset of a compile-time coordinate of a layout of compile-time shape and strides
    template <typename Coord>
    CK_TILE_HOST_DEVICE constexpr index_t operator()() const
    {
        static_assert(std::is_default_constructible_v<Shape> && std::is_default_constructible_v<Strides>,
                      "ck::wrapper::Layout: a compile-time offset needs a compile-time shape and strides");
        return detail::crd2idx(detail::as_tuple(Coord{}), Shape{}, Strides{});
    }

    // logical indices (one per mode) -> offset, and whether they lie inside the valid region
    CK_TILE_HOST_DEVICE constexpr index_t offset(const index_array& idx) const
    {
        index_t off = 0;
        ck_tile::static_for<0, rank, 1>{}(
            [&](auto i) { off += detail::crd2idx(base_[i] + step_[i] * idx[i], shape_.at(i), strides_.at(i)); });
        return off;
    }
    CK_TILE_HOST_DEVICE constexpr bool is_valid(const index_array& idx) const
    {
        bool ok = true;
        for(index_t i = 0; i < rank; ++i)
            ok = ok && base_[i] + step_[i] * idx[i] < valid_[i];
        return ok;
    }
    // one column-major index over the extents -> logical indices
    CK_TILE_HOST_DEVICE constexpr index_array unflatten(index_t flat) const
    {
        index_array idx{};
        ck_tile::static_for<0, rank, 1>{}([&](auto i) {
            const index_t n = static_cast<index_t>(extents_.at(i));
            idx[i]          = (i.value + 1 == rank) ? flat : flat % n;
            flat            = (i.value + 1 == rank) ? 0 : flat / n;
        });
        return idx;
    }

    CK_TILE_HOST_DEVICE constexpr const Shape& GetShape() const { return shape_; }
    CK_TILE_HOST_DEVICE constexpr const Strides& GetStrides() const { return strides_; }
    CK_TILE_HOST_DEVICE constexpr const Extents& GetExtents() const { return extents_; }
};

namespace detail {
template <typename Shape>
CK_TILE_HOST_DEVICE constexpr auto mode_sizes(const Shape& shape)
{
    return [&]<index_t... Is>(std::integer_sequence<index_t, Is...>) {
        return ck_tile::make_tuple(shape_size(shape.at(Number<Is>{}))...);
    }(std::make_integer_sequence<index_t, tuple_size_v<Shape>>{});
}

template <typename Shape, typename Strides, typename Extents>
CK_TILE_HOST_DEVICE constexpr auto make_layout_from(const Shape& shape, const Strides& strides, const Extents& extents)
{
    constexpr index_t r = tuple_size_v<Shape>;
    ck_tile::array<index_t, r> base{}, step{}, valid{};
    ck_tile::static_for<0, r, 1>{}([&](auto i) {
        base[i]  = 0;
        step[i]  = 1;
        valid[i] = static_cast<index_t>(shape_size(shape.at(i)));
    });
    return Layout<Shape, Strides, Extents>(shape, strides, extents, base, step, valid);
}
} // namespace detail

// a layout of the given (nested) shape and strides
template <typename Shape, typename Strides>
CK_TILE_HOST_DEVICE constexpr auto make_layout(const Shape& shape, const Strides& strides)
{
    static_assert(detail::is_tuple_v<Shape> && detail::is_tuple_v<Strides>,
                  "ck::wrapper::make_layout: the shape and the strides are tuples");
    return detail::make_layout_from(shape, strides, detail::mode_sizes(shape));
}

// a packed column-major layout of the given shape (first mode fastest)
template <typename Shape>
CK_TILE_HOST_DEVICE constexpr auto make_layout(const Shape& shape)
{
    return make_layout(shape, detail::packed_strides(shape, Number<1>{}).at(Number<0>{}));
}

} // namespace ck::wrapper

#include "ck/wrapper/utils/layout_utils.hpp"
