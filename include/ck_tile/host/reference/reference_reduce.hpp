// SPDX-License-Identifier: MIT
// reference_reduce: y = reduce over the reduce_dims of x, for each index of the kept dims, on the
// host (upstream's name and argument order):
//
//   ck_tile::reference_reduce<XDataType, ComputeDataType, YDataType>(x, y, ReduceOp::Add{},
//                                                                    sequence<1, 2, 3>{}, sequence<0>{});
//
// y has the kept dimensions in the order kept_dim lists them. Each result starts at the op's
// identity and takes x's values in row-major order of the reduce dims, in ComputeDataType; it is
// converted to YDataType at the end. reference_multiple_reduce does the same for a tuple of ops
// into a tuple of y tensors (the MultiReduce kernels' check).
//
// reference_multiple_reduce_multiblock (MultiReduceMultiblock's check, upstream's arguments) splits
// each reduction, in row-major order of the reduce dims, into num_blocks chunks of
// ceil(length / num_blocks) values. Per chunk and op i: v = elementwise_ops[i](x) for each value,
// folded with reduce_ops[i] from its identity; the chunk's result goes through accumulator_ops[i]
// and is converted to YDataType; y = inter_block_reduce_ops[i](y, that), y starting at the
// inter-block op's identity.
#pragma once
#include <algorithm>
#include <cstddef>
#include <stdexcept>
#include <vector>
#include "ck_tile/core.hpp"
#include "ck_tile/host/host_tensor.hpp"

namespace ck_tile {

namespace detail {
// offsets of x for every kept index (row-major over kept dims) and every reduce index
struct reduce_offsets
{
    std::vector<std::size_t> kept, reduce;
};

template <typename XTensor, index_t... Ks, index_t... Rs>
reduce_offsets make_reduce_offsets(const XTensor& x, sequence<Ks...>, sequence<Rs...>)
{
    if(sizeof...(Ks) + sizeof...(Rs) != x.get_num_of_dimension())
        throw std::invalid_argument("reference_reduce: kept and reduced dims must cover x's dimensions");
    const auto walk = [&](std::initializer_list<index_t> dims) {
        std::vector<std::size_t> offs{0};
        for(index_t d : dims)
        {
            std::vector<std::size_t> next;
            next.reserve(offs.size() * x.get_length(d));
            for(std::size_t o : offs)
                for(std::size_t i = 0; i < x.get_length(d); ++i)
                    next.push_back(o + i * x.get_stride(d));
            offs.swap(next);
        }
        return offs;
    };
    return {walk({Ks...}), walk({Rs...})};
}
} // namespace detail

template <typename XDataType, typename ComputeDataType, typename YDataType, typename ReduceOp, typename KeptDim,
          typename ReduceDims>
void reference_reduce(const HostTensor<XDataType>& x, HostTensor<YDataType>& y, ReduceOp op, KeptDim kept_dim,
                      ReduceDims reduce_dims)
{
    const auto offs = detail::make_reduce_offsets(x, kept_dim, reduce_dims);
    if(y.get_element_size() != offs.kept.size())
        throw std::invalid_argument("reference_reduce: y must have the kept dims' size");
    const XDataType* px = x.data();
    // y is written in row-major order of its own index, which is the order of kept_dim
    std::vector<std::size_t> y_offs{0};
    for(std::size_t d = 0; d < y.get_num_of_dimension(); ++d)
    {
        std::vector<std::size_t> next;
        for(std::size_t o : y_offs)
            for(std::size_t i = 0; i < y.get_length(d); ++i)
                next.push_back(o + i * y.get_stride(d));
        y_offs.swap(next);
    }
    for(std::size_t k = 0; k < offs.kept.size(); ++k)
    {
        auto acc = op.template GetIdentityValue<ComputeDataType>();
        for(std::size_t r : offs.reduce)
            acc = op(acc, type_convert<ComputeDataType>(px[offs.kept[k] + r]));
        y.data()[y_offs[k]] = type_convert<YDataType>(acc);
    }
}

template <typename XDataType, typename ComputeDataType, typename YDataType, typename... YTensors, typename... ReduceOps,
          typename KeptDim, typename ReduceDims>
void reference_multiple_reduce(const HostTensor<XDataType>& x, tuple<YTensors...>& ys, tuple<ReduceOps...> ops,
                               KeptDim kept_dim, ReduceDims reduce_dims)
{
    static_assert(sizeof...(YTensors) == sizeof...(ReduceOps), "reference_multiple_reduce: one y per op");
    static_for<0, sizeof...(ReduceOps)>{}([&](auto i) {
        reference_reduce<XDataType, ComputeDataType, YDataType>(x, ys.at(i), ops.at(i), kept_dim, reduce_dims);
    });
}

template <typename XDataType, typename ComputeDataType, typename YDataType, typename... YTensors, typename... ReduceOps,
          typename KeptDim, typename ReduceDims, typename... ElementwiseOps, typename... AccOps,
          typename... InterBlockOps>
void reference_multiple_reduce_multiblock(const HostTensor<XDataType>& x, tuple<YTensors...>& ys,
                                          tuple<ReduceOps...> reduce_ops, KeptDim kept_dim, ReduceDims reduce_dims,
                                          tuple<ElementwiseOps...> elementwise_ops, tuple<AccOps...> accumulator_ops,
                                          tuple<InterBlockOps...> inter_block_reduce_ops, index_t num_blocks)
{
    constexpr index_t kOps = sizeof...(ReduceOps);
    static_assert(sizeof...(YTensors) == kOps && sizeof...(ElementwiseOps) == kOps && sizeof...(AccOps) == kOps &&
                      sizeof...(InterBlockOps) == kOps,
                  "reference_multiple_reduce_multiblock: one y and one op of each kind per reduction");
    if(num_blocks < 1)
        throw std::invalid_argument("reference_multiple_reduce_multiblock: num_blocks must be >= 1");
    const auto offs           = detail::make_reduce_offsets(x, kept_dim, reduce_dims);
    const std::size_t length  = offs.reduce.size();
    const std::size_t per_blk = (length + num_blocks - 1) / num_blocks;
    const XDataType* px       = x.data();
    static_for<0, kOps>{}([&](auto i) {
        auto& y = ys.at(i);
        if(y.get_element_size() != offs.kept.size())
            throw std::invalid_argument("reference_multiple_reduce_multiblock: each y must have the kept dims' size");
        // y is packed in row-major order of the kept dims
        for(std::size_t k = 0; k < offs.kept.size(); ++k)
        {
            auto yv = inter_block_reduce_ops.at(i).template GetIdentityValue<YDataType>();
            for(std::size_t b0 = 0; b0 < length; b0 += per_blk)
            {
                auto acc = reduce_ops.at(i).template GetIdentityValue<ComputeDataType>();
                for(std::size_t r = b0; r < std::min(length, b0 + per_blk); ++r)
                {
                    ComputeDataType v{};
                    elementwise_ops.at(i)(v, type_convert<ComputeDataType>(px[offs.kept[k] + offs.reduce[r]]));
                    acc = reduce_ops.at(i)(acc, v);
                }
                accumulator_ops.at(i)(acc, acc);
                yv = inter_block_reduce_ops.at(i)(yv, type_convert<YDataType>(acc));
            }
            y.data()[k] = yv;
        }
    });
}

} // namespace ck_tile
