// SPDX-License-Identifier: MIT
// Memory instructions: scalar loads (SMEM), buffer (MUBUF), global and flat, LDS (DS), atomics, and
// s_waitcnt with the check that no register is read before the wait that makes its load visible.
//
// Buffer accesses follow the hardware's buffer-resource rules: the offset (VGPR offset + the
// instruction's) is 32-bit, and each dword of an access is range-checked against num_records on
// its own (an out-of-range dword reads 0, a store to it is dropped). Every access that reaches
// memory must lie inside an allocation, and every LDS access inside the workgroup's LDS; anything
// else stops the launch (hardware would read or write whatever is there).
#include "engine.hpp"
#include "memory.hpp"

#include <atomic>
#include <bit>
#include <sstream>

namespace hip_cpu {
namespace {

using u32 = std::uint32_t;
using u64 = std::uint64_t;

// ---- s_waitcnt bookkeeping ------------------------------------------------------------------------
void mark_pending(wave& w, const operand& dst, u32 tag, int dwords)
{
    std::vector<u32>* p = dst.kind == operand::vgpr   ? &w.v_pending
                          : dst.kind == operand::agpr ? &w.a_pending
                          : dst.kind == operand::sgpr ? &w.s_pending
                                                      : nullptr;
    if(p == nullptr)
        return;
    for(int k = 0; k < dwords; ++k)
        (*p)[dst.reg + k] = tag;
}

void retire(wave& w, std::vector<pending_op>& ops, bool vm, int keep);

// The counters' capacity (gfx9: vmcnt 6 bits, lgkmcnt 4 bits). A wave cannot have more operations
// outstanding: issuing one more waits for the oldest, so the compiler may rely on that wait.
constexpr int vmcnt_max = 63, lgkmcnt_max = 15;

// Records an issued operation that counts in vmcnt (vm) or lgkmcnt, writing `dwords` registers of
// dst (0: none, a store).
void issue(wave& w, const inst& i, bool vm, const operand* dst, int dwords, bool smem = false)
{
    auto& ops   = vm ? w.vm_ops : w.lgkm_ops;
    u32& issued = vm ? w.vm_issued : w.lgkm_issued;
    pending_op op;
    op.seq = issued++;
    op.pc  = i.index;
    if(dst != nullptr && dwords > 0)
    {
        op.kind   = dst->kind;
        op.reg    = dst->reg;
        op.dwords = static_cast<std::uint16_t>(dwords);
        mark_pending(w, *dst, (vm ? 0x80000000u : 0u) | (op.seq + 1), dwords);
    }
    if(smem)
    {
        op.kind |= 0x80; // returns out of order: only lgkmcnt(0) is sure to have it
        ++w.smem_outstanding;
    }
    ops.push_back(op);
    const int max = vm ? vmcnt_max : lgkmcnt_max;
    if(static_cast<int>(ops.size()) > max)
        retire(w, ops, vm, max);
}

void retire(wave& w, std::vector<pending_op>& ops, bool vm, int keep)
{
    const int n = static_cast<int>(ops.size());
    if(n <= keep)
        return;
    std::size_t kept = 0;
    for(int k = 0; k < n; ++k)
    {
        const pending_op op = ops[k];
        const bool smem     = (op.kind & 0x80) != 0;
        if(!(k < n - keep && (!smem || keep == 0)))
        {
            ops[kept++] = op; // still outstanding
            continue;
        }
        if(smem)
            --w.smem_outstanding;
        const u32 tag       = (vm ? 0x80000000u : 0u) | (op.seq + 1);
        std::vector<u32>* p = (op.kind & 0x7f) == operand::vgpr   ? &w.v_pending
                              : (op.kind & 0x7f) == operand::agpr ? &w.a_pending
                              : (op.kind & 0x7f) == operand::sgpr ? &w.s_pending
                                                                  : nullptr;
        if(p != nullptr)
            for(int d = 0; d < op.dwords; ++d)
                if((*p)[op.reg + d] == tag)
                    (*p)[op.reg + d] = 0;
    }
    ops.resize(kept);
}

// ---- global memory --------------------------------------------------------------------------------
// The allocation last hit by this thread: most accesses of a launch fall in the same few.
// It is dropped when any allocation goes away (a launch's own kernel arguments included).
thread_local allocation last_hit{0, 0};
thread_local std::uint64_t last_hit_generation = 0;

[[noreturn]] void outside(const wave& w, const inst& i, int lane, u64 address, u64 bytes, bool store)
{
    std::ostringstream s;
    s << (store ? "stores " : "loads ") << bytes << " bytes at 0x" << std::hex << address << std::dec
      << " outside every allocation (lane " << lane << ")";
    fault(w, i, s.str());
}

inline std::uint8_t* global_ptr(const wave& w, const inst& i, int lane, u64 address, u64 bytes, bool store)
{
    if(address < last_hit.base || address + bytes > last_hit.base + last_hit.bytes ||
       last_hit_generation != allocation_generation())
    {
        const std::uint64_t generation = allocation_generation();
        allocation a;
        if(!find_allocation(address, bytes, a))
            outside(w, i, lane, address, bytes, store);
        last_hit            = a;
        last_hit_generation = generation;
    }
    return reinterpret_cast<std::uint8_t*>(address);
}

// ---- buffer resources ---------------------------------------------------------------------------
struct buffer_resource
{
    u64 base;
    u32 stride, num_records;
};
buffer_resource resource(const wave& w, const inst& i, const operand& o)
{
    const u32 d0 = sread(w, i, o, 0), d1 = sread(w, i, o, 1), d2 = sread(w, i, o, 2), d3 = sread(w, i, o, 3);
    if((d3 >> 23) & 1)
        fault(w, i, "a buffer resource with ADD_TID_ENABLE, which hip-cpu does not implement");
    return {d0 | u64{d1 & 0xffff} << 32, (d1 >> 16) & 0x3fff, d2};
}

// MUBUF operands: vdata, vaddr, srsrc, soffset. For each active lane the byte offset (32-bit) and
// the address of the element; `in_range(l, k)` is dword k's range check.
struct buffer_access
{
    buffer_resource r;
    u64 base_plus_soffset;
    u32 offset[lanes];
    u32 index[lanes];

    buffer_access(wave& w, const inst& i)
    {
        r                 = resource(w, i, i.op[2]);
        const u32 soffset = sread(w, i, i.op[3]);
        base_plus_soffset = r.base + soffset;
        lane_u32 t0, t1;
        const u32* voff = nullptr;
        const u32* vidx = nullptr;
        if(i.idxen && i.offen)
        {
            vidx = vread(w, i, i.op[1], t0, 0);
            voff = vread(w, i, i.op[1], t1, 1);
        }
        else if(i.idxen)
            vidx = vread(w, i, i.op[1], t0, 0);
        else if(i.offen)
            voff = vread(w, i, i.op[1], t1, 0);
        for(int l = 0; l < lanes; ++l)
        {
            offset[l] = (voff ? voff[l] : 0u) + static_cast<u32>(i.offset);
            index[l]  = vidx ? vidx[l] : 0u;
        }
    }
    // byte k of the access of lane l in range? (per dword: the dword's bytes within num_records)
    bool in_range(int l, u32 byte, u32 bytes) const
    {
        if(r.stride == 0)
            return u64{offset[l]} + byte + bytes <= r.num_records;
        return index[l] < r.num_records && offset[l] + byte + bytes <= r.stride;
    }
    u64 address(int l) const { return base_plus_soffset + u64{index[l]} * r.stride + offset[l]; }

    // True when every active lane's access of `bytes` is in range and all of them lie in one
    // allocation: then each lane needs neither check (the common case of a tile access).
    bool all_in(const wave& w, const inst& i, u64 exec, u32 bytes) const
    {
        u64 lo = ~u64{0}, hi = 0;
        for(int l = 0; l < lanes; ++l)
        {
            if(!((exec >> l) & 1))
                continue;
            if(!in_range(l, 0, bytes))
                return false;
            const u64 a = address(l);
            lo          = a < lo ? a : lo;
            hi          = a > hi ? a : hi;
        }
        if(lo > hi)
            return true;
        const int first = std::countr_zero(exec);
        global_ptr(w, i, first, lo, hi - lo + bytes, false);
        return true;
    }
};

template <int Bytes, bool Signed = false, int Half = -1>
void buffer_load(wave& w, const inst& i)
{
    if(i.lds)
        fault(w, i, "buffer loads to LDS (lds) are not implemented by hip-cpu");
    buffer_access a(w, i);
    const u64 e          = w.exec();
    constexpr int dwords = Bytes < 4 ? 1 : Bytes / 4;
    constexpr u32 n      = Bytes < 4 ? Bytes : 4;
    if(a.all_in(w, i, e, Bytes))
    {
        for(int l = 0; l < lanes; ++l)
        {
            if(!((e >> l) & 1))
                continue;
            u32 v[dwords] = {};
            std::memcpy(v, reinterpret_cast<const void*>(a.address(l)), Bytes);
            if constexpr(Bytes == 1 && Signed)
                v[0] = static_cast<u32>(static_cast<std::int32_t>(static_cast<std::int8_t>(v[0])));
            if constexpr(Bytes == 2 && Signed)
                v[0] = static_cast<u32>(static_cast<std::int32_t>(static_cast<std::int16_t>(v[0])));
            for(int k = 0; k < dwords; ++k)
            {
                lane_u32& d = vdst(w, i.op[0], k);
                if constexpr(Half == 0)
                    d[l] = (d[l] & 0xffff0000u) | (v[k] & 0xffff);
                else if constexpr(Half == 1)
                    d[l] = (d[l] & 0xffffu) | (v[k] << 16);
                else
                    d[l] = v[k];
            }
        }
        issue(w, i, true, &i.op[0], dwords);
        return;
    }
    for(int l = 0; l < lanes; ++l)
    {
        if(!((e >> l) & 1))
            continue;
        u32 v[dwords] = {};
        if(a.in_range(l, 0, Bytes)) // the whole access in range: one check, one copy
            std::memcpy(v, global_ptr(w, i, l, a.address(l), Bytes, false), Bytes);
        else
            for(int k = 0; k < dwords; ++k) // per dword, as the hardware checks
                if(a.in_range(l, 4 * k, n))
                    std::memcpy(&v[k], global_ptr(w, i, l, a.address(l) + 4 * k, n, false), n);
        if constexpr(Bytes == 1 && Signed)
            v[0] = static_cast<u32>(static_cast<std::int32_t>(static_cast<std::int8_t>(v[0])));
        if constexpr(Bytes == 2 && Signed)
            v[0] = static_cast<u32>(static_cast<std::int32_t>(static_cast<std::int16_t>(v[0])));
        for(int k = 0; k < dwords; ++k)
        {
            lane_u32& d = vdst(w, i.op[0], k);
            if constexpr(Half == 0)
                d[l] = (d[l] & 0xffff0000u) | (v[k] & 0xffff);
            else if constexpr(Half == 1)
                d[l] = (d[l] & 0xffffu) | (v[k] << 16);
            else
                d[l] = v[k];
        }
    }
    issue(w, i, true, &i.op[0], dwords);
}

template <int Bytes, bool HighHalf = false>
void buffer_store(wave& w, const inst& i)
{
    buffer_access a(w, i);
    const u64 e          = w.exec();
    constexpr int dwords = Bytes < 4 ? 1 : Bytes / 4;
    constexpr u32 n      = Bytes < 4 ? Bytes : 4;
    lane_u32 tmp[dwords];
    const u32* data[dwords];
    for(int k = 0; k < dwords; ++k)
        data[k] = vread(w, i, i.op[0], tmp[k], k);
    const bool fast = a.all_in(w, i, e, Bytes);
    for(int l = 0; l < lanes; ++l)
    {
        if(!((e >> l) & 1))
            continue;
        u32 v[dwords];
        for(int k = 0; k < dwords; ++k)
            v[k] = HighHalf ? data[k][l] >> 16 : data[k][l];
        if(fast)
            std::memcpy(reinterpret_cast<void*>(a.address(l)), v, Bytes);
        else if(a.in_range(l, 0, Bytes))
            std::memcpy(global_ptr(w, i, l, a.address(l), Bytes, true), v, Bytes);
        else
            for(int k = 0; k < dwords; ++k)
                if(a.in_range(l, 4 * k, n))
                    std::memcpy(global_ptr(w, i, l, a.address(l) + 4 * k, n, true), &v[k], n);
    }
    issue(w, i, true, nullptr, 0);
}

// ---- atomics ------------------------------------------------------------------------------------
u32 f16x2_add(u32 a, u32 b)
{
    const u32 lo = f32_to_f16(f16_to_f32(static_cast<std::uint16_t>(a)) + f16_to_f32(static_cast<std::uint16_t>(b)));
    const u32 hi =
        f32_to_f16(f16_to_f32(static_cast<std::uint16_t>(a >> 16)) + f16_to_f32(static_cast<std::uint16_t>(b >> 16)));
    return lo | hi << 16;
}
float bf16_to_f32(u32 x) { return as_f32(x << 16); }
u32 f32_to_bf16(float f)
{
    const u32 x = f32_bits(f);
    if((x & 0x7fffffffu) > 0x7f800000u)
        return (x >> 16) | 0x40;
    return (x + 0x7fff + ((x >> 16) & 1)) >> 16;
}
u32 bf16x2_add(u32 a, u32 b)
{
    const u32 lo = f32_to_bf16(bf16_to_f32(a & 0xffff) + bf16_to_f32(b & 0xffff));
    const u32 hi = f32_to_bf16(bf16_to_f32(a >> 16) + bf16_to_f32(b >> 16));
    return lo | hi << 16;
}

// An atomic read-modify-write of one dword at p: returns the old value.
template <typename F>
u32 atomic_rmw(std::uint8_t* p, F f)
{
    std::atomic_ref<u32> ref(*reinterpret_cast<u32*>(p));
    u32 old = ref.load(std::memory_order_relaxed);
    while(!ref.compare_exchange_weak(old, f(old), std::memory_order_relaxed))
    {
    }
    return old;
}

using rmw_fn = u32 (*)(u32 old, u32 data);

template <rmw_fn F>
void buffer_atomic(wave& w, const inst& i)
{
    buffer_access a(w, i);
    const u64 e = w.exec();
    lane_u32 tmp;
    const u32* data = vread(w, i, i.op[0], tmp);
    lane_u32 old    = {};
    for(int l = 0; l < lanes; ++l)
    {
        if(!((e >> l) & 1) || !a.in_range(l, 0, 4))
            continue;
        const u32 d = data[l];
        old[l]      = atomic_rmw(global_ptr(w, i, l, a.address(l), 4, true), [d](u32 o) { return F(o, d); });
    }
    if(i.glc) // returns the value before the operation
    {
        vwrite(w, i.op[0], old);
        issue(w, i, true, &i.op[0], 1);
    }
    else
        issue(w, i, true, nullptr, 0);
}

// ---- global ---------------------------------------------------------------------------------------
// global_* vdst, vaddr, saddr|off: with saddr, the address is saddr + vaddr (32-bit unsigned); with
// off, vaddr is a 64-bit address. Operands: loads vdst, vaddr, saddr; stores vaddr, vdata, saddr;
// atomics [vdst,] vaddr, vdata, saddr.
struct global_addresses
{
    u64 a[lanes];
    global_addresses(wave& w, const inst& i, int addr_op, int saddr_op)
    {
        const operand& v = i.op[addr_op];
        const operand& s = i.op[saddr_op];
        lane_u32 t0, t1;
        if(s.kind == operand::off || s.kind == operand::none)
        {
            const u32* lo = vread(w, i, v, t0, 0);
            const u32* hi = vread(w, i, v, t1, 1);
            for(int l = 0; l < lanes; ++l)
                a[l] = (lo[l] | u64{hi[l]} << 32) + static_cast<std::int64_t>(i.offset);
        }
        else
        {
            const u64 base = sread64(w, i, s);
            const u32* off = vread(w, i, v, t0, 0);
            for(int l = 0; l < lanes; ++l)
                a[l] = base + off[l] + static_cast<std::int64_t>(i.offset);
        }
    }
};

template <int Bytes, bool Signed = false, int Half = -1>
void global_load(wave& w, const inst& i)
{
    global_addresses ga(w, i, 1, 2);
    const u64 e          = w.exec();
    constexpr int dwords = Bytes < 4 ? 1 : Bytes / 4;
    for(int l = 0; l < lanes; ++l)
    {
        if(!((e >> l) & 1))
            continue;
        u32 v[4] = {0, 0, 0, 0};
        std::memcpy(v, global_ptr(w, i, l, ga.a[l], Bytes, false), Bytes);
        if constexpr(Bytes == 1 && Signed)
            v[0] = static_cast<u32>(static_cast<std::int32_t>(static_cast<std::int8_t>(v[0])));
        if constexpr(Bytes == 2 && Signed)
            v[0] = static_cast<u32>(static_cast<std::int32_t>(static_cast<std::int16_t>(v[0])));
        for(int k = 0; k < dwords; ++k)
        {
            lane_u32& d = vdst(w, i.op[0], k);
            if constexpr(Half == 0)
                d[l] = (d[l] & 0xffff0000u) | (v[k] & 0xffff);
            else if constexpr(Half == 1)
                d[l] = (d[l] & 0xffffu) | (v[k] << 16);
            else
                d[l] = v[k];
        }
    }
    issue(w, i, true, &i.op[0], dwords);
}

template <int Bytes, bool HighHalf = false>
void global_store(wave& w, const inst& i)
{
    // global_store vaddr, vdata, saddr|off
    global_addresses ga(w, i, 0, 2);
    const u64 e          = w.exec();
    constexpr int dwords = Bytes < 4 ? 1 : Bytes / 4;
    lane_u32 tmp[4];
    const u32* data[4];
    for(int k = 0; k < dwords; ++k)
        data[k] = vread(w, i, i.op[1], tmp[k], k);
    for(int l = 0; l < lanes; ++l)
    {
        if(!((e >> l) & 1))
            continue;
        u32 v[4];
        for(int k = 0; k < dwords; ++k)
            v[k] = HighHalf ? data[k][l] >> 16 : data[k][l];
        std::memcpy(global_ptr(w, i, l, ga.a[l], Bytes, true), v, Bytes);
    }
    issue(w, i, true, nullptr, 0);
}

// global_atomic_* [vdst,] vaddr, vdata, saddr|off (vdst when glc/sc0)
template <rmw_fn F>
void global_atomic(wave& w, const inst& i)
{
    const int first = i.glc ? 1 : 0;
    global_addresses ga(w, i, first, first + 2);
    const u64 e = w.exec();
    lane_u32 tmp;
    const u32* data = vread(w, i, i.op[first + 1], tmp);
    lane_u32 old    = {};
    for(int l = 0; l < lanes; ++l)
    {
        if(!((e >> l) & 1))
            continue;
        const u32 d = data[l];
        old[l]      = atomic_rmw(global_ptr(w, i, l, ga.a[l], 4, true), [d](u32 o) { return F(o, d); });
    }
    if(i.glc)
    {
        vwrite(w, i.op[0], old);
        issue(w, i, true, &i.op[0], 1);
    }
    else
        issue(w, i, true, nullptr, 0);
}

// ---- LDS ------------------------------------------------------------------------------------------
inline std::uint8_t* lds_ptr(const wave& w, const inst& i, int lane, u32 address, u32 bytes, bool store)
{
    if(u64{address} + bytes > w.wg->lds_bytes)
    {
        std::ostringstream s;
        s << (store ? "writes " : "reads ") << bytes << " bytes of LDS at " << address << ", past the workgroup's "
          << w.wg->lds_bytes << " bytes (lane " << lane << ")";
        fault(w, i, s.str());
    }
    return w.wg->lds + address;
}

template <int Bytes, bool Signed = false, int Half = -1>
void ds_read(wave& w, const inst& i)
{
    lane_u32 ta, addr; // a copy: the destination may be the address register
    std::memcpy(addr, vread(w, i, i.op[1], ta), sizeof(addr));
    const u64 e          = w.exec();
    constexpr int dwords = Bytes < 4 ? 1 : Bytes / 4;
    for(int l = 0; l < lanes; ++l)
    {
        if(!((e >> l) & 1))
            continue;
        u32 v[4] = {0, 0, 0, 0};
        std::memcpy(v, lds_ptr(w, i, l, addr[l] + static_cast<u32>(i.offset), Bytes, false), Bytes);
        if constexpr(Bytes == 1 && Signed)
            v[0] = static_cast<u32>(static_cast<std::int32_t>(static_cast<std::int8_t>(v[0])));
        if constexpr(Bytes == 2 && Signed)
            v[0] = static_cast<u32>(static_cast<std::int32_t>(static_cast<std::int16_t>(v[0])));
        for(int k = 0; k < dwords; ++k)
        {
            lane_u32& d = vdst(w, i.op[0], k);
            if constexpr(Half == 0)
                d[l] = (d[l] & 0xffff0000u) | (v[k] & 0xffff);
            else if constexpr(Half == 1)
                d[l] = (d[l] & 0xffffu) | (v[k] << 16);
            else
                d[l] = v[k];
        }
    }
    issue(w, i, false, &i.op[0], dwords);
}

template <int Bytes, bool HighHalf = false>
void ds_write(wave& w, const inst& i)
{
    lane_u32 ta;
    const u32* addr      = vread(w, i, i.op[0], ta);
    const u64 e          = w.exec();
    constexpr int dwords = Bytes < 4 ? 1 : Bytes / 4;
    lane_u32 tmp[4];
    const u32* data[4];
    for(int k = 0; k < dwords; ++k)
        data[k] = vread(w, i, i.op[1], tmp[k], k);
    for(int l = 0; l < lanes; ++l)
    {
        if(!((e >> l) & 1))
            continue;
        u32 v[4];
        for(int k = 0; k < dwords; ++k)
            v[k] = HighHalf ? data[k][l] >> 16 : data[k][l];
        std::memcpy(lds_ptr(w, i, l, addr[l] + static_cast<u32>(i.offset), Bytes, true), v, Bytes);
    }
    issue(w, i, false, nullptr, 0);
}

// read2/write2: two elements of Bytes (4 or 8) at offset0 and offset1 (times 64 for st64)
template <int Bytes, int Stride>
void ds_read2(wave& w, const inst& i)
{
    lane_u32 ta, addr; // a copy: the destination may be the address register
    std::memcpy(addr, vread(w, i, i.op[1], ta), sizeof(addr));
    const u64 e      = w.exec();
    constexpr int dw = Bytes / 4;
    for(int l = 0; l < lanes; ++l)
    {
        if(!((e >> l) & 1))
            continue;
        for(int h = 0; h < 2; ++h)
        {
            const u32 off = static_cast<u32>(h == 0 ? i.offset0 : i.offset1) * Bytes * Stride;
            u32 v[2];
            std::memcpy(v, lds_ptr(w, i, l, addr[l] + off, Bytes, false), Bytes);
            for(int k = 0; k < dw; ++k)
                vdst(w, i.op[0], h * dw + k)[l] = v[k];
        }
    }
    issue(w, i, false, &i.op[0], 2 * dw);
}

template <int Bytes, int Stride>
void ds_write2(wave& w, const inst& i)
{
    lane_u32 ta, t[4];
    const u32* addr  = vread(w, i, i.op[0], ta);
    constexpr int dw = Bytes / 4;
    const u32* d0[2];
    const u32* d1[2];
    for(int k = 0; k < dw; ++k)
    {
        d0[k] = vread(w, i, i.op[1], t[k], k);
        d1[k] = vread(w, i, i.op[2], t[2 + k], k);
    }
    const u64 e = w.exec();
    for(int l = 0; l < lanes; ++l)
    {
        if(!((e >> l) & 1))
            continue;
        for(int h = 0; h < 2; ++h)
        {
            const u32 off = static_cast<u32>(h == 0 ? i.offset0 : i.offset1) * Bytes * Stride;
            u32 v[2];
            for(int k = 0; k < dw; ++k)
                v[k] = (h == 0 ? d0 : d1)[k][l];
            std::memcpy(lds_ptr(w, i, l, addr[l] + off, Bytes, true), v, Bytes);
        }
    }
    issue(w, i, false, nullptr, 0);
}

template <rmw_fn F>
void ds_atomic(wave& w, const inst& i, bool returns)
{
    // ds_add_u32 vaddr, vdata / ds_add_rtn_u32 vdst, vaddr, vdata
    const int first = returns ? 1 : 0;
    lane_u32 ta, td;
    const u32* addr = vread(w, i, i.op[first], ta);
    const u32* data = vread(w, i, i.op[first + 1], td);
    const u64 e     = w.exec();
    lane_u32 old    = {};
    for(int l = 0; l < lanes; ++l)
    {
        if(!((e >> l) & 1))
            continue;
        std::uint8_t* p = lds_ptr(w, i, l, addr[l] + static_cast<u32>(i.offset), 4, true);
        u32 o;
        std::memcpy(&o, p, 4);
        const u32 n = F(o, data[l]);
        std::memcpy(p, &n, 4);
        old[l] = o;
    }
    if(returns)
    {
        vwrite(w, i.op[0], old);
        issue(w, i, false, &i.op[0], 1);
    }
    else
        issue(w, i, false, nullptr, 0);
}

u32 add_u32(u32 o, u32 d) { return o + d; }
u32 sub_u32(u32 o, u32 d) { return o - d; }
u32 add_f32(u32 o, u32 d) { return f32_bits(as_f32(o) + as_f32(d)); }
u32 pk_add_f16(u32 o, u32 d) { return f16x2_add(o, d); }
u32 pk_add_bf16(u32 o, u32 d) { return bf16x2_add(o, d); }
u32 max_i32(u32 o, u32 d) { return static_cast<std::int32_t>(o) > static_cast<std::int32_t>(d) ? o : d; }
u32 min_i32(u32 o, u32 d) { return static_cast<std::int32_t>(o) < static_cast<std::int32_t>(d) ? o : d; }
u32 max_u32(u32 o, u32 d) { return o > d ? o : d; }
u32 min_u32(u32 o, u32 d) { return o < d ? o : d; }
u32 or_b32(u32 o, u32 d) { return o | d; }
u32 and_b32(u32 o, u32 d) { return o & d; }
u32 xor_b32(u32 o, u32 d) { return o ^ d; }
u32 swap_b32(u32, u32 d) { return d; }

// ---- scalar memory ---------------------------------------------------------------------------------
template <int Dwords>
void s_load(wave& w, const inst& i)
{
    const u64 base        = sread64(w, i, i.op[1]);
    const u64 off         = i.op[2].kind == operand::constant ? i.op[2].bits[0] : sread(w, i, i.op[2]);
    const u64 addr        = (base + off + static_cast<std::int64_t>(i.offset)) & ~u64{3};
    const std::uint8_t* p = global_ptr(w, i, 0, addr, 4 * Dwords, false);
    std::memcpy(&w.s[i.op[0].reg], p, 4 * Dwords);
    issue(w, i, false, &i.op[0], Dwords, true);
}

template <int Dwords>
void s_buffer_load(wave& w, const inst& i)
{
    const buffer_resource r = resource(w, i, i.op[1]);
    const u32 off           = (i.op[2].kind == operand::constant ? i.op[2].bits[0] : sread(w, i, i.op[2])) & ~3u;
    for(int k = 0; k < Dwords; ++k)
    {
        u32 v = 0;
        if(u64{off} + 4 * k + 4 <= r.num_records)
            std::memcpy(&v, global_ptr(w, i, 0, r.base + off + 4 * k, 4, false), 4);
        w.s[i.op[0].reg + k] = v;
    }
    issue(w, i, false, &i.op[0], Dwords, true);
}

} // namespace

void add_memory_instructions(handler_table& t)
{
    t["s_waitcnt"]             = {[](wave& w, const inst& i) {
        if(i.vmcnt >= 0)
            retire(w, w.vm_ops, true, i.vmcnt);
        if(i.lgkmcnt >= 0)
            retire(w, w.lgkm_ops, false, i.lgkmcnt);
    }};
    t["s_load_dword"]          = {s_load<1>};
    t["s_load_dwordx2"]        = {s_load<2>};
    t["s_load_dwordx4"]        = {s_load<4>};
    t["s_load_dwordx8"]        = {s_load<8>};
    t["s_load_dwordx16"]       = {s_load<16>};
    t["s_buffer_load_dword"]   = {s_buffer_load<1>};
    t["s_buffer_load_dwordx2"] = {s_buffer_load<2>};
    t["s_buffer_load_dwordx4"] = {s_buffer_load<4>};
    t["s_buffer_load_dwordx8"] = {s_buffer_load<8>};
    t["s_dcache_wb"]           = {[](wave&, const inst&) {}};
    t["s_dcache_inv"]          = {[](wave&, const inst&) {}};
    t["buffer_wbl2"]           = {[](wave&, const inst&) {}};
    t["buffer_inv"]            = {[](wave&, const inst&) {}};

    t["buffer_load_ubyte"]         = {buffer_load<1>};
    t["buffer_load_sbyte"]         = {buffer_load<1, true>};
    t["buffer_load_ushort"]        = {buffer_load<2>};
    t["buffer_load_sshort"]        = {buffer_load<2, true>};
    t["buffer_load_dword"]         = {buffer_load<4>};
    t["buffer_load_dwordx2"]       = {buffer_load<8>};
    t["buffer_load_dwordx3"]       = {buffer_load<12>};
    t["buffer_load_dwordx4"]       = {buffer_load<16>};
    t["buffer_load_short_d16"]     = {buffer_load<2, false, 0>};
    t["buffer_load_short_d16_hi"]  = {buffer_load<2, false, 1>};
    t["buffer_load_ubyte_d16"]     = {buffer_load<1, false, 0>};
    t["buffer_load_ubyte_d16_hi"]  = {buffer_load<1, false, 1>};
    t["buffer_store_byte"]         = {buffer_store<1>};
    t["buffer_store_byte_d16_hi"]  = {buffer_store<1, true>};
    t["buffer_store_short"]        = {buffer_store<2>};
    t["buffer_store_short_d16_hi"] = {buffer_store<2, true>};
    t["buffer_store_dword"]        = {buffer_store<4>};
    t["buffer_store_dwordx2"]      = {buffer_store<8>};
    t["buffer_store_dwordx3"]      = {buffer_store<12>};
    t["buffer_store_dwordx4"]      = {buffer_store<16>};
    t["buffer_atomic_add"]         = {buffer_atomic<add_u32>};
    t["buffer_atomic_sub"]         = {buffer_atomic<sub_u32>};
    t["buffer_atomic_add_f32"]     = {buffer_atomic<add_f32>};
    t["buffer_atomic_pk_add_f16"]  = {buffer_atomic<pk_add_f16>};
    t["buffer_atomic_pk_add_bf16"] = {buffer_atomic<pk_add_bf16>};
    t["buffer_atomic_smax"]        = {buffer_atomic<max_i32>};
    t["buffer_atomic_umax"]        = {buffer_atomic<max_u32>};

    t["global_load_ubyte"]         = {global_load<1>};
    t["global_load_sbyte"]         = {global_load<1, true>};
    t["global_load_ushort"]        = {global_load<2>};
    t["global_load_sshort"]        = {global_load<2, true>};
    t["global_load_dword"]         = {global_load<4>};
    t["global_load_dwordx2"]       = {global_load<8>};
    t["global_load_dwordx3"]       = {global_load<12>};
    t["global_load_dwordx4"]       = {global_load<16>};
    t["global_load_short_d16"]     = {global_load<2, false, 0>};
    t["global_load_short_d16_hi"]  = {global_load<2, false, 1>};
    t["global_store_byte"]         = {global_store<1>};
    t["global_store_byte_d16_hi"]  = {global_store<1, true>};
    t["global_store_short"]        = {global_store<2>};
    t["global_store_short_d16_hi"] = {global_store<2, true>};
    t["global_store_dword"]        = {global_store<4>};
    t["global_store_dwordx2"]      = {global_store<8>};
    t["global_store_dwordx3"]      = {global_store<12>};
    t["global_store_dwordx4"]      = {global_store<16>};
    t["global_atomic_add"]         = {global_atomic<add_u32>};
    t["global_atomic_sub"]         = {global_atomic<sub_u32>};
    t["global_atomic_add_f32"]     = {global_atomic<add_f32>};
    t["global_atomic_pk_add_f16"]  = {global_atomic<pk_add_f16>};
    t["global_atomic_pk_add_bf16"] = {global_atomic<pk_add_bf16>};
    t["global_atomic_smax"]        = {global_atomic<max_i32>};
    t["global_atomic_umax"]        = {global_atomic<max_u32>};
    t["global_atomic_smin"]        = {global_atomic<min_i32>};
    t["global_atomic_umin"]        = {global_atomic<min_u32>};
    t["global_atomic_or"]          = {global_atomic<or_b32>};
    t["global_atomic_and"]         = {global_atomic<and_b32>};
    t["global_atomic_xor"]         = {global_atomic<xor_b32>};
    t["global_atomic_swap"]        = {global_atomic<swap_b32>};

    t["ds_read_u8"]          = {ds_read<1>};
    t["ds_read_i8"]          = {ds_read<1, true>};
    t["ds_read_u16"]         = {ds_read<2>};
    t["ds_read_i16"]         = {ds_read<2, true>};
    t["ds_read_b32"]         = {ds_read<4>};
    t["ds_read_b64"]         = {ds_read<8>};
    t["ds_read_b96"]         = {ds_read<12>};
    t["ds_read_b128"]        = {ds_read<16>};
    t["ds_read_u8_d16"]      = {ds_read<1, false, 0>};
    t["ds_read_u8_d16_hi"]   = {ds_read<1, false, 1>};
    t["ds_read_u16_d16"]     = {ds_read<2, false, 0>};
    t["ds_read_u16_d16_hi"]  = {ds_read<2, false, 1>};
    t["ds_write_b8"]         = {ds_write<1>};
    t["ds_write_b8_d16_hi"]  = {ds_write<1, true>};
    t["ds_write_b16"]        = {ds_write<2>};
    t["ds_write_b16_d16_hi"] = {ds_write<2, true>};
    t["ds_write_b32"]        = {ds_write<4>};
    t["ds_write_b64"]        = {ds_write<8>};
    t["ds_write_b96"]        = {ds_write<12>};
    t["ds_write_b128"]       = {ds_write<16>};
    t["ds_read2_b32"]        = {ds_read2<4, 1>};
    t["ds_read2_b64"]        = {ds_read2<8, 1>};
    t["ds_read2st64_b32"]    = {ds_read2<4, 64>};
    t["ds_read2st64_b64"]    = {ds_read2<8, 64>};
    t["ds_write2_b32"]       = {ds_write2<4, 1>};
    t["ds_write2_b64"]       = {ds_write2<8, 1>};
    t["ds_write2st64_b32"]   = {ds_write2<4, 64>};
    t["ds_write2st64_b64"]   = {ds_write2<8, 64>};
    t["ds_add_u32"]          = {[](wave& w, const inst& i) { ds_atomic<add_u32>(w, i, false); }};
    t["ds_add_rtn_u32"]      = {[](wave& w, const inst& i) { ds_atomic<add_u32>(w, i, true); }};
    t["ds_add_f32"]          = {[](wave& w, const inst& i) { ds_atomic<add_f32>(w, i, false); }};
    t["ds_add_rtn_f32"]      = {[](wave& w, const inst& i) { ds_atomic<add_f32>(w, i, true); }};
    t["ds_max_i32"]          = {[](wave& w, const inst& i) { ds_atomic<max_i32>(w, i, false); }};
    t["ds_max_u32"]          = {[](wave& w, const inst& i) { ds_atomic<max_u32>(w, i, false); }};
    // ds_bpermute_b32 vdst, vaddr, vdata: lane l reads lane (vaddr[l] + offset) / 4 of vdata; an
    // inactive source lane gives 0. ds_permute_b32 writes instead of reads.
    t["ds_bpermute_b32"] = {[](wave& w, const inst& i) {
        lane_u32 ta, td, r;
        const u32* addr = vread(w, i, i.op[1], ta);
        const u32* data = vread(w, i, i.op[2], td);
        const u64 e     = w.exec();
        for(int l = 0; l < lanes; ++l)
        {
            const int src = static_cast<int>(((addr[l] + static_cast<u32>(i.offset)) >> 2) & 63);
            r[l]          = ((e >> src) & 1) ? data[src] : 0;
        }
        vwrite(w, i.op[0], r);
        issue(w, i, false, &i.op[0], 1);
    }};
    t["ds_permute_b32"]  = {[](wave& w, const inst& i) {
        lane_u32 ta, td, r = {};
        const u32* addr = vread(w, i, i.op[1], ta);
        const u32* data = vread(w, i, i.op[2], td);
        const u64 e     = w.exec();
        for(int l = 0; l < lanes; ++l)
            if((e >> l) & 1)
                r[((addr[l] + static_cast<u32>(i.offset)) >> 2) & 63] = data[l];
        vwrite(w, i.op[0], r);
        issue(w, i, false, &i.op[0], 1);
    }};
}

} // namespace hip_cpu
