// SPDX-License-Identifier: MIT
// Compile-time integers: integral_constant, number<N> (an index_t constant) and bool_constant<B>.
// Arithmetic and comparison between two constants give a constant, so index arithmetic on tile
// shapes stays in the type system and costs nothing at run time.
#pragma once
#include "ck_tile/core/config.hpp"
#include "ck_tile/core/numeric/integer.hpp"

namespace ck_tile {

template <typename T, T v>
struct integral_constant
{
    using value_type         = T;
    using type               = integral_constant;
    static constexpr T value = v;
    CK_TILE_HOST_DEVICE constexpr operator value_type() const noexcept { return value; }
    CK_TILE_HOST_DEVICE constexpr value_type operator()() const noexcept { return value; }
    CK_TILE_HOST_DEVICE static constexpr bool is_static() { return true; }
};

template <index_t v>
using number = integral_constant<index_t, v>;

template <long_index_t v>
using long_number = integral_constant<long_index_t, v>;

template <bool b>
using bool_constant = integral_constant<bool, b>;

using true_type  = bool_constant<true>;
using false_type = bool_constant<false>;

template <typename T>
struct is_constant : false_type
{};
template <typename T, T v>
struct is_constant<integral_constant<T, v>> : true_type
{};
template <typename T>
inline constexpr bool is_constant_v = is_constant<T>::value;

#define CK_TILE_CONSTANT_BINARY_OP(OP)                                                                                 \
    template <typename T, T x, typename U, U y>                                                                        \
    CK_TILE_HOST_DEVICE constexpr auto operator OP(integral_constant<T, x>, integral_constant<U, y>)                   \
    {                                                                                                                  \
        return integral_constant<decltype(x OP y), (x OP y)>{};                                                        \
    }
CK_TILE_CONSTANT_BINARY_OP(+)
CK_TILE_CONSTANT_BINARY_OP(-)
CK_TILE_CONSTANT_BINARY_OP(*)
CK_TILE_CONSTANT_BINARY_OP(/)
CK_TILE_CONSTANT_BINARY_OP(%)
CK_TILE_CONSTANT_BINARY_OP(==)
CK_TILE_CONSTANT_BINARY_OP(!=)
CK_TILE_CONSTANT_BINARY_OP(<)
CK_TILE_CONSTANT_BINARY_OP(<=)
CK_TILE_CONSTANT_BINARY_OP(>)
CK_TILE_CONSTANT_BINARY_OP(>=)
CK_TILE_CONSTANT_BINARY_OP(&&)
CK_TILE_CONSTANT_BINARY_OP(||)
#undef CK_TILE_CONSTANT_BINARY_OP

template <typename T, T x>
CK_TILE_HOST_DEVICE constexpr auto operator-(integral_constant<T, x>)
{
    return integral_constant<T, -x>{};
}
template <typename T, T x>
CK_TILE_HOST_DEVICE constexpr auto operator!(integral_constant<T, x>)
{
    return bool_constant<!x>{};
}

} // namespace ck_tile
