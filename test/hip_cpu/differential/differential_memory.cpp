// SPDX-License-Identifier: MIT
// Differential test of hip-cpu's LDS and atomic instructions (differential.hpp says how).
//
//   LDS widths     each thread of a 256-thread block writes its element to a __shared__ tile of
//                  8, 16, 32, 64 or 128 bits, and after the barrier reads the element of the thread
//                  at its transposed position (a 16 x 16 transpose), zero- or sign-extended:
//                  ds_write_b8/b16/b32/b64/b128, ds_read_u8/i8/u16/i16/b32/b64/b128
//   LDS pairs      two dwords per thread at a distance the instruction encodes: ds_write2_b32,
//                  ds_write2st64_b32, ds_read2_b32, ds_read2st64_b32
//   dynamic LDS    the same through extern __shared__ after a static tile
//   LDS atomics    atomicAdd on a __shared__ int and float from every thread: ds_add_u32,
//                  ds_add_f32 (float values that sum exactly, so that the order does not matter)
//   global atomics atomicAdd from every thread of 8 blocks on int and float counters (unsigned long
//                  long: see main): the sums, and for int the values returned (each one a state of the
//                  counter: with positive addends, the returned values and the final sum are the
//                  initial value and the returned values plus their addends)
#include "differential.hpp"

#include <cstring>

#include <algorithm>

using namespace diff;

namespace {

constexpr int kBlock  = 256;
constexpr int kBlocks = 8;
constexpr int kN      = kBlock * kBlocks;

typedef u32 u32x4 __attribute__((ext_vector_type(4)));

// the thread whose element thread t reads: the transpose of t in a 16 x 16 tile
__host__ __device__ inline int transposed(int t) { return t % 16 * 16 + t / 16; }

template <typename T>
bool equal(const T& a, const T& b)
{
    if constexpr(std::is_same_v<T, u32x4>)
        return a.x == b.x && a.y == b.y && a.z == b.z && a.w == b.w;
    else
        return a == b;
}
template <typename T>
std::string describe(const T& v)
{
    if constexpr(std::is_same_v<T, u32x4>)
        return "{" + show(v.x) + ", " + show(v.y) + ", " + show(v.z) + ", " + show(v.w) + "}";
    else
        return show(v);
}

template <typename T>
void compare(report& rep, const char* name, const std::vector<T>& want, const std::vector<T>& got)
{
    if(const hipError_t e = hipGetLastError(); e != hipSuccess)
    {
        std::printf("FAIL %s: the launch failed: %s\n", name, hipGetErrorString(e));
        ++rep.failures;
        return;
    }
    int bad = 0;
    for(std::size_t i = 0; i < want.size(); ++i)
        if(!equal(want[i], got[i]) && ++bad <= report::limit)
            std::printf("FAIL %s: thread %zu: expected %s got %s\n", name, i, describe(want[i]).c_str(),
                        describe(got[i]).c_str());
    rep.done(name, bad, static_cast<int>(want.size()));
}

template <typename T>
std::vector<T> random_vector(rng& g, int n)
{
    std::vector<T> v(n);
    for(auto& x : v)
    {
        if constexpr(std::is_same_v<T, u32x4>)
            x = u32x4{static_cast<u32>(g.next()), static_cast<u32>(g.next()), static_cast<u32>(g.next()),
                      static_cast<u32>(g.next())};
        else
            x = static_cast<T>(g.next());
    }
    return v;
}

// ---- LDS widths -------------------------------------------------------------------------------------------
// tile of Stored; the read converts to Read (i32 from i8/i16: the sign-extending reads)
template <typename Stored, typename Read>
__global__ void lds_transpose_kernel(const Stored* in, Read* out)
{
    __shared__ Stored tile[kBlock];
    const int t = static_cast<int>(threadIdx.x), i = static_cast<int>(blockIdx.x) * kBlock + t;
    tile[t] = in[i];
    __syncthreads();
    out[i] = static_cast<Read>(tile[transposed(t)]);
}

template <typename Stored, typename Read>
void test_lds_width(report& rep, rng& g, const char* name)
{
    const std::vector<Stored> in = random_vector<Stored>(g, kN);
    device_array<Stored> din(in);
    device_array<Read> dout(std::size_t{kN});
    hipLaunchKernelGGL(HIP_KERNEL_NAME(lds_transpose_kernel<Stored, Read>), dim3(kBlocks), dim3(kBlock), 0, 0, din.p,
                       dout.p);
    std::vector<Read> want(kN);
    for(int i = 0; i < kN; ++i)
        want[i] = static_cast<Read>(in[i / kBlock * kBlock + transposed(i % kBlock)]);
    compare<Read>(rep, name, want, dout.to_host());
}

// ---- gfx950's LDS transpose reads -------------------------------------------------------------------------
// Each group of 16 lanes holds a tile of 8 x 16 bytes (tr_b8: lane l names row l / 2, bytes
// 8 (l % 2) .. + 7) or 4 x 16 halves (tr_b16: lane l names row l / 4, halves 4 (l % 4) .. + 3);
// lane j of the group receives column j, every row in order.
__global__ void lds_read_tr_kernel(const u32* in, u32* out)
{
    __shared__ u32 tile[2 * 64 * 2]; // 64 lanes x 8 bytes, twice (tr_b8, tr_b16)
    const int lane = static_cast<int>(threadIdx.x);
    for(int k = 0; k < 4; ++k)
        tile[lane * 4 + k] = in[lane * 4 + k];
    __syncthreads();
#if defined(__gfx950__)
    using v2i32 = int __attribute__((ext_vector_type(2)));
    using v4i16 = short __attribute__((ext_vector_type(4)));
    const int g = lane / 16, l = lane % 16;
    auto* lds8        = reinterpret_cast<unsigned char*>(tile) + g * 128 + (l / 2) * 16 + (l % 2) * 8;
    auto* lds16       = reinterpret_cast<unsigned short*>(tile + 128) + g * 64 + (l / 4) * 16 + (l % 4) * 4;
    const v2i32 r8    = __builtin_amdgcn_ds_read_tr8_b64_v2i32((__attribute__((address_space(3))) v2i32*)(lds8));
    const v4i16 r16   = __builtin_amdgcn_ds_read_tr16_b64_v4i16((__attribute__((address_space(3))) v4i16*)(lds16));
    out[lane * 4]     = static_cast<u32>(r8.x);
    out[lane * 4 + 1] = static_cast<u32>(r8.y);
    out[lane * 4 + 2] = static_cast<u32>(static_cast<unsigned short>(r16.x)) |
                        static_cast<u32>(static_cast<unsigned short>(r16.y)) << 16;
    out[lane * 4 + 3] = static_cast<u32>(static_cast<unsigned short>(r16.z)) |
                        static_cast<u32>(static_cast<unsigned short>(r16.w)) << 16;
#else
    (void)out;
#endif
}

void test_lds_read_tr(report& rep, rng& g)
{
    if(rep.arch != "gfx950")
        return; // gfx942 has no LDS transpose reads
    const std::vector<u32> in = random_vector<u32>(g, 256);
    device_array<u32> din(in);
    device_array<u32> dout(std::size_t{256});
    hipLaunchKernelGGL(lds_read_tr_kernel, dim3(1), dim3(64), 0, 0, din.p, dout.p);
    const auto* bytes  = reinterpret_cast<const unsigned char*>(in.data());
    const auto* halves = reinterpret_cast<const unsigned short*>(in.data() + 128);
    std::vector<u32> want(256);
    for(int lane = 0; lane < 64; ++lane)
    {
        const int grp = lane / 16, j = lane % 16;
        unsigned char b[8];
        unsigned short h[4];
        for(int r = 0; r < 8; ++r)
            b[r] = bytes[grp * 128 + r * 16 + j];
        for(int r = 0; r < 4; ++r)
            h[r] = halves[grp * 64 + r * 16 + j];
        std::memcpy(&want[lane * 4], b, 8);
        std::memcpy(&want[lane * 4 + 2], h, 8);
    }
    compare<u32>(rep, "ds_read_b64_tr_b8 / ds_read_b64_tr_b16", want, dout.to_host());
}

// ---- LDS pairs and dynamic LDS ----------------------------------------------------------------------------
// tile: dword t from a and t + 256 from b (ds_write2st64_b32); tile2: dwords 2t + 1 and 2t + 2, not
// 8-byte aligned (ds_write2_b32). Reads around the transposed position p: tile p and p + 32
// (ds_read2_b32), p + 64 and p + 192 (ds_read2st64_b32), tile2 2p + 1 and 2p + 2 (ds_read2_b32).
__global__ void lds_pairs_kernel(const u32* a, const u32* b, u32* out)
{
    __shared__ u32 tile[2 * kBlock];
    __shared__ u32 tile2[2 * kBlock + 2];
    const int t = static_cast<int>(threadIdx.x), i = static_cast<int>(blockIdx.x) * kBlock + t;
    tile[t]          = a[i];
    tile[t + kBlock] = b[i];
    tile2[2 * t + 1] = a[i] ^ 1u;
    tile2[2 * t + 2] = b[i] ^ 2u;
    __syncthreads();
    const int p    = transposed(t);
    out[5 * i]     = tile[p];
    out[5 * i + 1] = tile[p + 32];
    out[5 * i + 2] = tile[p + 64] - tile[p + 192];
    out[5 * i + 3] = tile2[2 * p + 1];
    out[5 * i + 4] = tile2[2 * p + 2];
}
// the same transpose as lds_transpose_kernel<u32>, through the launch's dynamic LDS after a static
// tile that the kernel also uses
__global__ void lds_dynamic_kernel(const u32* in, u32* out)
{
    __shared__ u32 fixed[64];
    HIP_DYNAMIC_SHARED(u32, dynamic)
    const int t = static_cast<int>(threadIdx.x), i = static_cast<int>(blockIdx.x) * kBlock + t;
    dynamic[t] = in[i];
    if(t < 64)
        fixed[t] = ~in[i];
    __syncthreads();
    out[i] = dynamic[transposed(t)] + fixed[t % 64];
}

void test_lds_pairs(report& rep, rng& g)
{
    const std::vector<u32> in = random_vector<u32>(g, kN), in_b = random_vector<u32>(g, kN);
    device_array<u32> din(in), din_b(in_b), dout(std::size_t{5 * kN});
    hipLaunchKernelGGL(lds_pairs_kernel, dim3(kBlocks), dim3(kBlock), 0, 0, din.p, din_b.p, dout.p);
    std::vector<u32> want(5 * kN);
    for(int i = 0; i < kN; ++i)
    {
        const int base = i / kBlock * kBlock, p = transposed(i % kBlock);
        auto tile       = [&](int k) { return k < kBlock ? in[base + k] : in_b[base + k - kBlock]; };
        want[5 * i]     = tile(p);
        want[5 * i + 1] = tile(p + 32);
        want[5 * i + 2] = tile(p + 64) - tile(p + 192);
        want[5 * i + 3] = in[base + p] ^ 1u;
        want[5 * i + 4] = in_b[base + p] ^ 2u;
    }
    compare<u32>(rep, "ds_write2/write2st64/read2/read2st64_b32", want, dout.to_host());

    device_array<u32> dout2(std::size_t{kN});
    hipLaunchKernelGGL(lds_dynamic_kernel, dim3(kBlocks), dim3(kBlock), kBlock * sizeof(u32), 0, din.p, dout2.p);
    std::vector<u32> want2(kN);
    for(int i = 0; i < kN; ++i)
    {
        const int base = i / kBlock * kBlock;
        want2[i]       = in[base + transposed(i % kBlock)] + ~in[base + i % 64];
    }
    compare<u32>(rep, "dynamic LDS", want2, dout2.to_host());
}

// ---- atomics ----------------------------------------------------------------------------------------------
// LDS: every thread adds to one int and one float of its block, then thread 0 writes them out
__global__ void lds_atomics_kernel(const u32* v, const float* f, u32* sum, float* fsum)
{
    __shared__ int counter;
    __shared__ float fcounter;
    const int t = static_cast<int>(threadIdx.x), i = static_cast<int>(blockIdx.x) * kBlock + t;
    if(t == 0)
    {
        counter  = 0;
        fcounter = 0.0f;
    }
    __syncthreads();
    atomicAdd(&counter, static_cast<int>(v[i]));
    atomicAdd(&fcounter, f[i]);
    __syncthreads();
    if(t == 0)
    {
        sum[blockIdx.x]  = static_cast<u32>(counter);
        fsum[blockIdx.x] = fcounter;
    }
}
// global: every thread adds to counter i % 4 (int, returning the old value) and to one float
// counter; and in its own kernel, to an unsigned long long counter
__global__ void global_atomics_kernel(const u32* v, const float* f, int* counters, u32* old, float* fsum)
{
    const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    old[i]      = static_cast<u32>(atomicAdd(&counters[i % 4], static_cast<int>(v[i])));
    atomicAdd(fsum, f[i]);
}
__global__ void global_atomic_u64_kernel(const u32* v, unsigned long long* wide)
{
    const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    atomicAdd(wide, static_cast<unsigned long long>(v[i]) << 20);
}

struct addends
{
    std::vector<u32> v;   // positive: each add changes the counter
    std::vector<float> f; // multiples of 1/4: exact sums
    explicit addends(rng& g) : v(kN), f(kN)
    {
        for(int i = 0; i < kN; ++i)
        {
            v[i] = static_cast<u32>(g.next() % 100000) + 1;
            f[i] = static_cast<float>(g.next() % 2001) * 0.25f - 250;
        }
    }
};

void test_atomic_u64(report& rep, rng& g)
{
    const addends add(g);
    device_array<u32> dv(add.v);
    device_array<unsigned long long> dwide(std::vector<unsigned long long>{0xfffffff00000ull});
    hipLaunchKernelGGL(global_atomic_u64_kernel, dim3(kBlocks), dim3(kBlock), 0, 0, dv.p, dwide.p);
    unsigned long long wide = 0xfffffff00000ull;
    for(int i = 0; i < kN; ++i)
        wide += static_cast<unsigned long long>(add.v[i]) << 20;
    compare<unsigned long long>(rep, "global_atomic_add_x2", {wide}, dwide.to_host());
}

void test_atomics(report& rep, rng& g)
{
    const addends add(g);
    const std::vector<u32>& v   = add.v;
    const std::vector<float>& f = add.f;
    device_array<u32> dv(v), dsum(std::size_t{kBlocks});
    device_array<float> df(f), dfsum(std::size_t{kBlocks});
    hipLaunchKernelGGL(lds_atomics_kernel, dim3(kBlocks), dim3(kBlock), 0, 0, dv.p, df.p, dsum.p, dfsum.p);
    std::vector<u32> want(kBlocks);
    std::vector<float> fwant(kBlocks);
    for(int i = 0; i < kN; ++i)
    {
        want[i / kBlock] += v[i];
        fwant[i / kBlock] += f[i];
    }
    compare<u32>(rep, "ds_add_u32 (LDS atomicAdd int)", want, dsum.to_host());
    compare<float>(rep, "ds_add_f32 (LDS atomicAdd float)", fwant, dfsum.to_host());

    const std::vector<int> init = {0, -1000, 0x7ff00000, 12345};
    device_array<int> dcounters(init);
    device_array<u32> dold(std::size_t{kN});
    device_array<float> dtotal(std::vector<float>{0.5f});
    hipLaunchKernelGGL(global_atomics_kernel, dim3(kBlocks), dim3(kBlock), 0, 0, dv.p, df.p, dcounters.p, dold.p,
                       dtotal.p);
    if(hipPeekAtLastError() != hipSuccess)
    {
        compare<int>(rep, "global atomics", {}, {}); // reports the failed launch
        return;
    }
    std::vector<int> sums = init;
    float total           = 0.5f;
    for(int i = 0; i < kN; ++i)
    {
        sums[i % 4] = static_cast<int>(static_cast<u32>(sums[i % 4]) + v[i]);
        total += f[i];
    }
    compare<int>(rep, "global_atomic_add (sums)", sums, dcounters.to_host());
    compare<float>(rep, "global_atomic_add_f32", {total}, dtotal.to_host());

    // the values returned to counter c's adders are its states before each add: together with the
    // final value they are the initial value and each returned value plus its addend
    const std::vector<u32> old = dold.to_host();
    std::vector<u32> states, after;
    for(int c = 0; c < 4; ++c)
    {
        std::vector<u32> s{static_cast<u32>(sums[c])}, a{static_cast<u32>(init[c])};
        for(int i = c; i < kN; i += 4)
        {
            s.push_back(old[i]);
            a.push_back(old[i] + v[i]);
        }
        std::sort(s.begin(), s.end());
        std::sort(a.begin(), a.end());
        states.insert(states.end(), s.begin(), s.end());
        after.insert(after.end(), a.begin(), a.end());
    }
    compare<u32>(rep, "global_atomic_add (returned values)", after, states);
}

} // namespace

int main()
{
    report rep;
    rng g;
    test_atomic_u64(rep, g);  // atomicAdd(unsigned long long*): global_atomic_add_x2
    test_lds_read_tr(rep, g); // gfx950 only
    test_lds_width<std::uint8_t, u32>(rep, g, "ds_write_b8 / ds_read_u8");
    test_lds_width<std::int8_t, i32>(rep, g, "ds_write_b8 / ds_read_i8");
    test_lds_width<u16, u32>(rep, g, "ds_write_b16 / ds_read_u16");
    test_lds_width<std::int16_t, i32>(rep, g, "ds_write_b16 / ds_read_i16");
    test_lds_width<u32, u32>(rep, g, "ds_write_b32 / ds_read_b32");
    test_lds_width<u64, u64>(rep, g, "ds_write_b64 / ds_read_b64");
    test_lds_width<u32x4, u32x4>(rep, g, "ds_write_b128 / ds_read_b128");
    test_lds_pairs(rep, g);
    test_atomics(rep, g);
    return rep.finish();
}
