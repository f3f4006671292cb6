// SPDX-License-Identifier: MIT
// Static LDS (shared memory) is declared as in upstream HIP source, on every backend:
//
//   __shared__ char smem[4096];   // one array per workgroup, shared by its work-items
//
// On hip `__shared__` is clang's attribute (core/config.hpp). On the emulator it makes the variable
// thread_local, which is one object per running workgroup there (core/arch/emulator/primitives.hpp
// says why and what that does not model).
#pragma once
#include "ck_tile/core/config.hpp"
#include "ck_tile/core/arch/backend.hpp"
