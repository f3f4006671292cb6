// SPDX-License-Identifier: MIT
// The classic Composable Kernel entry header, as a thin layer over CK Tile: the ck namespace's
// basic names (index types, data types, compile-time integers) are CK Tile's, and the launch
// bounds of the classic kernels are one macro pair. Everything under include/ck/ is built on
// include/ck_tile/: the device ops' kernels are CK Tile kernels, the host utilities are CK Tile's
// HostTensor, DeviceMem, launch_kernel and check_err under their classic names.
#pragma once
#include "ck_tile/core.hpp"
// the HIP kernel language and runtime (__global__, __shared__, blockIdx, hipMalloc, ...): ROCm's
// on hip, the emulator's on the emulator; a device-code-only build has clang's HIP builtins
#if !defined(CK_TILE_DEVICE_CODE_ONLY)
#include <hip/hip_runtime.h>
#endif
#include "ck_tile/host/runtime/runtime.hpp"

#if defined(CK_TILE_DEVICE_CODE_ONLY)
// a device-code-only build has no HIP headers: threadIdx, blockIdx and blockDim from clang's
// builtins (each use reads the work-item's registers, as HIP's do)
namespace ck::detail {
struct hip_uint3
{
    unsigned x, y, z;
};
__device__ inline hip_uint3 hip_thread_idx()
{
    return {__builtin_amdgcn_workitem_id_x(), __builtin_amdgcn_workitem_id_y(), __builtin_amdgcn_workitem_id_z()};
}
__device__ inline hip_uint3 hip_block_idx()
{
    return {__builtin_amdgcn_workgroup_id_x(), __builtin_amdgcn_workgroup_id_y(), __builtin_amdgcn_workgroup_id_z()};
}
__device__ inline hip_uint3 hip_block_dim()
{
    return {__builtin_amdgcn_workgroup_size_x(), __builtin_amdgcn_workgroup_size_y(),
            __builtin_amdgcn_workgroup_size_z()};
}
} // namespace ck::detail
#define threadIdx (::ck::detail::hip_thread_idx())
#define blockIdx (::ck::detail::hip_block_idx())
#define blockDim (::ck::detail::hip_block_dim())
#endif

// the launch bounds the classic kernels declare (__CK_WRAPPER_LAUNCH_BOUNDS__ and kin)
#ifndef CK_MAX_THREAD_PER_BLOCK
#define CK_MAX_THREAD_PER_BLOCK 256
#endif
#ifndef CK_MIN_BLOCK_PER_CU
#define CK_MIN_BLOCK_PER_CU 1
#endif

// __gfx9__ for the gfx9 (MFMA) archs' device passes, as classic CK defines it
#if !defined(__gfx9__) && (defined(__gfx908__) || defined(__gfx90a__) || defined(__gfx940__) || defined(__gfx941__) || \
                           defined(__gfx942__) || defined(__gfx950__))
#define __gfx9__
#endif

// kernels written for hipcc call __builtin_amdgcn_readfirstlane; on the emulator (a host
// compiler) it is the library's readfirstlane, the same wave collective
#if defined(CK_TILE_BACKEND_EMULATOR) && !defined(__builtin_amdgcn_readfirstlane)
#define __builtin_amdgcn_readfirstlane(x) ::ck_tile::readfirstlane(x)
#endif

namespace ck {

using index_t      = ck_tile::index_t;
using long_index_t = ck_tile::long_index_t;
using half_t       = ck_tile::half_t;
using bhalf_t      = ck_tile::bf16_t;
using f8_t         = ck_tile::fp8_t;

template <index_t N>
using Number = ck_tile::number<N>;

} // namespace ck
