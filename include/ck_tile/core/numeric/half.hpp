// SPDX-License-Identifier: MIT
// half_t: IEEE-754 binary16. Both clang (host and AMDGPU) and GCC >= 12 on x86-64 provide the
// arithmetic type _Float16, so half_t is that type; conversions round to nearest even.
#pragma once
#include "ck_tile/core/config.hpp"

namespace ck_tile {
using half_t = _Float16;
using fp16_t = half_t;
} // namespace ck_tile
