// SPDX-License-Identifier: MIT
// DeviceMem: classic CK's device buffer, which is ck_tile::DeviceMem (GetDeviceBuffer, ToDevice,
// FromDevice, SetZero, GetBufferSize, Realloc), plus classic CK's SetValue.
#pragma once
#include <cstddef>
#include <vector>
#include "ck_tile/host/device_memory.hpp"

struct DeviceMem : ck_tile::DeviceMem
{
    using ck_tile::DeviceMem::DeviceMem;
    DeviceMem() = default;

    // every element of the buffer (as T) set to x
    template <typename T>
    void SetValue(T x) const
    {
        const std::vector<T> v(GetBufferSize() / sizeof(T), x);
        if(!v.empty())
            ToDevice(v.data(), v.size() * sizeof(T));
    }
};
