// SPDX-License-Identifier: MIT
// reference_copy: y = x element by element on the host, for checking copy kernels. x and y are
// HostTensors of the same lengths (any strides); the copy goes through their descriptors.
#pragma once
#include <stdexcept>
#include "ck_tile/host/host_tensor.hpp"

namespace ck_tile {

template <typename T>
void reference_copy(const HostTensor<T>& x, HostTensor<T>& y)
{
    if(x.get_lengths() != y.get_lengths())
        throw std::invalid_argument("reference_copy: x and y must have the same lengths");
    y.ForEach([&](auto& self, const auto& idx) { self(idx) = x(idx); });
}

} // namespace ck_tile
