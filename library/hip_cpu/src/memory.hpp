// SPDX-License-Identifier: MIT
// Device memory of hip-cpu: host memory, tracked per allocation, so that the engine can tell an
// access inside some allocation from one outside all of them (which real hardware would not report).
#pragma once
#include <cstddef>
#include <cstdint>

namespace hip_cpu {

struct allocation
{
    std::uint64_t base  = 0;
    std::uint64_t bytes = 0;
};

// hipMalloc/hipFree's backing: 256-byte aligned, zero-filled. release returns false for a pointer
// that allocate did not return (or already released).
void* allocate(std::size_t bytes);
bool release(void* p);

// Registers memory the runtime did not allocate but kernels may address (a kernel-argument
// segment, a __device__ variable); forget undoes it.
void track(const void* p, std::size_t bytes);
void forget(const void* p);

// The allocation that holds [address, address + bytes), if any.
bool find_allocation(std::uint64_t address, std::uint64_t bytes, allocation& out);

// Changes whenever an allocation goes away (release, forget): a cached find_allocation result is
// valid while this stays the same.
std::uint64_t allocation_generation();

} // namespace hip_cpu
