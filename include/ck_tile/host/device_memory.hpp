// SPDX-License-Identifier: MIT
// DeviceMem: one buffer of device memory (GPU memory on the hip backend, the emulator's device
// memory on the emulator backend), owned for its lifetime.
//
//   ck_tile::DeviceMem a_buf(a_host.get_element_space_size_in_bytes());
//   a_buf.ToDevice(a_host.data());                 // copies GetBufferSize() bytes
//   kernel(..., static_cast<const half_t*>(a_buf.GetDeviceBuffer()), ...);
//   c_buf.FromDevice(c_host.data());
//
// Copies are synchronous (hipMemcpy). ToDevice(p) / FromDevice(p) copy the whole buffer, so the
// host side must hold at least GetBufferSize() bytes; the sized overloads copy fewer bytes and
// reject more than the buffer holds. A zero-byte DeviceMem owns no buffer (GetDeviceBuffer() is
// nullptr) and its copies and SetZero do nothing. Runtime errors throw std::runtime_error
// (HIP_CHECK_ERROR). Not copyable; movable (the moved-from object is left empty).
#pragma once
#include <cstddef>
#include <iostream>
#include <stdexcept>
#include <string>
#include <utility>

#include "ck_tile/core/config.hpp"
#include "ck_tile/host/hip_check_error.hpp"
#include "ck_tile/host/runtime/runtime.hpp"

namespace ck_tile {

struct DeviceMem
{
    DeviceMem() = default;

    explicit DeviceMem(std::size_t mem_size) { Allocate(mem_size); }

    DeviceMem(const DeviceMem&)            = delete;
    DeviceMem& operator=(const DeviceMem&) = delete;

    DeviceMem(DeviceMem&& other) noexcept
        : mpDeviceBuf(std::exchange(other.mpDeviceBuf, nullptr)), mMemSize(std::exchange(other.mMemSize, 0))
    {}

    DeviceMem& operator=(DeviceMem&& other) noexcept
    {
        if(this != &other)
        {
            Release();
            mpDeviceBuf = std::exchange(other.mpDeviceBuf, nullptr);
            mMemSize    = std::exchange(other.mMemSize, 0);
        }
        return *this;
    }

    ~DeviceMem() { Release(); }

    // Replaces the buffer by a new one of mem_size bytes; the old contents are not kept.
    void Realloc(std::size_t mem_size)
    {
        Release();
        Allocate(mem_size);
    }

    void* GetDeviceBuffer() const { return mpDeviceBuf; }
    std::size_t GetBufferSize() const { return mMemSize; }

    // Host -> device, the whole buffer.
    void ToDevice(const void* p) const { ToDevice(p, mMemSize); }

    // Host -> device, the first cpy_size bytes.
    void ToDevice(const void* p, std::size_t cpy_size) const
    {
        CheckSize(cpy_size, "ToDevice");
        if(cpy_size != 0)
            HIP_CHECK_ERROR(hipMemcpy(mpDeviceBuf, p, cpy_size, hipMemcpyHostToDevice));
    }

    // Device -> host, the whole buffer.
    void FromDevice(void* p) const { FromDevice(p, mMemSize); }

    // Device -> host, the first cpy_size bytes.
    void FromDevice(void* p, std::size_t cpy_size) const
    {
        CheckSize(cpy_size, "FromDevice");
        if(cpy_size != 0)
            HIP_CHECK_ERROR(hipMemcpy(p, mpDeviceBuf, cpy_size, hipMemcpyDeviceToHost));
    }

    // Sets every byte of the buffer to 0.
    void SetZero() const
    {
        if(mMemSize != 0)
            HIP_CHECK_ERROR(hipMemset(mpDeviceBuf, 0, mMemSize));
    }

private:
    void Allocate(std::size_t mem_size)
    {
        if(mem_size != 0)
        {
            void* p = nullptr;
            HIP_CHECK_ERROR(hipMalloc(&p, mem_size));
            mpDeviceBuf = p;
        }
        mMemSize = mem_size;
    }

    void Release() noexcept
    {
        if(mpDeviceBuf != nullptr)
        {
            // A destructor must not throw: report a failed free and go on.
            const hipError_t err = hipFree(mpDeviceBuf);
            if(err != hipSuccess)
                std::cerr << "warning: DeviceMem: hipFree failed: " << hipGetErrorString(err) << std::endl;
        }
        mpDeviceBuf = nullptr;
        mMemSize    = 0;
    }

    void CheckSize(std::size_t cpy_size, const char* what) const
    {
        if(cpy_size > mMemSize)
            throw std::out_of_range("DeviceMem::" + std::string(what) + ": " + std::to_string(cpy_size) +
                                    " bytes requested but the buffer " + "holds " + std::to_string(mMemSize));
    }

    void* mpDeviceBuf    = nullptr;
    std::size_t mMemSize = 0;
};

} // namespace ck_tile
