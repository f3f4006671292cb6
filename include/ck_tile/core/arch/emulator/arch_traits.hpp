// SPDX-License-Identifier: MIT
// Facts about the GPU that the CPU emulator emulates: one wave64 CDNA target per program, chosen at
// build time through CK_TILE_EMULATE_GFX942 / CK_TILE_EMULATE_GFX950 (see core/config.hpp).
//
// All translation units of one program must emulate the same arch: these are inline definitions,
// and mixing archs in one binary would give two different definitions of the same function.
#pragma once

#include <cstddef>
#include <stdexcept>

#include "ck_tile/core/config.hpp"

namespace ck_tile::emu {

// Lanes per wave (wavefront) on every emulated arch.
inline constexpr int warp_size = 64;

// Most work-items one workgroup may have, and so the most waves of one workgroup.
inline constexpr unsigned max_threads_per_block = 1024;
inline constexpr unsigned max_waves_per_block   = max_threads_per_block / warp_size;

// Bytes of LDS (local data share, `__shared__`) one workgroup may use.
constexpr std::size_t lds_bytes_limit() noexcept
{
#if defined(CK_TILE_ARCH_GFX950)
    return std::size_t{160} * 1024;
#else
    return std::size_t{64} * 1024;
#endif
}

// Name of the emulated arch, e.g. "gfx942".
constexpr const char* arch_name() noexcept
{
#if defined(CK_TILE_ARCH_GFX950)
    return "gfx950";
#else
    return "gfx942";
#endif
}

// Thrown by launch() for every error the emulator detects in a launch: a bad launch configuration,
// more LDS than the arch has, a deadlock, wave collectives that do not match, a nested launch.
class launch_error : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

} // namespace ck_tile::emu
