// SPDX-License-Identifier: MIT
// launch_and_time_kernel: classic CK's launch of a __global__ kernel, over ck_tile::launch_kernel.
//
//   float ms = launch_and_time_kernel(StreamConfig{nullptr, true}, kernel, grid, block, lds_bytes,
//                                     args...);
//   float ms = launch_and_time_kernel_with_preprocess(StreamConfig{nullptr, true}, preprocess,
//                                                     kernel, grid, block, lds_bytes, args...);
//
// The kernel runs once when time_kernel_ is false (0 is returned), else cold_niters_ warm-up runs
// and nrepeat_ timed runs whose mean milliseconds are returned (ck_tile::launch_kernel: GPU events
// on hip, the wall clock on the emulator). preprocess() runs before each launch (e.g. to zero an
// output that the kernel accumulates into) and is timed with it. A launch that fails throws
// std::runtime_error (HIP_CHECK_ERROR), on the emulator as on hip.
#pragma once
#include <cstddef>
#include "ck/ck.hpp"
#include "ck/stream_config.hpp"
#include "ck_tile/host/hip_check_error.hpp"
#include "ck_tile/host/kernel_launch.hpp"

namespace ck::detail {
template <typename... Params, typename... Args>
void launch_global_kernel(const StreamConfig& s, void (*kernel)(Params...), dim3 grid, dim3 block, std::size_t lds_byte,
                          const Args&... args)
{
#if defined(CK_TILE_BACKEND_EMULATOR)
    ::ck_tile::emu::detail::hip_launch_kernel("kernel", kernel, grid, block, lds_byte, s.stream_id_, args...);
#else
    // the kernel's parameters, converted from the arguments, and their addresses
    ck_tile::tuple<Params...> params{static_cast<Params>(args)...};
    void* ptrs[sizeof...(Params) + 1] = {};
    ck_tile::static_for<0, sizeof...(Params), 1>{}([&](auto i) { ptrs[i.value] = &params.at(i); });
    HIP_CHECK_ERROR(hipLaunchKernel(reinterpret_cast<const void*>(kernel), grid, block, ptrs, lds_byte, s.stream_id_));
#endif
    HIP_CHECK_ERROR(hipGetLastError());
}
} // namespace ck::detail

template <typename... Params, typename... Args>
float launch_and_time_kernel(const StreamConfig& s, void (*kernel)(Params...), dim3 grid_dim, dim3 block_dim,
                             std::size_t lds_byte, Args... args)
{
    const float ms = ck_tile::launch_kernel(s, [=](const StreamConfig& st) {
        ck::detail::launch_global_kernel(st, kernel, grid_dim, block_dim, lds_byte, args...);
    });
    HIP_CHECK_ERROR(hipGetLastError());
    return ms;
}

template <typename PreProcessFunc, typename... Params, typename... Args>
float launch_and_time_kernel_with_preprocess(const StreamConfig& s, PreProcessFunc preprocess,
                                             void (*kernel)(Params...), dim3 grid_dim, dim3 block_dim,
                                             std::size_t lds_byte, Args... args)
{
    const float ms = ck_tile::launch_kernel(s, [=](const StreamConfig& st) {
        preprocess();
        ck::detail::launch_global_kernel(st, kernel, grid_dim, block_dim, lds_byte, args...);
    });
    HIP_CHECK_ERROR(hipGetLastError());
    return ms;
}
