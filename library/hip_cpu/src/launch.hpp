// SPDX-License-Identifier: MIT
// The boundary between hip-cpu's HIP API (hip_api.cpp) and its loader and engine: which arch runs,
// and one kernel launch.
#pragma once
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace hip_cpu {

// A launch that cannot run or that the engine stopped (unknown kernel, unimplemented instruction,
// an access outside every allocation, a read before its s_waitcnt, ...). The message names the
// kernel, the arch and, where there is one, the PC and lane.
struct launch_failure : std::runtime_error
{
    using std::runtime_error::runtime_error;
};

// The archs whose code objects a clang offload bundle (the `.hip_fatbin` a HIP host object embeds)
// holds, in the bundle's order, e.g. {"gfx942", "gfx950"}. Throws launch_failure when `bundle` is
// not an offload bundle.
std::vector<std::string> bundle_archs(const void* bundle);

// The arch this process runs: CK_TILE_HIP_CPU_ARCH when set, else the first arch of the first
// bundle registered (set_default_arch). Throws launch_failure for an arch hip-cpu does not run.
void set_default_arch(const std::string& arch);
std::string running_arch();

struct kernel_launch
{
    const void* bundle = nullptr; // the offload bundle that holds the kernel
    std::string kernel;           // its symbol name (mangled)
    std::uint32_t grid[3]   = {1, 1, 1};
    std::uint32_t block[3]  = {1, 1, 1};
    std::size_t dynamic_lds = 0;
    void** args             = nullptr; // hipLaunchKernel's: one pointer per explicit argument
};

// Runs the kernel to completion on the host (synchronously). Throws launch_failure.
void launch(const kernel_launch& k);

} // namespace hip_cpu
