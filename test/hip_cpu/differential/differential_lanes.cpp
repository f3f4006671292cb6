// SPDX-License-Identifier: MIT
// Differential test of hip-cpu's cross-lane instructions (differential.hpp says how): each kernel
// reads per-lane inputs (values, addresses, lane masks, predicates) and applies one cross-lane
// operation; the host computes what each lane receives from the ISA's definition. Blocks of 256
// threads, so waves are the 64-lane runs of the global index; every result compares bit for bit.
//
//   ds_bpermute_b32, ds_permute_b32   lane (addr >> 2) & 63, addresses of every size
//   v_readfirstlane_b32               the first active lane, under divergent branches
//   v_readlane_b32                    a lane picked by an SGPR (bits [5:0])
//   v_mov_b32_dpp                     quad_perm, row_shl/shr/ror, row_mirror, row_half_mirror,
//                                     row_bcast:15/31, with row/bank masks and bound_ctrl
//   v_mbcnt_lo/hi_u32_b32             the set mask bits below the lane, plus an addend
//   ballot (v_cmp to an SGPR pair)    with all lanes and under a divergent branch
//   __shfl_xor                        a butterfly sum over the wave
#include "differential.hpp"

#include <functional>

using namespace diff;

namespace {

constexpr int kBlock  = 256;
constexpr int kBlocks = 8;
constexpr int kN      = kBlock * kBlocks;

// one result per lane against the host's; `inputs(i)` describes lane i's inputs for the report
template <typename T>
void compare(report& rep, const char* name, const std::vector<T>& want, const std::vector<T>& got,
             const std::function<std::string(int)>& inputs)
{
    if(const hipError_t e = hipGetLastError(); e != hipSuccess)
    {
        std::printf("FAIL %s: the launch failed: %s\n", name, hipGetErrorString(e));
        ++rep.failures;
        return;
    }
    int bad = 0;
    for(std::size_t i = 0; i < want.size(); ++i)
        if(want[i] != got[i] && ++bad <= report::limit)
            std::printf("FAIL %s: lane %zu of wave %zu, %s: expected %s got %s\n", name, i % 64, i / 64,
                        inputs(static_cast<int>(i)).c_str(), show(want[i]).c_str(), show(got[i]).c_str());
    rep.done(name, bad, static_cast<int>(want.size()));
}

std::vector<u32> random_u32(rng& g, int n)
{
    std::vector<u32> v(n);
    for(auto& x : v)
        x = static_cast<u32>(g.next());
    return v;
}

__device__ int global_id() { return static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x); }

// ---- permutes through the LDS crossbar ------------------------------------------------------------------
__global__ void bpermute_kernel(const u32* addr, const u32* v, u32* r)
{
    const int i = global_id();
    r[i]        = static_cast<u32>(__builtin_amdgcn_ds_bpermute(static_cast<int>(addr[i]), static_cast<int>(v[i])));
}
__global__ void permute_kernel(const u32* addr, const u32* v, u32* r)
{
    const int i = global_id();
    r[i]        = static_cast<u32>(__builtin_amdgcn_ds_permute(static_cast<int>(addr[i]), static_cast<int>(v[i])));
}

void test_permutes(report& rep, rng& g)
{
    const std::vector<u32> v = random_u32(g, kN);
    // bpermute: any address; lane l reads lane (addr >> 2) & 63 of its wave
    std::vector<u32> addr = random_u32(g, kN);
    const u32 special[]   = {0u, 1u, 2u, 3u, 4u, 252u, 253u, 255u, 256u, 260u, 0x80000000u, 0xfffffffcu, 0xffffffffu};
    for(int k = 0; k < 13; ++k)
        addr[k * 3] = special[k];
    device_array<u32> da(addr), dv(v), dr(std::size_t{kN});
    hipLaunchKernelGGL(bpermute_kernel, dim3(kBlocks), dim3(kBlock), 0, 0, da.p, dv.p, dr.p);
    std::vector<u32> want(kN);
    for(int i = 0; i < kN; ++i)
        want[i] = v[i / 64 * 64 + (addr[i] >> 2 & 63)];
    compare<u32>(rep, "ds_bpermute_b32", want, dr.to_host(), [&](int i) { return "addr=" + show(addr[i]); });

    // permute: lane l writes lane (addr >> 2) & 63; a permutation of each wave, so that every lane
    // is written once, with the address's other bits random
    for(int w = 0; w < kN / 64; ++w)
    {
        int perm[64];
        for(int l = 0; l < 64; ++l)
            perm[l] = l;
        for(int l = 63; l > 0; --l)
            std::swap(perm[l], perm[g.next() % (l + 1)]);
        for(int l = 0; l < 64; ++l)
            addr[w * 64 + l] = (static_cast<u32>(g.next()) & ~0xfcu) | static_cast<u32>(perm[l]) << 2;
    }
    device_array<u32> dp(addr), dr2(std::size_t{kN});
    hipLaunchKernelGGL(permute_kernel, dim3(kBlocks), dim3(kBlock), 0, 0, dp.p, dv.p, dr2.p);
    for(int i = 0; i < kN; ++i)
        want[i / 64 * 64 + (addr[i] >> 2 & 63)] = v[i];
    compare<u32>(rep, "ds_permute_b32", want, dr2.to_host(), [&](int i) { return "value=" + show(v[i]); });
}

// ---- readfirstlane, readlane -------------------------------------------------------------------------------
// lanes with cond bit 0 set take the branch and read the first of them; the others keep ~v
__global__ void readfirstlane_kernel(const u32* cond, const u32* v, u32* r)
{
    const int i = global_id();
    u32 x       = ~v[i];
    if(cond[i] & 1)
        x = static_cast<u32>(__builtin_amdgcn_readfirstlane(static_cast<int>(v[i])));
    r[i] = x;
}
// every lane reads lane sel[block] of its wave, sel uniform (an SGPR)
__global__ void readlane_kernel(const u32* sel, const u32* v, u32* r)
{
    const int i = global_id();
    r[i] = static_cast<u32>(__builtin_amdgcn_readlane(static_cast<int>(v[i]), static_cast<int>(sel[blockIdx.x])));
}

void test_readlanes(report& rep, rng& g)
{
    const std::vector<u32> v = random_u32(g, kN);
    std::vector<u32> cond    = random_u32(g, kN);
    for(int l = 0; l < 64; ++l) // wave 1: no lane takes the branch; wave 2: only lane 63
    {
        cond[64 + l]  = 0;
        cond[128 + l] = l == 63 ? 1 : 0;
    }
    device_array<u32> dc(cond), dv(v), dr(std::size_t{kN});
    hipLaunchKernelGGL(readfirstlane_kernel, dim3(kBlocks), dim3(kBlock), 0, 0, dc.p, dv.p, dr.p);
    std::vector<u32> want(kN);
    for(int i = 0; i < kN; ++i)
    {
        int first = i / 64 * 64; // the wave's first lane in the branch: at most i where i is in it
        while(first < i && !(cond[first] & 1))
            ++first;
        want[i] = (cond[i] & 1) ? v[first] : ~v[i];
    }
    compare<u32>(rep, "readfirstlane_b32 (divergent)", want, dr.to_host(),
                 [&](int i) { return "cond=" + show(cond[i] & 1); });

    const std::vector<u32> sel = {0u, 63u, 17u, 64u, 127u, 0xffffffc5u, 32u, 31u}; // lane = sel & 63
    device_array<u32> ds(sel), dr2(std::size_t{kN});
    hipLaunchKernelGGL(readlane_kernel, dim3(kBlocks), dim3(kBlock), 0, 0, ds.p, dv.p, dr2.p);
    for(int i = 0; i < kN; ++i)
        want[i] = v[i / 64 * 64 + (sel[i / kBlock] & 63)];
    compare<u32>(rep, "readlane_b32", want, dr2.to_host(), [&](int i) { return "sel=" + show(sel[i / kBlock]); });
}

// ---- DPP ----------------------------------------------------------------------------------------------------
// update_dpp(old, src): a lane of a row outside row_mask or a bank (4 lanes) outside bank_mask keeps
// old; else it gets src of the lane the control picks, or where that lane is outside the row (or
// the broadcast has no source) 0 with bound_ctrl, old without (GFX9 DPP, as in CDNA3)
template <int Ctrl, int RowMask, int BankMask, bool Bound>
__global__ void dpp_kernel(const u32* old, const u32* src, u32* r)
{
    const int i = global_id();
    r[i]        = static_cast<u32>(__builtin_amdgcn_update_dpp(static_cast<int>(old[i]), static_cast<int>(src[i]), Ctrl,
                                                               RowMask, BankMask, Bound));
}
// the source lane (within the wave) of lane l, or -1 where there is none
int dpp_source(int ctrl, int l)
{
    const int row = l / 16, i = l % 16;
    if(ctrl <= 0xff)
        return (l & ~3) | (ctrl >> (2 * (l & 3)) & 3);
    const int n = ctrl & 15;
    switch(ctrl & ~15)
    {
    case 0x100:
        return i + n < 16 ? l + n : -1; // row_shl
    case 0x110:
        return i >= n ? l - n : -1; // row_shr
    case 0x120:
        return row * 16 + ((i - n) & 15); // row_ror
    }
    switch(ctrl)
    {
    case 0x140:
        return row * 16 + 15 - i; // row_mirror
    case 0x141:
        return row * 16 + (i & 8) + 7 - (i & 7); // row_half_mirror
    case 0x142:
        return row > 0 ? row * 16 - 1 : -1; // row_bcast:15
    case 0x143:
        return row > 1 ? 31 : -1; // row_bcast:31
    }
    return -1;
}

template <int Ctrl, int RowMask, int BankMask, bool Bound>
void test_dpp(report& rep, rng& g, const char* name)
{
    const std::vector<u32> old = random_u32(g, kN), src = random_u32(g, kN);
    device_array<u32> dold(old), dsrc(src), dr(std::size_t{kN});
    hipLaunchKernelGGL(HIP_KERNEL_NAME(dpp_kernel<Ctrl, RowMask, BankMask, Bound>), dim3(kBlocks), dim3(kBlock), 0, 0,
                       dold.p, dsrc.p, dr.p);
    std::vector<u32> want(kN);
    for(int i = 0; i < kN; ++i)
    {
        const int l = i % 64, s = dpp_source(Ctrl, l);
        if(!(RowMask >> (l / 16) & 1) || !(BankMask >> (l % 16 / 4) & 1))
            want[i] = old[i];
        else if(s < 0)
            want[i] = Bound ? 0u : old[i];
        else
            want[i] = src[i - l + s];
    }
    compare<u32>(rep, name, want, dr.to_host(), [](int) { return std::string("random old and src"); });
}

// ---- mbcnt, ballot, shuffles ------------------------------------------------------------------------------
// the masks per lane (VGPRs), or with Uniform one per block (SGPRs)
template <bool Uniform>
__global__ void mbcnt_kernel(const u32* lo, const u32* hi, const u32* acc, u32* r)
{
    const int i = global_id();
    const int m = Uniform ? static_cast<int>(blockIdx.x) : i;
    r[i]        = __builtin_amdgcn_mbcnt_hi(hi[m], __builtin_amdgcn_mbcnt_lo(lo[m], acc[i]));
}
// the lanes (of the wave) where a[i] < b[i]; with Divergent, only the lanes where c[i] is odd
// take part and the others write 0
template <bool Divergent>
__global__ void ballot_kernel(const u32* a, const u32* b, const u32* c, u64* r)
{
    const int i = global_id();
    u64 m       = 0;
    if(!Divergent || (c[i] & 1))
        m = __builtin_amdgcn_ballot_w64(a[i] < b[i]);
    r[i] = m;
}
// the sum over the wave by a butterfly of __shfl_xor
__global__ void shfl_xor_sum_kernel(const u32* v, u32* r)
{
    const int i = global_id();
    unsigned s  = v[i];
    for(int d = 1; d < 64; d *= 2)
        s += __shfl_xor(s, d);
    r[i] = s;
}

template <bool Uniform>
void test_mbcnt(report& rep, rng& g, const char* name)
{
    std::vector<u32> lo = random_u32(g, kN), hi = random_u32(g, kN);
    const std::vector<u32> acc = random_u32(g, kN);
    lo[0] = hi[0] = 0xffffffff; // lane 0, or with Uniform block 0: every lane set
    lo[1] = hi[1] = 0;
    device_array<u32> dlo(lo), dhi(hi), dacc(acc), dr(std::size_t{kN});
    hipLaunchKernelGGL(mbcnt_kernel<Uniform>, dim3(kBlocks), dim3(kBlock), 0, 0, dlo.p, dhi.p, dacc.p, dr.p);
    std::vector<u32> want(kN);
    for(int i = 0; i < kN; ++i)
    {
        const int l = i % 64, m = Uniform ? i / kBlock : i;
        const u64 below   = (u64{1} << l) - 1; // the lanes below l
        const u32 mask_lo = static_cast<u32>(below), mask_hi = static_cast<u32>(below >> 32);
        want[i] = acc[i] + static_cast<u32>(__builtin_popcount(lo[m] & mask_lo) + __builtin_popcount(hi[m] & mask_hi));
    }
    compare<u32>(rep, name, want, dr.to_host(), [&](int i) {
        const int m = Uniform ? i / kBlock : i;
        return "lo=" + show(lo[m]) + " hi=" + show(hi[m]) + " acc=" + show(acc[i]);
    });
}

void test_masks(report& rep, rng& g)
{
    std::vector<u32> want(kN);
    device_array<u32> dr(std::size_t{kN});

    const std::vector<u32> a = random_u32(g, kN), b = random_u32(g, kN), c = random_u32(g, kN);
    device_array<u32> da(a), db(b), dc(c);
    device_array<u64> dm(std::size_t{kN}), dm2(std::size_t{kN});
    hipLaunchKernelGGL(ballot_kernel<false>, dim3(kBlocks), dim3(kBlock), 0, 0, da.p, db.p, dc.p, dm.p);
    std::vector<u64> want_all(kN), want_div(kN);
    for(int i = 0; i < kN; ++i)
    {
        const int w = i / 64 * 64;
        for(int l = 0; l < 64; ++l)
        {
            want_all[i] |= u64{a[w + l] < b[w + l]} << l;
            want_div[i] |= u64{(c[w + l] & 1) && a[w + l] < b[w + l]} << l;
        }
        if(!(c[i] & 1))
            want_div[i] = 0;
    }
    compare<u64>(rep, "ballot_w64", want_all, dm.to_host(), [](int) { return std::string("random a < b"); });
    hipLaunchKernelGGL(ballot_kernel<true>, dim3(kBlocks), dim3(kBlock), 0, 0, da.p, db.p, dc.p, dm2.p);
    compare<u64>(rep, "ballot_w64 (divergent)", want_div, dm2.to_host(),
                 [](int) { return std::string("random a < b, lanes with c odd"); });

    hipLaunchKernelGGL(shfl_xor_sum_kernel, dim3(kBlocks), dim3(kBlock), 0, 0, da.p, dr.p);
    for(int i = 0; i < kN; ++i)
    {
        u32 s = 0;
        for(int l = 0; l < 64; ++l)
            s += a[i / 64 * 64 + l];
        want[i] = s;
    }
    compare<u32>(rep, "__shfl_xor wave sum", want, dr.to_host(), [](int) { return std::string("random values"); });
}

} // namespace

int main()
{
    report rep;
    rng g;
    test_permutes(rep, g);
    test_readlanes(rep, g);
    test_dpp<0x111, 0xf, 0xf, false>(rep, g, "dpp row_shr:1");
    test_dpp<0x111, 0xf, 0xf, true>(rep, g, "dpp row_shr:1 bound_ctrl");
    test_dpp<0x113, 0xf, 0xf, false>(rep, g, "dpp row_shr:3");
    test_dpp<0x11f, 0xf, 0xf, true>(rep, g, "dpp row_shr:15 bound_ctrl");
    test_dpp<0x101, 0xf, 0xf, false>(rep, g, "dpp row_shl:1");
    test_dpp<0x108, 0xe, 0xf, true>(rep, g, "dpp row_shl:8 row_mask:0xe bound_ctrl");
    test_dpp<0x125, 0xf, 0xf, false>(rep, g, "dpp row_ror:5");
    test_dpp<0x140, 0xf, 0xf, false>(rep, g, "dpp row_mirror");
    test_dpp<0x141, 0xf, 0xf, false>(rep, g, "dpp row_half_mirror");
    test_dpp<0x142, 0xa, 0xf, false>(rep, g, "dpp row_bcast:15 row_mask:0xa");
    test_dpp<0x143, 0xc, 0xf, false>(rep, g, "dpp row_bcast:31 row_mask:0xc");
    test_mbcnt<true>(rep, g, "mbcnt_lo/hi_u32_b32 (masks in SGPRs)");
    test_mbcnt<false>(rep, g, "mbcnt_lo/hi_u32_b32 (per-lane masks)");
    test_dpp<0xb1, 0xf, 0xf, false>(rep, g, "dpp quad_perm:[1,0,3,2]");
    test_dpp<0x1b, 0xf, 0xf, false>(rep, g, "dpp quad_perm:[3,2,1,0]");
    test_dpp<0x00, 0x5, 0xf, false>(rep, g, "dpp quad_perm:[0,0,0,0] row_mask:0x5");
    test_dpp<0x4e, 0xf, 0x6, false>(rep, g, "dpp quad_perm:[2,3,0,1] bank_mask:0x6");
    test_masks(rep, g);
    return rep.finish();
}
