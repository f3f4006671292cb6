// SPDX-License-Identifier: MIT
// The host ABI clang's HIP code generation calls (clang/lib/CodeGen/CGCUDANV.cpp), and the launch:
//
//   start-up     each translation unit's constructor: __hipRegisterFatBinary(its offload bundle),
//                then __hipRegisterFunction(host handle -> kernel symbol) per kernel and
//                __hipRegisterVar per __device__ variable. The first bundle picks the default arch
//                (set_default_arch; CK_TILE_HIP_CPU_ARCH overrides it, launch.hpp).
//   k<<<g, b>>>  __hipPushCallConfiguration; k's host stub pops it (__hipPopCallConfiguration)
//                and calls hipLaunchKernel(&k, g, b, args, shmem, stream).
//   launch       hipLaunchKernel checks the configuration, finds (bundle, symbol) of &k and runs
//                it with hip_cpu::launch (launch.hpp: loader and engine), synchronously. A refusal
//                is one `hip-cpu: ...` line on stderr plus the error code, kept as the last error.
//
// The signatures clang-22 emits (x86-64):
//   void** __hipRegisterFatBinary(const void* wrapper);   wrapper: {u32 magic "HIPF", u32 1, bundle, null}
//   void   __hipUnregisterFatBinary(void** handle);       at exit
//   int    __hipRegisterFunction(void** handle, const void* host_function, char* device_function,
//                                const char* device_name, unsigned thread_limit, void* tid, void* bid,
//                                dim3* block_dim, dim3* grid_dim, int* w_size);   (thread_limit -1, rest null)
//   void   __hipRegisterVar(void** handle, char* host_variable, char* device_address,
//                           const char* device_name, int ext, size_t size, int constant, int global);
//   hipError_t __hipPushCallConfiguration(dim3, dim3, size_t, hipStream_t), __hipPopCallConfiguration(...)
//   hipError_t hipLaunchKernel(const void*, dim3, dim3, void**, size_t, hipStream_t)   (unmangled)
#include <cstddef>
#include <cstdint>
#include <exception>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "hip_api.hpp"
#include "launch.hpp"

using hip_cpu::api::address;
using hip_cpu::api::refuse;
using hip_cpu::api::result;

namespace {

// ---- registered code ------------------------------------------------------------------------
// clang's __hip_fatbin_wrapper, one per translation unit (section .hipFatBinSegment).
struct fatbin_wrapper
{
    std::uint32_t magic; // 0x48495046 "HIPF"
    std::uint32_t version;
    const void* bundle; // the clang offload bundle (section .hip_fatbin)
    void* unused;
};
constexpr std::uint32_t fatbin_magic = 0x48495046;

struct kernel_entry
{
    const void* bundle;
    std::string symbol;
};

struct registry
{
    std::mutex mutex;
    bool default_arch_set = false;
    std::map<const void*, kernel_entry> kernels;  // host handle (&kernel) -> code
    std::map<const void*, std::string> variables; // host shadow of a __device__ variable -> symbol
};
registry& the_registry()
{
    static registry* r = new registry; // never destroyed: module destructors run at exit
    return *r;
}

// ---- launch configurations (per thread: kernel<<<>>> pushes, the stub pops) --------------------
struct call_configuration
{
    dim3 grid, block;
    std::size_t shmem;
    hipStream_t stream;
};
thread_local std::vector<call_configuration> configurations;

} // namespace

extern "C" {

// ---- registration ABI (clang's HIP host code; see CGCUDANV.cpp) --------------------------------
void** __hipRegisterFatBinary(const void* wrapper_address)
{
    const auto* wrapper = static_cast<const fatbin_wrapper*>(wrapper_address);
    const void* bundle  = nullptr;
    if(wrapper != nullptr && wrapper->magic == fatbin_magic)
        bundle = wrapper->bundle;
    else
        refuse(hipErrorInvalidImage, "__hipRegisterFatBinary: not a HIP fat binary wrapper (magic is not HIPF); "
                                     "its kernels will not launch");
    auto& r = the_registry();
    std::lock_guard lock(r.mutex);
    if(bundle != nullptr && !r.default_arch_set)
    {
        r.default_arch_set = true;
        try
        {
            const auto archs = hip_cpu::bundle_archs(bundle);
            if(archs.empty())
                refuse(hipErrorNoBinaryForGpu, "the program's first fat binary holds no code object");
            else
                hip_cpu::set_default_arch(archs.front());
        }
        catch(const std::exception& e)
        {
            refuse(hipErrorInvalidImage, e.what());
        }
    }
    return new void*(const_cast<void*>(bundle)); // the handle: where this module's bundle is
}

void __hipUnregisterFatBinary(void** handle)
{
    if(handle == nullptr)
        return;
    auto& r = the_registry();
    std::lock_guard lock(r.mutex);
    for(auto it = r.kernels.begin(); it != r.kernels.end();)
        it = it->second.bundle == *handle ? r.kernels.erase(it) : std::next(it);
    delete handle;
}

int __hipRegisterFunction(void** handle, const void* host_function, char* device_function, const char* device_name,
                          unsigned thread_limit, void* tid, void* bid, dim3* block_dim, dim3* grid_dim, int* w_size)
{
    (void)device_name, (void)thread_limit, (void)tid, (void)bid, (void)block_dim, (void)grid_dim, (void)w_size;
    auto& r = the_registry();
    std::lock_guard lock(r.mutex);
    r.kernels[host_function] = {handle != nullptr ? *handle : nullptr, device_function};
    return 0;
}

// Recorded only: hip-cpu does not place __device__ / __constant__ variables in device memory yet,
// so a kernel that uses one cannot run (its loader has to refuse it).
void __hipRegisterVar(void** handle, char* host_variable, char* device_address, const char* device_name, int ext,
                      std::size_t size, int constant, int global)
{
    (void)handle, (void)device_address, (void)ext, (void)size, (void)constant, (void)global;
    auto& r = the_registry();
    std::lock_guard lock(r.mutex);
    r.variables[host_variable] = device_name;
}

hipError_t __hipPushCallConfiguration(dim3 grid, dim3 block, std::size_t shmem, hipStream_t stream)
{
    configurations.push_back({grid, block, shmem, stream});
    return hipSuccess;
}

hipError_t __hipPopCallConfiguration(dim3* grid, dim3* block, std::size_t* shmem, hipStream_t* stream)
{
    if(configurations.empty())
    {
        *grid = *block = dim3(0, 0, 0); // an empty launch, refused by hipLaunchKernel
        *shmem         = 0;
        *stream        = nullptr;
        return result(hipErrorMissingConfiguration);
    }
    const call_configuration c = configurations.back();
    configurations.pop_back();
    *grid   = c.grid;
    *block  = c.block;
    *shmem  = c.shmem;
    *stream = c.stream;
    return hipSuccess;
}

// ---- launch -----------------------------------------------------------------------------------
hipError_t hipLaunchKernel(const void* function, dim3 grid, dim3 block, void** args, std::size_t shmem,
                           hipStream_t stream)
{
    (void)stream; // every launch is synchronous
    kernel_entry kernel;
    {
        auto& r = the_registry();
        std::lock_guard lock(r.mutex);
        const auto it = r.kernels.find(function);
        if(it == r.kernels.end())
            return refuse(hipErrorInvalidDeviceFunction,
                          "hipLaunchKernel: " + address(function) +
                              " is not a registered kernel (not the address of a __global__ function of this program)");
        kernel = it->second;
    }
    if(kernel.bundle == nullptr)
        return refuse(hipErrorInvalidImage,
                      "hipLaunchKernel: " + kernel.symbol + ": its fat binary was not recognized");

    const std::uint64_t threads    = std::uint64_t{block.x} * block.y * block.z;
    const std::uint64_t dims[3][2] = {{grid.x, block.x}, {grid.y, block.y}, {grid.z, block.z}};
    std::string bad;
    if(threads == 0 || threads > 1024 || block.x > 1024 || block.y > 1024 || block.z > 1024)
        bad = "a block of " + std::to_string(block.x) + "x" + std::to_string(block.y) + "x" + std::to_string(block.z) +
              " threads; a block holds 1 to 1024";
    for(const auto& d : dims)
        if(bad.empty() && (d[0] == 0 || d[0] * d[1] > 0xffffffffu))
            bad = "a grid of " + std::to_string(grid.x) + "x" + std::to_string(grid.y) + "x" + std::to_string(grid.z) +
                  " blocks; each dimension needs 1 or more blocks and fewer than 2^32 work-items";
    if(!bad.empty())
        return refuse(hipErrorInvalidConfiguration, "hipLaunchKernel: " + kernel.symbol + ": " + bad);

    hip_cpu::kernel_launch k;
    k.bundle      = kernel.bundle;
    k.kernel      = kernel.symbol;
    k.grid[0]     = grid.x;
    k.grid[1]     = grid.y;
    k.grid[2]     = grid.z;
    k.block[0]    = block.x;
    k.block[1]    = block.y;
    k.block[2]    = block.z;
    k.dynamic_lds = shmem;
    k.args        = args;
    try
    {
        hip_cpu::launch(k);
    }
    catch(const std::exception& e)
    {
        return refuse(hipErrorLaunchFailure, e.what());
    }
    return hipSuccess;
}

} // extern "C"
