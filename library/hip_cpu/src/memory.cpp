// SPDX-License-Identifier: MIT
#include "memory.hpp"

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>

namespace hip_cpu {
namespace {
struct table
{
    std::mutex mutex;
    std::map<std::uint64_t, std::uint64_t> blocks; // base -> bytes
    std::map<std::uint64_t, bool> owned;           // base -> allocated by us (freed by release)
};
table& the_table()
{
    static table t;
    return t;
}
std::atomic<std::uint64_t>& generation()
{
    static std::atomic<std::uint64_t> g{1};
    return g;
}
} // namespace

void* allocate(std::size_t bytes)
{
    const std::size_t rounded = (bytes + 255) / 256 * 256;
    void* p                   = std::aligned_alloc(256, rounded == 0 ? 256 : rounded);
    if(p == nullptr)
        return nullptr;
    std::memset(p, 0, rounded == 0 ? 256 : rounded);
    auto& t = the_table();
    std::lock_guard lock(t.mutex);
    // whole dwords: a dword access that starts inside an allocation stays inside (ROCm allocates
    // whole pages; kernels rely on the dword that holds a buffer's last 16-bit element, e.g. a
    // packed atomic that adds -0 to the other half)
    t.blocks[reinterpret_cast<std::uint64_t>(p)] = (bytes + 3) / 4 * 4;
    t.owned[reinterpret_cast<std::uint64_t>(p)]  = true;
    return p;
}

bool release(void* p)
{
    auto& t = the_table();
    {
        std::lock_guard lock(t.mutex);
        const auto key = reinterpret_cast<std::uint64_t>(p);
        auto it        = t.owned.find(key);
        if(it == t.owned.end())
            return false;
        t.owned.erase(it);
        t.blocks.erase(key);
        generation().fetch_add(1);
    }
    std::free(p);
    return true;
}

void track(const void* p, std::size_t bytes)
{
    auto& t = the_table();
    std::lock_guard lock(t.mutex);
    t.blocks[reinterpret_cast<std::uint64_t>(p)] = bytes;
}

void forget(const void* p)
{
    auto& t = the_table();
    std::lock_guard lock(t.mutex);
    t.blocks.erase(reinterpret_cast<std::uint64_t>(p));
    generation().fetch_add(1);
}

bool find_allocation(std::uint64_t address, std::uint64_t bytes, allocation& out)
{
    auto& t = the_table();
    std::lock_guard lock(t.mutex);
    auto it = t.blocks.upper_bound(address);
    if(it == t.blocks.begin())
        return false;
    --it;
    if(address + bytes > it->first + it->second)
        return false;
    out = {it->first, it->second};
    return true;
}

std::uint64_t allocation_generation() { return generation().load(std::memory_order_relaxed); }

} // namespace hip_cpu
