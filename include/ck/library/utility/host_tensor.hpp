// SPDX-License-Identifier: MIT
// Classic CK's host tensors over CK Tile's: HostTensorDescriptor is ck_tile::HostTensorDescriptor
// with the classic method names added, Tensor<T> is ck_tile::HostTensor<T> with the classic ones
// (GetLengths, GetElementSpaceSizeInBytes, GenerateTensorValue, ...). Both print as CK Tile's:
// "dim 2, lengths {3, 4}, strides {4, 1}". mDesc and mData are the CK Tile members.
#pragma once
#include <cstddef>
#include <vector>
#include "ck_tile/host/host_tensor.hpp"

struct HostTensorDescriptor : ck_tile::HostTensorDescriptor
{
    using ck_tile::HostTensorDescriptor::HostTensorDescriptor;
    HostTensorDescriptor() = default;
    HostTensorDescriptor(const ck_tile::HostTensorDescriptor& d) : ck_tile::HostTensorDescriptor(d) {}

    std::size_t GetNumOfDimension() const { return get_num_of_dimension(); }
    const std::vector<std::size_t>& GetLengths() const { return get_lengths(); }
    const std::vector<std::size_t>& GetStrides() const { return get_strides(); }
    std::size_t GetElementSize() const { return get_element_size(); }
    std::size_t GetElementSpaceSize() const { return get_element_space_size(); }
};

template <typename T>
struct Tensor : ck_tile::HostTensor<T>
{
    using Base = ck_tile::HostTensor<T>;
    using Base::Base;
    Tensor() = default;
    Tensor(const HostTensorDescriptor& d) : Base(static_cast<const ck_tile::HostTensorDescriptor&>(d)) {}

    std::size_t GetNumOfDimension() const { return this->get_num_of_dimension(); }
    const std::vector<std::size_t>& GetLengths() const { return this->get_lengths(); }
    const std::vector<std::size_t>& GetStrides() const { return this->get_strides(); }
    std::size_t GetElementSize() const { return this->get_element_size(); }
    std::size_t GetElementSpaceSize() const { return this->get_element_space_size(); }
    std::size_t GetElementSpaceSizeInBytes() const { return this->get_element_space_size_in_bytes(); }

    // element(idx) = g(idx...) for every multi-index (classic CK's generators take the indices)
    template <typename G>
    void GenerateTensorValue(G g)
    {
        this->ForEach([&](auto& self, const std::vector<std::size_t>& idx) { self(idx) = g(idx); });
    }
};
