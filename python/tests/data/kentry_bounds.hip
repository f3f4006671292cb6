// SPDX-License-Identifier: MIT
// make_kernel's entry point with a blocks-per-CU bound (python/tests/test_device_check.py), compiled
// with -DMIN_BLOCKS=1 and 2:
//   LiveValues<280> keeps 280 values live: unbounded it takes more than 256 registers; 2 blocks of
//                   256 threads per CU leave 256, and the compiler must keep within them;
//   LdsHalf         uses 40 KiB of LDS: one block per CU on gfx942 (64 KiB), whatever the bound.
#include "ck_tile/host/kernel_launch.hpp"

template <int kLive>
struct LiveValues
{
    __device__ void operator()(const float* in, float* out) const
    {
        const int lane = __builtin_amdgcn_workitem_id_x();
        float v[kLive];
#pragma unroll
        for(int i = 0; i < kLive; ++i)
            v[i] = in[i * 256 + lane];
        float acc = 0;
#pragma unroll
        for(int i = 0; i < kLive; ++i)
            acc += v[i] * v[kLive - 1 - i];
        out[lane] = acc;
    }
};

struct LdsHalf
{
    __device__ void operator()(const float* in, float* out) const
    {
        __shared__ float lds[10240];
        const int lane = __builtin_amdgcn_workitem_id_x();
        for(int i = lane; i < 10240; i += 256)
            lds[i] = in[i];
        __builtin_amdgcn_s_barrier();
        out[lane] = lds[10239 - lane];
    }
};

template __global__ void ck_tile::kentry<256, MIN_BLOCKS, LiveValues<280>, const float*, float*>(const float*, float*);
template __global__ void ck_tile::kentry<256, MIN_BLOCKS, LdsHalf, const float*, float*>(const float*, float*);
