// SPDX-License-Identifier: MIT
// Arch queries and synchronisation, the only place kernels learn who they are:
// get_thread_id, get_block_id, get_block_size, get_grid_size, get_lane_id, get_warp_id,
// get_warp_size, block_sync_lds, plus the wave-level operations (warp_shuffle, readfirstlane,
// ballot). Each backend implements them (core/arch/backend.hpp picks which); what is the same on
// every backend is here.
#pragma once
#include "ck_tile/core/config.hpp"
#include "ck_tile/core/numeric/integer.hpp"
#include "ck_tile/core/arch/arch_table.hpp"
#include "ck_tile/core/arch/backend.hpp"

namespace ck_tile {

enum struct address_space_enum
{
    generic,
    global,
    lds,
    sgpr,
    vgpr
};

// Lanes per wave: the arch's (arch_table.def); host code of a hip build gets the one all archs share.
CK_TILE_HOST_DEVICE constexpr index_t get_warp_size() { return common_wave_size; }

} // namespace ck_tile
