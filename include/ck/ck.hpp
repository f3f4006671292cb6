// SPDX-License-Identifier: MIT
// The classic Composable Kernel entry header, as a thin layer over CK Tile: the ck namespace's
// basic names (index types, data types, compile-time integers) are CK Tile's, and the launch
// bounds of the classic kernels are one macro pair. Everything under include/ck/ is built on
// include/ck_tile/: the device ops' kernels are CK Tile kernels, the host utilities are CK Tile's
// HostTensor, DeviceMem, launch_kernel and check_err under their classic names.
#pragma once
#include "ck_tile/core.hpp"

// the launch bounds the classic kernels declare (__CK_WRAPPER_LAUNCH_BOUNDS__ and kin)
#ifndef CK_MAX_THREAD_PER_BLOCK
#define CK_MAX_THREAD_PER_BLOCK 256
#endif
#ifndef CK_MIN_BLOCK_PER_CU
#define CK_MIN_BLOCK_PER_CU 1
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
