// SPDX-License-Identifier: MIT
// Device printf of the CPU emulator.
//
// Inside a kernel, device_printf appends to a buffer of the running workgroup. When the workgroup
// ends, its buffer goes to the printf sink (stdout by default) in one piece, and workgroups are
// emitted in workgroup order (x fastest, then y, then z) whatever OS thread ran them. Within a
// workgroup, lines come in the order the threads executed, which is deterministic (see
// scheduler.hpp). So a launch prints exactly the same bytes with one worker thread or many.
// Output of a workgroup that failed is emitted too. Outside a kernel, device_printf prints at once.
#pragma once

#include <atomic>
#include <cstdarg>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <map>
#include <mutex>
#include <string>

#include "ck_tile/core/arch/emulator/workgroup.hpp"

namespace ck_tile::emu {

// Receives the output of one workgroup (or several consecutive ones) at a time.
using printf_sink_fn = void (*)(const char* data, std::size_t size, void* user);

namespace detail {

struct printf_sink_state
{
    std::atomic<printf_sink_fn> fn{nullptr}; // nullptr: stdout
    std::atomic<void*> user{nullptr};
};
inline printf_sink_state g_printf_sink;

inline void emit_printf_output(const char* data, std::size_t size)
{
    if(size == 0)
        return;
    if(printf_sink_fn fn = g_printf_sink.fn.load(std::memory_order_acquire))
        fn(data, size, g_printf_sink.user.load(std::memory_order_acquire));
    else
        std::fwrite(data, 1, size, stdout);
}

// Emits the outputs of the workgroups of one launch in workgroup order.
class printf_orderer
{
public:
    // Workgroup `index` has ended with output `text` (taken when it must wait).
    void complete(std::uint64_t index, std::string& text)
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if(index != next_)
        {
            pending_.emplace(index, std::move(text));
            return;
        }
        emit_printf_output(text.data(), text.size());
        ++next_;
        drain();
    }

    // End of the launch: emits what waits (after a failure some workgroups never ran).
    void finish()
    {
        std::lock_guard<std::mutex> lock(mutex_);
        for(auto& kv : pending_)
            emit_printf_output(kv.second.data(), kv.second.size());
        pending_.clear();
        if(g_printf_sink.fn.load(std::memory_order_acquire) == nullptr)
            std::fflush(stdout);
    }

private:
    void drain()
    {
        while(!pending_.empty() && pending_.begin()->first == next_)
        {
            auto it = pending_.begin();
            emit_printf_output(it->second.data(), it->second.size());
            pending_.erase(it);
            ++next_;
        }
    }

    std::mutex mutex_;
    std::uint64_t next_ = 0;
    std::map<std::uint64_t, std::string> pending_;
};

} // namespace detail

// Sends device printf output to `fn(data, size, user)` instead of stdout; nullptr restores stdout.
// Calls come from one thread at a time. Set it between launches.
inline void set_printf_sink(printf_sink_fn fn, void* user = nullptr)
{
    detail::g_printf_sink.user.store(user, std::memory_order_release);
    detail::g_printf_sink.fn.store(fn, std::memory_order_release);
}

// vprintf for device code: inside a kernel appends to the workgroup's buffer, outside prints now.
// Returns the number of characters formatted, or a negative value on a formatting error.
__attribute__((format(__printf__, 1, 0))) inline int device_vprintf(const char* fmt, va_list args)
{
    detail::workgroup* wg = detail::t_wg;
    if(wg == nullptr || detail::t_fiber == nullptr)
        return std::vprintf(fmt, args);
    char small[256];
    va_list again;
    va_copy(again, args);
    const int n = std::vsnprintf(small, sizeof(small), fmt, args);
    if(n >= 0 && static_cast<std::size_t>(n) < sizeof(small))
        wg->printf_buffer.append(small, static_cast<std::size_t>(n));
    else if(n >= 0)
    {
        std::string& buf      = wg->printf_buffer;
        const std::size_t old = buf.size();
        buf.resize(old + static_cast<std::size_t>(n) + 1);
        std::vsnprintf(&buf[old], static_cast<std::size_t>(n) + 1, fmt, again);
        buf.resize(old + static_cast<std::size_t>(n));
    }
    va_end(again);
    return n;
}

// printf for device code (see above).
__attribute__((format(__printf__, 1, 2))) inline int device_printf(const char* fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    const int n = device_vprintf(fmt, args);
    va_end(args);
    return n;
}

} // namespace ck_tile::emu
