// SPDX-License-Identifier: MIT
// Static LDS (shared memory) is declared as in upstream HIP source, on every backend:
//
//   __shared__ char smem[4096];   // one array per workgroup, shared by its work-items
//
// On hip `__shared__` is clang's attribute (core/config.hpp). On the emulator it makes the variable
// thread_local, which is one object per running workgroup there (core/arch/emulator/primitives.hpp
// says why and what that does not model).
//
// LDS transpose reads (archs whose arch_table.def row has lds_tr = 1: gfx950), one wave
// instruction that reads LDS and exchanges the data between lanes:
//
//   thread_buffer<T, E> lds_transpose_read_b64(const T* p)   T of 1 or 2 bytes, E = 8 / sizeof(T)
//   thread_buffer<T, N * E> lds_transpose_read_b64(const array<const T*, N>& p)
//                                     N reads, read i into elements i * E .. i * E + E - 1 (on the
//                                     emulator one wave collective for all N, which is much faster)
//
// Every lane of the wave calls it, each with the address of 8 bytes of LDS (E elements, 8-byte
// aligned). In each group of 16 lanes the 16 x E elements read form an E x 16 matrix whose row r
// is the elements of lanes r * (16 / E) .. r * (16 / E) + 16 / E - 1, in lane order; lane j of the
// group receives column j of it. So for 16-bit types (ds_read_b64_tr_b16), when lanes 4r .. 4r+3
// of a group point at row m0 + r, columns n0 .. n0 + 15, of a row-major tile, lane j receives
// rows m0 .. m0 + 3 of column n0 + j: four elements of the transpose, contiguous in its registers.
// On an arch without the instruction, using it is a compile-time error.
#pragma once
#include "ck_tile/core/config.hpp"
#include "ck_tile/core/arch/backend.hpp"
