// SPDX-License-Identifier: MIT
// An MFMA whose C the compiler gives as an inline constant (the 0 that starts a sum, or 1.0) must
// read that constant in every one of C's 16 registers: the same D, bit for bit, as the MFMA whose
// C holds the same values loaded from memory. (hip-cpu once read registers 2..15 of such a C from
// past the constant, and FMHA's P*V came out wrong from run to run.) Prints valid:y or valid:n.
#include <hip/hip_runtime.h>

#include <cstdio>
#include <cstring>
#include <vector>

using floatx16 = float __attribute__((ext_vector_type(16)));
using half4    = _Float16 __attribute__((ext_vector_type(4)));

// C is: 0 (Kind 0) or 1.0 (Kind 1) as the constant; or c[lane], loaded (Kind 2)
template <int Kind>
__global__ void mfma_32x32x8(floatx16* d, const half4* a, const half4* b, const floatx16* c)
{
    const unsigned l = threadIdx.x;
    floatx16 acc     = {};
    if constexpr(Kind == 1)
        for(int e = 0; e < 16; ++e)
            acc[e] = 1.f;
    if constexpr(Kind == 2)
        acc = c[l];
    d[l] = __builtin_amdgcn_mfma_f32_32x32x8f16(a[l], b[l], acc, 0, 0, 0);
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
    std::vector<half4> a(lanes), b(lanes);
    for(int l = 0; l < lanes; ++l)
        for(int k = 0; k < 4; ++k)
        {
            a[l][k] = static_cast<_Float16>(0.25f * static_cast<float>((l * 7 + k * 3) % 11) - 1.f);
            b[l][k] = static_cast<_Float16>(0.5f * static_cast<float>((l * 5 + k) % 9) - 2.f);
        }
    half4 *da, *db;
    floatx16 *dc, *dd;
    CHECK(hipMalloc(&da, sizeof(half4) * lanes));
    CHECK(hipMalloc(&db, sizeof(half4) * lanes));
    CHECK(hipMalloc(&dc, sizeof(floatx16) * lanes));
    CHECK(hipMalloc(&dd, sizeof(floatx16) * lanes));
    CHECK(hipMemcpy(da, a.data(), sizeof(half4) * lanes, hipMemcpyHostToDevice));
    CHECK(hipMemcpy(db, b.data(), sizeof(half4) * lanes, hipMemcpyHostToDevice));

    int failures = 0;
    for(const float value : {0.f, 1.f})
    {
        std::vector<floatx16> c(lanes), from_constant(lanes), from_memory(lanes);
        for(auto& v : c)
            for(int e = 0; e < 16; ++e)
                v[e] = value;
        CHECK(hipMemcpy(dc, c.data(), sizeof(floatx16) * lanes, hipMemcpyHostToDevice));
        if(value == 0.f)
            mfma_32x32x8<0><<<1, lanes>>>(dd, da, db, dc);
        else
            mfma_32x32x8<1><<<1, lanes>>>(dd, da, db, dc);
        CHECK(hipGetLastError());
        CHECK(hipMemcpy(from_constant.data(), dd, sizeof(floatx16) * lanes, hipMemcpyDeviceToHost));
        mfma_32x32x8<2><<<1, lanes>>>(dd, da, db, dc);
        CHECK(hipGetLastError());
        CHECK(hipMemcpy(from_memory.data(), dd, sizeof(floatx16) * lanes, hipMemcpyDeviceToHost));
        for(int l = 0; l < lanes; ++l)
            for(int e = 0; e < 16; ++e)
            {
                const float x = from_constant[l][e], y = from_memory[l][e];
                if(std::memcmp(&x, &y, sizeof x) != 0 && failures++ < 8)
                    std::printf("C = %g: lane %d register %d: %g with C a constant, %g with C loaded\n",
                                static_cast<double>(value), l, e, static_cast<double>(x), static_cast<double>(y));
            }
    }
    CHECK(hipFree(da));
    CHECK(hipFree(db));
    CHECK(hipFree(dc));
    CHECK(hipFree(dd));
    std::printf("%d mismatches\nvalid:%s\n", failures, failures == 0 ? "y" : "n");
    return failures == 0 ? 0 : 1;
}
