// SPDX-License-Identifier: MIT
// hip backend: a static LDS array is a __shared__ array.
// The primitive set and its other implementation: core/arch/backend.hpp.
#pragma once
#include "ck_tile/core/config.hpp"

#define CK_TILE_LDS_ARRAY(T, name, count) __shared__ alignas(16) T name[count]
