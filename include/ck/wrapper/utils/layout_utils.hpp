// SPDX-License-Identifier: MIT
// Queries and transforms of layouts and shape tuples:
//   get<I>(tuple | layout)   the I-th element / the layout of mode I (of a layout made by make_layout)
//   size(x), size<I>(x)      elements of a layout, a shape tuple or one of its modes (compile-time
//                            when the lengths are)
//   rank(x), depth(x)        number of modes; nesting depth (0 for an integer)
//   shape(layout)            the logical length of each mode
//   pad(layout, tile)        each mode right-padded to a multiple of the tile's length; the padded
//                            indices are invalid (reads give 0, writes are dropped)
//   unmerge<I>(layout, lengths, order)  mode I split into modes of the given lengths (the first
//                            slowest), all modes then placed at the positions `order` gives
#pragma once
#include "ck/wrapper/layout.hpp"

namespace ck::wrapper {

template <index_t I, typename... Ts>
CK_TILE_HOST_DEVICE constexpr const auto& get(const ck_tile::tuple<Ts...>& t)
{
    return t.at(Number<I>{});
}

template <index_t I, typename S, typename D, typename E>
CK_TILE_HOST_DEVICE constexpr auto get(const Layout<S, D, E>& l)
{
    return make_layout(detail::as_tuple(l.shape_.at(Number<I>{})), detail::as_tuple(l.strides_.at(Number<I>{})));
}

namespace detail {
template <typename T>
CK_TILE_HOST_DEVICE constexpr auto static_or(const T& value_if_runtime)
{
    if constexpr(is_number_v<T>)
        return std::remove_cvref_t<T>{};
    else
        return value_if_runtime;
}
} // namespace detail

// elements of a layout (its logical extents), a shape tuple, or an integer
template <typename T>
CK_TILE_HOST_DEVICE constexpr auto size(const T& x)
{
    if constexpr(detail::is_tuple_v<T>)
    {
        using R = decltype(detail::shape_size(std::declval<const T&>()));
        if constexpr(detail::is_number_v<R>)
            return R{};
        else
            return detail::shape_size(x);
    }
    else if constexpr(requires { typename T::extents_type; })
    {
        using R = decltype(detail::shape_size(std::declval<const typename T::extents_type&>()));
        if constexpr(detail::is_number_v<R>)
            return R{};
        else
            return detail::shape_size(x.extents_);
    }
    else
        return x;
}

template <index_t I, typename T>
CK_TILE_HOST_DEVICE constexpr auto size(const T& x)
{
    if constexpr(detail::is_tuple_v<T>)
    {
        using R = decltype(detail::shape_size(std::declval<const T&>().at(Number<I>{})));
        if constexpr(detail::is_number_v<R>)
            return R{};
        else
            return detail::shape_size(x.at(Number<I>{}));
    }
    else
    {
        using R = std::remove_cvref_t<decltype(x.extents_.at(Number<I>{}))>;
        if constexpr(detail::is_number_v<R>)
            return R{};
        else
            return x.extents_.at(Number<I>{});
    }
}

template <typename T>
CK_TILE_HOST_DEVICE constexpr index_t rank(const T&)
{
    if constexpr(detail::is_tuple_v<T>)
        return detail::tuple_size_v<T>;
    else if constexpr(requires { T::rank; })
        return T::rank;
    else
        return 1;
}

template <typename T>
CK_TILE_HOST_DEVICE constexpr index_t depth(const T&)
{
    if constexpr(requires { typename T::shape_type; })
        return detail::depth_of<typename T::shape_type>();
    else
        return detail::depth_of<T>();
}

template <typename S, typename D, typename E>
CK_TILE_HOST_DEVICE constexpr const E& shape(const Layout<S, D, E>& l)
{
    return l.extents_;
}

// each (non-nested) mode of a layout made by make_layout right-padded to a multiple of the tile
template <typename S, typename D, typename E, typename TileLengths>
CK_TILE_HOST_DEVICE constexpr auto pad(const Layout<S, D, E>& l, const TileLengths& tile)
{
    constexpr index_t r = Layout<S, D, E>::rank;
    static_assert(detail::tuple_size_v<TileLengths> == r, "ck::wrapper::pad: one tile length per mode");
    const auto padded = [&]<index_t... Is>(std::integer_sequence<index_t, Is...>) {
        return ck_tile::make_tuple(ck_tile::integer_least_multiple(static_cast<index_t>(l.extents_.at(Number<Is>{})),
                                                                   static_cast<index_t>(tile.at(Number<Is>{})))...);
    }(std::make_integer_sequence<index_t, r>{});
    ck_tile::static_for<0, r, 1>{}([&](auto i) {
        static_assert(!detail::is_tuple_v<decltype(l.shape_.at(i))>, "ck::wrapper::pad: non-nested modes only");
    });
    auto valid = l.valid_;
    return Layout<decltype(padded), D, decltype(padded)>(padded, l.strides_, padded, l.base_, l.step_, valid);
}

// mode I (non-nested, of a layout made by make_layout) split into modes of lengths new_lengths,
// the first slowest; new_order gives, per mode of the result before reordering (the modes before
// I, the new ones, the modes after I), its position in the result: a tuple with one entry per
// original mode, the entry of mode I a tuple of the new modes' positions.
template <index_t I, typename S, typename D, typename E, typename NewLengths, typename NewOrder>
CK_TILE_HOST_DEVICE constexpr auto unmerge(const Layout<S, D, E>& l, const NewLengths& new_lengths, const NewOrder&)
{
    constexpr index_t r  = Layout<S, D, E>::rank;
    constexpr index_t nn = detail::tuple_size_v<NewLengths>;
    // the modes in their unordered sequence: 0..I-1, the new ones, I+1..r-1
    const auto stride_i = l.strides_.at(Number<I>{});
    // position p of the result holds unordered mode src[p]
    constexpr auto src = [] {
        constexpr index_t r_  = Layout<S, D, E>::rank;
        constexpr index_t nn_ = detail::tuple_size_v<NewLengths>;
        ck_tile::array<index_t, r_ + nn_ - 1> pos{};
        index_t u = 0;
        ck_tile::static_for<0, r_, 1>{}([&](auto m) {
            using Entry = std::remove_cvref_t<decltype(std::declval<NewOrder>().at(m))>;
            if constexpr(m.value == I)
                ck_tile::static_for<0, nn_, 1>{}(
                    [&](auto j) { pos[std::remove_cvref_t<decltype(std::declval<Entry>().at(j))>::value] = u++; });
            else
            {
                if constexpr(detail::is_tuple_v<Entry>)
                    pos[std::remove_cvref_t<decltype(std::declval<Entry>().at(Number<0>{}))>::value] = u++;
                else
                    pos[Entry::value] = u++;
            }
        });
        return pos;
    }();
    // unordered modes: (length, stride)
    const auto unordered = [&]<index_t... Us>(std::integer_sequence<index_t, Us...>) {
        return ck_tile::make_tuple([&](auto u) {
            if constexpr(u.value < I)
                return ck_tile::make_tuple(l.shape_.at(u), l.strides_.at(u));
            else if constexpr(u.value < I + nn)
            {
                constexpr index_t j = u.value - I;
                // stride: the product of the lengths after j, times the mode's stride
                auto s  = detail::mul(stride_i, Number<1>{});
                auto st = [&]<index_t... Ks>(std::integer_sequence<index_t, Ks...>) {
                    return ck_tile::make_tuple(new_lengths.at(Number<j + 1 + Ks>{})...);
                }(std::make_integer_sequence<index_t, nn - 1 - j>{});
                return ck_tile::make_tuple(new_lengths.at(Number<j>{}), detail::mul(s, detail::shape_size(st)));
            }
            else
                return ck_tile::make_tuple(l.shape_.at(Number<u.value - nn + 1>{}),
                                           l.strides_.at(Number<u.value - nn + 1>{}));
        }(Number<Us>{})...);
    }(std::make_integer_sequence<index_t, r + nn - 1>{});
    const auto shape = [&]<index_t... Ps>(std::integer_sequence<index_t, Ps...>) {
        return ck_tile::make_tuple(unordered.at(Number<src[Ps]>{}).at(Number<0>{})...);
    }(std::make_integer_sequence<index_t, r + nn - 1>{});
    const auto strides = [&]<index_t... Ps>(std::integer_sequence<index_t, Ps...>) {
        return ck_tile::make_tuple(unordered.at(Number<src[Ps]>{}).at(Number<1>{})...);
    }(std::make_integer_sequence<index_t, r + nn - 1>{});
    return make_layout(shape, strides);
}

} // namespace ck::wrapper
