// SPDX-License-Identifier: MIT
// Fibers: user-level execution contexts for the emulated work-items of a workgroup, and the pools
// of stacks they run on.
//
// Context switch. On x86-64 and AArch64 (ELF) a switch is a call to a small assembly routine that
// pushes the callee-saved registers, stores the stack pointer, loads the other fiber's stack
// pointer and pops its registers: no system call, no signal mask, a few nanoseconds. Everything
// else the ABI requires a callee to preserve is saved by the compiler around the call, because the
// routine is an external function it cannot see into. The floating-point control registers (MXCSR,
// x87 control word, FPCR) are not switched: all fibers of an OS thread share that thread's
// floating-point environment, as kernels never change it. Other ISAs (or CK_TILE_EMU_USE_UCONTEXT)
// use ucontext, which is much slower: it saves the signal mask with a system call.
//
// The assembly is emitted from this header in every translation unit that includes it, into a
// COMDAT section with weak hidden symbols, so the linker keeps one copy; the .ifndef guard keeps
// one copy too when LTO merges translation units into one assembly. Under AddressSanitizer the
// switches are announced to it (__sanitizer_start/finish_switch_fiber).
//
// Stacks. Each OS thread that runs workgroups owns one stack_pool: a single reservation holding up
// to max_threads_per_block stacks, each with a 64 KiB PROT_NONE guard region below it (a stack
// grows down). Stacks are made accessible on first need and reused by every later workgroup. The
// size is 256 KiB unless the environment sets CK_TILE_EMU_STACK_KB (read once per process).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <new>

#include <sys/mman.h>
#include <unistd.h>

#include "ck_tile/core/arch/emulator/arch_traits.hpp"
#include "ck_tile/core/arch/emulator/fault.hpp"

#if defined(__ELF__) && (defined(__x86_64__) || defined(__aarch64__)) && !defined(CK_TILE_EMU_USE_UCONTEXT)
#define CK_TILE_EMU_FIBER_ASM 1
#else
#define CK_TILE_EMU_FIBER_ASM 0
#include <ucontext.h>
#endif

// AddressSanitizer must be told about stack switches, or it takes fiber stacks for overflows.
#if defined(__SANITIZE_ADDRESS__)
#define CK_TILE_EMU_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CK_TILE_EMU_ASAN 1
#endif
#endif
#ifndef CK_TILE_EMU_ASAN
#define CK_TILE_EMU_ASAN 0
#endif
#if CK_TILE_EMU_ASAN
#include <pthread.h>
#include <sanitizer/common_interface_defs.h>
#endif

#if CK_TILE_EMU_FIBER_ASM
// void ck_tile_emu_switch(void** save_sp, void* load_sp)
extern "C" __attribute__((visibility("hidden"))) void ck_tile_emu_switch(void** save_sp, void* load_sp);
// void ck_tile_emu_resume(void* load_sp): like ck_tile_emu_switch, saving nothing (never returns)
extern "C" __attribute__((visibility("hidden"), noreturn)) void ck_tile_emu_resume(void* load_sp);
#if defined(__x86_64__)
// Saved frame (low to high): r15 r14 r13 r12 rbx rbp, return address.
// ck_tile_emu_switch ends in `ret`: fibers mostly switch from the same call site (a barrier or a
// collective) to the same call site in another fiber, so one call and one return keep the CPU's
// return-stack predictor right for the returns that follow. ck_tile_emu_resume, used when a fiber
// ends, comes from a different call chain; there an indirect jump predicts better than `ret`.
// (Measured: about 9 ns per thread per barrier, against 20 ns with jumps in both routines.)
__asm__(R"(
.ifndef .Lck_tile_emu_switch_emitted
.set .Lck_tile_emu_switch_emitted, 1
.pushsection .text.ck_tile_emu_switch,"axG",@progbits,ck_tile_emu_switch,comdat
.weak ck_tile_emu_switch
.hidden ck_tile_emu_switch
.type ck_tile_emu_switch,@function
.p2align 4
ck_tile_emu_switch:
    pushq %rbp
    pushq %rbx
    pushq %r12
    pushq %r13
    pushq %r14
    pushq %r15
    movq %rsp, (%rdi)
    movq %rsi, %rsp
    popq %r15
    popq %r14
    popq %r13
    popq %r12
    popq %rbx
    popq %rbp
    ret
.size ck_tile_emu_switch, .-ck_tile_emu_switch
.weak ck_tile_emu_resume
.hidden ck_tile_emu_resume
.type ck_tile_emu_resume,@function
.p2align 4
ck_tile_emu_resume:
    movq %rdi, %rsp
    popq %r15
    popq %r14
    popq %r13
    popq %r12
    popq %rbx
    popq %rbp
    popq %rcx
    jmp *%rcx
.size ck_tile_emu_resume, .-ck_tile_emu_resume
.popsection
.endif
)");
#elif defined(__aarch64__)
// Saved frame (160 bytes, low to high): x19..x28, x29 (fp), x30 (lr), d8..d15.
__asm__(R"(
.ifndef .Lck_tile_emu_switch_emitted
.set .Lck_tile_emu_switch_emitted, 1
.pushsection .text.ck_tile_emu_switch,"axG",@progbits,ck_tile_emu_switch,comdat
.weak ck_tile_emu_switch
.hidden ck_tile_emu_switch
.type ck_tile_emu_switch,%function
.p2align 4
ck_tile_emu_switch:
    sub sp, sp, #160
    stp x19, x20, [sp, #0]
    stp x21, x22, [sp, #16]
    stp x23, x24, [sp, #32]
    stp x25, x26, [sp, #48]
    stp x27, x28, [sp, #64]
    stp x29, x30, [sp, #80]
    stp d8, d9, [sp, #96]
    stp d10, d11, [sp, #112]
    stp d12, d13, [sp, #128]
    stp d14, d15, [sp, #144]
    mov x2, sp
    str x2, [x0]
    mov sp, x1
    ldp x19, x20, [sp, #0]
    ldp x21, x22, [sp, #16]
    ldp x23, x24, [sp, #32]
    ldp x25, x26, [sp, #48]
    ldp x27, x28, [sp, #64]
    ldp x29, x30, [sp, #80]
    ldp d8, d9, [sp, #96]
    ldp d10, d11, [sp, #112]
    ldp d12, d13, [sp, #128]
    ldp d14, d15, [sp, #144]
    add sp, sp, #160
    ret
.size ck_tile_emu_switch, .-ck_tile_emu_switch
.weak ck_tile_emu_resume
.hidden ck_tile_emu_resume
.type ck_tile_emu_resume,%function
.p2align 4
ck_tile_emu_resume:
    mov sp, x0
    ldp x19, x20, [sp, #0]
    ldp x21, x22, [sp, #16]
    ldp x23, x24, [sp, #32]
    ldp x25, x26, [sp, #48]
    ldp x27, x28, [sp, #64]
    ldp x29, x30, [sp, #80]
    ldp d8, d9, [sp, #96]
    ldp d10, d11, [sp, #112]
    ldp d12, d13, [sp, #128]
    ldp d14, d15, [sp, #144]
    add sp, sp, #160
    ret
.size ck_tile_emu_resume, .-ck_tile_emu_resume
.popsection
.endif
)");
#endif
#endif // CK_TILE_EMU_FIBER_ASM

namespace ck_tile::emu::detail {

// ---- contexts ---------------------------------------------------------------------------------

// What AddressSanitizer needs to know about a context's stack (nothing without ASan).
struct asan_stack_info
{
#if CK_TILE_EMU_ASAN
    const void* bottom = nullptr;
    std::size_t size   = 0;
    void* fake_stack   = nullptr;
#endif
};

#if CK_TILE_EMU_FIBER_ASM

struct fiber_context : asan_stack_info
{
    void* sp = nullptr;
};

inline void raw_switch(fiber_context& from, fiber_context& to) noexcept { ck_tile_emu_switch(&from.sp, to.sp); }

[[noreturn]] inline void raw_resume(fiber_context& to) noexcept { ck_tile_emu_resume(to.sp); }

// Prepares `c` to start `entry` (a function that never returns) on the stack [lo, top).
// `top` must be 16-byte aligned.
inline void raw_init(fiber_context& c, char* /*lo*/, char* top, void (*entry)()) noexcept
{
    auto* p = reinterpret_cast<std::uintptr_t*>(top);
#if defined(__x86_64__)
    // After the routine's `ret` pops `entry`, rsp = top - 8: as if `entry` had just been called
    // (rsp % 16 == 8) with a null return address, which also ends debugger backtraces.
    p[-1] = 0;
    p[-2] = reinterpret_cast<std::uintptr_t>(entry);
    for(int i = 3; i <= 8; ++i)
        p[-i] = 0; // rbp rbx r12 r13 r14 r15
    c.sp = p - 8;
#else
    std::uintptr_t* f = p - 20; // 160-byte frame
    for(int i = 0; i < 20; ++i)
        f[i] = 0;
    f[11] = reinterpret_cast<std::uintptr_t>(entry); // x30: where `ret` goes; x29 = 0 ends backtraces
    c.sp  = f;
#endif
}

#else // ucontext fallback

struct fiber_context : asan_stack_info
{
    ucontext_t uc;
};

inline void raw_switch(fiber_context& from, fiber_context& to) noexcept { swapcontext(&from.uc, &to.uc); }

[[noreturn]] inline void raw_resume(fiber_context& to) noexcept
{
    setcontext(&to.uc);
    __builtin_unreachable();
}

inline void raw_init(fiber_context& c, char* lo, char* top, void (*entry)()) noexcept
{
    getcontext(&c.uc);
    c.uc.uc_stack.ss_sp   = lo;
    c.uc.uc_stack.ss_size = static_cast<std::size_t>(top - lo);
    c.uc.uc_link          = nullptr;
    makecontext(&c.uc, entry, 0);
}

#endif

// Prepares `c` to run `entry` (which must never return) on the stack [lo, top), top 16-aligned.
// `entry` must call context_entered() first.
inline void context_init(fiber_context& c, char* lo, char* top, void (*entry)()) noexcept
{
#if CK_TILE_EMU_ASAN
    c.bottom     = lo;
    c.size       = static_cast<std::size_t>(top - lo);
    c.fake_stack = nullptr;
#endif
    raw_init(c, lo, top, entry);
}

// Prepares `c` to stand for the calling OS thread's own stack (switched away from and back to).
inline void context_init_native([[maybe_unused]] fiber_context& c) noexcept
{
#if CK_TILE_EMU_ASAN
    pthread_attr_t attr;
    if(pthread_getattr_np(pthread_self(), &attr) == 0)
    {
        void* addr       = nullptr;
        std::size_t size = 0;
        if(pthread_attr_getstack(&attr, &addr, &size) == 0)
        {
            c.bottom = addr;
            c.size   = size;
        }
        pthread_attr_destroy(&attr);
    }
#endif
}

// Saves the running context in `from` and resumes `to`; returns when `from` is resumed.
inline void context_switch(fiber_context& from, fiber_context& to) noexcept
{
#if CK_TILE_EMU_ASAN
    __sanitizer_start_switch_fiber(&from.fake_stack, to.bottom, to.size);
#endif
    raw_switch(from, to);
#if CK_TILE_EMU_ASAN
    __sanitizer_finish_switch_fiber(from.fake_stack, nullptr, nullptr);
#endif
}

// Leaves the running context for good and resumes `to`.
[[noreturn]] inline void context_exit(fiber_context& /*from*/, fiber_context& to) noexcept
{
#if CK_TILE_EMU_ASAN
    __sanitizer_start_switch_fiber(nullptr, to.bottom, to.size);
#endif
    raw_resume(to);
}

// First call of a context started by context_init.
inline void context_entered() noexcept
{
#if CK_TILE_EMU_ASAN
    __sanitizer_finish_switch_fiber(nullptr, nullptr, nullptr);
#endif
}

// ---- stacks -----------------------------------------------------------------------------------

inline std::size_t page_bytes() noexcept
{
    static const std::size_t p = [] {
        const long v = sysconf(_SC_PAGESIZE);
        return v > 0 ? static_cast<std::size_t>(v) : std::size_t{4096};
    }();
    return p;
}

inline std::size_t round_up(std::size_t v, std::size_t a) noexcept { return (v + a - 1) / a * a; }

// Bytes of one fiber stack: CK_TILE_EMU_STACK_KB (at least 16) KiB, default 256 KiB; read once.
inline std::size_t fiber_stack_bytes() noexcept
{
    static const std::size_t bytes = [] {
        std::size_t kib = 256;
        if(const char* e = std::getenv("CK_TILE_EMU_STACK_KB"))
        {
            char* end         = nullptr;
            const long long v = std::strtoll(e, &end, 10);
            if(end != e && v > 0)
                kib = static_cast<std::size_t>(v);
        }
        if(kib < 16)
            kib = 16;
        const std::size_t b = round_up(kib * 1024, page_bytes());
        g_stack_bytes_for_message.store(b, std::memory_order_relaxed);
        return b;
    }();
    return bytes;
}

class stack_pool
{
public:
    stack_pool()                             = default;
    stack_pool(const stack_pool&)            = delete;
    stack_pool& operator=(const stack_pool&) = delete;
    ~stack_pool()
    {
        unregister_region(region_);
        if(base_ != nullptr)
            munmap(base_, capacity_ * stride_);
    }

    // Makes stacks [0, n) usable. Throws std::bad_alloc when the memory cannot be had.
    void prepare(std::size_t n)
    {
        if(base_ == nullptr)
            reserve();
        for(; prepared_ < n; ++prepared_)
            if(mprotect(lo(prepared_), stack_bytes_, PROT_READ | PROT_WRITE) != 0)
                throw std::bad_alloc();
    }

    char* lo(std::size_t i) const noexcept { return base_ + i * stride_ + guard_; }
    char* hi(std::size_t i) const noexcept { return lo(i) + stack_bytes_; }

    // Where fiber i's stack starts. Stacks sit at a large power-of-two-ish stride, so their tops
    // would all map to the same L1 cache sets; shifting each top by a multiple of a cache line
    // spreads them (costs at most one page of each stack).
    char* top(std::size_t i) const noexcept { return hi(i) - (i % (page_bytes() / 64)) * 64; }

private:
    void reserve()
    {
        const std::size_t page = page_bytes();
        stack_bytes_           = fiber_stack_bytes();
        guard_                 = round_up(64 * 1024, page); // catches frames up to 64 KiB
        stride_                = stack_bytes_ + guard_;
        capacity_              = max_threads_per_block;
        void* p = mmap(nullptr, capacity_ * stride_, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if(p == MAP_FAILED)
            throw std::bad_alloc();
        base_   = static_cast<char*>(p);
        region_ = register_region(region_kind::stack_pool, reinterpret_cast<std::uintptr_t>(base_),
                                  reinterpret_cast<std::uintptr_t>(base_ + capacity_ * stride_), stride_, guard_);
    }

    char* base_              = nullptr;
    std::size_t stack_bytes_ = 0;
    std::size_t guard_       = 0;
    std::size_t stride_      = 0;
    std::size_t capacity_    = 0;
    std::size_t prepared_    = 0;
    int region_              = -1;
};

} // namespace ck_tile::emu::detail
