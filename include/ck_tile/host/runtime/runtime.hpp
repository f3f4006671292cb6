// SPDX-License-Identifier: MIT
// The host runtime of the configured backend: the HIP runtime API on the hip backend, or the
// emulator's stand-ins for the same names (hipMalloc, hipMemcpy, dim3, hipStream_t, ...).
// Host code of the library uses only these names, so it is written once for both backends.
#pragma once
#include "ck_tile/core/config.hpp"

#if defined(CK_TILE_BACKEND_EMULATOR)
#include "ck_tile/host/runtime/emulator.hpp"
#else
#include "ck_tile/host/runtime/hip.hpp"
#endif
