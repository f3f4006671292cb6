// SPDX-License-Identifier: MIT
// Plain HIP: each 256-thread block reverses its slice of 1000 ints through LDS (__shared__,
// __syncthreads), the last block partial. Checked exactly on the host: prints valid:y, or the
// first mismatch and exit status 1.
#include <hip/hip_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

#define HIP_CHECK(expr)                                                                                                \
    do                                                                                                                 \
    {                                                                                                                  \
        const hipError_t e_ = (expr);                                                                                  \
        if(e_ != hipSuccess)                                                                                           \
        {                                                                                                              \
            std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #expr, hipGetErrorString(e_));                 \
            std::exit(1);                                                                                              \
        }                                                                                                              \
    } while(0)

constexpr int kBlock = 256;

// out[i] = in[j], j the mirror of i within i's block's slice [begin, end) of [0, n)
__global__ void reverse_blocks(const int* in, int* out, int n)
{
    __shared__ int tile[kBlock];
    const int begin = blockIdx.x * blockDim.x;
    const int count = n - begin < static_cast<int>(blockDim.x) ? n - begin : static_cast<int>(blockDim.x);
    const int t     = threadIdx.x;
    if(t < count)
        tile[t] = in[begin + t];
    __syncthreads();
    if(t < count)
        out[begin + t] = tile[count - 1 - t];
}

int main()
{
    const int n      = 1000;
    const int blocks = (n + kBlock - 1) / kBlock;
    std::vector<int> h_in(n), h_out(n, -1);
    for(int i = 0; i < n; ++i)
        h_in[i] = i * 7 + 3;

    int *d_in = nullptr, *d_out = nullptr;
    HIP_CHECK(hipMalloc(&d_in, n * sizeof(int)));
    HIP_CHECK(hipMalloc(&d_out, n * sizeof(int)));
    HIP_CHECK(hipMemcpy(d_in, h_in.data(), n * sizeof(int), hipMemcpyHostToDevice));
    hipLaunchKernelGGL(reverse_blocks, dim3(blocks), dim3(kBlock), 0, 0, d_in, d_out, n);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());
    HIP_CHECK(hipMemcpy(h_out.data(), d_out, n * sizeof(int), hipMemcpyDeviceToHost));
    HIP_CHECK(hipFree(d_in));
    HIP_CHECK(hipFree(d_out));

    for(int i = 0; i < n; ++i)
    {
        const int begin = i / kBlock * kBlock;
        const int end   = begin + kBlock < n ? begin + kBlock : n;
        const int want  = h_in[begin + end - 1 - i];
        if(h_out[i] != want)
        {
            std::printf("out[%d] = %d, expected %d\nvalid:n\n", i, h_out[i], want);
            return 1;
        }
    }
    std::printf("reverse of %d ints in blocks of %d: valid:y\n", n, kBlock);
    return 0;
}
