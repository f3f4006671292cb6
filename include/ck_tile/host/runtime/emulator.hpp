// SPDX-License-Identifier: MIT
// Host-runtime half of the emulator backend: the HIP runtime names that the library's host code
// and CK-style examples use (memory, copies, events, device properties, hipLaunchKernelGGL),
// implemented on the CPU emulator. Device memory is emulator device memory
// (ck_tile::emu::device_malloc: guard pages, fault reports), which the host can also read and
// write directly; copies are plain memory copies. Launches are synchronous, so synchronisation is
// a no-op, an event records the wall clock, and the async calls are their synchronous forms. There
// is one device, the emulated arch (its facts from the arch table). Everything here is ordinary
// host code.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <exception>
#include <new>
#include <string>

#include <unistd.h>

#include "ck_tile/core/config.hpp"
#include "ck_tile/core/arch/arch_table.hpp"
#include "ck_tile/core/arch/emulator/arch_traits.hpp"
#include "ck_tile/core/arch/emulator/launch.hpp"
#include "ck_tile/core/arch/emulator/memory.hpp"

struct dim3
{
    unsigned x = 1, y = 1, z = 1;
    constexpr dim3(unsigned x_ = 1, unsigned y_ = 1, unsigned z_ = 1) noexcept : x(x_), y(y_), z(z_) {}
};

using hipStream_t = struct ihipStream_t*;
using hipEvent_t  = struct ihipEvent_t*;

// Same numeric values as HIP.
enum hipError_t
{
    hipSuccess                     = 0,
    hipErrorInvalidValue           = 1,
    hipErrorOutOfMemory            = 2,
    hipErrorInvalidConfiguration   = 9,
    hipErrorInvalidDevice          = 101,
    hipErrorInvalidResourceHandle  = 400,
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
    case hipErrorInvalidDevice:
        return "invalid device ordinal";
    case hipErrorInvalidResourceHandle:
        return "invalid resource handle";
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

// The last error of a runtime call on this thread, left as it is.
inline hipError_t hipPeekAtLastError() noexcept { return ck_tile::emu::detail::t_last_hip_error; }

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

inline hipError_t hipMemcpyAsync(void* dst, const void* src, std::size_t bytes, hipMemcpyKind kind,
                                 hipStream_t = nullptr) noexcept
{
    return hipMemcpy(dst, src, bytes, kind);
}

inline hipError_t hipMemsetAsync(void* dst, int value, std::size_t bytes, hipStream_t = nullptr) noexcept
{
    return hipMemset(dst, value, bytes);
}

struct ihipStream_t
{};

// Streams: every launch is synchronous, so a stream is only a handle (the null stream or this one).
inline hipError_t hipStreamCreate(hipStream_t* stream) noexcept
{
    if(stream == nullptr)
        return ck_tile::emu::detail::hip_result(hipErrorInvalidValue);
    static ihipStream_t the_stream;
    *stream = &the_stream;
    return hipSuccess;
}

inline hipError_t hipStreamDestroy(hipStream_t) noexcept { return hipSuccess; }

// ---- devices: one, the emulated arch -------------------------------------------------------------

inline hipError_t hipGetDeviceCount(int* count) noexcept
{
    if(count == nullptr)
        return ck_tile::emu::detail::hip_result(hipErrorInvalidValue);
    *count = 1;
    return hipSuccess;
}

inline hipError_t hipGetDevice(int* device) noexcept
{
    if(device == nullptr)
        return ck_tile::emu::detail::hip_result(hipErrorInvalidValue);
    *device = 0;
    return hipSuccess;
}

inline hipError_t hipSetDevice(int device) noexcept
{
    return device == 0 ? hipSuccess : ck_tile::emu::detail::hip_result(hipErrorInvalidDevice);
}

// The fields CK-style host code reads. Facts of the arch come from the arch table; the rest
// describe the emulator: device memory is host memory, and multiProcessorCount is the number of OS
// threads that run workgroups.
struct hipDeviceProp_t
{
    char name[256];
    char gcnArchName[256];
    std::size_t totalGlobalMem;
    std::size_t sharedMemPerBlock;
    std::size_t maxSharedMemoryPerMultiProcessor;
    int warpSize;
    int maxThreadsPerBlock;
    int maxThreadsDim[3];
    int maxGridSize[3];
    int multiProcessorCount;
};

inline hipError_t hipGetDeviceProperties(hipDeviceProp_t* prop, int device) noexcept
{
    using ck_tile::emu::detail::hip_result;
    if(prop == nullptr)
        return hip_result(hipErrorInvalidValue);
    if(device != 0)
        return hip_result(hipErrorInvalidDevice);
    const auto& arch = ck_tile::compiled_arch_info();
    *prop            = hipDeviceProp_t{};
    std::snprintf(prop->name, sizeof(prop->name), "CK Tile CPU emulator (%s)", arch.name);
    std::snprintf(prop->gcnArchName, sizeof(prop->gcnArchName), "%s", arch.name);
    prop->totalGlobalMem =
        static_cast<std::size_t>(sysconf(_SC_PHYS_PAGES)) * static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    prop->sharedMemPerBlock                = static_cast<std::size_t>(arch.lds_bytes);
    prop->maxSharedMemoryPerMultiProcessor = static_cast<std::size_t>(arch.lds_bytes);
    prop->warpSize                         = static_cast<int>(arch.wave_size);
    prop->maxThreadsPerBlock               = static_cast<int>(ck_tile::emu::max_threads_per_block);
    prop->maxThreadsDim[0] = prop->maxThreadsDim[1] = prop->maxThreadsDim[2] = prop->maxThreadsPerBlock;
    prop->maxGridSize[0] = prop->maxGridSize[1] = prop->maxGridSize[2] = 0x7fffffff;
    prop->multiProcessorCount = static_cast<int>(ck_tile::emu::worker_threads());
    return hipSuccess;
}

// ---- events: the wall clock (launches are synchronous) --------------------------------------------

struct ihipEvent_t
{
    std::chrono::steady_clock::time_point time{};
    bool recorded = false;
};

inline hipError_t hipEventCreate(hipEvent_t* event) noexcept
{
    if(event == nullptr)
        return ck_tile::emu::detail::hip_result(hipErrorInvalidValue);
    *event = new(std::nothrow) ihipEvent_t{};
    return *event != nullptr ? hipSuccess : ck_tile::emu::detail::hip_result(hipErrorOutOfMemory);
}

inline hipError_t hipEventDestroy(hipEvent_t event) noexcept
{
    if(event == nullptr)
        return ck_tile::emu::detail::hip_result(hipErrorInvalidResourceHandle);
    delete event;
    return hipSuccess;
}

inline hipError_t hipEventRecord(hipEvent_t event, hipStream_t = nullptr) noexcept
{
    if(event == nullptr)
        return ck_tile::emu::detail::hip_result(hipErrorInvalidResourceHandle);
    event->time     = std::chrono::steady_clock::now();
    event->recorded = true;
    return hipSuccess;
}

inline hipError_t hipEventSynchronize(hipEvent_t event) noexcept
{
    return event != nullptr ? hipSuccess : ck_tile::emu::detail::hip_result(hipErrorInvalidResourceHandle);
}

inline hipError_t hipEventQuery(hipEvent_t event) noexcept { return hipEventSynchronize(event); }

inline hipError_t hipEventElapsedTime(float* ms, hipEvent_t start, hipEvent_t stop) noexcept
{
    using ck_tile::emu::detail::hip_result;
    if(ms == nullptr)
        return hip_result(hipErrorInvalidValue);
    if(start == nullptr || stop == nullptr || !start->recorded || !stop->recorded)
        return hip_result(hipErrorInvalidResourceHandle);
    *ms = std::chrono::duration<float, std::milli>(stop->time - start->time).count();
    return hipSuccess;
}

// ---- kernel launch ------------------------------------------------------------------------------

namespace ck_tile::emu::detail {

// hipLaunchKernelGGL: runs kernel(args...) as every work-item of the grid (launch.hpp). The
// arguments are copied once, as a launch copies them to the device, and converted to the kernel's
// parameter types at each call. An error is what hipGetLastError() returns next (and is printed,
// since on a GPU a faulting kernel is reported too).
template <typename Kernel, typename... Args>
void hip_launch_kernel(const char* name, Kernel* kernel, dim3 grid, dim3 block, std::size_t dynamic_lds_bytes,
                       hipStream_t, const Args&... args) noexcept
{
    try
    {
        launch_params p;
        p.grid              = {grid.x, grid.y, grid.z};
        p.block             = {block.x, block.y, block.z};
        p.dynamic_lds_bytes = dynamic_lds_bytes;
        p.kernel_name       = name;
        launch(p, [kernel, args...] { kernel(args...); });
    }
    catch(const launch_error& e)
    {
        std::fprintf(stderr, "hipLaunchKernelGGL: %s\n", e.what());
        hip_result(hipErrorLaunchFailure);
    }
    catch(const std::exception& e)
    {
        std::fprintf(stderr, "hipLaunchKernelGGL(%s): %s\n", name, e.what());
        hip_result(hipErrorLaunchFailure);
    }
    catch(...)
    {
        std::fprintf(stderr, "hipLaunchKernelGGL(%s): the kernel threw\n", name);
        hip_result(hipErrorLaunchFailure);
    }
}

} // namespace ck_tile::emu::detail

// hipLaunchKernelGGL(kernel, grid, block, dynamic_lds_bytes, stream, args...), as on hip. A kernel
// that is a template-id with commas needs parentheses, as there.
#define hipLaunchKernelGGL(kernel, ...) ::ck_tile::emu::detail::hip_launch_kernel(#kernel, &(kernel), __VA_ARGS__)
