// SPDX-License-Identifier: MIT
// MFMA checks, one scenario per run (each prints valid:y or valid:n):
//
//   hip_cpu_mfma constant_c    an MFMA whose C the compiler gives as an inline constant (the 0 that
//                              starts a sum, or 1.0) reads that constant in every one of C's 16
//                              registers: the same D, bit for bit, as with C loaded from memory.
//                              (hip-cpu once read registers 2..15 of such a C from past the constant,
//                              and FMHA's P*V came out wrong from run to run.)
//   hip_cpu_mfma fp8_encoding  the 8-bit float MFMAs read the running arch's encoding: FNUZ on gfx942
//                              (1.0 is 0x40), OCP on gfx950 (1.0 is 0x38); with every A and B element
//                              1.0 in it, v_mfma_f32_16x16x32_fp8_fp8 gives K = 32 in every D
//                              element. (hip-cpu once read gfx950's as FNUZ: a quarter of that.)
#include <hip/hip_runtime.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

using floatx16 = float __attribute__((ext_vector_type(16)));
using floatx4  = float __attribute__((ext_vector_type(4)));
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

int constant_c()
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

int fp8_encoding()
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

int main(int argc, char** argv)
{
    const std::string scenario = argc > 1 ? argv[1] : "";
    if(scenario == "constant_c")
        return constant_c();
    if(scenario == "fp8_encoding")
        return fp8_encoding();
    std::printf("usage: hip_cpu_mfma constant_c|fp8_encoding\nvalid:n\n");
    return 2;
}
