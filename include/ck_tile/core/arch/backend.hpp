// SPDX-License-Identifier: MIT
// The backend seam: the one place that picks which implementation of the arch primitives a build
// uses. Everything above core/arch/ is written once against this set (namespace ck_tile):
//
//   thread identity   get_thread_id, get_block_id (x; get_block_id_y, get_block_id_z), get_block_size,
//                     get_grid_size, get_lane_id, get_warp_id
//   barriers          block_sync_lds (workgroup barrier after this thread's LDS accesses),
//                     block_sync (workgroup barrier ordering all memory)
//   failure           kernel_fail(what): a kernel's run-time check failed (emulator: the launch
//                     throws with `what`; hip: s_trap)
//   wave operations   warp_shuffle, readfirstlane, ballot, warp_butterfly (v = combine(v,
//                     v of lane ^ step) for step = first, 2 first, ... < end: an xor butterfly)
//   LDS               `__shared__` (config.hpp on hip, primitives.hpp on the emulator),
//                     lds_transpose_read_b64 (gfx950's ds_read_b64_tr_b16 / _b8)
//   buffer accesses   buffer_load_checked, buffer_store_checked, is_native_buffer_access,
//                     buffer_atomic_add_checked (fp32, int32), buffer_atomic_pk_add_checked
//                     (pairs of fp16 or bf16)
//   access hooks      lds_note_load, lds_note_store, global_note_load, global_note_store,
//                     access_site, has_access_hooks, access_hooks_on() (the emulator's race
//                     detection and profile; empty on hip)
//   device printf     CK_TILE_PRINTF(fmt, ...)
//
// hip:      core/arch/hip/<primitive>.hpp, clang's amdgcn builtins (no HIP device headers)
// emulator: core/arch/emulator/primitives.hpp, calls into the CPU emulator's runtime
//
// The backend-neutral parts (what the primitives mean, address_space_enum, get_warp_size) are in
// the public headers arch.hpp, lds.hpp, amd_buffer_addressing.hpp and printf.hpp, which include
// this one. MFMA has its own entry point, core/arch/mfma.hpp.
#pragma once
#include "ck_tile/core/config.hpp"

#if defined(CK_TILE_BACKEND_EMULATOR)
#include "ck_tile/core/arch/emulator/primitives.hpp"
#else
#include "ck_tile/core/arch/hip/buffer_addressing.hpp"
#include "ck_tile/core/arch/hip/lds_transpose.hpp"
#include "ck_tile/core/arch/hip/printf.hpp"
#include "ck_tile/core/arch/hip/wave.hpp"
#include "ck_tile/core/arch/hip/workgroup.hpp"
#endif
