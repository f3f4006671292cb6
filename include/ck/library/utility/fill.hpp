// SPDX-License-Identifier: MIT
// Classic CK's fills (ck::utils::Fill*), which are CK Tile's: callables over a range or an
// iterator pair, seeded, so a run is reproducible.
#pragma once
#include "ck_tile/host/fill.hpp"

namespace ck::utils {
using ck_tile::FillConstant;
using ck_tile::FillMonotonicSeq;
using ck_tile::FillNormalDistribution;
using ck_tile::FillUniformDistribution;
using ck_tile::FillUniformDistributionIntegerValue;
} // namespace ck::utils
