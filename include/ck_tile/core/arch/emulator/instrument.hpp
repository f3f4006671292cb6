// SPDX-License-Identifier: MIT
// The switches of the emulator's instrumentation: race detection (racecheck.hpp,
// CK_TILE_EMU_RACECHECK) and the access profile (profile.hpp, CK_TILE_EMU_PROFILE).
//
// Both live in one flag word, read from the environment once per process and changed at run time
// by set_racecheck() / set_profile(). The hooks the library's accesses, barriers and MFMAs call
// (the end of profile.hpp) test instrumented(), one predictable branch on that word, and only
// then look at which of the two is on: with both off, that branch is all they cost.
#pragma once

#include <atomic>
#include <cstdlib>

namespace ck_tile::emu {

namespace detail {

inline constexpr unsigned k_instrument_racecheck = 1u;
inline constexpr unsigned k_instrument_profile   = 2u;

// Whether an environment switch is on: set, not empty and not "0".
inline bool env_switch(const char* name) noexcept
{
    const char* e = std::getenv(name);
    return e != nullptr && e[0] != '\0' && !(e[0] == '0' && e[1] == '\0');
}

inline std::atomic<unsigned> g_instrument{(env_switch("CK_TILE_EMU_RACECHECK") ? k_instrument_racecheck : 0u) |
                                          (env_switch("CK_TILE_EMU_PROFILE") ? k_instrument_profile : 0u)};

inline bool instrument_has(unsigned bit) noexcept { return (g_instrument.load(std::memory_order_relaxed) & bit) != 0; }

inline void instrument_set(unsigned bit, bool on) noexcept
{
    if(on)
        g_instrument.fetch_or(bit, std::memory_order_relaxed);
    else
        g_instrument.fetch_and(~bit, std::memory_order_relaxed);
}

} // namespace detail

// Whether any instrumentation is on (the hot-path test of every hook).
inline bool instrumented() noexcept { return detail::g_instrument.load(std::memory_order_relaxed) != 0; }

// Whether race detection is on (CK_TILE_EMU_RACECHECK, read once per process).
inline bool racecheck_enabled() noexcept { return detail::instrument_has(detail::k_instrument_racecheck); }
// Turns race detection on or off for the launches that follow (tests).
inline void set_racecheck(bool on) noexcept { detail::instrument_set(detail::k_instrument_racecheck, on); }

// Whether the access profile is on (CK_TILE_EMU_PROFILE, read once per process).
inline bool profile_enabled() noexcept { return detail::instrument_has(detail::k_instrument_profile); }
// Turns the access profile on or off for the launches that follow (tests); not inside a launch.
inline void set_profile(bool on) noexcept { detail::instrument_set(detail::k_instrument_profile, on); }

} // namespace ck_tile::emu
