// SPDX-License-Identifier: MIT
// __CK_WRAPPER_LAUNCH_BOUNDS__: the launch bounds wrapper kernels declare: at most
// CK_MAX_THREAD_PER_BLOCK threads per block (clang's attribute, so that a device-code-only build
// needs no HIP headers; nothing on the emulator).
#pragma once
#include "ck/ck.hpp"

#if defined(CK_TILE_BACKEND_HIP)
#define __CK_WRAPPER_LAUNCH_BOUNDS__ __attribute__((amdgpu_flat_work_group_size(1, CK_MAX_THREAD_PER_BLOCK)))
#else
#define __CK_WRAPPER_LAUNCH_BOUNDS__
#endif
