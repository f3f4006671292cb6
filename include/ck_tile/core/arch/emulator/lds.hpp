// SPDX-License-Identifier: MIT
// LDS (local data share, `__shared__`) of the CPU emulator.
//
// Each worker (worker.hpp) owns one arena of the arch's LDS size (lds_bytes_limit()) with
// PROT_NONE guard pages on both sides, so an access just outside the LDS faults and is reported
// as an out-of-bounds LDS access (fault.hpp). A workgroup's dynamic LDS
// (launch_params::dynamic_lds_bytes) starts at offset 0; static LDS (lds_static<>) is carved after
// it, 16-byte aligned, at first use in each workgroup. Whatever a workgroup uses is filled with
// the byte 0xCD when the workgroup starts (or when the static block is carved), so a kernel that
// reads LDS it did not write reads garbage, as it would on hardware, and the same garbage in every
// run. Asking for more LDS than the arch has ends the workgroup with a launch_error.
//
// Accesses to LDS are plain loads and stores of the kernel's own code: nothing here sees them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>
#include <string>

#include <sys/mman.h>

#include "ck_tile/core/arch/emulator/arch_traits.hpp"
#include "ck_tile/core/arch/emulator/diagnostics.hpp"
#include "ck_tile/core/arch/emulator/fault.hpp"
#include "ck_tile/core/arch/emulator/fiber.hpp"
#include "ck_tile/core/arch/emulator/workgroup.hpp"

namespace ck_tile::emu {

namespace detail {

// The LDS arena of one worker: lds_bytes_limit() bytes between two guard pages, registered with
// the fault handler for the life of the worker.
class lds_arena
{
public:
    lds_arena()
    {
        const std::size_t page = page_bytes();
        map_bytes_             = page + round_up(lds_bytes_limit(), page) + page;
        void* m                = mmap(nullptr, map_bytes_, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if(m == MAP_FAILED)
            throw std::bad_alloc();
        map_ = static_cast<char*>(m);
        if(mprotect(map_ + page, round_up(lds_bytes_limit(), page), PROT_READ | PROT_WRITE) != 0)
        {
            munmap(map_, map_bytes_);
            throw std::bad_alloc();
        }
        region_ = register_region(region_kind::lds_arena, reinterpret_cast<std::uintptr_t>(map_),
                                  reinterpret_cast<std::uintptr_t>(map_ + map_bytes_),
                                  reinterpret_cast<std::uintptr_t>(map_ + page), lds_bytes_limit());
        base_   = map_ + page;
    }
    lds_arena(const lds_arena&)            = delete;
    lds_arena& operator=(const lds_arena&) = delete;
    ~lds_arena()
    {
        unregister_region(region_);
        munmap(map_, map_bytes_);
    }

    // First byte of the arena (page aligned).
    char* base() const noexcept { return base_; }

private:
    char* map_             = nullptr;
    std::size_t map_bytes_ = 0;
    char* base_            = nullptr;
    int region_            = -1;
};

// A workgroup starts: its dynamic LDS is filled with 0xCD and static LDS is carved after it.
inline void lds_begin_workgroup(workgroup& wg) noexcept
{
    wg.lds_top = round_up(wg.lds_dynamic, 16);
    if(wg.lds_dynamic != 0)
        std::memset(wg.lds, 0xCD, wg.lds_dynamic);
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

} // namespace detail

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
