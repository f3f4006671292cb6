// SPDX-License-Identifier: MIT
// Static LDS (shared memory) declarations that work on every backend:
//
//   CK_TILE_LDS_ARRAY(char, smem, 4096);   // then use smem as a char* (or array) in the kernel
//
// On the GPU it is a __shared__ array (core/arch/hip/lds.hpp). On the emulator there is no
// per-workgroup storage class, so the macro asks the runtime for a block of the workgroup's LDS
// arena, the same block for every thread of the workgroup (core/arch/emulator/primitives.hpp); the
// arena has the arch's real size, so a kernel that asks for more LDS than the hardware has fails
// there too.
#pragma once
#include "ck_tile/core/config.hpp"
#include "ck_tile/core/arch/backend.hpp"
