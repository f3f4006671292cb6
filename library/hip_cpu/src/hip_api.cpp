// SPDX-License-Identifier: MIT
// hip-cpu's HIP runtime API (<hip/hip_runtime_api.h>), all but the launch (hip_register.cpp):
//
//   errors       the thread's last error; names and descriptions from hip/hip_cpu_errors.def
//   memory       hipMalloc/hipFree/hipHostMalloc through memory.hpp (host memory, tracked per
//                allocation); copies and sets are memmove/memset, the device side of each checked
//                to lie inside one allocation (which real hardware would not report)
//   device       one device, described from the running arch (hip_cpu::running_arch(): properties,
//                attributes)
//   streams, events   handles: every call is synchronous; events read the steady clock
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <exception>
#include <string>
#include <string_view>
#include <unistd.h>

#include "hip_api.hpp"
#include "launch.hpp"
#include "memory.hpp"

namespace hip_cpu::api {

namespace {
thread_local hipError_t last_error = hipSuccess;
}

hipError_t result(hipError_t e)
{
    if(e != hipSuccess)
        last_error = e;
    return e;
}

hipError_t refuse(hipError_t e, const std::string& why)
{
    std::fprintf(stderr, "%s%s\n", why.rfind("hip-cpu:", 0) == 0 ? "" : "hip-cpu: ", why.c_str());
    return result(e);
}

std::string address(const void* p)
{
    char s[32];
    std::snprintf(s, sizeof(s), "%p", p);
    return s;
}

} // namespace hip_cpu::api

using hip_cpu::api::address;
using hip_cpu::api::refuse;
using hip_cpu::api::result;

namespace {

// ---- the device -------------------------------------------------------------------------------
struct arch_facts
{
    const char* name;
    int lds_kib;
    int wave;
    int compute_units;
    int major, minor;
    int clock_khz;
};

// wave and LDS from the project's arch table; compute units, version and peak engine clock of the
// archs' largest parts (MI300X, MI355X)
constexpr int arch_compute_units(std::string_view a) { return a == "gfx942" ? 304 : 256; }
constexpr int arch_minor(std::string_view a) { return a == "gfx942" ? 4 : 5; }
constexpr int arch_clock_khz(std::string_view a) { return a == "gfx942" ? 2100000 : 2400000; }
constexpr arch_facts known_archs[] = {
#define CK_TILE_ARCH(NAME, WAVE, LDS_KIB, FP8, MFMA, LDS_TR)                                                           \
    {#NAME, LDS_KIB, WAVE, arch_compute_units(#NAME), 9, arch_minor(#NAME), arch_clock_khz(#NAME)},
#include "ck_tile/core/arch/arch_table.def"
#undef CK_TILE_ARCH
};

// The running arch's facts, or a refusal (no arch: no code object registered and no
// CK_TILE_HIP_CPU_ARCH, or an arch hip-cpu does not run).
hipError_t device_arch(const arch_facts*& out)
{
    std::string arch;
    try
    {
        arch = hip_cpu::running_arch();
    }
    catch(const std::exception& e)
    {
        return refuse(hipErrorNoDevice, e.what());
    }
    for(const auto& a : known_archs)
        if(arch == a.name)
        {
            out = &a;
            return hipSuccess;
        }
    return refuse(hipErrorNoDevice, "the running arch " + arch + " is not in the arch table");
}

std::size_t host_memory()
{
    return static_cast<std::size_t>(sysconf(_SC_PHYS_PAGES)) * static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
}

// ---- memory ---------------------------------------------------------------------------------
// Whether [p, p + size) lies inside one allocation (hipMalloc, hipHostMalloc or tracked memory).
bool in_allocation(const void* p, std::size_t size)
{
    hip_cpu::allocation a;
    return hip_cpu::find_allocation(reinterpret_cast<std::uint64_t>(p), size, a);
}

hipError_t check_device_range(const char* call, const char* side, const void* p, std::size_t size)
{
    if(size == 0 || in_allocation(p, size))
        return hipSuccess;
    return refuse(hipErrorInvalidValue, std::string(call) + ": the " + side + " range " + address(p) + " + " +
                                            std::to_string(size) + " bytes is not inside one device allocation");
}

hipError_t copy(void* dst, const void* src, std::size_t size, hipMemcpyKind kind, const char* call)
{
    if(size == 0)
        return hipSuccess;
    if(dst == nullptr || src == nullptr)
        return result(hipErrorInvalidValue);
    if(kind < hipMemcpyHostToHost || kind > hipMemcpyDefault)
        return result(hipErrorInvalidMemcpyDirection);
    if(kind == hipMemcpyDeviceToHost || kind == hipMemcpyDeviceToDevice)
        if(auto e = check_device_range(call, "source", src, size); e != hipSuccess)
            return e;
    if(kind == hipMemcpyHostToDevice || kind == hipMemcpyDeviceToDevice)
        if(auto e = check_device_range(call, "destination", dst, size); e != hipSuccess)
            return e;
    std::memmove(dst, src, size);
    return hipSuccess;
}

hipError_t set(void* dst, int value, std::size_t size, const char* call)
{
    if(size == 0)
        return hipSuccess;
    if(dst == nullptr)
        return result(hipErrorInvalidValue);
    if(auto e = check_device_range(call, "destination", dst, size); e != hipSuccess)
        return e;
    std::memset(dst, value, size);
    return hipSuccess;
}

} // namespace

struct ihipStream_t
{
    int unused = 0;
};
struct ihipEvent_t
{
    bool recorded = false;
    std::chrono::steady_clock::time_point time;
};

extern "C" {

// ---- errors -----------------------------------------------------------------------------------
const char* hipGetErrorName(hipError_t error)
{
    switch(error)
    {
#define HIP_CPU_ERROR(NAME, VALUE, TEXT)                                                                               \
    case NAME:                                                                                                         \
        return #NAME;
#include "hip/hip_cpu_errors.def"
#undef HIP_CPU_ERROR
    }
    return "hipErrorUnknown";
}

const char* hipGetErrorString(hipError_t error)
{
    switch(error)
    {
#define HIP_CPU_ERROR(NAME, VALUE, TEXT)                                                                               \
    case NAME:                                                                                                         \
        return TEXT;
#include "hip/hip_cpu_errors.def"
#undef HIP_CPU_ERROR
    }
    return "unknown error";
}

hipError_t hipGetLastError(void)
{
    const hipError_t e       = hip_cpu::api::last_error;
    hip_cpu::api::last_error = hipSuccess;
    return e;
}

hipError_t hipPeekAtLastError(void) { return hip_cpu::api::last_error; }

// ---- memory -----------------------------------------------------------------------------------
hipError_t hipMalloc(void** ptr, std::size_t size)
{
    if(ptr == nullptr)
        return result(hipErrorInvalidValue);
    *ptr = nullptr;
    if(size == 0)
        return hipSuccess;
    *ptr = hip_cpu::allocate(size);
    return *ptr != nullptr ? hipSuccess : result(hipErrorOutOfMemory);
}

hipError_t hipFree(void* ptr)
{
    if(ptr == nullptr || hip_cpu::release(ptr))
        return hipSuccess;
    return refuse(hipErrorInvalidValue, "hipFree: " + address(ptr) + " is not an allocation (or was already freed)");
}

// Host memory kernels may address, as pinned memory on a GPU: the same tracked allocation.
hipError_t hipHostMalloc(void** ptr, std::size_t size, unsigned flags)
{
    (void)flags;
    return hipMalloc(ptr, size);
}

hipError_t hipHostFree(void* ptr) { return hipFree(ptr); }

hipError_t hipMemGetInfo(std::size_t* free, std::size_t* total)
{
    if(free == nullptr || total == nullptr)
        return result(hipErrorInvalidValue);
    *total = host_memory();
    *free  = static_cast<std::size_t>(sysconf(_SC_AVPHYS_PAGES)) * static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    return hipSuccess;
}

hipError_t hipMemcpy(void* dst, const void* src, std::size_t size, hipMemcpyKind kind)
{
    return copy(dst, src, size, kind, "hipMemcpy");
}

hipError_t hipMemcpyAsync(void* dst, const void* src, std::size_t size, hipMemcpyKind kind, hipStream_t)
{
    return copy(dst, src, size, kind, "hipMemcpyAsync");
}

hipError_t hipMemset(void* dst, int value, std::size_t size) { return set(dst, value, size, "hipMemset"); }

hipError_t hipMemsetAsync(void* dst, int value, std::size_t size, hipStream_t)
{
    return set(dst, value, size, "hipMemsetAsync");
}

// ---- device -----------------------------------------------------------------------------------
hipError_t hipGetDeviceCount(int* count)
{
    if(count == nullptr)
        return result(hipErrorInvalidValue);
    *count = 1;
    return hipSuccess;
}

hipError_t hipGetDevice(int* device)
{
    if(device == nullptr)
        return result(hipErrorInvalidValue);
    *device = 0;
    return hipSuccess;
}

hipError_t hipSetDevice(int device) { return device == 0 ? hipSuccess : result(hipErrorInvalidDevice); }

hipError_t hipGetDeviceProperties(hipDeviceProp_t* prop, int device)
{
    if(prop == nullptr)
        return result(hipErrorInvalidValue);
    if(device != 0)
        return result(hipErrorInvalidDevice);
    const arch_facts* a = nullptr;
    if(auto e = device_arch(a); e != hipSuccess)
        return e;
    *prop = hipDeviceProp_t{};
    std::snprintf(prop->name, sizeof(prop->name), "hip-cpu %s", a->name);
    std::snprintf(prop->gcnArchName, sizeof(prop->gcnArchName), "%s:sramecc+:xnack-", a->name);
    prop->totalGlobalMem                   = host_memory();
    prop->sharedMemPerBlock                = std::size_t(a->lds_kib) * 1024;
    prop->maxSharedMemoryPerMultiProcessor = std::size_t(a->lds_kib) * 1024;
    prop->warpSize                         = a->wave;
    prop->maxThreadsPerBlock               = 1024;
    prop->maxThreadsDim[0] = prop->maxThreadsDim[1] = prop->maxThreadsDim[2] = 1024;
    prop->maxGridSize[0] = prop->maxGridSize[1] = prop->maxGridSize[2] = 0x7fffffff;
    prop->maxThreadsPerMultiProcessor                                  = 2048;
    prop->multiProcessorCount                                          = a->compute_units;
    prop->clockRate                                                    = a->clock_khz;
    prop->major                                                        = a->major;
    prop->minor                                                        = a->minor;
    prop->l2CacheSize                                                  = 4 << 20;
    return hipSuccess;
}

hipError_t hipDeviceGetAttribute(int* value, hipDeviceAttribute_t attr, int device)
{
    if(value == nullptr)
        return result(hipErrorInvalidValue);
    hipDeviceProp_t p;
    if(auto e = hipGetDeviceProperties(&p, device); e != hipSuccess)
        return e;
    switch(attr)
    {
    case hipDeviceAttributeMaxThreadsPerBlock:
        *value = p.maxThreadsPerBlock;
        break;
    case hipDeviceAttributeMaxBlockDimX:
        *value = p.maxThreadsDim[0];
        break;
    case hipDeviceAttributeMaxBlockDimY:
        *value = p.maxThreadsDim[1];
        break;
    case hipDeviceAttributeMaxBlockDimZ:
        *value = p.maxThreadsDim[2];
        break;
    case hipDeviceAttributeMaxGridDimX:
        *value = p.maxGridSize[0];
        break;
    case hipDeviceAttributeMaxGridDimY:
        *value = p.maxGridSize[1];
        break;
    case hipDeviceAttributeMaxGridDimZ:
        *value = p.maxGridSize[2];
        break;
    case hipDeviceAttributeMaxSharedMemoryPerBlock:
        *value = static_cast<int>(p.sharedMemPerBlock);
        break;
    case hipDeviceAttributeMaxSharedMemoryPerMultiprocessor:
        *value = static_cast<int>(p.maxSharedMemoryPerMultiProcessor);
        break;
    case hipDeviceAttributeWarpSize:
        *value = p.warpSize;
        break;
    case hipDeviceAttributeMultiprocessorCount:
        *value = p.multiProcessorCount;
        break;
    case hipDeviceAttributeClockRate:
        *value = p.clockRate;
        break;
    case hipDeviceAttributeComputeCapabilityMajor:
        *value = p.major;
        break;
    case hipDeviceAttributeComputeCapabilityMinor:
        *value = p.minor;
        break;
    default:
        return result(hipErrorInvalidValue);
    }
    return hipSuccess;
}

hipError_t hipDeviceGetPCIBusId(char* bus_id, int len, int device)
{
    if(bus_id == nullptr || len <= 0)
        return result(hipErrorInvalidValue);
    if(device != 0)
        return result(hipErrorInvalidDevice);
    std::snprintf(bus_id, static_cast<std::size_t>(len), "0000:00:00.0");
    return hipSuccess;
}

hipError_t hipDeviceSynchronize(void) { return hipSuccess; }
hipError_t hipDeviceReset(void) { return hipSuccess; }

// ---- streams and events -------------------------------------------------------------------------
hipError_t hipStreamCreate(hipStream_t* stream)
{
    if(stream == nullptr)
        return result(hipErrorInvalidValue);
    *stream = new ihipStream_t;
    return hipSuccess;
}

hipError_t hipStreamDestroy(hipStream_t stream)
{
    if(stream == nullptr)
        return result(hipErrorInvalidHandle);
    delete stream;
    return hipSuccess;
}

hipError_t hipStreamSynchronize(hipStream_t) { return hipSuccess; }
hipError_t hipStreamQuery(hipStream_t) { return hipSuccess; }

hipError_t hipEventCreate(hipEvent_t* event)
{
    if(event == nullptr)
        return result(hipErrorInvalidValue);
    *event = new ihipEvent_t;
    return hipSuccess;
}

hipError_t hipEventDestroy(hipEvent_t event)
{
    if(event == nullptr)
        return result(hipErrorInvalidHandle);
    delete event;
    return hipSuccess;
}

hipError_t hipEventRecord(hipEvent_t event, hipStream_t)
{
    if(event == nullptr)
        return result(hipErrorInvalidHandle);
    event->time     = std::chrono::steady_clock::now();
    event->recorded = true;
    return hipSuccess;
}

hipError_t hipEventSynchronize(hipEvent_t event)
{
    return event != nullptr ? hipSuccess : result(hipErrorInvalidHandle);
}

hipError_t hipEventQuery(hipEvent_t event) { return hipEventSynchronize(event); }

hipError_t hipEventElapsedTime(float* ms, hipEvent_t start, hipEvent_t stop)
{
    if(ms == nullptr)
        return result(hipErrorInvalidValue);
    if(start == nullptr || stop == nullptr || !start->recorded || !stop->recorded)
        return result(hipErrorInvalidHandle);
    *ms = std::chrono::duration<float, std::milli>(stop->time - start->time).count();
    return hipSuccess;
}

} // extern "C"
