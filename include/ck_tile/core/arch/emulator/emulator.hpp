// SPDX-License-Identifier: MIT
// The CPU emulator of a wave64 AMD GPU (gfx942 or gfx950), for the emulator backend: kernels are
// ordinary C++ callables run as every work-item of a grid by ck_tile::emu::launch().
//
// The path a kernel takes, one file per step:
//
//   launch.hpp       launch(): checks the launch, hands the workgroups to a pool of OS threads,
//                    puts their printf output in workgroup order, rethrows the first error
//   worker.hpp       one per OS thread: runs one workgroup at a time, each work-item a fiber
//                    starting at fiber_main; finish_thread() when a work-item returns
//   workgroup.hpp    the workgroup as data (fibers, waves, launch facts) and the identity queries
//                    (thread_idx_x, block_idx_x, lane_id, warp_id, ...)
//   scheduler.hpp    which fiber runs next (a wave runs ahead up to a barrier); barrier(), yield()
//   fiber.hpp        fiber contexts (assembly switch) and the stack pools they run on
//   wave.hpp         wave collectives: a lane waits until its wave has arrived, the last lane
//                    computes for all (wave_collective, shuffle, ballot, readfirstlane,
//                    lds_transpose_read_b64)
//   mfma.hpp         the MFMA instructions' register layouts and arithmetic, as wave collectives
//   lds.hpp          the LDS arena with guard pages, dynamic_lds, lds_static, is_lds_pointer
//   memory.hpp       device memory with guard pages: device_malloc / device_free / is_device_pointer
//   printf.hpp       device_printf: buffered per workgroup, emitted in workgroup order
//   instrument.hpp   the switches of racecheck and the profile, in one flag word the hooks test
//   racecheck.hpp    race detection (CK_TILE_EMU_RACECHECK=1): LDS accesses of different waves
//                    with no barrier between them, global stores of two workgroups to one byte
//   profile.hpp      the access profile (CK_TILE_EMU_PROFILE=1): per launch, LDS bank conflicts,
//                    global coalescing, vector widths, MFMAs, barriers, LDS used; and the hooks
//                    the library's LDS / global accesses, barriers and MFMAs call
//   profile_model.hpp  its cost models of one wave instruction (LDS banks, 64-byte segments)
//   profile_report.hpp its numbers of one launch (last_profile()) and the report printed from them
//   diagnostics.hpp  errors inside a kernel (deadlock, mismatched collectives, too much LDS) and
//                    the kernel/block/thread the fault handler names
//   fault.hpp        guarded regions and the SIGSEGV/SIGBUS/SIGFPE handler (one line, exit 1)
//   arch_traits.hpp  facts of the emulated arch (from arch_table.def), launch_error
//
// Kernels reach it through the library's arch primitives (core/arch/backend.hpp lists them):
//   primitives.hpp   get_thread_id -> thread_idx_x, block_sync_lds -> barrier, warp_shuffle ->
//                    shuffle, CK_TILE_PRINTF -> device_printf, `__shared__` -> thread_local;
//                    buffer loads and stores are range-checked in C++
//
// HIP source written for hipcc (threadIdx, __syncthreads, hipLaunchKernelGGL, hipMalloc, ...)
// reaches it through hip_include/hip/hip_runtime.h, on the include path of emulator builds only:
//   hip_language.hpp  the kernel language: qualifiers, threadIdx / blockIdx / blockDim / gridDim,
//                    __syncthreads, warpSize, HIP_DYNAMIC_SHARED
//   host/runtime/emulator.hpp  the runtime calls and hipLaunchKernelGGL (-> launch())
//
// Static LDS. `__shared__ T x[N];` is a thread_local variable (primitives.hpp): one object per
// running workgroup, because an OS thread runs one workgroup at a time and all its work-items are
// fibers on that thread. A prefix macro cannot see the declaration it starts, so such arrays are
// not carved from the LDS arena: no guard pages, not counted against the arch's LDS size, not
// is_lds_pointer, and a workgroup finds what the previous one on its thread left there (hardware
// leaves it undefined). lds_static<T, N, Site>() is the arena-backed form for emulator-only code.
// `extern __shared__ T x[];` cannot work (it names a variable nothing defines: a link error);
// dynamic LDS is HIP_DYNAMIC_SHARED(T, x) or dynamic_lds(), which are in the arena and counted.
//
// Device printf. Kernels print with CK_TILE_PRINTF (core/arch/printf.hpp): on hip the device's
// printf, here device_printf, which buffers per workgroup and emits whole workgroups in order, so
// every run prints the same bytes. The library defines no `printf` macro: a source whose kernels
// call plain printf opts in with core/arch/printf_capture.hpp, which includes
// device_printf_macro.hpp (not included by anything else).
//
// Parts of the emulator backend outside this directory:
//   core/arch/backend.hpp  the seam: picks primitives.hpp here, or core/arch/hip/*.hpp
//   core/arch/arch.hpp, lds.hpp, amd_buffer_addressing.hpp, printf.hpp, printf_capture.hpp
//                    the public, backend-neutral headers of the primitives
//   core/arch/mfma.hpp  ck_tile::mfma<>, which calls this directory's mfma.hpp on the emulator
//   core/arch/arch_table.def / .hpp, core/config.hpp  the arch emulated (CK_TILE_EMULATE_<ARCH>)
//   core/numeric/half.hpp  half_t as a 16-bit struct with float arithmetic on the emulator
//   host/runtime/emulator.hpp  the HIP runtime names the host code uses (hipMalloc, hipMemcpy, ...)
//   host/kernel_launch.hpp     make_kernel: a kernel functor run through launch()
//   host/device_prop.hpp       get_device_name(): the emulated arch's name
//
// Environment (each read once per process):
//   CK_TILE_EMU_THREADS      OS threads that run workgroups (default: hardware threads; 1: serial);
//                            set_worker_threads() overrides it at run time
//   CK_TILE_EMU_STACK_KB     stack size of each emulated work-item in KiB (default 256)
//   CK_TILE_EMU_ALLOC_ALIGN  start alignment of device allocations (default 16; 16..4096)
//   CK_TILE_EMU_RACECHECK    1: report data races (racecheck.hpp; off by default, free when off);
//                            set_racecheck() overrides it at run time
//   CK_TILE_EMU_PROFILE      1: print an access profile of every launch on stderr (profile.hpp; off
//                            by default, free when off); set_profile() overrides it, last_profile()
#pragma once

#include "ck_tile/core/config.hpp"

#if !defined(CK_TILE_BACKEND_EMULATOR)
#error "ck_tile/core/arch/emulator/emulator.hpp is for the emulator backend only"
#endif

#include "ck_tile/core/arch/emulator/arch_traits.hpp"
#include "ck_tile/core/arch/emulator/diagnostics.hpp"
#include "ck_tile/core/arch/emulator/fault.hpp"
#include "ck_tile/core/arch/emulator/fiber.hpp"
#include "ck_tile/core/arch/emulator/launch.hpp"
#include "ck_tile/core/arch/emulator/lds.hpp"
#include "ck_tile/core/arch/emulator/memory.hpp"
#include "ck_tile/core/arch/emulator/printf.hpp"
#include "ck_tile/core/arch/emulator/profile.hpp"
#include "ck_tile/core/arch/emulator/racecheck.hpp"
#include "ck_tile/core/arch/emulator/scheduler.hpp"
#include "ck_tile/core/arch/emulator/wave.hpp"
#include "ck_tile/core/arch/emulator/worker.hpp"
#include "ck_tile/core/arch/emulator/workgroup.hpp"
