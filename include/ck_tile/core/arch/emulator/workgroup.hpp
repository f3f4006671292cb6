// SPDX-License-Identifier: MIT
// One workgroup of the CPU emulator, as data: its work-items (fibers), its waves, the launch facts
// it runs with, and which of them the calling OS thread is running now. The identity queries a
// kernel asks (thread_idx_x, block_idx_x, lane_id, ...) read it.
//
// A worker (worker.hpp) owns one workgroup record and fills it for every workgroup it runs; the
// scheduler (scheduler.hpp), the wave collectives (wave.hpp), the LDS (lds.hpp), printf and the
// diagnostics read and update it through t_wg / t_fiber, which are set only while a workgroup runs
// on this OS thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <exception>
#include <stdexcept>
#include <string>

#include "ck_tile/core/arch/emulator/arch_traits.hpp"
#include "ck_tile/core/arch/emulator/fiber.hpp"
#include "ck_tile/core/numeric/integer.hpp"

namespace ck_tile::emu {

// Grid or block extent of a launch.
struct extent3
{
    unsigned x = 1, y = 1, z = 1;
};

namespace detail {

enum class fiber_state : std::uint8_t
{
    ready,
    running,
    at_barrier,
    at_wave,
    done,
};

struct fiber
{
    fiber_context ctx;
    std::uint32_t flat   = 0;
    std::uint32_t tid[3] = {0, 0, 0};
    fiber_state state    = fiber_state::done;
    char* stack_lo       = nullptr;
    char* stack_top      = nullptr;
    bool started         = false; // its context was made (it has run, or is about to)
};

// Called once per wave by the lane that completes a collective; `frames[lane]` is that lane's
// frame for every lane set in `active`.
using wave_complete_fn = void (*)(void* const* frames, std::uint64_t active);

struct wave_state
{
    std::uint64_t alive       = 0; // lanes that exist and have not finished
    std::uint64_t arrived     = 0; // lanes waiting at the pending collective
    wave_complete_fn complete = nullptr;
    const char* name          = nullptr;
    void* frames[warp_size]   = {};
};

struct workgroup
{
    // Set once per launch.
    const char* kernel_name = "";
    std::uint32_t grid[3]   = {1, 1, 1};
    std::uint32_t dim[3]    = {1, 1, 1};
    std::uint32_t nthreads  = 0;
    std::uint32_t nwaves    = 0;
    const void* body        = nullptr;
    void (*entry)()         = nullptr;
    std::size_t lds_dynamic = 0;
    char* lds               = nullptr;
    std::size_t lds_limit   = 0;
    fiber* fibers           = nullptr;
    fiber_context* native   = nullptr;

    // Set for every workgroup.
    std::uint32_t block[3]                   = {0, 0, 0};
    std::uint64_t generation                 = 0;
    std::uint32_t alive                      = 0; // threads not finished
    std::uint32_t at_barrier                 = 0; // threads waiting at the barrier
    bool in_collective                       = false;
    std::size_t lds_top                      = 0;
    std::uint64_t ready[max_waves_per_block] = {}; // bit i of word w: fiber 64w+i is ready
    wave_state waves[max_waves_per_block];
    std::string printf_buffer;

    // Outcome.
    bool failed = false;
    std::string error;
    std::exception_ptr exception;
};

inline thread_local constinit fiber* t_fiber  = nullptr;
inline thread_local constinit workgroup* t_wg = nullptr;

// A device function called outside a kernel: a programming error of the host code.
[[noreturn]] inline void not_in_kernel(const char* what)
{
    throw std::logic_error(std::string("ck_tile::emu::") + what +
                           "() can only be called inside a kernel launched by ck_tile::emu::launch");
}

inline fiber* current_fiber(const char* what)
{
    fiber* f = t_fiber;
    if(f == nullptr) [[unlikely]]
        not_in_kernel(what);
    return f;
}

inline workgroup* current_wg(const char* what)
{
    workgroup* wg = t_wg; // set only while a workgroup runs on this OS thread
    if(wg == nullptr) [[unlikely]]
        not_in_kernel(what);
    return wg;
}

} // namespace detail

// ---- thread identity (only inside a kernel) ------------------------------------------------------

inline index_t thread_idx_x() { return static_cast<index_t>(detail::current_fiber("thread_idx_x")->tid[0]); }
inline index_t thread_idx_y() { return static_cast<index_t>(detail::current_fiber("thread_idx_y")->tid[1]); }
inline index_t thread_idx_z() { return static_cast<index_t>(detail::current_fiber("thread_idx_z")->tid[2]); }
inline index_t block_idx_x() { return static_cast<index_t>(detail::current_wg("block_idx_x")->block[0]); }
inline index_t block_idx_y() { return static_cast<index_t>(detail::current_wg("block_idx_y")->block[1]); }
inline index_t block_idx_z() { return static_cast<index_t>(detail::current_wg("block_idx_z")->block[2]); }
inline index_t block_dim_x() { return static_cast<index_t>(detail::current_wg("block_dim_x")->dim[0]); }
inline index_t block_dim_y() { return static_cast<index_t>(detail::current_wg("block_dim_y")->dim[1]); }
inline index_t block_dim_z() { return static_cast<index_t>(detail::current_wg("block_dim_z")->dim[2]); }
inline index_t grid_dim_x() { return static_cast<index_t>(detail::current_wg("grid_dim_x")->grid[0]); }
inline index_t grid_dim_y() { return static_cast<index_t>(detail::current_wg("grid_dim_y")->grid[1]); }
inline index_t grid_dim_z() { return static_cast<index_t>(detail::current_wg("grid_dim_z")->grid[2]); }

// x + y * block_dim_x + z * block_dim_x * block_dim_y
inline index_t flat_thread_id() { return static_cast<index_t>(detail::current_fiber("flat_thread_id")->flat); }
// Lane within the wave: flat_thread_id() % 64.
inline index_t lane_id() { return static_cast<index_t>(detail::current_fiber("lane_id")->flat & 63); }
// Wave within the workgroup: flat_thread_id() / 64.
inline index_t warp_id() { return static_cast<index_t>(detail::current_fiber("warp_id")->flat >> 6); }

// True while the calling code runs as a work-item of a kernel.
inline bool in_kernel() noexcept { return detail::t_fiber != nullptr; }

} // namespace ck_tile::emu
