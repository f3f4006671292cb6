// SPDX-License-Identifier: MIT
// ck::Sequence<Is...>: CK Tile's sequence.
#pragma once
#include "ck/ck.hpp"

namespace ck {
template <index_t... Is>
using Sequence = ck_tile::sequence<Is...>;
} // namespace ck
