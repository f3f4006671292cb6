// SPDX-License-Identifier: MIT
// What the memory families (engine_memory.cpp, engine_lds.cpp) share: how a loaded value enters
// its register, the read-modify-write operations of the atomic instructions as functions of the
// old value and the data, and the atomic update of one dword of memory.
#pragma once
#include "engine.hpp"

#include <atomic>

namespace hip_cpu::memory_ops {

using u32 = std::uint32_t;

// The register's new value after a load of Bytes (1, 2, or whole dwords) returned v: sign- or
// zero-extended, or (Half 0 / 1, the d16 forms) put in the register's low / high half.
template <int Bytes, bool Signed, int Half>
inline u32 loaded(u32 old, u32 v)
{
    if constexpr(Bytes == 1 && Signed)
        v = static_cast<u32>(static_cast<std::int32_t>(static_cast<std::int8_t>(v)));
    if constexpr(Bytes == 2 && Signed)
        v = static_cast<u32>(static_cast<std::int32_t>(static_cast<std::int16_t>(v)));
    if constexpr(Half == 0)
        return (old & 0xffff0000u) | (v & 0xffff);
    else if constexpr(Half == 1)
        return (old & 0xffffu) | (v << 16);
    else
        return v;
}

// Lane l's result of a load of Bytes (its dwords v) into the destination registers.
template <int Bytes, bool Signed, int Half>
inline void deliver(wave& w, const inst& i, int l, const u32* v)
{
    constexpr int dwords = Bytes < 4 ? 1 : Bytes / 4;
    for(int k = 0; k < dwords; ++k)
    {
        lane_u32& d = vdst(w, i.op[0], k);
        d[l]        = loaded<Bytes, Signed, Half>(d[l], v[k]);
    }
}

// Lane l's dwords of a store of Bytes (the d16_hi forms, HighHalf, store a register's high half),
// from the source registers' lane arrays data[k].
template <int Bytes, bool HighHalf>
inline void stored(const u32* const* data, int l, u32* v)
{
    constexpr int dwords = Bytes < 4 ? 1 : Bytes / 4;
    for(int k = 0; k < dwords; ++k)
        v[k] = HighHalf ? data[k][l] >> 16 : data[k][l];
}

inline u32 f16x2_add(u32 a, u32 b)
{
    const u32 lo = f32_to_f16(f16_to_f32(static_cast<std::uint16_t>(a)) + f16_to_f32(static_cast<std::uint16_t>(b)));
    const u32 hi =
        f32_to_f16(f16_to_f32(static_cast<std::uint16_t>(a >> 16)) + f16_to_f32(static_cast<std::uint16_t>(b >> 16)));
    return lo | hi << 16;
}
inline float bf16_to_f32(u32 x) { return as_f32(x << 16); }
inline u32 f32_to_bf16(float f)
{
    const u32 x = f32_bits(f);
    if((x & 0x7fffffffu) > 0x7f800000u)
        return (x >> 16) | 0x40;
    return (x + 0x7fff + ((x >> 16) & 1)) >> 16;
}
inline u32 bf16x2_add(u32 a, u32 b)
{
    const u32 lo = f32_to_bf16(bf16_to_f32(a & 0xffff) + bf16_to_f32(b & 0xffff));
    const u32 hi = f32_to_bf16(bf16_to_f32(a >> 16) + bf16_to_f32(b >> 16));
    return lo | hi << 16;
}

// An atomic read-modify-write of one dword at p: returns the old value.
template <typename F>
inline u32 atomic_rmw(std::uint8_t* p, F f)
{
    std::atomic_ref<u32> ref(*reinterpret_cast<u32*>(p));
    u32 old = ref.load(std::memory_order_relaxed);
    while(!ref.compare_exchange_weak(old, f(old), std::memory_order_relaxed))
    {
    }
    return old;
}

using rmw_fn = u32 (*)(u32 old, u32 data);

inline u32 add_u32(u32 o, u32 d) { return o + d; }
inline u32 sub_u32(u32 o, u32 d) { return o - d; }
inline u32 add_f32(u32 o, u32 d) { return f32_bits(as_f32(o) + as_f32(d)); }
inline u32 pk_add_f16(u32 o, u32 d) { return f16x2_add(o, d); }
inline u32 pk_add_bf16(u32 o, u32 d) { return bf16x2_add(o, d); }
inline u32 max_i32(u32 o, u32 d) { return static_cast<std::int32_t>(o) > static_cast<std::int32_t>(d) ? o : d; }
inline u32 min_i32(u32 o, u32 d) { return static_cast<std::int32_t>(o) < static_cast<std::int32_t>(d) ? o : d; }
inline u32 max_u32(u32 o, u32 d) { return o > d ? o : d; }
inline u32 min_u32(u32 o, u32 d) { return o < d ? o : d; }
inline u32 or_b32(u32 o, u32 d) { return o | d; }
inline u32 and_b32(u32 o, u32 d) { return o & d; }
inline u32 xor_b32(u32 o, u32 d) { return o ^ d; }
inline u32 swap_b32(u32, u32 d) { return d; }

} // namespace hip_cpu::memory_ops
