// SPDX-License-Identifier: MIT
// Races between the two waves of a 128-thread block, and their correct twins, for hip-cpu's race
// detection (CK_TILE_EMU_RACECHECK=1): hip-cpu must stop each racy launch naming both accesses and
// run each twin clean. Each thread t writes element t and then reads element t ^ 64, which the other
// wave wrote. One scenario per run:
//
//   hip_cpu_races lds_no_barrier      LDS, no barrier between the write and the read
//   hip_cpu_races lds_barrier         the same with __syncthreads: valid:y
//   hip_cpu_races lds_no_wait         ds_write, then s_barrier without s_waitcnt lgkmcnt(0): the
//                                     write may still be queued when the other wave reads
//   hip_cpu_races lds_wait            the same with the wait (block_sync_lds): valid:y
//   hip_cpu_races global_no_barrier   global memory, no barrier between the store and the load
//   hip_cpu_races global_sync_lds     global memory ordered by s_waitcnt lgkmcnt(0); s_barrier
//                                     (block_sync_lds): valid:y in the default mode, where the
//                                     waves share one CU, a race in tgsplit mode
//   hip_cpu_races global_syncthreads  global memory ordered by __syncthreads: valid:y in both modes
//                                     (in tgsplit mode the compiler waits for vmcnt(0) before the
//                                     barrier)
//
// The build compiles this file twice: hip_cpu_races and hip_cpu_races_tgsplit (-mtgsplit). A
// stopped launch prints "launch failed" and exits with 1 (ctest matches hip-cpu's message).
#include <hip/hip_runtime.h>

#include <cstdio>
#include <cstring>
#include <vector>

constexpr int block = 128; // two waves

enum class order
{
    none,
    syncthreads,
    wait_barrier, // s_waitcnt lgkmcnt(0); s_barrier
    barrier_only  // s_barrier with the DS write possibly outstanding
};

template <order O>
__global__ void lds_exchange(int* out)
{
    extern __shared__ int s[]; // dynamic LDS: element t at byte 4 t
    const int t         = static_cast<int>(threadIdx.x);
    const unsigned mine = 4u * static_cast<unsigned>(t), theirs = 4u * static_cast<unsigned>(t ^ 64);
    (void)mine;
    (void)theirs;
    int v;
    if constexpr(O == order::none || O == order::syncthreads)
    {
        s[t] = t; // plain C++: the compiler places the waits __syncthreads needs
        if constexpr(O == order::syncthreads)
            __syncthreads();
        v = s[t ^ 64];
    }
    else if constexpr(O == order::wait_barrier)
        asm volatile("ds_write_b32 %1, %2\n\t"
                     "s_waitcnt lgkmcnt(0)\n\t"
                     "s_barrier\n\t"
                     "ds_read_b32 %0, %3\n\t"
                     "s_waitcnt lgkmcnt(0)"
                     : "=v"(v)
                     : "v"(mine), "v"(t), "v"(theirs)
                     : "memory");
    else
        asm volatile("ds_write_b32 %1, %2\n\t"
                     "s_barrier\n\t"
                     "s_waitcnt lgkmcnt(0)\n\t"
                     "ds_read_b32 %0, %3\n\t"
                     "s_waitcnt lgkmcnt(0)"
                     : "=v"(v)
                     : "v"(mine), "v"(t), "v"(theirs)
                     : "memory");
    out[t] = v;
}

template <order O>
__global__ void global_exchange(int* buf, int* out)
{
    const int t = static_cast<int>(threadIdx.x);
    buf[t]      = t;
    if constexpr(O == order::syncthreads)
        __syncthreads();
    else if constexpr(O == order::wait_barrier)
        asm volatile("s_waitcnt lgkmcnt(0)\n\ts_barrier" : : : "memory");
    else
        asm volatile("" : : : "memory"); // keeps the store before the load
    out[t] = buf[t ^ 64];
}

int main(int argc, char** argv)
{
    const char* mode = argc > 1 ? argv[1] : "";
    int *buf = nullptr, *out = nullptr;
    if(hipMalloc(&buf, block * sizeof(int)) != hipSuccess || hipMalloc(&out, block * sizeof(int)) != hipSuccess)
        return 2;
    const auto is = [&](const char* m) { return std::strcmp(mode, m) == 0; };
    const dim3 grid(1), threads(block);
    const std::size_t lds = block * sizeof(int);
    if(is("lds_no_barrier"))
        hipLaunchKernelGGL(lds_exchange<order::none>, grid, threads, lds, 0, out);
    else if(is("lds_barrier"))
        hipLaunchKernelGGL(lds_exchange<order::syncthreads>, grid, threads, lds, 0, out);
    else if(is("lds_no_wait"))
        hipLaunchKernelGGL(lds_exchange<order::barrier_only>, grid, threads, lds, 0, out);
    else if(is("lds_wait"))
        hipLaunchKernelGGL(lds_exchange<order::wait_barrier>, grid, threads, lds, 0, out);
    else if(is("global_no_barrier"))
        hipLaunchKernelGGL(global_exchange<order::none>, grid, threads, 0, 0, buf, out);
    else if(is("global_sync_lds"))
        hipLaunchKernelGGL(global_exchange<order::wait_barrier>, grid, threads, 0, 0, buf, out);
    else if(is("global_syncthreads"))
        hipLaunchKernelGGL(global_exchange<order::syncthreads>, grid, threads, 0, 0, buf, out);
    else
    {
        std::fprintf(stderr, "usage: hip_cpu_races lds_no_barrier|lds_barrier|lds_no_wait|lds_wait|"
                             "global_no_barrier|global_sync_lds|global_syncthreads\n");
        return 2;
    }
    if(const hipError_t e = hipGetLastError(); e != hipSuccess)
    {
        std::printf("launch failed: %s\n", hipGetErrorString(e));
        return 1;
    }
    std::vector<int> got(block);
    hipMemcpy(got.data(), out, block * sizeof(int), hipMemcpyDeviceToHost);
    for(int t = 0; t < block; ++t)
        if(got[t] != (t ^ 64))
        {
            std::printf("valid:n (out[%d] = %d, expected %d)\n", t, got[t], t ^ 64);
            return 1;
        }
    std::printf("valid:y\n");
    return 0;
}
