// SPDX-License-Identifier: MIT
// LDS instructions (DS): reads and writes of 1 to 16 bytes, read2/write2 (and their st64 forms),
// gfx950's transpose reads, LDS atomics, and the cross-lane ds_bpermute/ds_permute. Every access
// must lie inside the workgroup's LDS (static + dynamic bytes); one past it stops the launch with
// kernel, PC and lane.
// gfx950's LDS transpose reads use the source emulator's model of them (one model for both)
#define CK_TILE_BACKEND_EMULATOR 1
#define CK_TILE_EMULATE_GFX950 1
#include "ck_tile/core/arch/emulator/wave.hpp"

#include "memory_ops.hpp"
#include "engine.hpp"
#include "profile.hpp"
#include "racecheck.hpp"
#include "waitcnt.hpp"

#include <sstream>

namespace hip_cpu {
namespace {

using u32 = std::uint32_t;
using u64 = std::uint64_t;
using namespace memory_ops;

// ---- LDS ------------------------------------------------------------------------------------------
// (atomic: an LDS atomic, which race detection does not note)
inline std::uint8_t* lds_ptr(const wave& w, const inst& i, int lane, u32 address, u32 bytes, bool store,
                             bool atomic = false)
{
    if(u64{address} + bytes > w.wg->lds_bytes)
    {
        std::ostringstream s;
        s << (store ? "writes " : "reads ") << bytes << " bytes of LDS at " << address << ", past the workgroup's "
          << w.wg->lds_bytes << " bytes (lane " << lane << ")";
        fault(w, i, s.str());
    }
    if(w.wg->race != nullptr && !atomic) [[unlikely]]
        race_lds(w, i, lane, address, bytes, store);
    if(w.wg->prof != nullptr) [[unlikely]]
        profile_access(w, lane, address, bytes);
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
        deliver<Bytes, Signed, Half>(w, i, l, v);
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
        stored<Bytes, HighHalf>(data, l, v);
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
        std::uint8_t* p = lds_ptr(w, i, l, addr[l] + static_cast<u32>(i.offset), 4, true, true);
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

// ds_read_b64_tr_b16 / _b8 (gfx950): each lane names 8 bytes of LDS; in each group of 16 lanes
// those are transposed (the emulator's lds_transpose_op says how) into the lanes' 2 dwords
template <typename T>
void ds_read_transpose(wave& w, const inst& i)
{
    lane_u32 ta, addr;
    std::memcpy(addr, vread(w, i, i.op[1], ta), sizeof(addr));
    const u64 e = w.exec();
    ck_tile::emu::lds_transpose_in<T, 1> in[lanes];
    ck_tile::emu::lds_transpose_out<T, 1> out[lanes];
    for(int l = 0; l < lanes; ++l)
        in[l].p[0] = ((e >> l) & 1)
                         ? reinterpret_cast<const T*>(lds_ptr(w, i, l, addr[l] + static_cast<u32>(i.offset), 8, false))
                         : nullptr;
    ck_tile::emu::detail::lds_transpose_op{}(in, out, e);
    lane_u32 lo, hi;
    for(int l = 0; l < lanes; ++l)
    {
        std::memcpy(&lo[l], reinterpret_cast<const char*>(out[l].v), 4);
        std::memcpy(&hi[l], reinterpret_cast<const char*>(out[l].v) + 4, 4);
    }
    vwrite(w, i.op[0], lo, 0);
    vwrite(w, i.op[0], hi, 1);
    issue(w, i, false, &i.op[0], 2);
}

} // namespace

void add_lds_instructions(handler_table& t)
{
    t["ds_read_b64_tr_b16"]  = {ds_read_transpose<std::uint16_t>};
    t["ds_read_b64_tr_b8"]   = {ds_read_transpose<std::uint8_t>};
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
