// SPDX-License-Identifier: MIT
// Helpers shared by the emulator tests.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ck_tile/core/arch/emulator/emulator.hpp"

namespace emu_test {

// Restores the default worker-thread count when a test ends.
struct worker_threads_guard
{
    explicit worker_threads_guard(unsigned n) { ck_tile::emu::set_worker_threads(n); }
    ~worker_threads_guard() { ck_tile::emu::set_worker_threads(0); }
};

// Message of the launch_error thrown by f(), or "" when none is thrown.
template <typename F>
std::string launch_error_message(F&& f)
{
    try
    {
        f();
    }
    catch(const ck_tile::emu::launch_error& e)
    {
        return e.what();
    }
    return "";
}

} // namespace emu_test
