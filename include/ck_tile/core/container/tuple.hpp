// SPDX-License-Identifier: MIT
// tuple<Ts...>: a heterogeneous list usable in device code, indexed with number<I>:
// t[number<I>{}], t.at(number<I>{}), get<I>(t). Holds descriptors, transforms and mixed
// compile-time / run-time lengths.
#pragma once
#include <type_traits>
#include <utility>
#include "ck_tile/core/config.hpp"
#include "ck_tile/core/numeric/integer.hpp"
#include "ck_tile/core/numeric/integral_constant.hpp"
#include "ck_tile/core/container/sequence.hpp"

namespace ck_tile {

namespace detail {
template <index_t I, typename T>
struct tuple_leaf
{
    T value;
};

template <typename Is, typename... Ts>
struct tuple_base;

template <index_t... Is, typename... Ts>
struct tuple_base<sequence<Is...>, Ts...> : tuple_leaf<Is, Ts>...
{
    constexpr tuple_base() = default;
    template <typename... Us>
    CK_TILE_HOST_DEVICE constexpr explicit tuple_base(int /*tag*/, Us&&... us)
        : tuple_leaf<Is, Ts>{static_cast<Us&&>(us)}...
    {}
};

template <index_t I, typename T>
CK_TILE_HOST_DEVICE constexpr T& leaf_get(tuple_leaf<I, T>& l)
{
    return l.value;
}
template <index_t I, typename T>
CK_TILE_HOST_DEVICE constexpr const T& leaf_get(const tuple_leaf<I, T>& l)
{
    return l.value;
}
} // namespace detail

template <typename... Ts>
struct tuple : detail::tuple_base<make_index_sequence<sizeof...(Ts)>, Ts...>
{
    using base = detail::tuple_base<make_index_sequence<sizeof...(Ts)>, Ts...>;

    constexpr tuple() = default;

    template <typename... Us,
              typename = std::enable_if_t<sizeof...(Us) == sizeof...(Ts) && (sizeof...(Us) > 0) &&
                                          !(sizeof...(Us) == 1 && (std::is_same_v<std::decay_t<Us>, tuple> || ...))>>
    CK_TILE_HOST_DEVICE constexpr tuple(Us&&... us) : base(0, static_cast<Us&&>(us)...)
    {}

    CK_TILE_HOST_DEVICE static constexpr index_t size() { return sizeof...(Ts); }

    template <index_t I>
    CK_TILE_HOST_DEVICE constexpr auto& at(number<I>)
    {
        static_assert(I >= 0 && I < size(), "tuple::at: index out of range");
        return detail::leaf_get<I>(*this);
    }
    template <index_t I>
    CK_TILE_HOST_DEVICE constexpr const auto& at(number<I>) const
    {
        static_assert(I >= 0 && I < size(), "tuple::at: index out of range");
        return detail::leaf_get<I>(*this);
    }
    template <index_t I>
    CK_TILE_HOST_DEVICE constexpr auto& operator[](number<I> i)
    {
        return at(i);
    }
    template <index_t I>
    CK_TILE_HOST_DEVICE constexpr const auto& operator[](number<I> i) const
    {
        return at(i);
    }
    template <index_t I>
    CK_TILE_HOST_DEVICE constexpr auto& get()
    {
        return at(number<I>{});
    }
    template <index_t I>
    CK_TILE_HOST_DEVICE constexpr const auto& get() const
    {
        return at(number<I>{});
    }
};

template <>
struct tuple<>
{
    CK_TILE_HOST_DEVICE static constexpr index_t size() { return 0; }
};

template <typename... Ts>
tuple(Ts...) -> tuple<Ts...>;

template <index_t I, typename... Ts>
CK_TILE_HOST_DEVICE constexpr auto& get(tuple<Ts...>& t)
{
    return t.at(number<I>{});
}
template <index_t I, typename... Ts>
CK_TILE_HOST_DEVICE constexpr const auto& get(const tuple<Ts...>& t)
{
    return t.at(number<I>{});
}

template <typename... Ts>
CK_TILE_HOST_DEVICE constexpr auto make_tuple(Ts&&... xs)
{
    return tuple<std::decay_t<Ts>...>(static_cast<Ts&&>(xs)...);
}

template <typename... Ts>
CK_TILE_HOST_DEVICE constexpr tuple<Ts&...> tie(Ts&... xs)
{
    return tuple<Ts&...>(xs...);
}

// f(t[0], t[1], ...)
template <typename F, typename... Ts>
CK_TILE_HOST_DEVICE constexpr decltype(auto) apply(F&& f, const tuple<Ts...>& t)
{
    return [&]<index_t... Is>(sequence<Is...>) -> decltype(auto) {
        return f(t.at(number<Is>{})...);
    }(make_index_sequence<sizeof...(Ts)>{});
}

// tuple of f(i) for i in [0, N)
template <typename F, index_t N>
CK_TILE_HOST_DEVICE constexpr auto generate_tuple(F&& f, number<N>)
{
    return [&]<index_t... Is>(sequence<Is...>) { return make_tuple(f(number<Is>{})...); }(make_index_sequence<N>{});
}

// tuple of f(x[i]...) element-wise over tuples of equal size
template <typename F, typename X, typename... Ys>
CK_TILE_HOST_DEVICE constexpr auto transform_tuples(F&& f, const X& x, const Ys&... ys)
{
    return [&]<index_t... Is>(sequence<Is...>) {
        return make_tuple(f(x.at(number<Is>{}), ys.at(number<Is>{})...)...);
    }(make_index_sequence<X::size()>{});
}

template <typename... Xs, typename... Ys>
CK_TILE_HOST_DEVICE constexpr auto tuple_cat2(const tuple<Xs...>& x, const tuple<Ys...>& y)
{
    return [&]<index_t... Is, index_t... Js>(sequence<Is...>, sequence<Js...>) {
        return tuple<Xs..., Ys...>(x.at(number<Is>{})..., y.at(number<Js>{})...);
    }(make_index_sequence<sizeof...(Xs)>{}, make_index_sequence<sizeof...(Ys)>{});
}
CK_TILE_HOST_DEVICE constexpr auto tuple_cat() { return tuple<>{}; }
template <typename X, typename... Rest>
CK_TILE_HOST_DEVICE constexpr auto tuple_cat(const X& x, const Rest&... rest)
{
    if constexpr(sizeof...(Rest) == 0)
        return x;
    else
        return tuple_cat2(x, tuple_cat(rest...));
}

template <typename T>
struct is_tuple : false_type
{};
template <typename... Ts>
struct is_tuple<tuple<Ts...>> : true_type
{};

} // namespace ck_tile
