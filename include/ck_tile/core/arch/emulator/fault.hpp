// SPDX-License-Identifier: MIT
// Fault reporting for the CPU emulator.
//
// Device allocations, fiber stacks and LDS arenas are mapped with PROT_NONE guard pages around them
// and registered here as "guarded regions". A SIGSEGV / SIGBUS / SIGFPE handler, running on an
// alternate signal stack (fiber stacks are small and may be the very thing that overflowed), looks
// the faulting address up in that table and prints one line on stderr, e.g.
//
//   ck_tile emulator: out-of-bounds global memory access at 0x7f3a2c401000 (0 bytes past the end
//   of a 4096-byte device allocation) in kernel 'copy', block (3,0,0), thread (17,0,0)
//
// then ends the process with status 1. Only async-signal-safe calls are made (write, _exit,
// sigaction, raise). A fault that is neither in a guarded region nor inside a kernel is handed
// back to whatever handler was installed before (a sanitizer, a debugger, the default action).
//
// The kernel context (kernel name, block, thread) and the current fiber's stack come from hooks
// that each worker installs (diagnostics.hpp, worker.hpp), so that this header depends on neither.
#pragma once

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <mutex>

#include <signal.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

namespace ck_tile::emu::detail {

// ---- guarded regions --------------------------------------------------------------------------

enum class region_kind : std::uint32_t
{
    none         = 0,
    device_alloc = 1, // [lo,hi) whole mapping; a = start of the user bytes, b = user bytes
    stack_pool   = 2, // [lo,hi) all stacks; a = stride, b = guard bytes at the bottom of each slot
    lds_arena    = 3, // [lo,hi) whole mapping; a = start of the arena, b = arena bytes
};

struct guarded_region
{
    std::atomic<std::uint32_t> kind{0};
    std::uintptr_t lo = 0, hi = 0, a = 0, b = 0;
    std::uint32_t next_free = 0;
};

inline constexpr std::uint32_t max_guarded_regions = 1u << 15;

struct region_table
{
    guarded_region slot[max_guarded_regions];
    std::atomic<std::uint32_t> high_water{0}; // slots [0, high_water) have been used
    std::uint32_t free_head = 0;              // 1 + index of the first free slot, 0: none
    std::mutex mutex;                         // serialises add/remove (never taken in the handler)
};

// Zero-initialised, lives in .bss; pages are only touched up to the high-water mark.
inline region_table g_regions;

// Registers a region; returns its slot, or -1 when the table is full (the region then works, but a
// fault in it is reported as a plain memory fault).
inline int register_region(region_kind k, std::uintptr_t lo, std::uintptr_t hi, std::uintptr_t a, std::uintptr_t b)
{
    std::lock_guard<std::mutex> lock(g_regions.mutex);
    std::uint32_t i;
    if(g_regions.free_head != 0)
    {
        i                   = g_regions.free_head - 1;
        g_regions.free_head = g_regions.slot[i].next_free;
    }
    else
    {
        i = g_regions.high_water.load(std::memory_order_relaxed);
        if(i >= max_guarded_regions)
            return -1;
    }
    guarded_region& r = g_regions.slot[i];
    r.lo              = lo;
    r.hi              = hi;
    r.a               = a;
    r.b               = b;
    r.kind.store(static_cast<std::uint32_t>(k), std::memory_order_release);
    if(i >= g_regions.high_water.load(std::memory_order_relaxed))
        g_regions.high_water.store(i + 1, std::memory_order_release);
    return static_cast<int>(i);
}

inline void unregister_region(int slot)
{
    if(slot < 0)
        return;
    std::lock_guard<std::mutex> lock(g_regions.mutex);
    guarded_region& r = g_regions.slot[slot];
    r.kind.store(0, std::memory_order_release);
    r.next_free         = g_regions.free_head;
    g_regions.free_head = static_cast<std::uint32_t>(slot) + 1;
}

// ---- hooks set by the workers (diagnostics.hpp) ----------------------------------------------

struct fault_hooks
{
    // Appends " in kernel 'k', block (x,y,z), thread (x,y,z)" through put(); false outside a kernel.
    bool (*describe)(void (*put)(const char*, std::size_t, void*), void* ctx) = nullptr;
    // Stack bounds of the fiber running on this OS thread; false outside a kernel.
    bool (*current_stack)(std::uintptr_t* lo, std::uintptr_t* hi) = nullptr;
    // Writes what the current workgroup has printed so far to fd 1 (lost otherwise).
    void (*dump_printf)() = nullptr;
};

inline std::atomic<const fault_hooks*> g_fault_hooks{nullptr};

// ---- async-signal-safe message building --------------------------------------------------------

struct signal_text
{
    char data[1024];
    std::size_t size = 0;

    void put(const char* s, std::size_t n) noexcept
    {
        for(std::size_t i = 0; i < n && size < sizeof(data) - 1; ++i)
            data[size++] = s[i];
    }
    void put(const char* s) noexcept { put(s, std::strlen(s)); }
    void put_dec(std::uint64_t v) noexcept
    {
        char tmp[24];
        int n = 0;
        do
        {
            tmp[n++] = static_cast<char>('0' + v % 10);
            v /= 10;
        } while(v != 0);
        while(n > 0)
            put(&tmp[--n], 1);
    }
    void put_hex(std::uintptr_t v) noexcept
    {
        char tmp[2 + 2 * sizeof(v)];
        int n = 0;
        do
        {
            tmp[n++] = "0123456789abcdef"[v & 15];
            v >>= 4;
        } while(v != 0);
        put("0x", 2);
        while(n > 0)
            put(&tmp[--n], 1);
    }
    // "(x,y,z)"
    void put_dim3(const std::uint32_t (&v)[3]) noexcept
    {
        put("(");
        for(int i = 0; i < 3; ++i)
        {
            if(i != 0)
                put(",");
            put_dec(v[i]);
        }
        put(")");
    }
    static void put_cb(const char* s, std::size_t n, void* self) noexcept
    {
        static_cast<signal_text*>(self)->put(s, n);
    }
};

inline void write_all(int fd, const char* p, std::size_t n) noexcept
{
    while(n > 0)
    {
        const ssize_t w = ::write(fd, p, n);
        if(w <= 0)
            return;
        p += w;
        n -= static_cast<std::size_t>(w);
    }
}

// Stack size the fault message suggests raising (set by fiber.hpp).
inline std::atomic<std::size_t> g_stack_bytes_for_message{0};

// ---- the handler ------------------------------------------------------------------------------

inline struct sigaction g_previous_action[3]; // SIGSEGV, SIGBUS, SIGFPE

inline int fault_signal_index(int sig) noexcept { return sig == SIGSEGV ? 0 : sig == SIGBUS ? 1 : 2; }

inline std::uintptr_t interrupted_stack_pointer(void* uctx) noexcept
{
    if(uctx == nullptr)
        return 0;
    [[maybe_unused]] const ucontext_t* uc = static_cast<const ucontext_t*>(uctx);
#if defined(__x86_64__) && defined(__linux__)
    return static_cast<std::uintptr_t>(uc->uc_mcontext.gregs[REG_RSP]);
#elif defined(__aarch64__) && defined(__linux__)
    return static_cast<std::uintptr_t>(uc->uc_mcontext.sp);
#else
    return 0;
#endif
}

// Classifies `addr`; returns true and fills `m` when it lies in a guarded region.
inline bool describe_guarded_address(std::uintptr_t addr, signal_text& m) noexcept
{
    const std::uint32_t n = g_regions.high_water.load(std::memory_order_acquire);
    for(std::uint32_t i = 0; i < n; ++i)
    {
        const guarded_region& r = g_regions.slot[i];
        const auto k            = static_cast<region_kind>(r.kind.load(std::memory_order_acquire));
        if(k == region_kind::none || addr < r.lo || addr >= r.hi)
            continue;
        switch(k)
        {
        case region_kind::device_alloc:
        {
            const std::uintptr_t start = r.a, bytes = r.b;
            m.put("out-of-bounds global memory access at ");
            m.put_hex(addr);
            m.put(" (");
            if(addr >= start + bytes)
            {
                m.put_dec(addr - (start + bytes));
                m.put(" bytes past the end of a ");
            }
            else if(addr < start)
            {
                m.put_dec(start - addr);
                m.put(" bytes before the start of a ");
            }
            else
            {
                m.put_dec(addr - start);
                m.put(" bytes into a ");
            }
            m.put_dec(bytes);
            m.put("-byte device allocation)");
            return true;
        }
        case region_kind::stack_pool:
        {
            const std::uintptr_t pos = (addr - r.lo) % r.a;
            if(pos >= r.b)
                return false; // inside a stack proper: not a guard fault
            m.put("stack overflow in an emulated thread (raise CK_TILE_EMU_STACK_KB, now ");
            m.put_dec(g_stack_bytes_for_message.load(std::memory_order_relaxed) / 1024);
            m.put(")");
            return true;
        }
        case region_kind::lds_arena:
        {
            const std::uintptr_t start = r.a, bytes = r.b;
            m.put("out-of-bounds LDS access at ");
            m.put_hex(addr);
            m.put(" (");
            if(addr >= start + bytes)
            {
                m.put_dec(addr - (start + bytes));
                m.put(" bytes past the end of the ");
            }
            else
            {
                m.put_dec(start - addr);
                m.put(" bytes before the start of the ");
            }
            m.put_dec(bytes);
            m.put("-byte LDS)");
            return true;
        }
        default:
            return false;
        }
    }
    return false;
}

inline void fault_handler(int sig, siginfo_t* info, void* uctx)
{
    const int saved_errno    = errno;
    const auto addr          = reinterpret_cast<std::uintptr_t>(info->si_addr);
    const fault_hooks* hooks = g_fault_hooks.load(std::memory_order_acquire);

    signal_text m;
    m.put("ck_tile emulator: ");
    bool known = false;

    std::uintptr_t stack_lo = 0, stack_hi = 0;
    const bool on_fiber =
        hooks != nullptr && hooks->current_stack != nullptr && hooks->current_stack(&stack_lo, &stack_hi);

    if(sig == SIGSEGV || sig == SIGBUS)
    {
        known = describe_guarded_address(addr, m);
        if(!known && on_fiber)
        {
            // A frame larger than the guard can jump over it; the stack pointer still tells.
            const std::uintptr_t sp = interrupted_stack_pointer(uctx);
            if(sp != 0 && (sp < stack_lo || sp > stack_hi))
            {
                m.put("stack overflow in an emulated thread (raise CK_TILE_EMU_STACK_KB, now ");
                m.put_dec(g_stack_bytes_for_message.load(std::memory_order_relaxed) / 1024);
                m.put(")");
                known = true;
            }
        }
    }

    if(!known)
    {
        if(!on_fiber)
        {
            // Not ours: give the signal back to the previous disposition.
            sigaction(sig, &g_previous_action[fault_signal_index(sig)], nullptr);
            if(info->si_code <= 0) // sent by kill()/raise(): re-send, it would not recur by itself
                raise(sig);
            errno = saved_errno;
            return; // a hardware fault recurs on return and reaches the previous handler
        }
        if(sig == SIGFPE)
            m.put("arithmetic exception (integer division by zero or overflow)");
        else
        {
            m.put(sig == SIGBUS ? "bus error" : "memory fault");
            m.put(" (invalid access at ");
            m.put_hex(addr);
            m.put(")");
        }
    }

    if(hooks != nullptr && hooks->describe != nullptr)
        hooks->describe(&signal_text::put_cb, &m);
    m.put("\n");
    if(on_fiber && hooks->dump_printf != nullptr)
        hooks->dump_printf();
    write_all(2, m.data, m.size);
    _exit(1);
}

// Installs the handler for SIGSEGV, SIGBUS and SIGFPE once per process.
inline void install_fault_handler()
{
    static std::once_flag once;
    std::call_once(once, [] {
        struct sigaction sa;
        std::memset(&sa, 0, sizeof(sa));
        sa.sa_sigaction = &fault_handler;
        sa.sa_flags     = SA_SIGINFO | SA_ONSTACK;
        sigemptyset(&sa.sa_mask);
        const int sigs[3] = {SIGSEGV, SIGBUS, SIGFPE};
        for(int i = 0; i < 3; ++i)
            sigaction(sigs[i], &sa, &g_previous_action[i]);
    });
}

// Gives the calling OS thread an alternate signal stack (unless it already has one), so that the
// handler can run after a fiber's stack overflowed. Freed when the thread ends.
inline void ensure_alt_signal_stack()
{
    struct alt_stack
    {
        void* mem        = nullptr;
        std::size_t size = 0;
        alt_stack()
        {
            stack_t old;
            if(sigaltstack(nullptr, &old) == 0 && (old.ss_flags & SS_DISABLE) == 0)
                return; // the thread has one already: keep it
            size = 64 * 1024;
            mem  = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
            if(mem == MAP_FAILED)
            {
                mem = nullptr;
                return;
            }
            stack_t st;
            st.ss_sp    = mem;
            st.ss_size  = size;
            st.ss_flags = 0;
            if(sigaltstack(&st, nullptr) != 0)
            {
                munmap(mem, size);
                mem = nullptr;
            }
        }
        ~alt_stack()
        {
            if(mem == nullptr)
                return;
            stack_t st;
            std::memset(&st, 0, sizeof(st));
            st.ss_flags = SS_DISABLE;
            sigaltstack(&st, nullptr);
            munmap(mem, size);
        }
    };
    thread_local alt_stack stack;
    (void)stack;
}

} // namespace ck_tile::emu::detail
