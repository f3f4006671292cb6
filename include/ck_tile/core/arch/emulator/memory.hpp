// SPDX-License-Identifier: MIT
// Device ("global") memory of the CPU emulator.
//
// Every allocation gets a mapping of its own:
//
//   [ guard page | unused | user bytes ... | slack | guard page ]
//                         ^ start, aligned        ^ page boundary
//
// The start keeps the alignment given by CK_TILE_EMU_ALLOC_ALIGN (a power of two, 16 to 4096;
// default 16) and the user bytes are placed as far up as that allows, so that they end at most
// align - 1 bytes before the trailing PROT_NONE guard page: when the size is a multiple of the
// alignment (the usual case for tensors) an access even one byte past the end faults, and the
// fault handler (fault.hpp) names the allocation and the distance. Otherwise an access into the
// slack of fewer than `align` bytes after the end is not detected. An access before the start is
// detected once it reaches the leading guard page (below the start's page).
//
// New allocations are filled with the byte 0xCD, not zero: device memory is not zeroed on real
// GPUs either, and a kernel that reads memory nobody wrote must be visibly wrong.
//
// Every allocation is a few separate mappings; Linux limits a process to vm.max_map_count
// (usually 65530) mappings, so about 20000 allocations can be live at once.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <new>
#include <shared_mutex>
#include <stdexcept>

#include <sys/mman.h>

#include "ck_tile/core/arch/emulator/fault.hpp"
#include "ck_tile/core/arch/emulator/fiber.hpp"

namespace ck_tile::emu {

namespace detail {

struct device_allocation
{
    std::uintptr_t map_base;
    std::size_t map_bytes;
    std::size_t bytes;
    int region;
};

struct device_registry
{
    std::shared_mutex mutex;
    std::map<std::uintptr_t, device_allocation> live; // keyed by start address
    std::atomic<std::uint64_t> frees{0};              // bumped by every free: invalidates caches
};

inline device_registry& registry()
{
    static device_registry r;
    return r;
}

// Start alignment of device allocations: CK_TILE_EMU_ALLOC_ALIGN, default 16; read once.
inline std::size_t device_alloc_alignment() noexcept
{
    static const std::size_t a = [] {
        std::size_t v = 16;
        if(const char* e = std::getenv("CK_TILE_EMU_ALLOC_ALIGN"))
        {
            const unsigned long long x = std::strtoull(e, nullptr, 10);
            if(x >= 16 && x <= 4096 && (x & (x - 1)) == 0)
                v = static_cast<std::size_t>(x);
        }
        return v;
    }();
    return a;
}

// Frees the allocation that starts at p; false when p is not the start of a live allocation.
inline bool device_free_if_owned(void* p) noexcept
{
    device_allocation a;
    {
        device_registry& r = registry();
        std::unique_lock<std::shared_mutex> lock(r.mutex);
        auto it = r.live.find(reinterpret_cast<std::uintptr_t>(p));
        if(it == r.live.end())
            return false;
        a = it->second;
        r.live.erase(it);
        r.frees.fetch_add(1, std::memory_order_release);
    }
    unregister_region(a.region);
    munmap(reinterpret_cast<void*>(a.map_base), a.map_bytes);
    return true;
}

struct pointer_cache
{
    std::uintptr_t start = 0, end = 0;
    std::uint64_t frees = ~std::uint64_t{0};
};
inline thread_local constinit pointer_cache t_pointer_cache{};

} // namespace detail

// Allocates `bytes` of device memory (see above). Returns nullptr for 0 bytes; throws
// std::bad_alloc when the memory cannot be had.
inline void* device_malloc(std::size_t bytes)
{
    if(bytes == 0)
        return nullptr;
    detail::install_fault_handler();
    const std::size_t page  = detail::page_bytes();
    const std::size_t align = detail::device_alloc_alignment();
    if(bytes > (std::size_t{1} << 46))
        throw std::bad_alloc();
    const std::size_t padded = detail::round_up(bytes, align);
    const std::size_t body   = detail::round_up(padded, page);
    const std::size_t total  = page + body + page;
    void* m                  = mmap(nullptr, total, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if(m == MAP_FAILED)
        throw std::bad_alloc();
    char* base = static_cast<char*>(m);
    if(mprotect(base + page, body, PROT_READ | PROT_WRITE) != 0)
    {
        munmap(m, total);
        throw std::bad_alloc();
    }
    char* start = base + page + body - padded; // aligned: page and padded are multiples of align
    std::memset(start, 0xCD, padded);

    const int region = detail::register_region(
        detail::region_kind::device_alloc, reinterpret_cast<std::uintptr_t>(base),
        reinterpret_cast<std::uintptr_t>(base + total), reinterpret_cast<std::uintptr_t>(start), bytes);
    {
        detail::device_registry& r = detail::registry();
        std::unique_lock<std::shared_mutex> lock(r.mutex);
        r.live.emplace(reinterpret_cast<std::uintptr_t>(start),
                       detail::device_allocation{reinterpret_cast<std::uintptr_t>(base), total, bytes, region});
    }
    return start;
}

// Frees memory from device_malloc. nullptr is ignored; any other pointer that is not the start of
// a live device allocation throws std::invalid_argument.
inline void device_free(void* p)
{
    if(p == nullptr)
        return;
    if(!detail::device_free_if_owned(p))
        throw std::invalid_argument("ck_tile::emu::device_free: pointer is not the start of a "
                                    "live device allocation");
}

// True when [p, p + bytes) lies inside one live device allocation (for bytes == 0: p lies in
// [start, end]). Cheap when called repeatedly for the same allocation (per-thread cache).
inline bool is_device_pointer(const void* p, std::size_t bytes = 1)
{
    const auto a               = reinterpret_cast<std::uintptr_t>(p);
    detail::pointer_cache& c   = detail::t_pointer_cache;
    detail::device_registry& r = detail::registry();
    const std::uint64_t frees  = r.frees.load(std::memory_order_acquire);
    if(c.frees == frees && a >= c.start && a <= c.end && bytes <= c.end - a)
        return true;
    std::shared_lock<std::shared_mutex> lock(r.mutex);
    auto it = r.live.upper_bound(a);
    if(it == r.live.begin())
        return false;
    --it;
    const std::uintptr_t start = it->first;
    const std::uintptr_t end   = start + it->second.bytes;
    if(a > end || bytes > end - a)
        return false;
    c.start = start;
    c.end   = end;
    c.frees = r.frees.load(std::memory_order_relaxed);
    return true;
}

} // namespace ck_tile::emu
