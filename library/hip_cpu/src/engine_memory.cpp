// SPDX-License-Identifier: MIT
// Memory instructions: scalar loads (SMEM), buffer (MUBUF), global, their atomics, and s_waitcnt
// (its bookkeeping: waitcnt.cpp). LDS instructions are in engine_lds.cpp.
//
// Buffer accesses follow the hardware's buffer-resource rules: the offset (VGPR offset + the
// instruction's) is 32-bit, and each dword of an access is range-checked against num_records on
// its own (an out-of-range dword reads 0, a store to it is dropped). Every access that reaches
// memory must lie inside an allocation, and every LDS access inside the workgroup's LDS; anything
// else stops the launch (hardware would read or write whatever is there).
#include "memory_ops.hpp"
#include "engine.hpp"
#include "memory.hpp"
#include "profile.hpp"
#include "racecheck.hpp"
#include "waitcnt.hpp"

#include <atomic>
#include <bit>
#include <sstream>

namespace hip_cpu {
namespace {

using u32 = std::uint32_t;
using u64 = std::uint64_t;
using namespace memory_ops;

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

// A load's or store's bytes of one lane: global_ptr, noted by race detection and the profile when
// they are on (which take the per-lane paths below, not the fast ones)
inline std::uint8_t* lane_ptr(const wave& w, const inst& i, int lane, u64 address, u32 bytes, bool store)
{
    std::uint8_t* p = global_ptr(w, i, lane, address, bytes, store);
    if(w.wg->race != nullptr) [[unlikely]]
        race_global(w, i, lane, address, bytes, store);
    if(w.wg->prof != nullptr) [[unlikely]]
        profile_access(w, lane, address, bytes);
    return p;
}

// The fast paths of loads and stores whose active lanes are all in range and inside one
// allocation: one loop over the lanes per dword (addr: each lane's address), which the host
// compiler keeps simple, instead of a lane at a time through every dword.
// Whether the active lanes' accesses of `bytes` at addr all lie in one allocation (the common case,
// checked once); false sends the caller to the lane-by-lane path, which names the lane at fault.
inline bool one_allocation(const u64* addr, u64 exec, u64 bytes)
{
    u64 lo = ~u64{0}, hi = 0;
    for(int l = 0; l < lanes; ++l)
        if((exec >> l) & 1)
        {
            lo = addr[l] < lo ? addr[l] : lo;
            hi = addr[l] > hi ? addr[l] : hi;
        }
    if(lo > hi)
        return true;
    if(lo >= last_hit.base && hi + bytes <= last_hit.base + last_hit.bytes &&
       last_hit_generation == allocation_generation())
        return true;
    const std::uint64_t generation = allocation_generation();
    allocation a;
    if(!find_allocation(lo, hi + bytes - lo, a))
        return false;
    last_hit            = a;
    last_hit_generation = generation;
    return true;
}

template <int Bytes, bool Signed, int Half>
inline void load_lanes(wave& w, const inst& i, const u64* addr, u64 exec)
{
    for(int l = 0; l < lanes; ++l)
    {
        if(!((exec >> l) & 1))
            continue;
        u32 v[Bytes < 4 ? 1 : Bytes / 4] = {};
        std::memcpy(v, reinterpret_cast<const void*>(addr[l]), Bytes); // each lane's bytes once
        deliver<Bytes, Signed, Half>(w, i, l, v);
    }
}
template <int Bytes, bool HighHalf>
inline void store_lanes(const u32* const* data, const u64* addr, u64 exec)
{
    for(int l = 0; l < lanes; ++l)
    {
        if(!((exec >> l) & 1))
            continue;
        u32 v[Bytes < 4 ? 1 : Bytes / 4];
        stored<Bytes, HighHalf>(data, l, v);
        std::memcpy(reinterpret_cast<void*>(addr[l]), v, Bytes);
    }
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
    bool all_in(const wave& w, const inst& i, u64 exec, u32 bytes, u64* addr) const
    {
        if(exec == 0)
            return true;
        u64 lo = ~u64{0}, hi = 0;
        if(exec == ~u64{0} && r.stride == 0)
        {
            // every lane of a raw buffer: the address grows with the offset, so the largest offset
            // decides the range check and the two extremes the allocation (loops that vectorise)
            u32 min_off = ~0u, max_off = 0;
            for(int l = 0; l < lanes; ++l)
            {
                min_off = offset[l] < min_off ? offset[l] : min_off;
                max_off = offset[l] > max_off ? offset[l] : max_off;
            }
            if(u64{max_off} + bytes > r.num_records)
                return false;
            for(int l = 0; l < lanes; ++l)
                addr[l] = base_plus_soffset + offset[l];
            lo = base_plus_soffset + min_off;
            hi = base_plus_soffset + max_off;
        }
        else
            for(int l = 0; l < lanes; ++l)
            {
                if(!((exec >> l) & 1))
                    continue;
                if(!in_range(l, 0, bytes))
                    return false;
                const u64 a = address(l);
                addr[l]     = a;
                lo          = a < lo ? a : lo;
                hi          = a > hi ? a : hi;
            }
        global_ptr(w, i, std::countr_zero(exec), lo, hi - lo + bytes, false);
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
    u64 addr[lanes];
    if(!w.wg->per_lane() && a.all_in(w, i, e, Bytes, addr))
    {
        load_lanes<Bytes, Signed, Half>(w, i, addr, e);
        issue(w, i, true, &i.op[0], dwords);
        return;
    }
    for(int l = 0; l < lanes; ++l)
    {
        if(!((e >> l) & 1))
            continue;
        u32 v[dwords] = {};
        if(a.in_range(l, 0, Bytes)) // the whole access in range: one check, one copy
            std::memcpy(v, lane_ptr(w, i, l, a.address(l), Bytes, false), Bytes);
        else
            for(int k = 0; k < dwords; ++k) // per dword, as the hardware checks
                if(a.in_range(l, 4 * k, n))
                    std::memcpy(&v[k], lane_ptr(w, i, l, a.address(l) + 4 * k, n, false), n);
        deliver<Bytes, Signed, Half>(w, i, l, v);
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
    u64 addr[lanes];
    if(!w.wg->per_lane() && a.all_in(w, i, e, Bytes, addr))
    {
        store_lanes<Bytes, HighHalf>(data, addr, e);
        issue(w, i, true, nullptr, 0);
        return;
    }
    for(int l = 0; l < lanes; ++l)
    {
        if(!((e >> l) & 1))
            continue;
        u32 v[dwords];
        stored<Bytes, HighHalf>(data, l, v);
        if(a.in_range(l, 0, Bytes))
            std::memcpy(lane_ptr(w, i, l, a.address(l), Bytes, true), v, Bytes);
        else
            for(int k = 0; k < dwords; ++k)
                if(a.in_range(l, 4 * k, n))
                    std::memcpy(lane_ptr(w, i, l, a.address(l) + 4 * k, n, true), &v[k], n);
    }
    issue(w, i, true, nullptr, 0);
}

// ---- atomics ------------------------------------------------------------------------------------
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
    if(!w.wg->per_lane() && one_allocation(ga.a, e, Bytes))
    {
        load_lanes<Bytes, Signed, Half>(w, i, ga.a, e);
        issue(w, i, true, &i.op[0], dwords);
        return;
    }
    for(int l = 0; l < lanes; ++l)
    {
        if(!((e >> l) & 1))
            continue;
        u32 v[4] = {0, 0, 0, 0};
        std::memcpy(v, lane_ptr(w, i, l, ga.a[l], Bytes, false), Bytes);
        deliver<Bytes, Signed, Half>(w, i, l, v);
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
    if(!w.wg->per_lane() && one_allocation(ga.a, e, Bytes))
    {
        store_lanes<Bytes, HighHalf>(data, ga.a, e);
        issue(w, i, true, nullptr, 0);
        return;
    }
    for(int l = 0; l < lanes; ++l)
    {
        if(!((e >> l) & 1))
            continue;
        u32 v[4];
        stored<Bytes, HighHalf>(data, l, v);
        std::memcpy(lane_ptr(w, i, l, ga.a[l], Bytes, true), v, Bytes);
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

// global_atomic_*_x2: the 64-bit forms ([vdst[2],] vaddr, vdata[2], saddr|off)
template <u64 (*F)(u64, u64)>
void global_atomic_x2(wave& w, const inst& i)
{
    const int first = i.glc ? 1 : 0;
    global_addresses ga(w, i, first, first + 2);
    const u64 e = w.exec();
    lane_u32 t0, t1, old_lo = {}, old_hi = {};
    const u32* lo = vread(w, i, i.op[first + 1], t0, 0);
    const u32* hi = vread(w, i, i.op[first + 1], t1, 1);
    for(int l = 0; l < lanes; ++l)
    {
        if(!((e >> l) & 1))
            continue;
        const u64 d = lo[l] | u64{hi[l]} << 32;
        std::atomic_ref<u64> ref(*reinterpret_cast<u64*>(global_ptr(w, i, l, ga.a[l], 8, true)));
        u64 old = ref.load(std::memory_order_relaxed);
        while(!ref.compare_exchange_weak(old, F(old, d), std::memory_order_relaxed))
        {
        }
        old_lo[l] = static_cast<u32>(old);
        old_hi[l] = static_cast<u32>(old >> 32);
    }
    if(i.glc)
    {
        vwrite(w, i.op[0], old_lo, 0);
        vwrite(w, i.op[0], old_hi, 1);
        issue(w, i, true, &i.op[0], 2);
    }
    else
        issue(w, i, true, nullptr, 0);
}
u64 add_u64(u64 o, u64 d) { return o + d; }
u64 max_u64(u64 o, u64 d) { return o > d ? o : d; }
u64 swap_u64(u64, u64 d) { return d; }

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

    // the loads, stores and atomics buffer_* and global_* both have
#define CK_HIP_CPU_MEMORY_FAMILY(P)                                                                                    \
    t[#P "_load_ubyte"]         = {P##_load<1>};                                                                       \
    t[#P "_load_sbyte"]         = {P##_load<1, true>};                                                                 \
    t[#P "_load_ushort"]        = {P##_load<2>};                                                                       \
    t[#P "_load_sshort"]        = {P##_load<2, true>};                                                                 \
    t[#P "_load_dword"]         = {P##_load<4>};                                                                       \
    t[#P "_load_dwordx2"]       = {P##_load<8>};                                                                       \
    t[#P "_load_dwordx3"]       = {P##_load<12>};                                                                      \
    t[#P "_load_dwordx4"]       = {P##_load<16>};                                                                      \
    t[#P "_load_short_d16"]     = {P##_load<2, false, 0>};                                                             \
    t[#P "_load_short_d16_hi"]  = {P##_load<2, false, 1>};                                                             \
    t[#P "_load_ubyte_d16"]     = {P##_load<1, false, 0>};                                                             \
    t[#P "_load_ubyte_d16_hi"]  = {P##_load<1, false, 1>};                                                             \
    t[#P "_store_byte"]         = {P##_store<1>};                                                                      \
    t[#P "_store_byte_d16_hi"]  = {P##_store<1, true>};                                                                \
    t[#P "_store_short"]        = {P##_store<2>};                                                                      \
    t[#P "_store_short_d16_hi"] = {P##_store<2, true>};                                                                \
    t[#P "_store_dword"]        = {P##_store<4>};                                                                      \
    t[#P "_store_dwordx2"]      = {P##_store<8>};                                                                      \
    t[#P "_store_dwordx3"]      = {P##_store<12>};                                                                     \
    t[#P "_store_dwordx4"]      = {P##_store<16>};                                                                     \
    t[#P "_atomic_add"]         = {P##_atomic<add_u32>};                                                               \
    t[#P "_atomic_sub"]         = {P##_atomic<sub_u32>};                                                               \
    t[#P "_atomic_add_f32"]     = {P##_atomic<add_f32>};                                                               \
    t[#P "_atomic_pk_add_f16"]  = {P##_atomic<pk_add_f16>};                                                            \
    t[#P "_atomic_pk_add_bf16"] = {P##_atomic<pk_add_bf16>};                                                           \
    t[#P "_atomic_smax"]        = {P##_atomic<max_i32>};                                                               \
    t[#P "_atomic_umax"]        = {P##_atomic<max_u32>}
    CK_HIP_CPU_MEMORY_FAMILY(buffer);
    CK_HIP_CPU_MEMORY_FAMILY(global);
#undef CK_HIP_CPU_MEMORY_FAMILY

    t["global_atomic_add_x2"]  = {global_atomic_x2<add_u64>};
    t["global_atomic_umax_x2"] = {global_atomic_x2<max_u64>};
    t["global_atomic_swap_x2"] = {global_atomic_x2<swap_u64>};
    t["global_atomic_smin"]    = {global_atomic<min_i32>};
    t["global_atomic_umin"]    = {global_atomic<min_u32>};
    t["global_atomic_or"]      = {global_atomic<or_b32>};
    t["global_atomic_and"]     = {global_atomic<and_b32>};
    t["global_atomic_xor"]     = {global_atomic<xor_b32>};
    t["global_atomic_swap"]    = {global_atomic<swap_b32>};
}

} // namespace hip_cpu
