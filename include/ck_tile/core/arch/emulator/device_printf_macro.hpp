// SPDX-License-Identifier: MIT
// Makes `printf` in device code mean ck_tile::emu::device_printf. Opt-in: the library never
// includes it; a source includes it (through core/arch/printf_capture.hpp) after everything else.
//
// Why: kernels call printf as in HIP, where device printf is a device function whose output the
// runtime collects and prints after the kernel. On the emulator a kernel is host code, so a plain
// printf would write straight to stdout, interleaving the output of workgroups that run on
// different OS threads and of the lanes of one workgroup in a less useful way. device_printf
// buffers per workgroup and emits whole workgroups in order (printf.hpp); outside a kernel it
// prints at once, so host code that calls printf after this header behaves as before.
//
// How: <cstdio> is included first, so its declarations keep the real name; from here on the token
// `printf` is replaced by `ck_tile_emu_device_printf`, a global function that forwards to
// device_printf. Being a plain identifier, the replacement also works after `std::` (a
// using-declaration puts it there) and as a member name declared after this header. It does not
// work where the real function must be named after this header, e.g. `&printf` compared with
// `&::printf` from <cstdio>, or a later declaration of `int printf(const char*, ...)`.
#pragma once

#include <cstdarg>
#include <cstdio>

#include "ck_tile/core/arch/emulator/printf.hpp"

// Same as ck_tile::emu::device_printf; the target of the macro below.
__attribute__((format(__printf__, 1, 2))) inline int ck_tile_emu_device_printf(const char* fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    const int n = ck_tile::emu::device_vprintf(fmt, args);
    va_end(args);
    return n;
}

namespace std {
using ::ck_tile_emu_device_printf;
} // namespace std

#define printf ck_tile_emu_device_printf
