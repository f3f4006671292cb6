// SPDX-License-Identifier: MIT
// Coordinate transforms: each maps an upper (logical) index to a lower index, one step of the
// chain a tensor_descriptor walks from the index a user writes to the memory offset.
//
//   pass_through   upper i            -> lower i
//   pad            upper i            -> lower i - left_pad  (valid only inside the original length)
//   merge          upper i            -> lower (i0, i1, ...), i = i0*L1*L2... + i1*L2... + ... (last fastest)
//   unmerge        upper (i0, i1, ..) -> lower i0*L1*L2... + i1*L2... + ...
//   embed          upper (i0, i1, ..) -> lower sum(i_k * coefficient_k)
//   xor            upper (i0, i1)     -> lower (i0, i1 ^ (i0 % L1))  (LDS bank-conflict swizzle)
//
// Every transform offers: ndim_lower / ndim_upper, get_upper_lengths(), calculate_lower_index(),
// is_valid_upper_index() and the constant always_valid (true when every upper index in range
// maps to a lower index in range, i.e. no padding).
#pragma once
#include "ck_tile/core/config.hpp"
#include "ck_tile/core/arch/arch.hpp"
#include "ck_tile/core/container/multi_index.hpp"
#include "ck_tile/core/container/tuple.hpp"

namespace ck_tile {

struct pass_through
{
    static constexpr index_t ndim_lower = 1;
    static constexpr index_t ndim_upper = 1;
    static constexpr bool always_valid  = true;
    index_t length;

    CK_TILE_HOST_DEVICE constexpr multi_index<1> get_upper_lengths() const { return {{length}}; }
    CK_TILE_HOST_DEVICE constexpr void calculate_lower_index(multi_index<1>& low, const multi_index<1>& up) const
    {
        low[0] = up[0];
    }
    CK_TILE_HOST_DEVICE constexpr bool is_valid_upper_index(const multi_index<1>&) const { return true; }
};

struct pad
{
    static constexpr index_t ndim_lower = 1;
    static constexpr index_t ndim_upper = 1;
    static constexpr bool always_valid  = false;
    index_t lower_length;
    index_t left_pad;
    index_t right_pad;

    CK_TILE_HOST_DEVICE constexpr multi_index<1> get_upper_lengths() const
    {
        return {{lower_length + left_pad + right_pad}};
    }
    CK_TILE_HOST_DEVICE constexpr void calculate_lower_index(multi_index<1>& low, const multi_index<1>& up) const
    {
        low[0] = up[0] - left_pad;
    }
    CK_TILE_HOST_DEVICE constexpr bool is_valid_upper_index(const multi_index<1>& up) const
    {
        return CK_TILE_INDEX_IN_RANGE(up[0], left_pad, lower_length); // left_pad <= up < left_pad + lower_length
    }
};

template <index_t NDimLow>
struct merge
{
    static constexpr index_t ndim_lower = NDimLow;
    static constexpr index_t ndim_upper = 1;
    static constexpr bool always_valid  = true;
    multi_index<NDimLow> lower_lengths;

    CK_TILE_HOST_DEVICE constexpr multi_index<1> get_upper_lengths() const
    {
        index_t n = 1;
        for(index_t i = 0; i < NDimLow; ++i)
            n *= lower_lengths[i];
        return {{n}};
    }
    CK_TILE_HOST_DEVICE constexpr void calculate_lower_index(multi_index<NDimLow>& low, const multi_index<1>& up) const
    {
        index_t rest = up[0];
        for(index_t i = NDimLow - 1; i > 0; --i)
        {
            low[i] = rest % lower_lengths[i];
            rest /= lower_lengths[i];
        }
        low[0] = rest;
    }
    CK_TILE_HOST_DEVICE constexpr bool is_valid_upper_index(const multi_index<1>&) const { return true; }
};

template <index_t NDimUp>
struct unmerge
{
    static constexpr index_t ndim_lower = 1;
    static constexpr index_t ndim_upper = NDimUp;
    static constexpr bool always_valid  = true;
    multi_index<NDimUp> upper_lengths;

    CK_TILE_HOST_DEVICE constexpr multi_index<NDimUp> get_upper_lengths() const { return upper_lengths; }
    CK_TILE_HOST_DEVICE constexpr void calculate_lower_index(multi_index<1>& low, const multi_index<NDimUp>& up) const
    {
        index_t v = 0;
        for(index_t i = 0; i < NDimUp; ++i)
            v = v * upper_lengths[i] + up[i];
        low[0] = v;
    }
    CK_TILE_HOST_DEVICE constexpr bool is_valid_upper_index(const multi_index<NDimUp>&) const { return true; }
};

template <index_t NDimUp>
struct embed
{
    static constexpr index_t ndim_lower = 1;
    static constexpr index_t ndim_upper = NDimUp;
    static constexpr bool always_valid  = true;
    multi_index<NDimUp> upper_lengths;
    multi_index<NDimUp> coefficients;

    CK_TILE_HOST_DEVICE constexpr multi_index<NDimUp> get_upper_lengths() const { return upper_lengths; }
    CK_TILE_HOST_DEVICE constexpr void calculate_lower_index(multi_index<1>& low, const multi_index<NDimUp>& up) const
    {
        index_t v = 0;
        for(index_t i = 0; i < NDimUp; ++i)
            v += up[i] * coefficients[i];
        low[0] = v;
    }
    CK_TILE_HOST_DEVICE constexpr bool is_valid_upper_index(const multi_index<NDimUp>&) const { return true; }
};

struct xor_transform
{
    static constexpr index_t ndim_lower = 2;
    static constexpr index_t ndim_upper = 2;
    static constexpr bool always_valid  = true;
    multi_index<2> lengths;

    CK_TILE_HOST_DEVICE constexpr multi_index<2> get_upper_lengths() const { return lengths; }
    CK_TILE_HOST_DEVICE constexpr void calculate_lower_index(multi_index<2>& low, const multi_index<2>& up) const
    {
        low[0] = up[0];
        low[1] = up[1] ^ (up[0] % lengths[1]);
    }
    CK_TILE_HOST_DEVICE constexpr bool is_valid_upper_index(const multi_index<2>&) const { return true; }
};

// ---- makers, with upstream's names ------------------------------------------------------------
template <typename L>
CK_TILE_HOST_DEVICE constexpr auto make_pass_through_transform(L length)
{
    return pass_through{static_cast<index_t>(length)};
}
template <typename L, typename LP, typename RP>
CK_TILE_HOST_DEVICE constexpr auto make_pad_transform(L length, LP left_pad, RP right_pad)
{
    return pad{static_cast<index_t>(length), static_cast<index_t>(left_pad), static_cast<index_t>(right_pad)};
}
template <typename L, typename P>
CK_TILE_HOST_DEVICE constexpr auto make_left_pad_transform(L length, P left_pad)
{
    return make_pad_transform(length, left_pad, 0);
}
template <typename L, typename P>
CK_TILE_HOST_DEVICE constexpr auto make_right_pad_transform(L length, P right_pad)
{
    return make_pad_transform(length, 0, right_pad);
}
template <typename... Ls>
CK_TILE_HOST_DEVICE constexpr auto make_merge_transform(const tuple<Ls...>& lower_lengths)
{
    return merge<sizeof...(Ls)>{to_multi_index(lower_lengths)};
}
template <typename... Ls>
CK_TILE_HOST_DEVICE constexpr auto make_merge_transform_v3_division_mod(const tuple<Ls...>& lower_lengths)
{
    return make_merge_transform(lower_lengths);
}
template <typename... Ls>
CK_TILE_HOST_DEVICE constexpr auto make_unmerge_transform(const tuple<Ls...>& upper_lengths)
{
    return unmerge<sizeof...(Ls)>{to_multi_index(upper_lengths)};
}
template <typename... Ls, typename... Cs>
CK_TILE_HOST_DEVICE constexpr auto make_embed_transform(const tuple<Ls...>& upper_lengths,
                                                        const tuple<Cs...>& coefficients)
{
    static_assert(sizeof...(Ls) == sizeof...(Cs), "make_embed_transform: one coefficient per upper dimension");
    return embed<sizeof...(Ls)>{to_multi_index(upper_lengths), to_multi_index(coefficients)};
}
template <typename L0, typename L1>
CK_TILE_HOST_DEVICE constexpr auto make_xor_transform(const tuple<L0, L1>& lengths)
{
    return xor_transform{to_multi_index(lengths)};
}

} // namespace ck_tile
