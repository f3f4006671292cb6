// SPDX-License-Identifier: MIT
// The 8-bit float MFMAs read the running arch's encoding: FNUZ on gfx942 (1.0 is 0x40), OCP on gfx950
// (1.0 is 0x38). With every A and B element 1.0 in that encoding, v_mfma_f32_16x16x32_fp8_fp8 (both
// archs) gives K = 32 in every D element. (hip-cpu once read gfx950's as FNUZ: a quarter of that.)
// Prints valid:y or valid:n.
#include <hip/hip_runtime.h>

#include <cstdio>
#include <string>
#include <vector>

using floatx4 = float __attribute__((ext_vector_type(4)));

__global__ void mfma_16x16x32_fp8(floatx4* d, const long* a, const long* b)
{
    const unsigned l = threadIdx.x;
    d[l]             = __builtin_amdgcn_mfma_f32_16x16x32_fp8_fp8(a[l], b[l], floatx4{}, 0, 0, 0);
}

#define CHECK(expr)                                                                                                    \
    do                                                                                                                 \
    {                                                                                                                  \
        if((expr) != hipSuccess)                                                                                       \
        {                                                                                                              \
            std::printf("%s failed\nvalid:n\n", #expr);                                                                \
            return 1;                                                                                                  \
        }                                                                                                              \
    } while(0)

int main()
{
    constexpr int lanes = 64;
    hipDeviceProp_t props;
    CHECK(hipGetDeviceProperties(&props, 0));
    const std::string arch = props.gcnArchName;
    const bool ocp         = arch.rfind("gfx950", 0) == 0;
    const long one8        = static_cast<long>(ocp ? 0x3838383838383838ull : 0x4040404040404040ull);
    std::vector<long> a(lanes, one8);
    std::vector<floatx4> d(lanes);
    long *da, *db;
    floatx4* dd;
    CHECK(hipMalloc(&da, sizeof(long) * lanes));
    CHECK(hipMalloc(&db, sizeof(long) * lanes));
    CHECK(hipMalloc(&dd, sizeof(floatx4) * lanes));
    CHECK(hipMemcpy(da, a.data(), sizeof(long) * lanes, hipMemcpyHostToDevice));
    CHECK(hipMemcpy(db, a.data(), sizeof(long) * lanes, hipMemcpyHostToDevice));
    mfma_16x16x32_fp8<<<1, lanes>>>(dd, da, db);
    CHECK(hipGetLastError());
    CHECK(hipMemcpy(d.data(), dd, sizeof(floatx4) * lanes, hipMemcpyDeviceToHost));
    int failures = 0;
    for(int l = 0; l < lanes; ++l)
        for(int e = 0; e < 4; ++e)
            if(d[l][e] != 32.f && failures++ < 4)
                std::printf("lane %d element %d: %g, not 32\n", l, e, static_cast<double>(d[l][e]));
    CHECK(hipFree(da));
    CHECK(hipFree(db));
    CHECK(hipFree(dd));
    std::printf("%s (%s): %d mismatches\nvalid:%s\n", arch.c_str(), ocp ? "OCP" : "FNUZ", failures,
                failures == 0 ? "y" : "n");
    return failures == 0 ? 0 : 1;
}
