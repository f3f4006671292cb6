// SPDX-License-Identifier: MIT
// hip-cpu's <hip/hip_runtime_api.h>: the host half of the HIP API, the small subset this project and
// plain HIP programs use. It is on the include path only of hip builds that run on hip-cpu
// (CK_TILE_HIP_RUNTIME=cpu: no ROCm on the machine); a ROCm build gets ROCm's header instead.
// Written for hip-cpu: names, signatures and enumerator values are HIP's, so sources are HIP
// sources, but the structs are hip-cpu's own (source compatible, not binary compatible).
//
// Implemented by library/hip_cpu/src/hip_api.cpp, which also compiles this header as plain C++.
// Everything is synchronous: device memory is host memory, a launch runs to completion before
// hipLaunchKernel returns, streams are handles that order nothing, events read the host's
// steady clock.
#pragma once
#include <cstddef>

#if defined(__HIP__)
#define HIP_CPU_HOST_DEVICE __attribute__((host)) __attribute__((device))
#else
#define HIP_CPU_HOST_DEVICE
#endif

struct dim3
{
    unsigned x, y, z;
    constexpr HIP_CPU_HOST_DEVICE dim3(unsigned x_ = 1, unsigned y_ = 1, unsigned z_ = 1) : x(x_), y(y_), z(z_) {}
};

typedef enum hipError_t
{
#define HIP_CPU_ERROR(NAME, VALUE, TEXT) NAME = VALUE,
#include "hip/hip_cpu_errors.def"
#undef HIP_CPU_ERROR
    hipErrorMemoryAllocation      = hipErrorOutOfMemory, // HIP's older names
    hipErrorInvalidResourceHandle = hipErrorInvalidHandle,
} hipError_t;

typedef enum hipMemcpyKind
{
    hipMemcpyHostToHost     = 0,
    hipMemcpyHostToDevice   = 1,
    hipMemcpyDeviceToHost   = 2,
    hipMemcpyDeviceToDevice = 3,
    hipMemcpyDefault        = 4
} hipMemcpyKind;

typedef struct ihipStream_t* hipStream_t;
typedef struct ihipEvent_t* hipEvent_t;

#define hipHostMallocDefault 0x0

// One device, described from the arch whose code objects run (CK_TILE_HIP_CPU_ARCH, else the first
// arch of the program's first fat binary).
typedef struct hipDeviceProp_t
{
    char name[256];                // "hip-cpu gfx942"
    char gcnArchName[256];         // "gfx942:sramecc+:xnack-"
    std::size_t totalGlobalMem;    // the host's physical memory
    std::size_t sharedMemPerBlock; // LDS: 64 KiB on gfx942, 160 KiB on gfx950
    std::size_t maxSharedMemoryPerMultiProcessor;
    int warpSize;
    int maxThreadsPerBlock;
    int maxThreadsDim[3];
    int maxGridSize[3];
    int maxThreadsPerMultiProcessor;
    int multiProcessorCount;
    int clockRate; // kHz
    int major, minor;
    int l2CacheSize;
    int pciDomainID, pciBusID, pciDeviceID;
} hipDeviceProp_t;

typedef enum hipDeviceAttribute_t
{
    hipDeviceAttributeMaxThreadsPerBlock,
    hipDeviceAttributeMaxBlockDimX,
    hipDeviceAttributeMaxBlockDimY,
    hipDeviceAttributeMaxBlockDimZ,
    hipDeviceAttributeMaxGridDimX,
    hipDeviceAttributeMaxGridDimY,
    hipDeviceAttributeMaxGridDimZ,
    hipDeviceAttributeMaxSharedMemoryPerBlock,
    hipDeviceAttributeMaxSharedMemoryPerMultiprocessor,
    hipDeviceAttributeWarpSize,
    hipDeviceAttributeMultiprocessorCount,
    hipDeviceAttributeClockRate,
    hipDeviceAttributeComputeCapabilityMajor,
    hipDeviceAttributeComputeCapabilityMinor,
} hipDeviceAttribute_t;

extern "C" {
const char* hipGetErrorName(hipError_t error);
const char* hipGetErrorString(hipError_t error);
hipError_t hipGetLastError(void);    // the thread's last error, then hipSuccess
hipError_t hipPeekAtLastError(void); // the same, kept

hipError_t hipMalloc(void** ptr, std::size_t size);
hipError_t hipFree(void* ptr);
hipError_t hipHostMalloc(void** ptr, std::size_t size, unsigned flags = hipHostMallocDefault);
hipError_t hipHostFree(void* ptr);
hipError_t hipMemGetInfo(std::size_t* free, std::size_t* total);
hipError_t hipMemcpy(void* dst, const void* src, std::size_t size, hipMemcpyKind kind);
hipError_t hipMemcpyAsync(void* dst, const void* src, std::size_t size, hipMemcpyKind kind,
                          hipStream_t stream = nullptr);
hipError_t hipMemset(void* dst, int value, std::size_t size);
hipError_t hipMemsetAsync(void* dst, int value, std::size_t size, hipStream_t stream = nullptr);

hipError_t hipGetDeviceCount(int* count);
hipError_t hipGetDevice(int* device);
hipError_t hipSetDevice(int device);
hipError_t hipGetDeviceProperties(hipDeviceProp_t* prop, int device);
hipError_t hipDeviceGetAttribute(int* value, hipDeviceAttribute_t attr, int device);
hipError_t hipDeviceGetPCIBusId(char* bus_id, int len, int device);
hipError_t hipDeviceSynchronize(void);
hipError_t hipDeviceReset(void);

hipError_t hipStreamCreate(hipStream_t* stream);
hipError_t hipStreamDestroy(hipStream_t stream);
hipError_t hipStreamSynchronize(hipStream_t stream);
hipError_t hipStreamQuery(hipStream_t stream);

hipError_t hipEventCreate(hipEvent_t* event);
hipError_t hipEventDestroy(hipEvent_t event);
hipError_t hipEventRecord(hipEvent_t event, hipStream_t stream = nullptr);
hipError_t hipEventSynchronize(hipEvent_t event);
hipError_t hipEventQuery(hipEvent_t event);
hipError_t hipEventElapsedTime(float* ms, hipEvent_t start, hipEvent_t stop);

// Launches the kernel whose host-side handle is `function` (&kernel, as `kernel<<<...>>>` passes
// it); `args` holds one pointer per kernel argument.
hipError_t hipLaunchKernel(const void* function, dim3 grid, dim3 block, void** args, std::size_t shmem = 0,
                           hipStream_t stream = nullptr);

// The launch ABI of clang's HIP code generation: `kernel<<<grid, block, shmem, stream>>>(args)`
// pushes the configuration, and the kernel's host stub pops it and calls hipLaunchKernel.
hipError_t __hipPushCallConfiguration(dim3 grid, dim3 block, std::size_t shmem = 0, hipStream_t stream = nullptr);
hipError_t __hipPopCallConfiguration(dim3* grid, dim3* block, std::size_t* shmem, hipStream_t* stream);
}

template <typename T>
inline hipError_t hipMalloc(T** ptr, std::size_t size)
{
    return hipMalloc(reinterpret_cast<void**>(ptr), size);
}

template <typename T>
inline hipError_t hipHostMalloc(T** ptr, std::size_t size, unsigned flags = hipHostMallocDefault)
{
    return hipHostMalloc(reinterpret_cast<void**>(ptr), size, flags);
}
