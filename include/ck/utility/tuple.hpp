// SPDX-License-Identifier: MIT
// ck::Tuple / ck::make_tuple: CK Tile's tuple (elements by .at(Number<I>{}) or ck::get<I>).
#pragma once
#include "ck/ck.hpp"

namespace ck {
template <typename... Ts>
using Tuple = ck_tile::tuple<Ts...>;
using ck_tile::get;
using ck_tile::make_tuple;
} // namespace ck
