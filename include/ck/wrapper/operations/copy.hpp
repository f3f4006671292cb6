// SPDX-License-Identifier: MIT
// Copies between wrapper tensors of the same logical extents, converting the element type:
//
//   copy(src, dst)                                            the calling thread's elements, one
//                                                            at a time
//   copy<DimAccessOrder, VectorDim, ScalarPerVector>(src, dst) the same in vectors: runs of
//                                                            ScalarPerVector consecutive indices of
//                                                            mode VectorDim, each one load and one
//                                                            store of ScalarPerVector elements
//                                                            (global: a buffer load / store; LDS:
//                                                            one ds access), the runs visited in
//                                                            DimAccessOrder (its last mode fastest)
//     A tensor over memory must hold each run contiguously: mode VectorDim's innermost stride 1
//     and, for a nested mode, runs that do not cross its innermost sub-mode; the extent of
//     VectorDim a multiple of ScalarPerVector. What the types fix (Number lengths and strides) is
//     checked at compile time (static_assert), the rest when the copy runs (ck_tile::kernel_fail:
//     the emulator's launch throws with the reason).
//   blockwise_copy<DimAccessOrder, VectorDim, ScalarPerVector>(src, dst, thread_layout)
//     a tile copied by the whole block: along VectorDim the tile is cut into runs of
//     ScalarPerVector elements, and the runs of every mode are dealt to the threads of
//     thread_layout (a thread with coordinate c takes runs c_d, c_d + P_d, ...).
//
// An element a padded layout marks invalid is read as 0 and not written.
#pragma once
#include "ck/wrapper/tensor.hpp"
#include "ck/wrapper/utils/tensor_partition.hpp"
#include "ck_tile/core/tensor/buffer_view.hpp"

namespace ck::wrapper {

template <MemoryTypeEnum MS, typename TS, typename LS, MemoryTypeEnum MD, typename TD, typename LD>
CK_TILE_HOST_DEVICE constexpr void copy(const Tensor<MS, TS, LS>& src, Tensor<MD, TD, LD>& dst)
{
    static_assert(LS::rank == LD::rank, "ck::wrapper::copy: tensors of one rank");
    using DT               = std::remove_const_t<TD>;
    const index_t n        = static_cast<index_t>(size(src.layout_));
    constexpr bool src_reg = Tensor<MS, TS, LS>::kOwning, dst_reg = Tensor<MD, TD, LD>::kOwning;
    if constexpr(src_reg || dst_reg)
    {
        // a register tensor keeps element i (row-major over its extents) in register i:
        // unrolled over its capacity, every register index is a compile-time constant
        constexpr index_t cap = src_reg ? detail::static_size<LS>() : detail::static_size<LD>();
        ck_tile::static_for<0, cap, 1>{}([&](auto i) {
            if(i.value < n)
            {
                const auto idx = src_reg ? src.storage_indices(i.value) : dst.storage_indices(i.value);
                if constexpr(src_reg && dst_reg)
                    dst.storage_.data()[i.value] = ck_tile::type_convert<DT>(src.storage_.data()[i.value]);
                else if constexpr(src_reg)
                    dst.store(idx, ck_tile::type_convert<DT>(src.storage_.data()[i.value]));
                else
                    dst.storage_.data()[i.value] = ck_tile::type_convert<DT>(src.load(idx));
            }
        });
    }
    else
        for(index_t i = 0; i < n; ++i)
        {
            const auto idx = src.layout_.unflatten(i);
            dst.store(idx, ck_tile::type_convert<DT>(src.load(idx)));
        }
}

template <MemoryTypeEnum MS, typename TS, typename LS, MemoryTypeEnum MD, typename TD, typename LD>
CK_TILE_HOST_DEVICE constexpr void copy(const Tensor<MS, TS, LS>& src, Tensor<MD, TD, LD>&& dst)
{
    copy(src, dst);
}

namespace detail {
// the innermost (column-major: first) leaf of a (nested) mode: (length, stride)
template <typename S, typename D>
CK_TILE_HOST_DEVICE constexpr auto innermost_leaf(const S& s, const D& d)
{
    if constexpr(is_tuple_v<S>)
        return innermost_leaf(s.at(Number<0>{}), d.at(Number<0>{}));
    else
        return ck_tile::make_tuple(s, d);
}

// the largest offset of a (nested) shape with non-negative strides
template <typename S, typename D>
CK_TILE_HOST_DEVICE constexpr long_index_t max_offset(const S& s, const D& d)
{
    if constexpr(is_tuple_v<S>)
    {
        long_index_t m = 0;
        ck_tile::static_for<0, tuple_size_v<S>, 1>{}([&](auto i) { m += max_offset(s.at(i), d.at(i)); });
        return m;
    }
    else
        return (static_cast<long_index_t>(s) - 1) * static_cast<long_index_t>(d);
}

template <typename T>
inline constexpr index_t number_or = -1; // a run-time value: unknown to the type
template <typename T>
    requires is_number_v<T>
inline constexpr index_t number_or<T> = std::remove_cvref_t<T>::value;

// What the layout's types say about runs of S along mode V (false only where a compile-time
// length or stride rules them out; run-time values are checked by the copy).
template <index_t V, index_t S, typename L>
CK_TILE_HOST_DEVICE constexpr bool vector_extent_divisible()
{
    constexpr index_t e = number_or<decltype(std::declval<const typename L::extents_type&>().at(Number<V>{}))>;
    return S == 1 || e < 0 || e % S == 0;
}
template <index_t V, index_t S, typename L>
CK_TILE_HOST_DEVICE constexpr bool vector_mode_contiguous()
{
    using Mode = std::remove_cvref_t<decltype(std::declval<const typename L::shape_type&>().at(Number<V>{}))>;
    using Leaf = decltype(innermost_leaf(std::declval<const typename L::shape_type&>().at(Number<V>{}),
                                         std::declval<const typename L::strides_type&>().at(Number<V>{})));
    constexpr index_t len    = number_or<decltype(std::declval<const Leaf&>().at(Number<0>{}))>;
    constexpr index_t stride = number_or<decltype(std::declval<const Leaf&>().at(Number<1>{}))>;
    return S == 1 || ((stride < 0 || stride == 1) && (!is_tuple_v<Mode> || len < 0 || len % S == 0));
}

// the run-time half of the checks above, for one tensor of the copy
template <index_t V, index_t S, typename TensorT>
CK_TILE_DEVICE void check_vector_mode(const TensorT& t)
{
    if constexpr(S > 1)
    {
        const auto& l = t.layout_;
        if(static_cast<index_t>(l.extents_.at(Number<V>{})) % S != 0)
            ck_tile::kernel_fail("ck::wrapper::copy: the extent of VectorDim is not a multiple of ScalarPerVector");
        if constexpr(!TensorT::kOwning)
        {
            using Mode      = std::remove_cvref_t<decltype(l.shape_.at(Number<V>{}))>;
            const auto leaf = innermost_leaf(l.shape_.at(Number<V>{}), l.strides_.at(Number<V>{}));
            bool contiguous = static_cast<index_t>(leaf.at(Number<1>{})) == 1 && l.step_[V] == 1;
            // a nested mode: every run inside one stretch of its innermost sub-mode
            if constexpr(is_tuple_v<Mode>)
                contiguous = contiguous && static_cast<index_t>(leaf.at(Number<0>{})) % S == 0 && l.base_[V] % S == 0;
            if(!contiguous)
                ck_tile::kernel_fail("ck::wrapper::copy: VectorDim is not contiguous in memory (its innermost stride "
                                     "is not 1, or a run crosses its innermost sub-mode)");
        }
    }
}

// S elements of t from logical indices idx along mode V: one vector access where the whole run
// is valid, element by element where a padded layout cuts it (invalid elements read 0). In a
// register tensor, reg (when >= 0) is the run's first register, known to the caller as a constant.
template <index_t V, index_t S, typename TensorT, typename Idx>
CK_TILE_DEVICE auto load_run(const TensorT& t, const Idx& idx, index_t reg)
{
    using D = typename TensorT::DataType;
    ck_tile::thread_buffer<D, S> v;
    const auto element = [&](auto k) {
        auto j = idx;
        j[V] += k;
        return j;
    };
    if constexpr(TensorT::kOwning)
        ck_tile::static_for<0, S, 1>{}(
            [&](auto k) { v[k] = t.storage_.data()[reg >= 0 ? reg + k.value : t.storage_index(element(k.value))]; });
    else if(t.layout_.is_valid(idx) && t.layout_.is_valid(element(S - 1)))
    {
        const long_index_t off = t.layout_.offset(idx);
        const auto* p          = t.GetPointer();
        if constexpr(TensorT::memory_type == MemoryTypeEnum::Global)
        {
            const long_index_t span = max_offset(t.layout_.shape_, t.layout_.strides_) + 1;
            v = ck_tile::make_buffer_view<ck_tile::address_space_enum::global>(p, span).template get<S>(off, true);
        }
        else if constexpr(TensorT::memory_type == MemoryTypeEnum::Lds)
            v = ck_tile::make_buffer_view<ck_tile::address_space_enum::lds>(p, off + S).template get<S>(off, true);
        else
            __builtin_memcpy(&v, p + off, sizeof(v));
    }
    else
        ck_tile::static_for<0, S, 1>{}([&](auto k) { v[k] = t.load(element(static_cast<index_t>(k))); });
    return v;
}

// the same, stored: invalid elements of a padded layout are not written
template <index_t V, index_t S, typename TensorT, typename Idx, typename D>
CK_TILE_DEVICE void store_run(TensorT& t, const Idx& idx, index_t reg, const ck_tile::thread_buffer<D, S>& v)
{
    const auto element = [&](auto k) {
        auto j = idx;
        j[V] += k;
        return j;
    };
    if constexpr(TensorT::kOwning)
        ck_tile::static_for<0, S, 1>{}(
            [&](auto k) { t.storage_.data()[reg >= 0 ? reg + k.value : t.storage_index(element(k.value))] = v[k]; });
    else if(t.layout_.is_valid(idx) && t.layout_.is_valid(element(S - 1)))
    {
        const long_index_t off = t.layout_.offset(idx);
        auto* p                = t.GetPointer();
        if constexpr(TensorT::memory_type == MemoryTypeEnum::Global)
        {
            const long_index_t span = max_offset(t.layout_.shape_, t.layout_.strides_) + 1;
            ck_tile::make_buffer_view<ck_tile::address_space_enum::global>(p, span).template set<S>(off, true, v);
        }
        else if constexpr(TensorT::memory_type == MemoryTypeEnum::Lds)
            ck_tile::make_buffer_view<ck_tile::address_space_enum::lds>(p, off + S).template set<S>(off, true, v);
        else
            __builtin_memcpy(p + off, &v, sizeof(v));
    }
    else
        ck_tile::static_for<0, S, 1>{}([&](auto k) { t.store(element(static_cast<index_t>(k)), v[k]); });
}

// whether extents are all compile-time (a trait at namespace scope: std::declval may not appear
// in a device function's body on the hip backend)
template <typename Extents>
inline constexpr bool static_extents_v = is_number_v<decltype(shape_size(std::declval<const Extents&>()))>;

// runs per mode: the extents, mode V's in runs of S
template <index_t V, index_t S, typename Extents>
CK_TILE_HOST_DEVICE constexpr auto runs_per_mode(const Extents& extents)
{
    constexpr index_t r = tuple_size_v<Extents>;
    ck_tile::array<index_t, r> n{};
    ck_tile::static_for<0, r, 1>{}(
        [&](auto d) { n[d] = static_cast<index_t>(extents.at(d)) / (d.value == V ? S : 1); });
    return n;
}

template <index_t N>
CK_TILE_HOST_DEVICE constexpr index_t product(const ck_tile::array<index_t, N>& a)
{
    index_t p = 1;
    for(index_t d = 0; d < N; ++d)
        p *= a[d];
    return p;
}

// run q of the runs numbered in `order` (its last mode fastest) -> the logical indices of its
// first element
template <index_t V, index_t S, index_t N>
CK_TILE_HOST_DEVICE constexpr ck_tile::array<index_t, N> run_start(index_t q, const ck_tile::array<index_t, N>& runs,
                                                                   const ck_tile::array<index_t, N>& order)
{
    ck_tile::array<index_t, N> idx{};
    for(index_t j = N; j-- > 0;)
    {
        idx[order[j]] = q % runs[order[j]];
        q /= runs[order[j]];
    }
    idx[V] *= S;
    return idx;
}

// DimAccessOrder as an array of modes; -1 first when it is not a permutation of 0..N-1
template <typename Order, index_t N>
CK_TILE_HOST_DEVICE constexpr ck_tile::array<index_t, N> access_order()
{
    ck_tile::array<index_t, N> o{};
    bool seen[N]{};
    bool ok = true;
    ck_tile::static_for<0, N, 1>{}([&](auto j) {
        o[j] = std::remove_cvref_t<decltype(std::declval<const Order&>().at(j))>::value;
        if(o[j] < 0 || o[j] >= N || seen[o[j]])
            ok = false;
        else
            seen[o[j]] = true;
    });
    if(!ok)
        o[0] = -1;
    return o;
}
} // namespace detail

template <typename DimAccessOrder, index_t VectorDim, index_t ScalarPerVector, typename Src, typename Dst>
CK_TILE_DEVICE void copy(const Src& src, Dst&& dst)
{
    using SrcT          = std::remove_cvref_t<Src>;
    using DstT          = std::remove_cvref_t<Dst>;
    using LS            = typename SrcT::layout_type;
    using LD            = typename DstT::layout_type;
    constexpr index_t r = SrcT::rank;
    constexpr index_t V = VectorDim;
    constexpr index_t S = ScalarPerVector;
    static_assert(DstT::rank == r, "ck::wrapper::copy: tensors of one rank");
    static_assert(V >= 0 && V < r, "ck::wrapper::copy: VectorDim is not a mode of the tensors");
    static_assert(S >= 1, "ck::wrapper::copy: ScalarPerVector must be at least 1");
    static_assert(detail::is_tuple_v<DimAccessOrder> && detail::tuple_size_v<DimAccessOrder> == r,
                  "ck::wrapper::copy: DimAccessOrder names every mode once");
    static_assert(detail::vector_extent_divisible<V, S, LS>() && detail::vector_extent_divisible<V, S, LD>(),
                  "ck::wrapper::copy: the extent of VectorDim is not a multiple of ScalarPerVector");
    static_assert((SrcT::kOwning || detail::vector_mode_contiguous<V, S, LS>()) &&
                      (DstT::kOwning || detail::vector_mode_contiguous<V, S, LD>()),
                  "ck::wrapper::copy: VectorDim is not contiguous in memory (its innermost stride is not 1, or a "
                  "nested mode's innermost length is not a multiple of ScalarPerVector)");
    constexpr auto order = detail::access_order<DimAccessOrder, r>();
    static_assert(order[0] >= 0, "ck::wrapper::copy: DimAccessOrder is not a permutation of the modes");
    detail::check_vector_mode<V, S>(src);
    detail::check_vector_mode<V, S>(dst);

    using DT = typename DstT::DataType;
    // one run from its first element's logical indices (and its first register, when a register
    // tensor's registers are walked in order; else -1)
    const auto copy_run = [&](const auto& idx, index_t reg) {
        const auto v = detail::load_run<V, S>(src, idx, reg);
        ck_tile::thread_buffer<DT, S> w;
        ck_tile::static_for<0, S, 1>{}([&](auto k) { w[k] = ck_tile::type_convert<DT>(v[k]); });
        detail::store_run<V, S>(dst, idx, reg, w);
    };
    // compile-time extents (on either side: a register tensor's) unroll the runs, so that the
    // register indices are constants; otherwise a loop
    using ES               = typename LS::extents_type;
    using ED               = typename LD::extents_type;
    constexpr bool src_ct  = detail::static_extents_v<ES>;
    constexpr bool dst_ct  = detail::static_extents_v<ED>;
    constexpr bool src_reg = SrcT::kOwning, dst_reg = DstT::kOwning;
    if constexpr(src_ct || dst_ct)
    {
        constexpr auto runs     = detail::runs_per_mode<V, S>(std::conditional_t<src_ct, ES, ED>{});
        constexpr index_t total = detail::product(runs);
        ck_tile::static_for<0, total, 1>{}(
            [&](auto q) { copy_run(detail::run_start<V, S>(q.value, runs, order), -1); });
    }
    else if constexpr(src_reg || dst_reg)
    {
        // a register tensor of run-time extents: its registers in order, S at a time (its capacity
        // a compile-time bound); a run along the last mode is S consecutive registers
        static_assert(V == r - 1, "ck::wrapper::copy: a register tensor whose extents are run-time values takes "
                                  "vectors only along its last mode (VectorDim = rank - 1)");
        const auto& reg = [&]() -> const auto& {
            if constexpr(src_reg)
                return src;
            else
                return dst;
        }();
        constexpr index_t cap = detail::static_size<std::conditional_t<src_reg, LS, LD>>();
        const index_t n       = static_cast<index_t>(detail::shape_size(reg.layout_.extents_));
        ck_tile::static_for<0, cap / S, 1>{}([&](auto q) {
            if(q.value * S < n)
                copy_run(reg.storage_indices(q.value * S), q.value * S);
        });
    }
    else
    {
        const auto runs     = detail::runs_per_mode<V, S>(src.layout_.extents_);
        const index_t total = detail::product(runs);
        for(index_t q = 0; q < total; ++q)
            copy_run(detail::run_start<V, S>(q, runs, order), -1);
    }
}

template <typename DimAccessOrder, index_t VectorDim, index_t ScalarPerVector, MemoryTypeEnum MS, typename TS,
          typename LS, MemoryTypeEnum MD, typename TD, typename LD, typename ThreadLayout>
CK_TILE_HOST_DEVICE void blockwise_copy(const Tensor<MS, TS, LS>& src, Tensor<MD, TD, LD>& dst,
                                        const ThreadLayout& thread_layout)
{
    constexpr index_t r = LS::rank;
    static_assert(LD::rank == r && ThreadLayout::rank == r, "ck::wrapper::blockwise_copy: one thread mode per mode");
    const auto c = detail::thread_coordinate(thread_layout, ck_tile::get_thread_id());
    // per mode: threads P, elements per run V, runs per thread R
    index_t P[r], V[r], R[r], total = 1;
    ck_tile::static_for<0, r, 1>{}([&](auto i) {
        P[i]            = static_cast<index_t>(detail::shape_size(thread_layout.shape_.at(i)));
        V[i]            = i.value == VectorDim ? ScalarPerVector : 1;
        const index_t e = static_cast<index_t>(src.layout_.extents_.at(i));
        R[i]            = ck_tile::integer_divide_ceil(e, P[i] * V[i]);
        total *= R[i] * V[i];
    });
    typename LS::index_array idx{};
    for(index_t k = 0; k < total; ++k)
    {
        index_t rem = k;
        bool inside = true;
        for(index_t i = 0; i < r; ++i)
        {
            const index_t v = rem % V[i];
            rem /= V[i];
            const index_t rr = rem % R[i];
            rem /= R[i];
            idx[i] = (rr * P[i] + c[i]) * V[i] + v;
            inside = inside && idx[i] < static_cast<index_t>(0x7fffffff);
        }
        bool in_tile = true;
        ck_tile::static_for<0, r, 1>{}(
            [&](auto i) { in_tile = in_tile && idx[i] < static_cast<index_t>(src.layout_.extents_.at(i)); });
        if(in_tile && inside)
            dst.store(idx, ck_tile::type_convert<std::remove_const_t<TD>>(src.load(idx)));
    }
}

} // namespace ck::wrapper
