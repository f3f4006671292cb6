// SPDX-License-Identifier: MIT
// StreamConfig: classic CK's name for how a launch is run and timed; it is ck_tile::stream_config
// (the same members in the same order: stream_id_, time_kernel_, log_level_, cold_niters_,
// nrepeat_, ...), so StreamConfig{nullptr, true} means the same in both worlds.
#pragma once
#include "ck_tile/host/stream_config.hpp"

using StreamConfig = ck_tile::stream_config;
