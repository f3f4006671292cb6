// SPDX-License-Identifier: MIT
// Copies between wrapper tensors of the same logical extents, converting the element type:
//
//   copy(src, dst)                                            the calling thread's elements
//   copy<DimAccessOrder, VectorDim, ScalarPerVector>(src, dst) the same, in runs of
//                                                            ScalarPerVector along VectorDim
//   blockwise_copy<DimAccessOrder, VectorDim, ScalarPerVector>(src, dst, thread_layout)
//     a tile copied by the whole block: along VectorDim the tile is cut into runs of
//     ScalarPerVector elements, and the runs of every mode are dealt to the threads of
//     thread_layout (a thread with coordinate c takes runs c_d, c_d + P_d, ...).
//
// An element a padded layout marks invalid is read as 0 and not written.
#pragma once
#include "ck/wrapper/tensor.hpp"
#include "ck/wrapper/utils/tensor_partition.hpp"

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
        // a register tensor keeps element i (column-major over its extents) in register i:
        // unrolled over its capacity, every register index is a compile-time constant
        constexpr index_t cap = src_reg ? detail::static_size<LS>() : detail::static_size<LD>();
        ck_tile::static_for<0, cap, 1>{}([&](auto i) {
            if(i.value < n)
            {
                const auto idx = src.layout_.unflatten(i.value);
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

template <typename DimAccessOrder, index_t VectorDim, index_t ScalarPerVector, typename Src, typename Dst>
CK_TILE_HOST_DEVICE constexpr void copy(const Src& src, Dst&& dst)
{
    static_assert(VectorDim >= 0 && VectorDim < std::remove_cvref_t<Src>::rank && ScalarPerVector >= 1);
    copy(src, dst);
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
