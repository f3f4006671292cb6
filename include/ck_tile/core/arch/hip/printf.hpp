// SPDX-License-Identifier: MIT
// hip backend: CK_TILE_PRINTF is the device's own printf; the HIP runtime collects the output and
// prints it after the kernel.
//
// A device-code-only build (CK_TILE_DEVICE_CODE_ONLY: -nogpuinc -nogpulib, no ROCm) has neither
// HIP's declaration of the device printf nor the device library that implements it, so there the
// call is compiled unevaluated: format and arguments are still checked, no code is emitted (the
// resource figures of such a build leave out what printf costs).
// The primitive set and its other implementation: core/arch/backend.hpp.
#pragma once
#include <cstdio>
#include "ck_tile/core/config.hpp"

#if defined(CK_TILE_DEVICE_CODE_ONLY)
extern "C" __device__ int printf(const char* format, ...);
#define CK_TILE_PRINTF(...) ((void)sizeof(::printf(__VA_ARGS__)))
#else
#define CK_TILE_PRINTF(...) ::printf(__VA_ARGS__)
#endif
