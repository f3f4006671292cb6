// SPDX-License-Identifier: MIT
// Plain HIP, as for hipcc: static and dynamic __shared__ arrays, threadIdx / blockIdx / blockDim /
// gridDim in 1-D and 2-D, __syncthreads(), hipLaunchKernelGGL, events and device properties.
// Each result is checked against a CPU computation; exit status 0 when all match.
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

// Sum of each block's slice of `in`, by a tree reduction in LDS.
__global__ void block_sum(const float* in, float* out, int n)
{
    __shared__ float partial[kBlock];
    const int i          = blockIdx.x * blockDim.x + threadIdx.x;
    partial[threadIdx.x] = i < n ? in[i] : 0.f;
    __syncthreads();
    for(unsigned s = blockDim.x / 2; s > 0; s /= 2)
    {
        if(threadIdx.x < s)
            partial[threadIdx.x] += partial[threadIdx.x + s];
        __syncthreads();
    }
    if(threadIdx.x == 0)
        out[blockIdx.x] = partial[0];
}

// Transpose of a rows x cols matrix through a 16 x 17 LDS tile (2-D blocks and grid).
constexpr int kTile = 16;
template <typename T>
__global__ void transpose(const T* in, T* out, int rows, int cols)
{
    __shared__ T tile[kTile][kTile + 1];
    int x = blockIdx.x * kTile + threadIdx.x;
    int y = blockIdx.y * kTile + threadIdx.y;
    if(x < cols && y < rows)
        tile[threadIdx.y][threadIdx.x] = in[y * cols + x];
    __syncthreads();
    x = blockIdx.y * kTile + threadIdx.x;
    y = blockIdx.x * kTile + threadIdx.y;
    if(x < rows && y < cols)
        out[y * rows + x] = tile[threadIdx.x][threadIdx.y];
}

// Reverses each block's slice in dynamic LDS (the launch's shared-memory bytes).
__global__ void reverse_blocks(const int* in, int* out)
{
    HIP_DYNAMIC_SHARED(int, buf)
    const int i      = blockIdx.x * blockDim.x + threadIdx.x;
    buf[threadIdx.x] = in[i];
    __syncthreads();
    out[i] = buf[blockDim.x - 1 - threadIdx.x];
    if(threadIdx.x == 0 && blockIdx.x == gridDim.x - 1 && warpSize != 64)
        out[i] = -1;
}

int main()
{
    int failures = 0;

    hipDeviceProp_t prop;
    HIP_CHECK(hipGetDeviceProperties(&prop, 0));
    std::printf("device %s, %d-lane waves, %zu bytes of LDS per block\n", prop.gcnArchName, prop.warpSize,
                prop.sharedMemPerBlock);
    if(prop.warpSize != 64 || prop.sharedMemPerBlock < 65536)
        ++failures;

    hipEvent_t start, stop;
    HIP_CHECK(hipEventCreate(&start));
    HIP_CHECK(hipEventCreate(&stop));

    // block_sum
    {
        const int n = 10000, blocks = (n + kBlock - 1) / kBlock;
        std::vector<float> h(n), sums(blocks);
        for(int i = 0; i < n; ++i)
            h[i] = static_cast<float>(i % 7) - 3.f;
        float *d_in, *d_out;
        HIP_CHECK(hipMalloc(&d_in, n * sizeof(float)));
        HIP_CHECK(hipMalloc(&d_out, blocks * sizeof(float)));
        HIP_CHECK(hipMemcpy(d_in, h.data(), n * sizeof(float), hipMemcpyHostToDevice));
        HIP_CHECK(hipMemset(d_out, 0, blocks * sizeof(float)));
        HIP_CHECK(hipEventRecord(start, 0));
        hipLaunchKernelGGL(block_sum, dim3(blocks), dim3(kBlock), 0, 0, d_in, d_out, n);
        HIP_CHECK(hipGetLastError());
        HIP_CHECK(hipEventRecord(stop, 0));
        HIP_CHECK(hipEventSynchronize(stop));
        float ms = -1.f;
        HIP_CHECK(hipEventElapsedTime(&ms, start, stop));
        HIP_CHECK(hipDeviceSynchronize());
        HIP_CHECK(hipMemcpy(sums.data(), d_out, blocks * sizeof(float), hipMemcpyDeviceToHost));
        for(int b = 0; b < blocks; ++b)
        {
            float ref = 0.f;
            for(int i = b * kBlock; i < n && i < (b + 1) * kBlock; ++i)
                ref += h[i];
            if(sums[b] != ref)
            {
                std::printf("block_sum: block %d: %g, expected %g\n", b, sums[b], ref);
                ++failures;
            }
        }
        if(ms < 0.f)
            ++failures;
        HIP_CHECK(hipFree(d_in));
        HIP_CHECK(hipFree(d_out));
    }

    // transpose
    {
        const int rows = 45, cols = 70;
        std::vector<double> h(rows * cols), t(rows * cols);
        for(int i = 0; i < rows * cols; ++i)
            h[i] = i * 0.5;
        double *d_in, *d_out;
        HIP_CHECK(hipMalloc(&d_in, h.size() * sizeof(double)));
        HIP_CHECK(hipMalloc(&d_out, h.size() * sizeof(double)));
        HIP_CHECK(hipMemcpy(d_in, h.data(), h.size() * sizeof(double), hipMemcpyHostToDevice));
        const dim3 grid((cols + kTile - 1) / kTile, (rows + kTile - 1) / kTile);
        hipLaunchKernelGGL(transpose<double>, grid, dim3(kTile, kTile), 0, 0, d_in, d_out, rows, cols);
        HIP_CHECK(hipGetLastError());
        HIP_CHECK(hipMemcpy(t.data(), d_out, t.size() * sizeof(double), hipMemcpyDeviceToHost));
        for(int r = 0; r < rows; ++r)
            for(int c = 0; c < cols; ++c)
                if(t[c * rows + r] != h[r * cols + c])
                {
                    std::printf("transpose: (%d, %d) wrong\n", r, c);
                    ++failures;
                }
        HIP_CHECK(hipFree(d_in));
        HIP_CHECK(hipFree(d_out));
    }

    // reverse_blocks
    {
        const int block = 128, blocks = 5, n = block * blocks;
        std::vector<int> h(n), r(n);
        for(int i = 0; i < n; ++i)
            h[i] = 3 * i + 1;
        int *d_in, *d_out;
        HIP_CHECK(hipMalloc(&d_in, n * sizeof(int)));
        HIP_CHECK(hipMalloc(&d_out, n * sizeof(int)));
        HIP_CHECK(hipMemcpy(d_in, h.data(), n * sizeof(int), hipMemcpyHostToDevice));
        hipLaunchKernelGGL(reverse_blocks, dim3(blocks), dim3(block), block * sizeof(int), 0, d_in, d_out);
        HIP_CHECK(hipGetLastError());
        HIP_CHECK(hipMemcpy(r.data(), d_out, n * sizeof(int), hipMemcpyDeviceToHost));
        for(int i = 0; i < n; ++i)
        {
            const int b = i / block, t = i % block;
            if(r[i] != h[b * block + block - 1 - t])
            {
                std::printf("reverse_blocks: %d: %d\n", i, r[i]);
                ++failures;
            }
        }
        HIP_CHECK(hipFree(d_in));
        HIP_CHECK(hipFree(d_out));
    }

    HIP_CHECK(hipEventDestroy(start));
    HIP_CHECK(hipEventDestroy(stop));
    std::printf("%s\n", failures == 0 ? "PASS" : "FAIL");
    return failures == 0 ? 0 : 1;
}
