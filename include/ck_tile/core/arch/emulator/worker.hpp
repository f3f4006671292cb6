// SPDX-License-Identifier: MIT
// The worker of the CPU emulator: what one OS thread uses to run workgroups, one at a time.
//
// A worker owns the fibers and their stacks (fiber.hpp), one workgroup record (workgroup.hpp) and
// one LDS arena (lds.hpp), all made once and reused by every workgroup it runs. configure() sets it
// up for a launch; run() starts every work-item of one workgroup as a fiber at fiber_main, switches
// to the first one, and returns when the last has ended (or the workgroup failed). From there the
// scheduler (scheduler.hpp) passes control between the fibers; finish_thread() takes a work-item
// that returned out of the barriers and collectives it no longer takes part in.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <memory>
#include <utility>

#include "ck_tile/core/arch/emulator/arch_traits.hpp"
#include "ck_tile/core/arch/emulator/diagnostics.hpp"
#include "ck_tile/core/arch/emulator/fault.hpp"
#include "ck_tile/core/arch/emulator/fiber.hpp"
#include "ck_tile/core/arch/emulator/lds.hpp"
#include "ck_tile/core/arch/emulator/scheduler.hpp"
#include "ck_tile/core/arch/emulator/wave.hpp"
#include "ck_tile/core/arch/emulator/workgroup.hpp"

namespace ck_tile::emu::detail {

// End of a work-item: let barriers and collectives complete without it, run the next fiber.
// When the next fiber has not started yet, the finishing one becomes it instead of switching: the
// two swap stacks and this call returns, and fiber_main runs the kernel again as the new work-item
// on the stack that is already in the cache. So a kernel that never waits (no barrier, no
// collective) runs a whole workgroup on one stack, one work-item after another, in the same order
// as with a switch per work-item.
inline void finish_thread()
{
    fiber& self   = *t_fiber;
    workgroup& wg = *t_wg;
    self.state    = fiber_state::done;
    --wg.alive;
    const std::uint32_t w = self.flat >> 6;
    wave_state& ws        = wg.waves[w];
    ws.alive &= ~(std::uint64_t{1} << (self.flat & 63));
    if(ws.arrived != 0 && ws.arrived == ws.alive)
    {
        bool threw = false;
        try
        {
            complete_wave(wg, w);
        }
        catch(...)
        {
            wg.exception = std::current_exception();
            threw        = true;
        }
        if(threw)
        {
            wg.failed = true;
            t_fiber   = nullptr;
            context_exit(self.ctx, *wg.native);
        }
    }
    const bool released = wg.at_barrier != 0 && wg.at_barrier == wg.alive;
    if(released)
        release_barrier(wg);
    if(wg.alive == 0)
    {
        t_fiber = nullptr;
        context_exit(self.ctx, *wg.native);
    }
    // as in park(): after a barrier, resume in thread-id order; else the own wave first
    const int j = released ? next_ready_round_robin(wg, wg.nwaves * 64 - 1) : next_ready(wg, self.flat);
    if(j < 0)
        fail_deadlock(wg);
    fiber& next = wg.fibers[static_cast<std::uint32_t>(j)];
    if(!next.started)
    {
        std::swap(self.stack_lo, next.stack_lo);
        std::swap(self.stack_top, next.stack_top);
        next.started = true;
        next.state   = fiber_state::running;
        wg.ready[next.flat >> 6] &= ~(std::uint64_t{1} << (next.flat & 63));
        t_fiber = &next;
        return;
    }
    switch_to<true>(wg, self, static_cast<std::uint32_t>(j));
    __builtin_unreachable();
}

// Entry point of every fiber of a launch whose kernel body has type Body.
template <typename Body>
[[noreturn]] void fiber_main()
{
    context_entered();
    workgroup& wg = *t_wg;
    for(;;) // once per work-item run on this stack (finish_thread)
    {
        bool threw = false;
        try
        {
            (*static_cast<const Body*>(wg.body))();
        }
        catch(...)
        {
            wg.exception = std::current_exception();
            threw        = true;
        }
        if(threw)
        {
            // Leave the catch block before switching away: the C++ runtime's per-OS-thread record
            // of caught exceptions must not keep an entry for an abandoned fiber.
            fiber& self = *t_fiber;
            wg.failed   = true;
            t_fiber     = nullptr;
            context_exit(self.ctx, *wg.native);
        }
        finish_thread();
    }
}

class worker
{
public:
    worker()
    {
        install_fault_handler();
        ensure_alt_signal_stack();
        g_fault_hooks.store(&k_workgroup_fault_hooks, std::memory_order_release);
        fibers_.reset(new fiber[max_threads_per_block]);

        wg_.lds       = lds_.base();
        wg_.lds_limit = lds_bytes_limit();
        wg_.fibers    = fibers_.get();
        wg_.native    = &native_;
        context_init_native(native_);
    }
    worker(const worker&)            = delete;
    worker& operator=(const worker&) = delete;

    // Sets up this worker for a launch; throws std::bad_alloc when stacks cannot be had.
    void configure(const char* kernel_name, const extent3& grid, const extent3& block, std::size_t lds_dynamic,
                   const void* body, void (*entry)())
    {
        const std::uint32_t n = block.x * block.y * block.z;
        stacks_.prepare(n);
        wg_.kernel_name = kernel_name;
        wg_.grid[0]     = grid.x;
        wg_.grid[1]     = grid.y;
        wg_.grid[2]     = grid.z;
        wg_.dim[0]      = block.x;
        wg_.dim[1]      = block.y;
        wg_.dim[2]      = block.z;
        wg_.nthreads    = n;
        wg_.nwaves      = (n + warp_size - 1) / warp_size;
        wg_.body        = body;
        wg_.entry       = entry;
        wg_.lds_dynamic = lds_dynamic;
        std::uint32_t x = 0, y = 0, z = 0;
        for(std::uint32_t i = 0; i < n; ++i)
        {
            fiber& f    = fibers_[i];
            f.flat      = i;
            f.tid[0]    = x;
            f.tid[1]    = y;
            f.tid[2]    = z;
            f.stack_lo  = stacks_.lo(i);
            f.stack_top = stacks_.top(i);
            if(++x == block.x)
            {
                x = 0;
                if(++y == block.y)
                {
                    y = 0;
                    ++z;
                }
            }
        }
    }

    // Runs workgroup `index` (x fastest) of the configured launch to its end or its failure.
    workgroup& run(std::uint64_t index)
    {
        workgroup& wg          = wg_;
        const std::uint64_t gx = wg.grid[0], gy = wg.grid[1];
        wg.block[0]   = static_cast<std::uint32_t>(index % gx);
        wg.block[1]   = static_cast<std::uint32_t>((index / gx) % gy);
        wg.block[2]   = static_cast<std::uint32_t>(index / (gx * gy));
        wg.generation = ++generation_;
        lds_begin_workgroup(wg);
        wg.alive         = wg.nthreads;
        wg.at_barrier    = 0;
        wg.in_collective = false;
        wg.failed        = false;
        wg.error.clear();
        wg.exception = nullptr;
        wg.printf_buffer.clear();
        for(std::uint32_t w = 0; w < wg.nwaves; ++w)
        {
            const std::uint32_t lanes = wg.nthreads - w * 64 < 64 ? wg.nthreads - w * 64 : 64;
            const std::uint64_t m     = lanes == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << lanes) - 1;
            wg.ready[w]               = m;
            wg.waves[w].alive         = m;
            wg.waves[w].arrived       = 0;
            wg.waves[w].complete      = nullptr;
        }
        for(std::uint32_t i = 0; i < wg.nthreads; ++i)
        {
            fiber& f  = fibers_[i];
            f.state   = fiber_state::ready;
            f.started = false; // its context is made when it first runs (switch_to, finish_thread)
        }
        fiber& first = fibers_[0];
        wg.ready[0] &= ~std::uint64_t{1};
        first.state   = fiber_state::running;
        first.started = true;
        context_init(first.ctx, first.stack_lo, first.stack_top, wg.entry);
        t_wg    = &wg;
        t_fiber = &first;
        context_switch(native_, first.ctx);
        t_fiber = nullptr;
        t_wg    = nullptr;
        return wg;
    }

private:
    stack_pool stacks_;
    std::unique_ptr<fiber[]> fibers_;
    lds_arena lds_;
    workgroup wg_;
    fiber_context native_;
    std::uint64_t generation_ = 0;
};

// The calling OS thread's worker, created at first use.
inline worker& this_worker()
{
    thread_local std::unique_ptr<worker> w;
    if(!w)
        w = std::make_unique<worker>();
    return *w;
}

} // namespace ck_tile::emu::detail
