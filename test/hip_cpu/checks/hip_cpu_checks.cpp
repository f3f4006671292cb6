// SPDX-License-Identifier: MIT
// Kernels with bugs that real hardware does not report, and their correct twins; hip-cpu must stop
// each buggy launch with a message naming the bug and run each twin clean. One scenario per run:
//
//   hip_cpu_checks missing_wait   inline asm uses a global_load_dword result before s_waitcnt vmcnt(0)
//   hip_cpu_checks with_wait      the same with the wait: valid:y
//   hip_cpu_checks past_end       a store one element past the end of its allocation
//   hip_cpu_checks in_bounds      the same kernel within bounds: valid:y
//   hip_cpu_checks unimplemented  a kernel with an instruction hip-cpu does not implement (v_cos_f32)
//   hip_cpu_checks barrier_divergence  the first wave of a 128-thread block returns before
//                                 __syncthreads, which the second wave waits at
//   hip_cpu_checks barrier_uniform     every wave reaches it: valid:y
//
// A stopped launch makes hipGetLastError return an error; the scenario prints "launch failed" and
// exits with 1 (ctest matches hip-cpu's message on stderr).
#include <hip/hip_runtime.h>

#include <cstdio>
#include <cstring>
#include <vector>

// out[i] = in[i] + 1, with the load and the add in inline asm so that the compiler cannot place the
// wait: WithWait decides whether the asm waits for the load before the add reads its result.
template <bool WithWait>
__global__ void load_add_one(const int* in, int* out)
{
    const int i = static_cast<int>(threadIdx.x);
    int v;
    if constexpr(WithWait)
        asm volatile("global_load_dword %0, %1, off\n\t"
                     "s_waitcnt vmcnt(0)\n\t"
                     "v_add_u32 %0, %0, 1"
                     : "=&v"(v)
                     : "v"(in + i)
                     : "memory");
    else
        asm volatile("global_load_dword %0, %1, off\n\t"
                     "v_add_u32 %0, %0, 1\n\t"
                     "s_waitcnt vmcnt(0)"
                     : "=&v"(v)
                     : "v"(in + i)
                     : "memory");
    out[i] = v;
}

// out[i + shift] = i for the block's threads: shift 1 writes one element past the end of out.
__global__ void store_shifted(int* out, int shift)
{
    const int i    = static_cast<int>(threadIdx.x);
    out[i + shift] = i;
}

// The block's threads below `skip` return before the barrier; the others wait at it, then write.
__global__ void sync_after_return(int* out, int skip)
{
    const int i = static_cast<int>(threadIdx.x);
    if(i < skip)
        return;
    __syncthreads();
    out[i] = i;
}

__global__ void uses_cos(float* p)
{
    float x = p[threadIdx.x];
    asm volatile("v_cos_f32 %0, %0" : "+v"(x));
    p[threadIdx.x] = x;
}

static int finish(bool ok_expected)
{
    const hipError_t e = hipGetLastError();
    if(e != hipSuccess)
    {
        std::printf("launch failed: %s\n", hipGetErrorString(e));
        return 1;
    }
    std::printf(ok_expected ? "launched\n" : "launched, but a failure was expected\n");
    return 0;
}

int main(int argc, char** argv)
{
    const char* mode = argc > 1 ? argv[1] : "";
    constexpr int n  = 64;
    std::vector<int> host(n);
    for(int i = 0; i < n; ++i)
        host[i] = 10 * i;
    int *in = nullptr, *out = nullptr;
    if(hipMalloc(&in, n * sizeof(int)) != hipSuccess || hipMalloc(&out, n * sizeof(int)) != hipSuccess)
        return 2;
    hipMemcpy(in, host.data(), n * sizeof(int), hipMemcpyHostToDevice);

    if(std::strcmp(mode, "missing_wait") == 0 || std::strcmp(mode, "with_wait") == 0)
    {
        const bool wait = std::strcmp(mode, "with_wait") == 0;
        if(wait)
            hipLaunchKernelGGL(load_add_one<true>, dim3(1), dim3(n), 0, 0, in, out);
        else
            hipLaunchKernelGGL(load_add_one<false>, dim3(1), dim3(n), 0, 0, in, out);
        if(const int r = finish(wait); r != 0 || !wait)
            return r == 0 ? 1 : r;
        std::vector<int> got(n);
        hipMemcpy(got.data(), out, n * sizeof(int), hipMemcpyDeviceToHost);
        for(int i = 0; i < n; ++i)
            if(got[i] != 10 * i + 1)
            {
                std::printf("valid:n (out[%d] = %d, expected %d)\n", i, got[i], 10 * i + 1);
                return 1;
            }
        std::printf("valid:y\n");
        return 0;
    }
    if(std::strcmp(mode, "past_end") == 0 || std::strcmp(mode, "in_bounds") == 0)
    {
        const bool in_bounds = std::strcmp(mode, "in_bounds") == 0;
        hipLaunchKernelGGL(store_shifted, dim3(1), dim3(n), 0, 0, out, in_bounds ? 0 : 1);
        if(const int r = finish(in_bounds); r != 0 || !in_bounds)
            return r == 0 ? 1 : r;
        std::vector<int> got(n);
        hipMemcpy(got.data(), out, n * sizeof(int), hipMemcpyDeviceToHost);
        for(int i = 0; i < n; ++i)
            if(got[i] != i)
            {
                std::printf("valid:n\n");
                return 1;
            }
        std::printf("valid:y\n");
        return 0;
    }
    if(std::strcmp(mode, "barrier_divergence") == 0 || std::strcmp(mode, "barrier_uniform") == 0)
    {
        const bool uniform  = std::strcmp(mode, "barrier_uniform") == 0;
        constexpr int block = 128; // two waves
        int* two_waves      = nullptr;
        if(hipMalloc(&two_waves, block * sizeof(int)) != hipSuccess)
            return 2;
        hipLaunchKernelGGL(sync_after_return, dim3(1), dim3(block), 0, 0, two_waves, uniform ? 0 : 64);
        if(const int r = finish(uniform); r != 0 || !uniform)
            return r == 0 ? 1 : r;
        std::vector<int> got(block);
        hipMemcpy(got.data(), two_waves, block * sizeof(int), hipMemcpyDeviceToHost);
        for(int i = 0; i < block; ++i)
            if(got[i] != i)
            {
                std::printf("valid:n\n");
                return 1;
            }
        std::printf("valid:y\n");
        return 0;
    }
    if(std::strcmp(mode, "unimplemented") == 0)
    {
        float* f = reinterpret_cast<float*>(out);
        hipLaunchKernelGGL(uses_cos, dim3(1), dim3(n), 0, 0, f);
        const int r = finish(false);
        return r == 0 ? 1 : r;
    }
    std::fprintf(stderr,
                 "usage: hip_cpu_checks "
                 "missing_wait|with_wait|past_end|in_bounds|unimplemented|barrier_divergence|barrier_uniform\n");
    return 2;
}
