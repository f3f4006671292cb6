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
#pragma once
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

} // namespace ck_tile
