// SPDX-License-Identifier: MIT
// sequence<Is...>: a compile-time list of index_t, and its algebra (element access, reverse,
// push/pop, pick, modify, reductions, element-wise arithmetic, generators, concatenation,
// permutation maps). Tile shapes, dimension maps and distribution encodings are sequences.
#pragma once
#include <utility>
#include "ck_tile/core/config.hpp"
#include "ck_tile/core/numeric/integer.hpp"
#include "ck_tile/core/numeric/integral_constant.hpp"

namespace ck_tile {

template <index_t... Is>
struct sequence;

namespace detail {
template <index_t I, index_t... Is>
struct sequence_at;
template <index_t I, index_t Head, index_t... Tail>
struct sequence_at<I, Head, Tail...>
{
    static constexpr index_t value = sequence_at<I - 1, Tail...>::value;
};
template <index_t Head, index_t... Tail>
struct sequence_at<0, Head, Tail...>
{
    static constexpr index_t value = Head;
};
} // namespace detail

template <index_t... Is>
struct sequence
{
    using type       = sequence;
    using value_type = index_t;

    CK_TILE_HOST_DEVICE static constexpr index_t size() { return sizeof...(Is); }
    CK_TILE_HOST_DEVICE static constexpr bool is_static() { return true; }

    // run-time position, compile-time content
    CK_TILE_HOST_DEVICE static constexpr index_t at(index_t i)
    {
        constexpr index_t values[sizeof...(Is) + 1] = {Is..., 0};
        return values[i];
    }
    template <index_t I>
    CK_TILE_HOST_DEVICE static constexpr auto at(number<I>)
    {
        static_assert(I >= 0 && I < size(), "sequence::at: index out of range");
        return number<detail::sequence_at<I, Is...>::value>{};
    }
    template <index_t I>
    CK_TILE_HOST_DEVICE static constexpr auto get()
    {
        return at(number<I>{});
    }
    CK_TILE_HOST_DEVICE constexpr index_t operator[](index_t i) const { return at(i); }
    template <index_t I>
    CK_TILE_HOST_DEVICE constexpr auto operator[](number<I> i) const
    {
        return at(i);
    }

    CK_TILE_HOST_DEVICE static constexpr auto front() { return at(number<0>{}); }
    CK_TILE_HOST_DEVICE static constexpr auto back() { return at(number<size() - 1>{}); }

    template <index_t... Js>
    CK_TILE_HOST_DEVICE static constexpr auto push_front(sequence<Js...>)
    {
        return sequence<Js..., Is...>{};
    }
    template <index_t... Js>
    CK_TILE_HOST_DEVICE static constexpr auto push_front(number<Js>...)
    {
        return sequence<Js..., Is...>{};
    }
    template <index_t... Js>
    CK_TILE_HOST_DEVICE static constexpr auto push_back(sequence<Js...>)
    {
        return sequence<Is..., Js...>{};
    }
    template <index_t... Js>
    CK_TILE_HOST_DEVICE static constexpr auto push_back(number<Js>...)
    {
        return sequence<Is..., Js...>{};
    }

    // the elements at the given positions, in that order
    template <index_t... Ps>
    CK_TILE_HOST_DEVICE static constexpr auto extract(sequence<Ps...>)
    {
        return sequence<detail::sequence_at<Ps, Is...>::value...>{};
    }
    template <index_t... Ps>
    CK_TILE_HOST_DEVICE static constexpr auto extract(number<Ps>...)
    {
        return sequence<detail::sequence_at<Ps, Is...>::value...>{};
    }

    CK_TILE_HOST_DEVICE static constexpr auto reverse();
    CK_TILE_HOST_DEVICE static constexpr auto pop_front();
    CK_TILE_HOST_DEVICE static constexpr auto pop_back();

    template <index_t I, index_t X>
    CK_TILE_HOST_DEVICE static constexpr auto modify(number<I>, number<X>);

    // element-wise transform by a constexpr functor
    template <typename F>
    CK_TILE_HOST_DEVICE static constexpr auto transform(F f)
    {
        return sequence<f(Is)...>{};
    }
};

template <index_t... Is>
using index_seq = sequence<Is...>;

// ---- generators -------------------------------------------------------------------------------
namespace detail {
template <typename S>
struct from_integer_sequence;
template <index_t... Is>
struct from_integer_sequence<std::integer_sequence<index_t, Is...>>
{
    using type = sequence<Is...>;
};
template <index_t Start, index_t Step, typename S>
struct arithmetic_impl;
template <index_t Start, index_t Step, index_t... Is>
struct arithmetic_impl<Start, Step, sequence<Is...>>
{
    using type = sequence<(Start + Is * Step)...>;
};
template <index_t Value, typename S>
struct uniform_impl;
template <index_t Value, index_t... Is>
struct uniform_impl<Value, sequence<Is...>>
{
    using type = sequence<(Is * 0 + Value)...>;
};
} // namespace detail

template <index_t N>
using make_index_sequence = typename detail::from_integer_sequence<std::make_integer_sequence<index_t, N>>::type;

// Start, Start+Step, ... < End (Step > 0)
template <index_t Start, index_t End, index_t Step = 1>
struct arithmetic_sequence_gen
{
    static_assert(Step > 0 && End >= Start, "arithmetic_sequence_gen: need Step > 0 and End >= Start");
    using type =
        typename detail::arithmetic_impl<Start, Step, make_index_sequence<(End - Start + Step - 1) / Step>>::type;
};

template <index_t N, index_t Value>
struct uniform_sequence_gen
{
    using type = typename detail::uniform_impl<Value, make_index_sequence<N>>::type;
};

// ---- concatenation, reverse, pop, modify ------------------------------------------------------
template <index_t... Is, index_t... Js>
CK_TILE_HOST_DEVICE constexpr auto operator|(sequence<Is...>, sequence<Js...>)
{
    return sequence<Is..., Js...>{};
}

CK_TILE_HOST_DEVICE constexpr auto merge_sequences() { return sequence<>{}; }
template <typename S, typename... Ss>
CK_TILE_HOST_DEVICE constexpr auto merge_sequences(S s, Ss... ss)
{
    return (s | ... | ss);
}

template <index_t... Is>
CK_TILE_HOST_DEVICE constexpr auto sequence<Is...>::reverse()
{
    constexpr index_t n = size();
    return []<index_t... Ks>(sequence<Ks...>) {
        return sequence<detail::sequence_at<n - 1 - Ks, Is...>::value...>{};
    }(make_index_sequence<n>{});
}

template <index_t... Is>
CK_TILE_HOST_DEVICE constexpr auto sequence<Is...>::pop_front()
{
    static_assert(size() > 0, "sequence::pop_front on an empty sequence");
    return []<index_t... Ks>(sequence<Ks...>) {
        return sequence<detail::sequence_at<Ks + 1, Is...>::value...>{};
    }(make_index_sequence<size() - 1>{});
}

template <index_t... Is>
CK_TILE_HOST_DEVICE constexpr auto sequence<Is...>::pop_back()
{
    static_assert(size() > 0, "sequence::pop_back on an empty sequence");
    return []<index_t... Ks>(sequence<Ks...>) {
        return sequence<detail::sequence_at<Ks, Is...>::value...>{};
    }(make_index_sequence<size() - 1>{});
}

template <index_t... Is>
template <index_t I, index_t X>
CK_TILE_HOST_DEVICE constexpr auto sequence<Is...>::modify(number<I>, number<X>)
{
    static_assert(I >= 0 && I < size(), "sequence::modify: index out of range");
    return []<index_t... Ks>(sequence<Ks...>) {
        return sequence<(Ks == I ? X : detail::sequence_at<Ks, Is...>::value)...>{};
    }(make_index_sequence<size()>{});
}

// ---- reductions and element-wise arithmetic --------------------------------------------------
template <index_t... Is>
CK_TILE_HOST_DEVICE constexpr index_t sequence_sum(sequence<Is...>)
{
    return (index_t{0} + ... + Is);
}
template <index_t... Is>
CK_TILE_HOST_DEVICE constexpr index_t sequence_product(sequence<Is...>)
{
    return (index_t{1} * ... * Is);
}

template <typename Reduce, index_t Init, index_t... Is>
CK_TILE_HOST_DEVICE constexpr index_t reduce_on_sequence(sequence<Is...>, Reduce f, number<Init>)
{
    index_t r = Init;
    ((r = f(r, Is)), ...);
    return r;
}

// exclusive scan from the right with multiplication: the row-major strides of a packed shape
template <index_t... Is>
CK_TILE_HOST_DEVICE constexpr auto packed_strides(sequence<Is...>)
{
    constexpr index_t n = sizeof...(Is);
    return []<index_t... Ks>(sequence<Ks...>) {
        constexpr auto stride_of = [](index_t k) {
            constexpr index_t ls[n + 1] = {Is..., 1};
            index_t s                   = 1;
            for(index_t j = k + 1; j < n; ++j)
                s *= ls[j];
            return s;
        };
        return sequence<stride_of(Ks)...>{};
    }(make_index_sequence<n>{});
}

#define CK_TILE_SEQUENCE_ELEMENTWISE_OP(OP)                                                                            \
    template <index_t... Is, index_t... Js>                                                                            \
    CK_TILE_HOST_DEVICE constexpr auto operator OP(sequence<Is...>, sequence<Js...>)                                   \
    {                                                                                                                  \
        static_assert(sizeof...(Is) == sizeof...(Js), "sequence " #OP ": sizes differ");                               \
        return sequence<(Is OP Js)...>{};                                                                              \
    }                                                                                                                  \
    template <index_t... Is, index_t J>                                                                                \
    CK_TILE_HOST_DEVICE constexpr auto operator OP(sequence<Is...>, number<J>)                                         \
    {                                                                                                                  \
        return sequence<(Is OP J)...>{};                                                                               \
    }
CK_TILE_SEQUENCE_ELEMENTWISE_OP(+)
CK_TILE_SEQUENCE_ELEMENTWISE_OP(-)
CK_TILE_SEQUENCE_ELEMENTWISE_OP(*)
CK_TILE_SEQUENCE_ELEMENTWISE_OP(/)
CK_TILE_SEQUENCE_ELEMENTWISE_OP(%)
#undef CK_TILE_SEQUENCE_ELEMENTWISE_OP

template <index_t... Is, index_t... Js>
CK_TILE_HOST_DEVICE constexpr bool operator==(sequence<Is...>, sequence<Js...>)
{
    if constexpr(sizeof...(Is) != sizeof...(Js))
        return false;
    else
        return ((Is == Js) && ...);
}

// ---- permutation maps -------------------------------------------------------------------------
// A map is valid when it is a permutation of 0..n-1.
template <index_t... Is>
CK_TILE_HOST_DEVICE constexpr bool is_valid_sequence_map(sequence<Is...>)
{
    constexpr index_t n = sizeof...(Is);
    bool seen[n + 1]    = {};
    for(index_t i = 0; i < n; ++i)
    {
        index_t v = sequence<Is...>::at(i);
        if(v < 0 || v >= n || seen[v])
            return false;
        seen[v] = true;
    }
    return true;
}

// inverse permutation: result[map[i]] = i
template <index_t... Is>
CK_TILE_HOST_DEVICE constexpr auto sequence_map_inverse(sequence<Is...>)
{
    static_assert(is_valid_sequence_map(sequence<Is...>{}), "sequence_map_inverse: not a permutation");
    constexpr index_t n = sizeof...(Is);
    return []<index_t... Ks>(sequence<Ks...>) {
        constexpr auto position_of = [](index_t v) {
            for(index_t i = 0; i < n; ++i)
                if(sequence<Is...>::at(i) == v)
                    return i;
            return index_t{-1};
        };
        return sequence<position_of(Ks)...>{};
    }(make_index_sequence<n>{});
}

// position of the first element equal to v, or -1
template <index_t... Is>
CK_TILE_HOST_DEVICE constexpr index_t sequence_find(sequence<Is...>, index_t v)
{
    index_t i = 0;
    for(index_t x : {Is..., v})
    {
        if(x == v)
            return i < index_t(sizeof...(Is)) ? i : -1;
        ++i;
    }
    return -1;
}

template <typename T>
struct is_sequence : false_type
{};
template <index_t... Is>
struct is_sequence<sequence<Is...>> : true_type
{};

} // namespace ck_tile
