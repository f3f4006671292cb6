// SPDX-License-Identifier: MIT
// The HIP runtime for the hip backend: <hip/hip_runtime.h>, ROCm's, or hip-cpu's where ROCm is absent
// (CK_TILE_HIP_RUNTIME=cpu: library/hip_cpu/include).
// A device-code-only build (CK_TILE_DEVICE_CODE_ONLY: clang-22 -nogpuinc, no ROCm on the machine)
// still parses host code, so it gets declarations of the few runtime names the library uses;
// nothing is defined, since no host code is generated in such a build.
#pragma once
#include <cstddef>
#include "ck_tile/core/config.hpp"

#if !defined(CK_TILE_DEVICE_CODE_ONLY)
#include <hip/hip_runtime.h>
#else
struct dim3
{
    unsigned x = 1, y = 1, z = 1;
    constexpr dim3(unsigned x_ = 1, unsigned y_ = 1, unsigned z_ = 1) : x(x_), y(y_), z(z_) {}
};
using hipStream_t = struct ihipStream_t*;
using hipEvent_t  = struct ihipEvent_t*;
enum hipError_t
{
    hipSuccess = 0
};
enum hipMemcpyKind
{
    hipMemcpyHostToHost     = 0,
    hipMemcpyHostToDevice   = 1,
    hipMemcpyDeviceToHost   = 2,
    hipMemcpyDeviceToDevice = 3,
    hipMemcpyDefault        = 4
};
__host__ const char* hipGetErrorString(hipError_t);
__host__ hipError_t hipMalloc(void**, std::size_t);
__host__ hipError_t hipFree(void*);
__host__ hipError_t hipMemcpy(void*, const void*, std::size_t, hipMemcpyKind);
__host__ hipError_t hipMemset(void*, int, std::size_t);
__host__ hipError_t hipDeviceSynchronize();
__host__ hipError_t hipStreamSynchronize(hipStream_t);
__host__ hipError_t hipGetLastError();
struct hipDeviceProp_t
{
    char gcnArchName[256];
    int multiProcessorCount;
};
__host__ hipError_t hipGetDevice(int*);
__host__ hipError_t hipGetDeviceProperties(hipDeviceProp_t*, int);
__host__ hipError_t hipDeviceGetPCIBusId(char*, int, int);
__host__ hipError_t hipLaunchKernel(const void*, dim3, dim3, void**, std::size_t, hipStream_t);
__host__ hipError_t hipEventCreate(hipEvent_t*);
__host__ hipError_t hipEventDestroy(hipEvent_t);
__host__ hipError_t hipEventRecord(hipEvent_t, hipStream_t);
__host__ hipError_t hipEventSynchronize(hipEvent_t);
__host__ hipError_t hipEventElapsedTime(float*, hipEvent_t, hipEvent_t);
#endif
