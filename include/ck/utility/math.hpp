// SPDX-License-Identifier: MIT
// ck::math: CK Tile's integer helpers under classic CK's names.
#pragma once
#include "ck/ck.hpp"

namespace ck::math {
using ck_tile::integer_divide_ceil;
using ck_tile::integer_least_multiple;
using ck_tile::max;
using ck_tile::min;
} // namespace ck::math
