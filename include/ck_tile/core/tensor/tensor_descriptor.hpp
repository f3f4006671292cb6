// SPDX-License-Identifier: MIT
// tensor_descriptor: a chain of coordinate transforms from the "top" index a user writes to the
// offset of an element in memory (the "bottom", hidden dimension 0).
//
// Dimensions are numbered as "hidden" ids: id 0 is the offset; every transform reads its upper
// ids and writes its lower ids. A descriptor is extended with transform_tensor_descriptor(), which
// appends transforms whose lower dimensions are the old top dimensions; the new top dimensions
// are their upper dimensions. Structure (which transform, which ids) is compile-time; lengths,
// strides and paddings are run-time values (or constants folded by the compiler).
#pragma once
#include "ck_tile/core/config.hpp"
#include "ck_tile/core/algorithm/coordinate_transform.hpp"
#include "ck_tile/core/container/multi_index.hpp"
#include "ck_tile/core/container/sequence.hpp"
#include "ck_tile/core/container/tuple.hpp"
#include "ck_tile/core/utility/functional.hpp"

namespace ck_tile {

// Transforms: tuple<T...>; LowerIdss / UpperIdss: tuple<sequence<...>...> (hidden ids per
// transform); TopIds: sequence of hidden ids that form the top index, in order.
// GuaranteedVectorLength: how many consecutive elements along the last top dimension are known
// to be contiguous and aligned (-1: unknown). Vector loads and stores rely on it.
template <typename Transforms, typename LowerIdss, typename UpperIdss, typename TopIds,
          index_t GuaranteedVectorLength = -1>
struct tensor_descriptor
{
    static constexpr index_t num_transform            = Transforms::size();
    static constexpr index_t ndim_top                 = TopIds::size();
    static constexpr index_t guaranteed_vector_length = GuaranteedVectorLength;

    using top_ids      = TopIds;
    using lower_idss   = LowerIdss;
    using upper_idss   = UpperIdss;
    using transforms_t = Transforms;

    CK_TILE_HOST_DEVICE static constexpr index_t calc_ndim_hidden()
    {
        index_t n = 1;
        static_for<0, num_transform>{}([&](auto i) {
            for(index_t id : to_array<index_t>(UpperIdss{}.at(i)))
                n = id + 1 > n ? id + 1 : n;
            for(index_t id : to_array<index_t>(LowerIdss{}.at(i)))
                n = id + 1 > n ? id + 1 : n;
        });
        return n;
    }
    static constexpr index_t ndim_hidden = calc_ndim_hidden();

    Transforms transforms;
    long_index_t element_space_size;
    multi_index<ndim_hidden> hidden_lengths; // length of every hidden dimension (0 for the offset)

    constexpr tensor_descriptor() = default;
    CK_TILE_HOST_DEVICE constexpr tensor_descriptor(const Transforms& ts, long_index_t space)
        : transforms(ts), element_space_size(space), hidden_lengths{}
    {
        static_for<0, num_transform>{}([&](auto i) {
            const auto up      = transforms.at(i).get_upper_lengths();
            constexpr auto ids = UpperIdss{}.at(i);
            static_for<0, ids.size()>{}([&](auto k) { hidden_lengths[ids.at(k)] = up[k]; });
        });
    }

    CK_TILE_HOST_DEVICE static constexpr index_t get_num_of_dimension() { return ndim_top; }
    CK_TILE_HOST_DEVICE constexpr multi_index<ndim_top> get_lengths() const
    {
        multi_index<ndim_top> l{};
        static_for<0, ndim_top>{}([&](auto i) { l[i] = hidden_lengths[TopIds::at(i)]; });
        return l;
    }
    template <index_t I>
    CK_TILE_HOST_DEVICE constexpr index_t get_length(number<I>) const
    {
        return hidden_lengths[TopIds::at(number<I>{})];
    }
    CK_TILE_HOST_DEVICE constexpr long_index_t get_element_space_size() const { return element_space_size; }
    CK_TILE_HOST_DEVICE constexpr index_t get_element_size() const
    {
        index_t n = 1;
        for(index_t l : get_lengths())
            n *= l;
        return n;
    }
    CK_TILE_HOST_DEVICE constexpr const Transforms& get_transforms() const { return transforms; }

    // Walks the transforms from the top: returns every hidden index (hidden[0] is the offset).
    CK_TILE_HOST_DEVICE constexpr multi_index<ndim_hidden>
    calculate_hidden_index(const multi_index<ndim_top>& top) const
    {
        multi_index<ndim_hidden> h{};
        static_for<0, ndim_top>{}([&](auto i) { h[TopIds::at(i)] = top[i]; });
        static_for<0, num_transform>{}([&](auto r) {
            constexpr auto i   = number<num_transform - 1 - r>{};
            const auto& t      = transforms.at(i);
            using T            = std::decay_t<decltype(t)>;
            constexpr auto ups = UpperIdss{}.at(i);
            constexpr auto los = LowerIdss{}.at(i);
            multi_index<T::ndim_upper> up{};
            multi_index<T::ndim_lower> lo{};
            static_for<0, T::ndim_upper>{}([&](auto k) { up[k] = h[ups.at(k)]; });
            t.calculate_lower_index(lo, up);
            static_for<0, T::ndim_lower>{}([&](auto k) { h[los.at(k)] = lo[k]; });
        });
        return h;
    }

    CK_TILE_HOST_DEVICE constexpr index_t calculate_offset(const multi_index<ndim_top>& top) const
    {
        return calculate_hidden_index(top)[0];
    }

    // True when every transform accepts its upper index (false inside padding).
    CK_TILE_HOST_DEVICE constexpr bool is_valid_hidden_index(const multi_index<ndim_hidden>& h) const
    {
        bool valid = true;
        static_for<0, num_transform>{}([&](auto i) {
            const auto& t = transforms.at(i);
            using T       = std::decay_t<decltype(t)>;
            if constexpr(!T::always_valid)
            {
                constexpr auto ups = UpperIdss{}.at(i);
                multi_index<T::ndim_upper> up{};
                static_for<0, T::ndim_upper>{}([&](auto k) { up[k] = h[ups.at(k)]; });
                valid = valid && t.is_valid_upper_index(up);
            }
        });
        return valid;
    }

    CK_TILE_HOST_DEVICE static constexpr bool is_always_valid()
    {
        bool v = true;
        static_for<0, num_transform>{}(
            [&](auto i) { v = v && std::decay_t<decltype(Transforms{}.at(i))>::always_valid; });
        return v;
    }
};

// ---- makers -------------------------------------------------------------------------------------
// Strided tensor: offset = sum(index_i * stride_i). Lengths and strides may be ints or number<>s.
template <typename... Ls, typename... Ss, index_t VecLen = -1, index_t VecStride = -1>
CK_TILE_HOST_DEVICE constexpr auto
make_naive_tensor_descriptor(const tuple<Ls...>& lengths, const tuple<Ss...>& strides, number<VecLen> = number<-1>{},
                             number<VecStride> = number<-1>{})
{
    constexpr index_t n = sizeof...(Ls);
    static_assert(n == sizeof...(Ss), "make_naive_tensor_descriptor: one stride per length");
    const auto l       = to_multi_index(lengths);
    const auto s       = to_multi_index(strides);
    long_index_t space = 1;
    for(index_t i = 0; i < n; ++i)
        space += static_cast<long_index_t>(l[i] - 1) * s[i];
    using upper = typename arithmetic_sequence_gen<1, n + 1>::type;
    return tensor_descriptor<tuple<embed<n>>, tuple<sequence<0>>, tuple<upper>, upper, VecLen>(
        make_tuple(embed<n>{l, s}), space);
}

// Packed row-major tensor (last dimension fastest).
template <typename... Ls, index_t VecLen = -1>
CK_TILE_HOST_DEVICE constexpr auto make_naive_tensor_descriptor_packed(const tuple<Ls...>& lengths,
                                                                       number<VecLen> = number<-1>{})
{
    constexpr index_t n = sizeof...(Ls);
    const auto l        = to_multi_index(lengths);
    long_index_t space  = 1;
    for(index_t i = 0; i < n; ++i)
        space *= l[i];
    using upper = typename arithmetic_sequence_gen<1, n + 1>::type;
    return tensor_descriptor<tuple<unmerge<n>>, tuple<sequence<0>>, tuple<upper>, upper, VecLen>(
        make_tuple(unmerge<n>{l}), space);
}

namespace detail {
// the guaranteed vector length survives a transform of the last dimension only if that
// transform keeps consecutive elements consecutive (pass-through, or a pad of a multiple of it)
template <typename T>
inline constexpr bool keeps_vector_contiguity = std::is_same_v<T, pass_through> || std::is_same_v<T, pad>;
} // namespace detail

// Appends transforms: NewTransforms[i] reads the old top dimensions listed in
// NewLowerDimensionOldTopIdss[i] and produces the new top dimensions NewUpperDimensionNewTopIdss[i].
template <typename Desc, typename... NewTs, typename... NewLowerTopIds, typename... NewUpperTopIds>
CK_TILE_HOST_DEVICE constexpr auto transform_tensor_descriptor(const Desc& old, const tuple<NewTs...>& new_transforms,
                                                               tuple<NewLowerTopIds...>, tuple<NewUpperTopIds...>)
{
    constexpr index_t num_new = sizeof...(NewTs);
    static_assert(sizeof...(NewLowerTopIds) == num_new && sizeof...(NewUpperTopIds) == num_new,
                  "transform_tensor_descriptor: one lower and one upper id list per transform");
    constexpr index_t old_hidden = Desc::ndim_hidden;
    using old_top                = typename Desc::top_ids;

    // new hidden ids: new top dimension j gets hidden id old_hidden + j
    using new_lowers               = tuple<decltype(old_top::extract(NewLowerTopIds{}))...>;
    using new_uppers               = tuple<decltype(NewUpperTopIds{} + number<old_hidden>{})...>;
    constexpr index_t ndim_new_top = (index_t{0} + ... + NewUpperTopIds::size());
    using new_top                  = typename arithmetic_sequence_gen<old_hidden, old_hidden + ndim_new_top>::type;

    // vector-length guarantee: kept if the old last top dim feeds the new last top dim through a
    // contiguity-preserving transform
    constexpr bool keeps_vector =
        ((NewUpperTopIds::size() == 1 && NewUpperTopIds::at(0) == ndim_new_top - 1 && NewLowerTopIds::size() == 1 &&
          NewLowerTopIds::at(0) == Desc::ndim_top - 1 && detail::keeps_vector_contiguity<NewTs>) ||
         ...);
    constexpr index_t vec = keeps_vector ? Desc::guaranteed_vector_length : -1;

    using all_transforms = decltype(tuple_cat(old.get_transforms(), new_transforms));
    using all_lowers     = decltype(tuple_cat(typename Desc::lower_idss{}, new_lowers{}));
    using all_uppers     = decltype(tuple_cat(typename Desc::upper_idss{}, new_uppers{}));
    return tensor_descriptor<all_transforms, all_lowers, all_uppers, new_top, vec>(
        tuple_cat(old.get_transforms(), new_transforms), old.get_element_space_size());
}

} // namespace ck_tile
