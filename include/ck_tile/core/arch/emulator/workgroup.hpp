// SPDX-License-Identifier: MIT
// Workgroups of the CPU emulator: the per-OS-thread worker that runs them, the scheduler of the
// fibers of one workgroup, the workgroup barrier, the LDS arena and the thread-identity queries.
//
// Scheduling. All work-items of a workgroup are fibers on one OS thread. A fiber runs until it
// blocks (at a barrier or a wave collective) or finishes; control then passes directly to the
// next ready lane of its own wave (wrapping around the wave), and only when its wave has none to
// the next wave in order (next_ready): each wave runs ahead as far as it can, up to a workgroup
// barrier, so that waves drift apart as far as hardware lets them. A fiber that completes a
// barrier or a collective blocks as well; the one that completes a barrier hands over to the
// lowest thread id, so after every barrier the threads resume in thread-id order. yield() passes
// to the next fiber in plain round-robin order instead. The order is a pure function of the kernel and the launch,
// so every run gives the same interleaving, whatever the number of OS threads.
//
// A workgroup barrier completes when every thread that has not finished has arrived: threads that
// returned from the kernel do not hold it (as waves that ended do not on hardware). When no fiber
// is ready but some are blocked, the workgroup is deadlocked: the launch fails with a launch_error
// that says who waits where.
//
// LDS. Each worker owns one arena of the arch's LDS size (lds_bytes_limit()) with PROT_NONE guard
// pages on both sides. A workgroup's dynamic LDS (launch_params::dynamic_lds_bytes) starts at
// offset 0; static LDS (lds_static<>) is carved after it, 16-byte aligned, at first use in each
// workgroup. Whatever a workgroup uses is filled with the byte 0xCD when the workgroup starts (or
// when the static block is carved), so a kernel that reads LDS it did not write reads garbage, as
// it would on hardware, and the same garbage in every run.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <exception>
#include <memory>
#include <stdexcept>
#include <string>

#include <sys/mman.h>
#include <unistd.h>

#include "ck_tile/core/arch/emulator/arch_traits.hpp"
#include "ck_tile/core/arch/emulator/fault.hpp"
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

// ---- errors raised inside a kernel ---------------------------------------------------------------

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

inline std::string where(const workgroup& wg)
{
    return std::string("ck_tile emulator: kernel '") + wg.kernel_name + "', block (" + std::to_string(wg.block[0]) +
           "," + std::to_string(wg.block[1]) + "," + std::to_string(wg.block[2]) + ")";
}

// Ends the workgroup at once with the error message that `build()` returns (the launch then
// throws launch_error(message)). The fibers still blocked, and this one, are abandoned without
// unwinding, so the message is built inside this function: no string stays owned by a frame
// that is never left.
template <typename MessageBuilder>
[[noreturn]] void fail_workgroup(MessageBuilder&& build)
{
    workgroup& wg = *t_wg;
    fiber& self   = *t_fiber;
    wg.error      = build();
    wg.failed     = true;
    t_fiber       = nullptr;
    context_exit(self.ctx, *wg.native);
}

inline std::string lane_list(std::uint64_t m)
{
    std::string s;
    int i = 0;
    while(i < 64)
    {
        if(((m >> i) & 1) == 0)
        {
            ++i;
            continue;
        }
        int j = i;
        while(j + 1 < 64 && ((m >> (j + 1)) & 1) != 0)
            ++j;
        if(!s.empty())
            s += ",";
        s += std::to_string(i);
        if(j > i)
            s += "-" + std::to_string(j);
        i = j + 1;
    }
    return s.empty() ? std::string("none") : s;
}

inline std::string deadlock_message(const workgroup& wg)
{
    std::string m = where(wg) + ": deadlock: no thread can proceed (" + std::to_string(wg.alive) + " of " +
                    std::to_string(wg.nthreads) + " threads still running";
    if(wg.at_barrier != 0)
        m += "; " + std::to_string(wg.at_barrier) + " wait at a workgroup barrier";
    for(std::uint32_t w = 0; w < wg.nwaves; ++w)
    {
        const wave_state& ws = wg.waves[w];
        if(ws.arrived == 0)
            continue;
        std::uint64_t at_barrier = 0;
        for(std::uint64_t m2 = ws.alive & ~ws.arrived; m2 != 0; m2 &= m2 - 1)
        {
            const auto lane = static_cast<std::uint32_t>(__builtin_ctzll(m2));
            if(wg.fibers[w * 64 + lane].state == fiber_state::at_barrier)
                at_barrier |= std::uint64_t{1} << lane;
        }
        m += "; wave " + std::to_string(w) + ": lanes " + lane_list(ws.arrived) + " wait at wave collective '" +
             ws.name + "' for lanes " + lane_list(ws.alive & ~ws.arrived);
        if(at_barrier != 0)
            m += " (lanes " + lane_list(at_barrier) + " of them wait at the workgroup barrier)";
    }
    m += "). All threads must reach the same barriers, and all active lanes of a wave the same "
         "wave collectives.";
    return m;
}

[[noreturn]] inline void fail_deadlock(const workgroup& wg)
{
    fail_workgroup([&] { return deadlock_message(wg); });
}

// ---- scheduling ---------------------------------------------------------------------------------

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

// Runs fiber j, which must be ready. Returns when `self` runs again, unless `self` has finished.
template <bool SelfFinished = false>
inline void switch_to(workgroup& wg, fiber& self, std::uint32_t j) noexcept
{
    fiber& f = wg.fibers[j];
    wg.ready[j >> 6] &= ~(std::uint64_t{1} << (j & 63));
    f.state = fiber_state::running;
    t_fiber = &f;
    if constexpr(SelfFinished)
        context_exit(self.ctx, f.ctx);
    else
        context_switch(self.ctx, f.ctx);
}

// Blocks the running fiber (its state says why; it may have been made ready again already) and
// runs the next ready fiber; returns when this fiber runs again.
// Which fiber a blocking fiber hands over to (see next_ready).
enum struct handover
{
    wave_first,   // its own wave's next ready lane, then the other waves
    round_robin,  // the next ready fiber in thread-id order (yield: let the others run)
    first_thread, // the lowest ready thread id (a barrier completed: resume in thread-id order)
};

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

// Runs the pending collective of wave `w` (all its live lanes have arrived) and releases its lanes.
inline void complete_wave(workgroup& wg, std::uint32_t w)
{
    wave_state& ws            = wg.waves[w];
    const std::uint64_t mask  = ws.arrived;
    const wave_complete_fn fn = ws.complete;
    ws.arrived                = 0;
    ws.complete               = nullptr;
    wg.in_collective          = true;
    fn(ws.frames, mask);
    wg.in_collective = false;
    wg.ready[w] |= mask;
    for(std::uint64_t m = mask; m != 0; m &= m - 1)
        wg.fibers[w * 64 + lowest_bit(m)].state = fiber_state::ready;
}

// The running lane arrives at a wave collective described by (frame, fn, name) and waits until
// its wave's collective has completed (the last lane to arrive runs fn for the whole wave).
inline void wave_arrive(void* frame, wave_complete_fn fn, const char* name)
{
    fiber& self   = *current_fiber(name);
    workgroup& wg = *t_wg;
    if(wg.in_collective)
        fail_workgroup([&] {
            return where(wg) + ": a wave collective was called from inside the function of "
                               "another wave collective";
        });
    const std::uint32_t w   = self.flat >> 6;
    const std::uint64_t bit = std::uint64_t{1} << (self.flat & 63);
    wave_state& ws          = wg.waves[w];
    if(ws.arrived == 0)
    {
        ws.complete = fn;
        ws.name     = name;
    }
    else if(ws.complete != fn)
    {
        fail_workgroup([&] {
            return where(wg) + ": lanes of wave " + std::to_string(w) + " called different wave collectives (lanes " +
                   lane_list(ws.arrived) + " are at '" + ws.name + "', lane " + std::to_string(self.flat & 63) +
                   " at a different '" + name + "'); all active lanes of a wave must execute the same collective";
        });
    }
    ws.frames[self.flat & 63] = frame;
    ws.arrived |= bit;
    self.state = fiber_state::at_wave;
    if(ws.arrived == ws.alive)
        complete_wave(wg, w);
    park(wg, self);
}

// End of a work-item: let barriers and collectives complete without it, run the next fiber.
[[noreturn]] inline void finish_thread()
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
    switch_to<true>(wg, self, static_cast<std::uint32_t>(j));
    __builtin_unreachable();
}

// Entry point of every fiber of a launch whose kernel body has type Body.
template <typename Body>
[[noreturn]] void fiber_main()
{
    context_entered();
    workgroup& wg = *t_wg;
    bool threw    = false;
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
        // Leave the catch block before switching away: the C++ runtime's per-OS-thread record of
        // caught exceptions must not keep an entry for an abandoned fiber.
        fiber& self = *t_fiber;
        wg.failed   = true;
        t_fiber     = nullptr;
        context_exit(self.ctx, *wg.native);
    }
    finish_thread();
}

// Carves `bytes` of static LDS (aligned to `align`) for the running workgroup.
inline void* lds_allocate(workgroup& wg, std::size_t bytes, std::size_t align)
{
    const std::size_t off = round_up(wg.lds_top, align);
    if(bytes > wg.lds_limit || off > wg.lds_limit - bytes)
        fail_workgroup([&] {
            return where(wg) + ": the kernel needs more LDS than " + arch_name() +
                   " has: " + std::to_string(wg.lds_dynamic) + " bytes of dynamic LDS plus at least " +
                   std::to_string(off + bytes - round_up(wg.lds_dynamic, 16)) + " bytes of static LDS exceed the " +
                   std::to_string(wg.lds_limit) + "-byte LDS limit per workgroup";
        });
    wg.lds_top = off + bytes;
    std::memset(wg.lds + off, 0xCD, bytes);
    return wg.lds + off;
}

// ---- the per-OS-thread worker ------------------------------------------------------------------

inline void fault_put_context(void (*put)(const char*, std::size_t, void*), void* ctx)
{
    const fiber* f      = t_fiber;
    const workgroup* wg = t_wg;
    if(f == nullptr || wg == nullptr)
        return;
    signal_text s;
    s.put(" in kernel '");
    s.put(wg->kernel_name);
    s.put("', block (");
    s.put_dec(wg->block[0]);
    s.put(",");
    s.put_dec(wg->block[1]);
    s.put(",");
    s.put_dec(wg->block[2]);
    s.put("), thread (");
    s.put_dec(f->tid[0]);
    s.put(",");
    s.put_dec(f->tid[1]);
    s.put(",");
    s.put_dec(f->tid[2]);
    s.put(")");
    put(s.data, s.size, ctx);
}

inline bool fault_describe(void (*put)(const char*, std::size_t, void*), void* ctx)
{
    if(t_fiber == nullptr || t_wg == nullptr)
        return false;
    fault_put_context(put, ctx);
    return true;
}

inline bool fault_current_stack(std::uintptr_t* lo, std::uintptr_t* hi)
{
    const fiber* f = t_fiber;
    if(f == nullptr)
        return false;
    *lo = reinterpret_cast<std::uintptr_t>(f->stack_lo);
    *hi = *lo + g_stack_bytes_for_message.load(std::memory_order_relaxed);
    return true;
}

inline void fault_dump_printf()
{
    const workgroup* wg = t_wg;
    if(wg != nullptr && !wg->printf_buffer.empty())
        write_all(1, wg->printf_buffer.data(), wg->printf_buffer.size());
}

inline constexpr fault_hooks k_workgroup_fault_hooks{&fault_describe, &fault_current_stack, &fault_dump_printf};

class worker
{
public:
    worker()
    {
        install_fault_handler();
        ensure_alt_signal_stack();
        g_fault_hooks.store(&k_workgroup_fault_hooks, std::memory_order_release);
        fibers_.reset(new fiber[max_threads_per_block]);

        const std::size_t page = page_bytes();
        lds_map_bytes_         = page + round_up(lds_bytes_limit(), page) + page;
        void* m                = mmap(nullptr, lds_map_bytes_, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if(m == MAP_FAILED)
            throw std::bad_alloc();
        lds_map_ = static_cast<char*>(m);
        if(mprotect(lds_map_ + page, round_up(lds_bytes_limit(), page), PROT_READ | PROT_WRITE) != 0)
        {
            munmap(lds_map_, lds_map_bytes_);
            throw std::bad_alloc();
        }
        lds_region_   = register_region(region_kind::lds_arena, reinterpret_cast<std::uintptr_t>(lds_map_),
                                        reinterpret_cast<std::uintptr_t>(lds_map_ + lds_map_bytes_),
                                        reinterpret_cast<std::uintptr_t>(lds_map_ + page), lds_bytes_limit());
        wg_.lds       = lds_map_ + page;
        wg_.lds_limit = lds_bytes_limit();
        wg_.fibers    = fibers_.get();
        wg_.native    = &native_;
        context_init_native(native_);
    }
    worker(const worker&)            = delete;
    worker& operator=(const worker&) = delete;
    ~worker()
    {
        unregister_region(lds_region_);
        munmap(lds_map_, lds_map_bytes_);
    }

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
        wg.lds_top    = round_up(wg.lds_dynamic, 16);
        if(wg.lds_dynamic != 0)
            std::memset(wg.lds, 0xCD, wg.lds_dynamic);
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
            fiber& f = fibers_[i];
            f.state  = fiber_state::ready;
            context_init(f.ctx, f.stack_lo, f.stack_top, wg.entry);
        }
        fiber& first = fibers_[0];
        wg.ready[0] &= ~std::uint64_t{1};
        first.state = fiber_state::running;
        t_wg        = &wg;
        t_fiber     = &first;
        context_switch(native_, first.ctx);
        t_fiber = nullptr;
        t_wg    = nullptr;
        return wg;
    }

private:
    stack_pool stacks_;
    std::unique_ptr<fiber[]> fibers_;
    workgroup wg_;
    fiber_context native_;
    char* lds_map_             = nullptr;
    std::size_t lds_map_bytes_ = 0;
    int lds_region_            = -1;
    std::uint64_t generation_  = 0;
};

// The calling OS thread's worker, created at first use.
inline worker& this_worker()
{
    thread_local std::unique_ptr<worker> w;
    if(!w)
        w = std::make_unique<worker>();
    return *w;
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

// ---- LDS ---------------------------------------------------------------------------------------

// Start of the workgroup's dynamic LDS (launch_params::dynamic_lds_bytes bytes; page aligned).
inline void* dynamic_lds() { return detail::current_wg("dynamic_lds")->lds; }
inline std::size_t dynamic_lds_bytes() { return detail::current_wg("dynamic_lds_bytes")->lds_dynamic; }

// Static LDS: N objects of type T, one block per workgroup for each Site type (a tag naming the
// declaration; e.g. a local struct, or decltype([]{}) to get a fresh one per instantiation). Every
// thread of a workgroup gets the same pointer; the block is carved from the arena at its first use
// in each workgroup, aligned to max(16, alignof(T)) and filled with 0xCD. As `__shared__` on
// hardware, no constructor runs: T should be an implicit-lifetime type (scalars, arrays, PODs).
template <typename T, std::size_t N, typename Site>
T* lds_static()
{
    static_assert(N > 0, "lds_static: N must be positive");
    struct cache_t
    {
        std::uint64_t generation;
        void* ptr;
    };
    static thread_local constinit cache_t cache{0, nullptr};
    detail::workgroup* wg = detail::current_wg("lds_static");
    if(cache.generation != wg->generation) [[unlikely]]
    {
        cache.ptr        = detail::lds_allocate(*wg, sizeof(T) * N, alignof(T) < 16 ? 16 : alignof(T));
        cache.generation = wg->generation;
    }
    return static_cast<T*>(cache.ptr);
}

// True when [p, p + bytes) lies inside the LDS the running workgroup has (dynamic + static so far).
inline bool is_lds_pointer(const void* p, std::size_t bytes = 1) noexcept
{
    const detail::workgroup* wg = detail::t_wg;
    if(wg == nullptr || detail::t_fiber == nullptr)
        return false;
    const auto a  = reinterpret_cast<std::uintptr_t>(p);
    const auto lo = reinterpret_cast<std::uintptr_t>(wg->lds);
    const auto hi = lo + wg->lds_top;
    return a >= lo && a <= hi && bytes <= hi - a;
}

} // namespace ck_tile::emu
