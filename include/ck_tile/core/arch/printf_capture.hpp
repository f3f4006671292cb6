// SPDX-License-Identifier: MIT
// Opt-in: from here on, plain `printf` in this translation unit is device printf on every backend.
//
// Include it last, in the sources whose kernels call printf as HIP code does. On hip, printf in
// device code already is the device's; nothing changes. On the emulator a kernel is host code, so
// a plain printf would write at once, interleaving workgroups that run on different OS threads;
// this header makes the token `printf` mean the emulator's device printf (see
// core/arch/emulator/device_printf_macro.hpp for how, and for what it cannot cover). Prefer
// CK_TILE_PRINTF (core/arch/printf.hpp), which needs no macro on a standard name.
#pragma once
#include "ck_tile/core/config.hpp"
#include "ck_tile/core/arch/printf.hpp"

#if defined(CK_TILE_BACKEND_EMULATOR)
#include "ck_tile/core/arch/emulator/device_printf_macro.hpp"
#endif
