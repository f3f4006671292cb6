// SPDX-License-Identifier: MIT
// <hip/hip_runtime.h> of the emulator backend. Only emulator builds have this directory on their
// include path (cmake/CkTileBackend.cmake); hip builds get ROCm's header. It lets a HIP source
// written for hipcc compile unchanged with the host compiler and run its kernels on the CPU
// emulator: the kernel language (core/arch/emulator/hip_language.hpp) and the runtime calls
// (host/runtime/emulator.hpp).
#pragma once

#include "ck_tile/core/arch/emulator/hip_language.hpp"
#include "ck_tile/host/runtime/emulator.hpp"
