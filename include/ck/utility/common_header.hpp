// SPDX-License-Identifier: MIT
// What classic CK kernels include first: the ck namespace's basic names (ck.hpp), tuples,
// sequences, math, and the arch primitives kernels call (ck::block_sync_lds, ck::get_thread_local_1d_id, ...).
#pragma once
#include "ck/ck.hpp"
#include "ck/utility/number.hpp"
#include "ck/utility/tuple.hpp"
#include "ck/utility/sequence.hpp"
#include "ck/utility/math.hpp"

namespace ck {
using ck_tile::block_sync_lds;
CK_TILE_DEVICE index_t get_thread_local_1d_id() { return ck_tile::get_thread_id(); }
CK_TILE_DEVICE index_t get_block_1d_id() { return ck_tile::get_block_id(); }
} // namespace ck
