// SPDX-License-Identifier: MIT
// Integer types used for sizes, indices and offsets throughout the library.
#pragma once
#include <cstdint>
#include "ck_tile/core/config.hpp"

namespace ck_tile {
using index_t      = int32_t; // sizes, indices and offsets inside one tensor
using long_index_t = int64_t; // byte counts and offsets that may pass 2^31
using int8_t       = ::int8_t;
using uint8_t      = ::uint8_t;
using int32_t      = ::int32_t;
using uint32_t     = ::uint32_t;
} // namespace ck_tile
