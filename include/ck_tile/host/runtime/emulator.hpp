// SPDX-License-Identifier: MIT
// Host-runtime half of the emulator backend: the few HIP runtime names that the library's host
// code uses, implemented on the CPU emulator. Device memory is emulator device memory
// (ck_tile::emu::device_malloc: guard pages, fault reports), which the host can also read and
// write directly; copies are plain memory copies. Launches are synchronous, so synchronisation is
// a no-op. Everything here is ordinary host code.
#pragma once

#include <cstddef>
#include <cstring>
#include <new>

#include "ck_tile/core/config.hpp"
#include "ck_tile/core/arch/emulator/memory.hpp"

struct dim3
{
    unsigned x = 1, y = 1, z = 1;
    constexpr dim3(unsigned x_ = 1, unsigned y_ = 1, unsigned z_ = 1) noexcept : x(x_), y(y_), z(z_) {}
};

using hipStream_t = struct ihipStream_t*;

// Same numeric values as HIP.
enum hipError_t
{
    hipSuccess                     = 0,
    hipErrorInvalidValue           = 1,
    hipErrorOutOfMemory            = 2,
    hipErrorInvalidConfiguration   = 9,
    hipErrorInvalidDevicePointer   = 17,
    hipErrorInvalidMemcpyDirection = 21,
    hipErrorLaunchFailure          = 719,
    hipErrorUnknown                = 999,
};

enum hipMemcpyKind
{
    hipMemcpyHostToHost     = 0,
    hipMemcpyHostToDevice   = 1,
    hipMemcpyDeviceToHost   = 2,
    hipMemcpyDeviceToDevice = 3,
    hipMemcpyDefault        = 4,
};

namespace ck_tile::emu::detail {
inline thread_local hipError_t t_last_hip_error = hipSuccess;

inline hipError_t hip_result(hipError_t e) noexcept
{
    if(e != hipSuccess)
        t_last_hip_error = e;
    return e;
}
} // namespace ck_tile::emu::detail

inline const char* hipGetErrorString(hipError_t e) noexcept
{
    switch(e)
    {
    case hipSuccess:
        return "no error";
    case hipErrorInvalidValue:
        return "invalid argument";
    case hipErrorOutOfMemory:
        return "out of memory";
    case hipErrorInvalidConfiguration:
        return "invalid configuration argument";
    case hipErrorInvalidDevicePointer:
        return "invalid device pointer";
    case hipErrorInvalidMemcpyDirection:
        return "invalid copy direction for memcpy";
    case hipErrorLaunchFailure:
        return "unspecified launch failure";
    case hipErrorUnknown:
        return "unknown error";
    }
    return "unrecognized error code";
}

// Returns the last error of a runtime call on this thread and resets it to hipSuccess.
inline hipError_t hipGetLastError() noexcept
{
    const hipError_t e                     = ck_tile::emu::detail::t_last_hip_error;
    ck_tile::emu::detail::t_last_hip_error = hipSuccess;
    return e;
}

inline hipError_t hipMalloc(void** ptr, std::size_t bytes) noexcept
{
    using ck_tile::emu::detail::hip_result;
    if(ptr == nullptr)
        return hip_result(hipErrorInvalidValue);
    try
    {
        *ptr = ck_tile::emu::device_malloc(bytes);
    }
    catch(...)
    {
        *ptr = nullptr;
        return hip_result(hipErrorOutOfMemory);
    }
    return hipSuccess;
}

template <typename T>
inline hipError_t hipMalloc(T** ptr, std::size_t bytes) noexcept
{
    return hipMalloc(reinterpret_cast<void**>(ptr), bytes);
}

inline hipError_t hipFree(void* ptr) noexcept
{
    if(ptr == nullptr)
        return hipSuccess;
    return ck_tile::emu::detail::device_free_if_owned(ptr) ? hipSuccess
                                                           : ck_tile::emu::detail::hip_result(hipErrorInvalidValue);
}

// Checks that the device side(s) of a copy lie inside live device allocations.
inline hipError_t hipMemcpy(void* dst, const void* src, std::size_t bytes, hipMemcpyKind kind) noexcept
{
    using ck_tile::emu::is_device_pointer;
    using ck_tile::emu::detail::hip_result;
    if(bytes == 0)
        return hipSuccess;
    if(dst == nullptr || src == nullptr)
        return hip_result(hipErrorInvalidValue);
    const bool dst_dev = kind == hipMemcpyHostToDevice || kind == hipMemcpyDeviceToDevice;
    const bool src_dev = kind == hipMemcpyDeviceToHost || kind == hipMemcpyDeviceToDevice;
    if(kind < hipMemcpyHostToHost || kind > hipMemcpyDefault)
        return hip_result(hipErrorInvalidMemcpyDirection);
    if((dst_dev && !is_device_pointer(dst, bytes)) || (src_dev && !is_device_pointer(src, bytes)))
        return hip_result(hipErrorInvalidValue);
    std::memmove(dst, src, bytes);
    return hipSuccess;
}

inline hipError_t hipMemset(void* dst, int value, std::size_t bytes) noexcept
{
    if(bytes == 0)
        return hipSuccess;
    if(!ck_tile::emu::is_device_pointer(dst, bytes))
        return ck_tile::emu::detail::hip_result(hipErrorInvalidValue);
    std::memset(dst, value, bytes);
    return hipSuccess;
}

inline hipError_t hipDeviceSynchronize() noexcept { return hipSuccess; }

inline hipError_t hipStreamSynchronize(hipStream_t) noexcept { return hipSuccess; }
