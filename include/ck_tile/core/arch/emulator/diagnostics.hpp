// SPDX-License-Identifier: MIT
// Diagnostics of the CPU emulator: what it says when a kernel goes wrong, and where.
//
// Errors detected inside a kernel (a deadlock, wave collectives that do not match, more LDS than
// the arch has) end the workgroup at once through fail_workgroup(); the launch then throws
// launch_error with one message that names the kernel and the block, and for a deadlock who waits
// where. Memory faults are caught by the signal handler of fault.hpp; the hooks at the end of this
// file tell it the kernel, block and thread that faulted, and hand it the workgroup's printf output
// so far, so that it is not lost.
//
// Checks that watch a kernel as it runs, rather than its failures, belong here too.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>

#include "ck_tile/core/arch/emulator/arch_traits.hpp"
#include "ck_tile/core/arch/emulator/fault.hpp"
#include "ck_tile/core/arch/emulator/fiber.hpp"
#include "ck_tile/core/arch/emulator/workgroup.hpp"

namespace ck_tile::emu::detail {

// ---- errors raised inside a kernel ---------------------------------------------------------------

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

// ---- context for the fault handler (fault.hpp) ----------------------------------------------------

inline void fault_put_context(void (*put)(const char*, std::size_t, void*), void* ctx)
{
    const fiber* f      = t_fiber;
    const workgroup* wg = t_wg;
    if(f == nullptr || wg == nullptr)
        return;
    signal_text s;
    s.put(" in kernel '");
    s.put(wg->kernel_name);
    s.put("', block ");
    s.put_dim3(wg->block);
    s.put(", thread ");
    s.put_dim3(f->tid);
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

} // namespace ck_tile::emu::detail
