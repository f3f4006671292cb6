// SPDX-License-Identifier: MIT
// The CPU emulator of a wave64 AMD GPU (gfx942 or gfx950), for the emulator backend: kernels are
// ordinary C++ callables run as every work-item of a grid by ck_tile::emu::launch().
//
//   arch_traits.hpp  warp_size, lds_bytes_limit(), arch_name(), launch_error
//   fault.hpp        guard regions and the fault handler (one clear line, exit status 1)
//   fiber.hpp        fiber contexts (assembly switch) and fiber stack pools
//   memory.hpp       device_malloc / device_free / is_device_pointer
//   workgroup.hpp    scheduler, barrier(), yield(), LDS (dynamic_lds, lds_static), thread identity
//   wave.hpp         wave collectives: wave_collective, shuffle, ballot, readfirstlane
//   printf.hpp       device_printf, set_printf_sink
//   launch.hpp       launch_params, launch(), set_worker_threads()
//
// device_printf_macro.hpp (not included here) makes `printf` in device code mean device_printf.
//
// Environment (each read once per process):
//   CK_TILE_EMU_THREADS      OS threads that run workgroups (default: hardware threads; 1: serial);
//                            set_worker_threads() overrides it at run time
//   CK_TILE_EMU_STACK_KB     stack size of each emulated work-item in KiB (default 256)
//   CK_TILE_EMU_ALLOC_ALIGN  start alignment of device allocations (default 16; 16..4096)
#pragma once

#include "ck_tile/core/config.hpp"

#if !defined(CK_TILE_BACKEND_EMULATOR)
#error "ck_tile/core/arch/emulator/emulator.hpp is for the emulator backend only"
#endif

#include "ck_tile/core/arch/emulator/arch_traits.hpp"
#include "ck_tile/core/arch/emulator/fault.hpp"
#include "ck_tile/core/arch/emulator/fiber.hpp"
#include "ck_tile/core/arch/emulator/launch.hpp"
#include "ck_tile/core/arch/emulator/memory.hpp"
#include "ck_tile/core/arch/emulator/printf.hpp"
#include "ck_tile/core/arch/emulator/wave.hpp"
#include "ck_tile/core/arch/emulator/workgroup.hpp"
