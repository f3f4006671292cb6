// SPDX-License-Identifier: MIT
// The HIP kernel language on the CPU emulator: what a kernel written for hipcc uses, defined for a
// host compiler. The emulator's <hip/hip_runtime.h> includes it; host/runtime/emulator.hpp has the
// host side (hipMalloc, hipLaunchKernelGGL, events, ...).
//
//   __global__, __device__, __host__, __forceinline__, __launch_bounds__   no meaning on the CPU
//   __shared__          thread_local: one object per running workgroup (primitives.hpp says why)
//   HIP_DYNAMIC_SHARED(T, name)   T* name pointing at the workgroup's dynamic LDS (the launch's
//                       shared-memory bytes); the form to use instead of `extern __shared__`,
//                       which the emulator cannot provide (it would name an undefined variable)
//   threadIdx, blockIdx, blockDim, gridDim   .x .y .z of the running work-item (3-D launches are
//                       emulated); hipThreadIdx_x and kin
//   __syncthreads()     the workgroup barrier
//   warpSize            the emulated arch's wave size
//
// Kernels launch with hipLaunchKernelGGL; the `kernel<<<grid, block>>>(args)` syntax is not C++ and
// cannot be supported.
#pragma once

#include <cstdint>

#include "ck_tile/core/config.hpp"

#if !defined(CK_TILE_BACKEND_EMULATOR)
#error "ck_tile/core/arch/emulator/hip_language.hpp is for the emulator backend only"
#endif

#include "ck_tile/core/arch/backend.hpp"
#include "ck_tile/core/arch/emulator/emulator.hpp"

#ifndef __global__
#define __global__
#endif
#ifndef __device__
#define __device__
#endif
#ifndef __host__
#define __host__
#endif
#ifndef __forceinline__
#define __forceinline__ inline __attribute__((always_inline))
#endif
#ifndef __launch_bounds__
#define __launch_bounds__(...)
#endif

namespace ck_tile::emu::hip {

// The value threadIdx and kin give: HIP's uint3 shape, plain unsigned members.
struct uint3
{
    std::uint32_t x, y, z;
};

// One look-up of the running work-item or workgroup per threadIdx / blockIdx / ... use.
inline uint3 to_uint3(const std::uint32_t (&v)[3]) { return {v[0], v[1], v[2]}; }
inline uint3 thread_idx() { return to_uint3(detail::current_fiber("threadIdx")->tid); }
inline uint3 block_idx() { return to_uint3(detail::current_wg("blockIdx")->block); }
inline uint3 block_dim() { return to_uint3(detail::current_wg("blockDim")->dim); }
inline uint3 grid_dim() { return to_uint3(detail::current_wg("gridDim")->grid); }

} // namespace ck_tile::emu::hip

// Macros rather than objects so that `threadIdx.x` is a plain std::uint32_t, as on hip (it then
// works everywhere an integer does, template argument deduction included). Each use asks the
// emulator for the running work-item; outside a kernel that is an error (workgroup.hpp).
#define threadIdx (::ck_tile::emu::hip::thread_idx())
#define blockIdx (::ck_tile::emu::hip::block_idx())
#define blockDim (::ck_tile::emu::hip::block_dim())
#define gridDim (::ck_tile::emu::hip::grid_dim())

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

inline constexpr int warpSize = ::ck_tile::emu::warp_size;

inline void __syncthreads() { ::ck_tile::emu::barrier(); }

// As ROCm's, the macro ends the declaration: `HIP_DYNAMIC_SHARED(float, buf)` needs no semicolon.
#define HIP_DYNAMIC_SHARED(type, name) type* const name = static_cast<type*>(::ck_tile::emu::dynamic_lds());
