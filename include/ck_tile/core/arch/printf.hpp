// SPDX-License-Identifier: MIT
// Device printf on every backend:
//
//   CK_TILE_PRINTF("block %d thread %d: %f\n", ck_tile::get_block_id(), ck_tile::get_thread_id(), x);
//
// hip: the device's printf; the HIP runtime prints the output after the kernel. emulator: the
// output of each workgroup is buffered and emitted in one piece, workgroups in order, lines within
// a workgroup in the deterministic order the emulator runs the threads, so every run prints the same
// bytes; outside a kernel it prints at once.
//
// The library does not redefine `printf`. Code that wants plain `printf` in its kernels to be
// device printf on the emulator too includes core/arch/printf_capture.hpp after everything else.
#pragma once
#include "ck_tile/core/config.hpp"
#include "ck_tile/core/arch/backend.hpp"
