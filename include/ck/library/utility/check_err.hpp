// SPDX-License-Identifier: MIT
// ck::utils::check_err: classic CK's result check, which is ck_tile::check_err (same arguments:
// out, ref, message, rtol, atol; the same default tolerances per type; prints the mismatches and
// returns false on failure), with its threshold helpers.
#pragma once
#include "ck_tile/host/check_err.hpp"

namespace ck::utils {
using ck_tile::check_err;
using ck_tile::get_absolute_threshold;
using ck_tile::get_relative_threshold;
} // namespace ck::utils
