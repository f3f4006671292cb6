// SPDX-License-Identifier: MIT
// hip-cpu's <hip/hip_runtime.h>: the runtime API (hip_runtime_api.h) and the HIP kernel language, the
// minimal subset this project and plain HIP programs use. It is on the include path only of hip
// builds that run on hip-cpu (CK_TILE_HIP_RUNTIME=cpu: no ROCm on the machine); a ROCm build gets
// ROCm's header instead. Compiled by clang with -x hip -nogpuinc -nogpulib, in the host pass and in
// each arch's device pass; the device side is clang attributes and __builtin_amdgcn_* builtins, so
// the code objects are what ROCm's headers would give, and hip-cpu executes them.
//
//   __global__ __device__ __host__ __shared__ __constant__ __forceinline__ __launch_bounds__(max[, min_waves_per_eu])
//   threadIdx blockIdx blockDim gridDim (.x .y .z, plain unsigned)   hipThreadIdx_x and kin
//   warpSize (64: hip-cpu runs the wave64 archs gfx942 and gfx950)
//   __syncthreads() __threadfence() __threadfence_block()
//   __lane_id() __shfl(v, lane[, width]) __shfl_xor(v, mask[, width])   (int, unsigned, float)
//   atomicAdd (int, unsigned, unsigned long long, float; device scope)
//   HIP_DYNAMIC_SHARED(type, name) (or extern __shared__ type name[]), hipLaunchKernelGGL, HIP_KERNEL_NAME
#pragma once
#include "hip/hip_runtime_api.h"

#if defined(__HIP__)

// The same definitions as ck_tile/core/config.hpp's, each guarded, so either header may come first.
#ifndef __host__
#define __host__ __attribute__((host))
#endif
#ifndef __device__
#define __device__ __attribute__((device))
#endif
#ifndef __global__
#define __global__ __attribute__((global))
#endif
#ifndef __shared__
#define __shared__ __attribute__((shared))
#endif
#ifndef __constant__
#define __constant__ __attribute__((constant))
#endif
#ifndef __forceinline__
#define __forceinline__ inline __attribute__((always_inline))
#endif
// HIP's two forms: the largest block, and optionally the minimum waves per execution unit (SIMD)
#ifndef __launch_bounds__
#define HIP_CPU_LAUNCH_BOUNDS_1(max_threads) __attribute__((amdgpu_flat_work_group_size(1, max_threads)))
#define HIP_CPU_LAUNCH_BOUNDS_2(max_threads, min_waves)                                                                \
    __attribute__((amdgpu_flat_work_group_size(1, max_threads), amdgpu_waves_per_eu(min_waves)))
#define HIP_CPU_LAUNCH_BOUNDS_PICK(a, b, form, ...) form
#define __launch_bounds__(...)                                                                                         \
    HIP_CPU_LAUNCH_BOUNDS_PICK(__VA_ARGS__, HIP_CPU_LAUNCH_BOUNDS_2, HIP_CPU_LAUNCH_BOUNDS_1, )(__VA_ARGS__)
#endif

// ---- work-item coordinates --------------------------------------------------------------------
// Macros over functions, so that threadIdx.x is a plain unsigned (it works wherever an integer
// does, template argument deduction included). blockDim comes from the implicit kernel arguments,
// gridDim from the dispatch packet's grid size (in work-items) over it, as ROCm's device library.
namespace hip_cpu_device {
struct uint3
{
    unsigned x, y, z;
};
__device__ __forceinline__ uint3 thread_idx()
{
    return {__builtin_amdgcn_workitem_id_x(), __builtin_amdgcn_workitem_id_y(), __builtin_amdgcn_workitem_id_z()};
}
__device__ __forceinline__ uint3 block_idx()
{
    return {__builtin_amdgcn_workgroup_id_x(), __builtin_amdgcn_workgroup_id_y(), __builtin_amdgcn_workgroup_id_z()};
}
__device__ __forceinline__ uint3 block_dim()
{
    return {__builtin_amdgcn_workgroup_size_x(), __builtin_amdgcn_workgroup_size_y(),
            __builtin_amdgcn_workgroup_size_z()};
}
__device__ __forceinline__ uint3 grid_dim()
{
    return {__builtin_amdgcn_grid_size_x() / __builtin_amdgcn_workgroup_size_x(),
            __builtin_amdgcn_grid_size_y() / __builtin_amdgcn_workgroup_size_y(),
            __builtin_amdgcn_grid_size_z() / __builtin_amdgcn_workgroup_size_z()};
}
} // namespace hip_cpu_device

#define threadIdx (::hip_cpu_device::thread_idx())
#define blockIdx (::hip_cpu_device::block_idx())
#define blockDim (::hip_cpu_device::block_dim())
#define gridDim (::hip_cpu_device::grid_dim())
#define hipThreadIdx_x (threadIdx.x)
#define hipThreadIdx_y (threadIdx.y)
#define hipThreadIdx_z (threadIdx.z)
#define hipBlockIdx_x (blockIdx.x)
#define hipBlockIdx_y (blockIdx.y)
#define hipBlockIdx_z (blockIdx.z)
#define hipBlockDim_x (blockDim.x)
#define hipBlockDim_y (blockDim.y)
#define hipBlockDim_z (blockDim.z)
#define hipGridDim_x (gridDim.x)
#define hipGridDim_y (gridDim.y)
#define hipGridDim_z (gridDim.z)

inline constexpr int warpSize = 64;

// ---- synchronization --------------------------------------------------------------------------
// The workgroup barrier, with the fences that make LDS (and global) writes before it visible
// to the workgroup after it.
__device__ __forceinline__ void __syncthreads()
{
    __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
    __builtin_amdgcn_s_barrier();
    __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
}
__device__ __forceinline__ void __threadfence() { __builtin_amdgcn_fence(__ATOMIC_SEQ_CST, "agent"); }
__device__ __forceinline__ void __threadfence_block() { __builtin_amdgcn_fence(__ATOMIC_SEQ_CST, "workgroup"); }

// ---- cross-lane --------------------------------------------------------------------------------
// The lane's index in its wave; __shfl reads `var` of lane `src_lane` of the lane's group of
// `width` lanes (a power of two), __shfl_xor of lane (own ^ lane_mask), through ds_bpermute.
__device__ __forceinline__ int __lane_id()
{
    return __builtin_amdgcn_mbcnt_hi(~0u, __builtin_amdgcn_mbcnt_lo(~0u, 0u));
}
__device__ __forceinline__ int __shfl(int var, int src_lane, int width = warpSize)
{
    const int self = __lane_id();
    return __builtin_amdgcn_ds_bpermute(((src_lane & (width - 1)) + (self & ~(width - 1))) << 2, var);
}
__device__ __forceinline__ int __shfl_xor(int var, int lane_mask, int width = warpSize)
{
    const int self  = __lane_id();
    const int other = self ^ lane_mask;
    return __builtin_amdgcn_ds_bpermute((other >= ((self + width) & ~(width - 1)) ? self : other) << 2, var);
}
__device__ __forceinline__ unsigned __shfl(unsigned var, int src_lane, int width = warpSize)
{
    return static_cast<unsigned>(__shfl(static_cast<int>(var), src_lane, width));
}
__device__ __forceinline__ unsigned __shfl_xor(unsigned var, int lane_mask, int width = warpSize)
{
    return static_cast<unsigned>(__shfl_xor(static_cast<int>(var), lane_mask, width));
}
__device__ __forceinline__ float __shfl(float var, int src_lane, int width = warpSize)
{
    return __builtin_bit_cast(float, __shfl(__builtin_bit_cast(int, var), src_lane, width));
}
__device__ __forceinline__ float __shfl_xor(float var, int lane_mask, int width = warpSize)
{
    return __builtin_bit_cast(float, __shfl_xor(__builtin_bit_cast(int, var), lane_mask, width));
}

// ---- atomics -------------------------------------------------------------------------------------
// Relaxed read-modify-writes at device (agent) scope, returning the old value.
#define HIP_CPU_ATOMIC_ADD(T)                                                                                          \
    __device__ __forceinline__ T atomicAdd(T* address, T value)                                                        \
    {                                                                                                                  \
        return __hip_atomic_fetch_add(address, value, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);                     \
    }
HIP_CPU_ATOMIC_ADD(int)
HIP_CPU_ATOMIC_ADD(unsigned)
HIP_CPU_ATOMIC_ADD(unsigned long long)
HIP_CPU_ATOMIC_ADD(float)
#undef HIP_CPU_ATOMIC_ADD

// ---- dynamic LDS and launches ---------------------------------------------------------------------
// The launch's dynamic shared memory (its shmem bytes), after the kernel's static LDS.
#define HIP_DYNAMIC_SHARED(type, name) extern __shared__ type name[];
#define HIP_DYNAMIC_SHARED_ATTRIBUTE

// A kernel name with template arguments, which would otherwise split into macro arguments.
#define HIP_KERNEL_NAME(...) __VA_ARGS__
#define hipLaunchKernelGGL(kernel, grid, block, shmem, stream, ...)                                                    \
    kernel<<<(grid), (block), (shmem), (stream)>>>(__VA_ARGS__)

#endif // __HIP__
