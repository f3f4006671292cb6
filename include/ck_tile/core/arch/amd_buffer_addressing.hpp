// SPDX-License-Identifier: MIT
// Range-checked global loads and stores with the semantics of AMD buffer instructions: an access
// is made relative to a buffer of buffer_size elements; if it is flagged invalid or does not lie
// inside the buffer, a load returns zeros and a store does nothing.
//
//   buffer_load_checked<T, N>(dst, base, buffer_size, i, valid)    N elements from base + i
//   buffer_store_checked<T, N>(src, base, buffer_size, i, valid)   N elements to base + i
//   is_native_buffer_access<T, N>   whether N elements of T are one access; callers split others
//   buffer_atomic_add_checked<T>(v, base, buffer_size, i, valid)  base[i] += v atomically (fp32,
//                                  int32): blocks of one grid may add into the same element
//   buffer_atomic_pk_add_checked<T>(v0, v1, base, buffer_size, i, valid)  base[i], base[i + 1] +=
//                                  v0, v1 in one atomic (fp16, bf16; base + i 4-byte aligned)
//
// hip: buffer_load / buffer_store instructions, whose range check is the hardware's
// (core/arch/hip/buffer_addressing.hpp). emulator: the same semantics checked in C++
// (core/arch/emulator/primitives.hpp).
#pragma once
#include "ck_tile/core/config.hpp"
#include "ck_tile/core/numeric/integer.hpp"
#include "ck_tile/core/arch/backend.hpp"
