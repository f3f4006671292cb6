// SPDX-License-Identifier: MIT
// Facts about the GPU that the CPU emulator emulates: one wave64 CDNA target per program, chosen at
// build time through CK_TILE_EMULATE_<ARCH> (see core/config.hpp); its facts come from arch_table.def.
//
// All translation units of one program must emulate the same arch: these are inline definitions,
// and mixing archs in one binary would give two different definitions of the same function.
#pragma once

#include <cstddef>
#include <stdexcept>

#include "ck_tile/core/config.hpp"
#include "ck_tile/core/arch/arch_table.hpp"

namespace ck_tile::emu {

// Lanes per wave (wavefront) of the emulated arch.
inline constexpr int warp_size = compiled_arch_info().wave_size;

// Most work-items one workgroup may have, and so the most waves of one workgroup.
inline constexpr unsigned max_threads_per_block = 1024;
inline constexpr unsigned max_waves_per_block   = max_threads_per_block / warp_size;

// Bytes of LDS (local data share, `__shared__`) one workgroup may use.
constexpr std::size_t lds_bytes_limit() noexcept { return static_cast<std::size_t>(compiled_arch_info().lds_bytes); }

// LDS banks and the bytes of each: 32 banks of 4 bytes on gfx942 and gfx950, as AMD documents
// CDNA3 / CDNA4 LDS (an address's bank is (address / 4) % 32). Only the access profile's
// bank-conflict model (profile_model.hpp) reads them, so they are constants here rather than
// columns of arch_table.def; an arch with another LDS organisation would make them per arch.
inline constexpr unsigned lds_bank_count = 32;
inline constexpr unsigned lds_bank_bytes = 4;

// Name of the emulated arch, e.g. "gfx942".
constexpr const char* arch_name() noexcept { return compiled_arch_info().name; }

// Thrown by launch() for every error the emulator detects in a launch: a bad launch configuration,
// more LDS than the arch has, a deadlock, wave collectives that do not match, a nested launch.
class launch_error : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

} // namespace ck_tile::emu
