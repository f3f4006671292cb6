// SPDX-License-Identifier: MIT
// The scheduler of the CPU emulator: which work-item of a workgroup runs next, and the workgroup
// barrier.
//
// All work-items of a workgroup are fibers on one OS thread. A fiber runs until it blocks (at a
// barrier or a wave collective) or finishes; control then passes directly to the next ready lane
// of its own wave (wrapping around the wave), and only when its wave has none to the next wave in
// order (next_ready): each wave runs ahead as far as it can, up to a workgroup barrier, so that
// waves drift apart as far as hardware lets them. A fiber that completes a barrier or a collective
// blocks as well; the one that completes a barrier hands over to the lowest thread id, so after
// every barrier the threads resume in thread-id order. yield() passes to the next fiber in plain
// round-robin order instead. The order is a pure function of the kernel and the launch, so every
// run gives the same interleaving, whatever the number of OS threads.
//
// A workgroup barrier completes when every thread that has not finished has arrived: threads that
// returned from the kernel do not hold it (as waves that ended do not on hardware). When no fiber
// is ready but some are blocked, the workgroup is deadlocked: the launch fails with a launch_error
// that says who waits where (diagnostics.hpp).
#pragma once

#include <atomic>
#include <cstdint>

#include "ck_tile/core/arch/emulator/diagnostics.hpp"
#include "ck_tile/core/arch/emulator/fiber.hpp"
#include "ck_tile/core/arch/emulator/profile.hpp"
#include "ck_tile/core/arch/emulator/workgroup.hpp"

namespace ck_tile::emu {

namespace detail {

inline std::uint32_t lowest_bit(std::uint64_t m) noexcept { return static_cast<std::uint32_t>(__builtin_ctzll(m)); }

// The first ready fiber after `after` in round-robin order (`after` itself last), or -1.
inline int next_ready_round_robin(const workgroup& wg, std::uint32_t after) noexcept
{
    const std::uint32_t nwords = wg.nwaves;
    const std::uint32_t start  = after + 1;
    std::uint32_t w            = start >> 6;
    if(w < nwords)
    {
        const std::uint64_t m = wg.ready[w] & (~std::uint64_t{0} << (start & 63));
        if(m != 0)
            return static_cast<int>(w * 64 + lowest_bit(m));
        for(++w; w < nwords; ++w)
            if(wg.ready[w] != 0)
                return static_cast<int>(w * 64 + lowest_bit(wg.ready[w]));
    }
    for(w = 0; w < nwords; ++w)
        if(wg.ready[w] != 0)
            return static_cast<int>(w * 64 + lowest_bit(wg.ready[w]));
    return -1;
}

// The next fiber to run after `after` blocks: the ready lanes of its own wave first (after it,
// wrapping around the wave), then the other waves in round-robin order, `after` itself last.
// So a wave runs as far as it can, up to a workgroup barrier, before another wave starts: the
// largest drift between waves that hardware allows, which makes a missing barrier between waves
// (a wave overwriting LDS that another still reads, or reading LDS not yet written) give a wrong
// answer instead of passing by luck.
inline int next_ready(const workgroup& wg, std::uint32_t after) noexcept
{
    const std::uint32_t w0      = after >> 6;
    const std::uint32_t bit     = after & 63;
    const std::uint64_t mine    = wg.ready[w0];
    const std::uint64_t later   = bit == 63 ? 0 : mine & (~std::uint64_t{0} << (bit + 1));
    const std::uint64_t earlier = mine & ((std::uint64_t{1} << bit) - 1);
    if(later != 0)
        return static_cast<int>(w0 * 64 + lowest_bit(later));
    if(earlier != 0)
        return static_cast<int>(w0 * 64 + lowest_bit(earlier));
    for(std::uint32_t k = 1; k < wg.nwaves; ++k)
    {
        const std::uint32_t w = (w0 + k) % wg.nwaves;
        if(wg.ready[w] != 0)
            return static_cast<int>(w * 64 + lowest_bit(wg.ready[w]));
    }
    return (mine >> bit) & 1 ? static_cast<int>(after) : -1;
}

// Runs fiber j, which must be ready; a fiber that has not run yet gets its context made here, on
// its stack, rather than when the workgroup starts. Returns when `self` runs again, unless `self`
// has finished.
template <bool SelfFinished = false>
inline void switch_to(workgroup& wg, fiber& self, std::uint32_t j) noexcept
{
    fiber& f = wg.fibers[j];
    wg.ready[j >> 6] &= ~(std::uint64_t{1} << (j & 63));
    f.state = fiber_state::running;
    t_fiber = &f;
    if(!f.started)
    {
        f.started = true;
        context_init(f.ctx, f.stack_lo, f.stack_top, wg.entry);
    }
    if constexpr(SelfFinished)
        context_exit(self.ctx, f.ctx);
    else
        context_switch(self.ctx, f.ctx);
}

// Which fiber a blocking fiber hands over to (see next_ready).
enum struct handover
{
    wave_first,   // its own wave's next ready lane, then the other waves
    round_robin,  // the next ready fiber in thread-id order (yield: let the others run)
    first_thread, // the lowest ready thread id (a barrier completed: resume in thread-id order)
};

// Blocks the running fiber (its state says why; it may have been made ready again already) and
// runs the next ready fiber; returns when this fiber runs again.
inline void park(workgroup& wg, fiber& self, handover how = handover::wave_first)
{
    const int j = how == handover::wave_first    ? next_ready(wg, self.flat)
                  : how == handover::round_robin ? next_ready_round_robin(wg, self.flat)
                                                 : next_ready_round_robin(wg, wg.nwaves * 64 - 1);
    if(j < 0)
        fail_deadlock(wg);
    if(static_cast<std::uint32_t>(j) == self.flat)
    {
        wg.ready[self.flat >> 6] &= ~(std::uint64_t{1} << (self.flat & 63));
        self.state = fiber_state::running;
        return;
    }
    switch_to(wg, self, static_cast<std::uint32_t>(j));
}

inline void release_barrier(workgroup& wg) noexcept
{
    note_barrier(); // racecheck, profile
    wg.at_barrier = 0;
    for(std::uint32_t i = 0; i < wg.nthreads; ++i)
    {
        fiber& f = wg.fibers[i];
        if(f.state == fiber_state::at_barrier)
        {
            f.state = fiber_state::ready;
            wg.ready[i >> 6] |= std::uint64_t{1} << (i & 63);
        }
    }
}

} // namespace detail

// ---- barrier ---------------------------------------------------------------------------------------

// Workgroup barrier (s_barrier; also orders LDS and global accesses of the workgroup). Completes
// when every thread of the workgroup that has not finished has arrived.
inline void barrier()
{
    detail::fiber& self   = *detail::current_fiber("barrier");
    detail::workgroup& wg = *detail::t_wg;
    if(wg.in_collective)
        detail::fail_workgroup(
            [&] { return detail::where(wg) + ": barrier() called from inside the function of a wave collective"; });
    std::atomic_signal_fence(std::memory_order_seq_cst);
    self.state           = detail::fiber_state::at_barrier;
    const bool completed = ++wg.at_barrier == wg.alive;
    if(completed)
        detail::release_barrier(wg);
    detail::park(wg, self, completed ? detail::handover::first_thread : detail::handover::wave_first);
    std::atomic_signal_fence(std::memory_order_seq_cst);
}

// Lets the other threads of the workgroup run before this one continues (it goes last in the
// round-robin order). Fibers are cooperative: a thread that spins waiting for another thread of
// its workgroup to write a flag never lets that thread run unless the spin loop calls yield().
// Waiting for *another workgroup* cannot be emulated reliably at all (with one worker thread the
// other workgroup may only start after this one ends).
inline void yield()
{
    detail::fiber& self   = *detail::current_fiber("yield");
    detail::workgroup& wg = *detail::t_wg;
    if(wg.in_collective)
        detail::fail_workgroup(
            [&] { return detail::where(wg) + ": yield() called from inside the function of a wave collective"; });
    std::atomic_signal_fence(std::memory_order_seq_cst);
    self.state = detail::fiber_state::ready;
    wg.ready[self.flat >> 6] |= std::uint64_t{1} << (self.flat & 63);
    detail::park(wg, self, detail::handover::round_robin); // a spinning wave must let the others run
    std::atomic_signal_fence(std::memory_order_seq_cst);
}

} // namespace ck_tile::emu
