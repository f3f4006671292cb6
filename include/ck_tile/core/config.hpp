// SPDX-License-Identifier: MIT
// Build configuration: which backend the code is compiled for, which GPU arch it targets, and the
// function qualifiers that every other header uses.
//
// Backends (chosen by CMake through CK_TILE_BACKEND):
//   CK_TILE_BACKEND_HIP       ROCm clang / clang -x hip; device code for gfx942 / gfx950
//   CK_TILE_BACKEND_EMULATOR  plain host C++; kernels run on the CPU emulator of one wave64 arch
//   CK_TILE_HIP_RUNTIME_CPU   (with HIP) the build links hip-cpu, which runs the code objects on the CPU
//
// CK_TILE_RUNS_ON_CPU: the kernels execute on the CPU (the emulator, or hip-cpu), so the examples'
// host code takes smaller default problems and fewer timing repeats; the kernels do not change.
//
// Arch macros (the library's own, used by guards in C++ code):
//   CK_TILE_ARCH_GFX942, CK_TILE_ARCH_GFX950   defined to 1 for the arch being compiled or emulated
//   CK_TILE_ARCH_CDNA                           wave64 CDNA3/CDNA4 family (either of the above)
//   CK_TILE_COMPILED_ARCH                       that arch's name token; arch/arch_table.hpp turns
//                                               it into ck_tile::compiled_arch and its facts
#pragma once

#if !defined(CK_TILE_BACKEND_HIP) && !defined(CK_TILE_BACKEND_EMULATOR)
#if defined(__HIP__) || defined(__HIPCC__)
#define CK_TILE_BACKEND_HIP 1
#else
#define CK_TILE_BACKEND_EMULATOR 1
#endif
#endif

#if defined(CK_TILE_BACKEND_HIP) && defined(CK_TILE_BACKEND_EMULATOR)
#error "ck_tile: define only one of CK_TILE_BACKEND_HIP and CK_TILE_BACKEND_EMULATOR"
#endif

#if defined(CK_TILE_BACKEND_EMULATOR) || defined(CK_TILE_HIP_RUNTIME_CPU)
#define CK_TILE_RUNS_ON_CPU 1
#endif

// ---- function qualifiers ---------------------------------------------------------------------
#if defined(CK_TILE_BACKEND_HIP)
// Device code uses clang's attributes directly so that a device-only compile needs no HIP headers.
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
#ifndef __launch_bounds__
#define __launch_bounds__(...) __attribute__((amdgpu_flat_work_group_size(1, __VA_ARGS__)))
#endif
#define CK_TILE_HOST inline __host__
#define CK_TILE_DEVICE inline __device__ __attribute__((always_inline))
#define CK_TILE_HOST_DEVICE inline __host__ __device__ __attribute__((always_inline))
#define CK_TILE_DEVICE_EXTERN __device__
#define CK_TILE_GLOBAL __global__
#else
#define CK_TILE_HOST inline
#define CK_TILE_DEVICE inline __attribute__((always_inline))
#define CK_TILE_HOST_DEVICE inline __attribute__((always_inline))
#define CK_TILE_DEVICE_EXTERN
#define CK_TILE_GLOBAL
#endif

#define CK_TILE_HOST_DEVICE_EXTERN

// True while compiling code that runs on the GPU itself (the device pass of a hip build).
#if defined(CK_TILE_BACKEND_HIP) && defined(__HIP_DEVICE_COMPILE__)
#define CK_TILE_DEVICE_PASS 1
#else
#define CK_TILE_DEVICE_PASS 0
#endif

// ---- arch macros -----------------------------------------------------------------------------
// One block per arch of arch/arch_table.def: the compiler's macro (device pass) or the emulator's
// (CMake defines CK_TILE_EMULATE_<ARCH>) names the arch; its facts live in the table.
#if defined(__gfx942__) || defined(CK_TILE_EMULATE_GFX942)
#define CK_TILE_ARCH_GFX942 1
#define CK_TILE_COMPILED_ARCH gfx942
#endif
#if defined(__gfx950__) || defined(CK_TILE_EMULATE_GFX950)
#define CK_TILE_ARCH_GFX950 1
#define CK_TILE_COMPILED_ARCH gfx950
#endif
#if defined(CK_TILE_ARCH_GFX942) || defined(CK_TILE_ARCH_GFX950)
#define CK_TILE_ARCH_CDNA 1
#endif

#if defined(CK_TILE_BACKEND_EMULATOR) && !defined(CK_TILE_ARCH_CDNA)
#error "ck_tile: the emulator needs an arch: define CK_TILE_EMULATE_<ARCH> (an arch of arch/arch_table.def)"
#endif

#if defined(CK_TILE_BACKEND_EMULATOR) && defined(CK_TILE_ARCH_GFX942) && defined(CK_TILE_ARCH_GFX950)
#error "ck_tile: the emulator emulates one arch per build; define only one CK_TILE_EMULATE_* macro"
#endif
