// SPDX-License-Identifier: MIT
// make_kernel / launch_kernel, with upstream's shapes:
//
//   auto k = ck_tile::make_kernel<kBlockSize, kMinBlockPerCu>(Kernel{}, grid, block, lds_bytes, args...);
//   float ave_ms = ck_tile::launch_kernel(ck_tile::stream_config{nullptr, true, 0, warmup, repeat}, k);
//
// A kernel is a default-constructible functor whose operator()(args...) is device code. On the
// hip backend make_kernel launches it through a __global__ entry point; on the emulator it runs it
// in every emulated thread of the grid. launch_kernel runs each kernel once, or, when the stream
// config asks for timing, cold_niters_ warm-up rounds and then nrepeat_ timed rounds, and returns
// the average milliseconds per round (GPU events on hip, the wall clock on the emulator).
#pragma once
#include <chrono>
#include <cstddef>
#include "ck_tile/core/config.hpp"
#include "ck_tile/core/arch/arch_table.hpp"
#include "ck_tile/host/runtime/runtime.hpp"
#include "ck_tile/host/hip_check_error.hpp"
#include "ck_tile/host/stream_config.hpp"

namespace ck_tile {

#if defined(CK_TILE_BACKEND_HIP)
// The waves each SIMD of a CU must hold for MinBlockPerCu blocks of MaxThreadPerBlock threads to
// be resident at once: a CU has 4 SIMDs and a block's waves are spread over them. The compiler
// then keeps the kernel's registers within what that many waves per SIMD leave (upstream passes
// MinBlockPerCu itself as the waves per SIMD, which over-constrains blocks of fewer than 4 waves).
template <int MaxThreadPerBlock, int MinBlockPerCu>
inline constexpr int kentry_min_waves_per_eu = [] {
    constexpr int waves_per_block = (MaxThreadPerBlock + common_wave_size - 1) / common_wave_size;
    const int waves               = (MinBlockPerCu * waves_per_block + 3) / 4;
    return waves < 1 ? 1 : waves;
}();

// The kernel's entry point: launch bounds as upstream's __launch_bounds__(MaxThreadPerBlock,
// MinBlockPerCu) (the largest block, and the occupancy the instance is built for). The device
// check (nox -s device_check) reads MinBlockPerCu back from the name and fails a kernel whose
// registers or LDS leave fewer blocks per CU.
template <int MaxThreadPerBlock, int MinBlockPerCu, typename Kernel, typename... Args>
__global__ __attribute__((amdgpu_flat_work_group_size(1, MaxThreadPerBlock),
                          amdgpu_waves_per_eu(kentry_min_waves_per_eu<MaxThreadPerBlock, MinBlockPerCu>))) void
kentry(Args... args)
{
    static_assert(kentry_min_waves_per_eu<MaxThreadPerBlock, MinBlockPerCu> <= 8,
                  "kentry: MinBlockPerCu blocks of this size need more than the 8 waves a SIMD holds");
    Kernel{}(args...);
}
#endif

template <int MaxThreadPerBlock = 256, int MinBlockPerCu = 1, typename Kernel, typename... Args>
CK_TILE_HOST auto make_kernel(Kernel, dim3 grid, dim3 block, std::size_t lds_bytes, Args... args)
{
#if defined(CK_TILE_BACKEND_HIP)
    return [=](const stream_config& s) mutable {
        void* arg_ptrs[sizeof...(Args) + 1] = {static_cast<void*>(&args)...};
        HIP_CHECK_ERROR(
            hipLaunchKernel(reinterpret_cast<const void*>(&kentry<MaxThreadPerBlock, MinBlockPerCu, Kernel, Args...>),
                            grid, block, arg_ptrs, lds_bytes, s.stream_id_));
    };
#else
    return [=](const stream_config&) {
        if(block.x * block.y * block.z > static_cast<unsigned>(MaxThreadPerBlock))
            throw emu::launch_error("make_kernel: block of " + std::to_string(block.x * block.y * block.z) +
                                    " threads exceeds the kernel's MaxThreadPerBlock " +
                                    std::to_string(MaxThreadPerBlock));
        emu::launch_params p;
        p.grid              = {grid.x, grid.y, grid.z};
        p.block             = {block.x, block.y, block.z};
        p.dynamic_lds_bytes = lds_bytes;
        p.kernel_name       = __PRETTY_FUNCTION__;
        emu::launch(p, [&] { Kernel{}(args...); });
    };
#endif
}

namespace detail {
template <typename... Callables>
CK_TILE_HOST void run_all(const stream_config& s, Callables&... cs)
{
    (cs(s), ...);
}
} // namespace detail

template <typename... Callables>
CK_TILE_HOST float launch_kernel(const stream_config& s, Callables... callables)
{
    if(!s.time_kernel_)
    {
        detail::run_all(s, callables...);
        HIP_CHECK_ERROR(hipGetLastError());
        return 0.f;
    }
    for(int i = 0; i < s.cold_niters_; ++i)
        detail::run_all(s, callables...);
    HIP_CHECK_ERROR(hipDeviceSynchronize());
    const int n = s.nrepeat_ > 0 ? s.nrepeat_ : 1;
#if defined(CK_TILE_BACKEND_HIP)
    hipEvent_t start, stop;
    HIP_CHECK_ERROR(hipEventCreate(&start));
    HIP_CHECK_ERROR(hipEventCreate(&stop));
    HIP_CHECK_ERROR(hipEventRecord(start, s.stream_id_));
    for(int i = 0; i < n; ++i)
        detail::run_all(s, callables...);
    HIP_CHECK_ERROR(hipEventRecord(stop, s.stream_id_));
    HIP_CHECK_ERROR(hipEventSynchronize(stop));
    float ms = 0;
    HIP_CHECK_ERROR(hipEventElapsedTime(&ms, start, stop));
    HIP_CHECK_ERROR(hipEventDestroy(start));
    HIP_CHECK_ERROR(hipEventDestroy(stop));
    return ms / n;
#else
    const auto t0 = std::chrono::steady_clock::now();
    for(int i = 0; i < n; ++i)
        detail::run_all(s, callables...);
    const auto t1 = std::chrono::steady_clock::now();
    return std::chrono::duration<float, std::milli>(t1 - t0).count() / n;
#endif
}

} // namespace ck_tile
