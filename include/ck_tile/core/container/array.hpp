// SPDX-License-Identifier: MIT
// array<T, N>: a fixed-size homogeneous array for device code (run-time indexable), with
// element-wise + and - so that it can serve as a multi-dimensional index (see multi_index.hpp).
#pragma once
#include "ck_tile/core/config.hpp"
#include "ck_tile/core/numeric/integer.hpp"
#include "ck_tile/core/numeric/integral_constant.hpp"
#include "ck_tile/core/container/sequence.hpp"

namespace ck_tile {

template <typename T, index_t N>
struct array
{
    T data[N > 0 ? N : 1];

    using value_type = T;
    CK_TILE_HOST_DEVICE static constexpr index_t size() { return N; }

    CK_TILE_HOST_DEVICE constexpr T& operator[](index_t i) { return data[i]; }
    CK_TILE_HOST_DEVICE constexpr const T& operator[](index_t i) const { return data[i]; }
    CK_TILE_HOST_DEVICE constexpr T& operator()(index_t i) { return data[i]; }
    CK_TILE_HOST_DEVICE constexpr const T& operator()(index_t i) const { return data[i]; }
    template <index_t I>
    CK_TILE_HOST_DEVICE constexpr T& at(number<I>)
    {
        static_assert(I >= 0 && I < N, "array::at: index out of range");
        return data[I];
    }
    template <index_t I>
    CK_TILE_HOST_DEVICE constexpr const T& at(number<I>) const
    {
        static_assert(I >= 0 && I < N, "array::at: index out of range");
        return data[I];
    }
    template <index_t I>
    CK_TILE_HOST_DEVICE constexpr T& get()
    {
        return data[I];
    }
    template <index_t I>
    CK_TILE_HOST_DEVICE constexpr const T& get() const
    {
        return data[I];
    }
    CK_TILE_HOST_DEVICE constexpr T* begin() { return data; }
    CK_TILE_HOST_DEVICE constexpr T* end() { return data + N; }
    CK_TILE_HOST_DEVICE constexpr const T* begin() const { return data; }
    CK_TILE_HOST_DEVICE constexpr const T* end() const { return data + N; }

    // Element by element with constant indices (a pack expansion, not a loop), so that the
    // compiler keeps each element of an index in its own register from the start instead of
    // packing a small array into one wide integer and masking its halves on every step.
    CK_TILE_HOST_DEVICE constexpr array& operator+=(const array& o)
    {
        [&]<index_t... I>(std::integer_sequence<index_t, I...>) {
            ((data[I] += o.data[I]), ...);
        }(std::make_integer_sequence<index_t, N>{});
        return *this;
    }
    CK_TILE_HOST_DEVICE constexpr array& operator-=(const array& o)
    {
        [&]<index_t... I>(std::integer_sequence<index_t, I...>) {
            ((data[I] -= o.data[I]), ...);
        }(std::make_integer_sequence<index_t, N>{});
        return *this;
    }
    CK_TILE_HOST_DEVICE friend constexpr array operator+(const array& a, const array& b)
    {
        return [&]<index_t... I>(std::integer_sequence<index_t, I...>) {
            return array{{(a.data[I] + b.data[I])...}};
        }(std::make_integer_sequence<index_t, N>{});
    }
    CK_TILE_HOST_DEVICE friend constexpr array operator-(const array& a, const array& b)
    {
        return [&]<index_t... I>(std::integer_sequence<index_t, I...>) {
            return array{{(a.data[I] - b.data[I])...}};
        }(std::make_integer_sequence<index_t, N>{});
    }
    CK_TILE_HOST_DEVICE friend constexpr bool operator==(const array& a, const array& b)
    {
        for(index_t i = 0; i < N; ++i)
            if(!(a.data[i] == b.data[i]))
                return false;
        return true;
    }
};

template <typename T, typename... Ts>
CK_TILE_HOST_DEVICE constexpr auto make_array(T x, Ts... xs)
{
    return array<T, 1 + sizeof...(Ts)>{{x, static_cast<T>(xs)...}};
}

template <typename T, index_t... Is>
CK_TILE_HOST_DEVICE constexpr auto to_array(sequence<Is...>)
{
    return array<T, sizeof...(Is)>{{static_cast<T>(Is)...}};
}

} // namespace ck_tile
