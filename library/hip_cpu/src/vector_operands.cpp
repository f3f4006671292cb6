// SPDX-License-Identifier: MIT
#include "vector_operands.hpp"

#include <cmath>

namespace hip_cpu {
namespace {

// The lane that lane l reads under DPP control c; -1 when out of range (gfx9 DPP_CTRL encodings).
int dpp_source_lane(int l, std::uint16_t c)
{
    const int row = l & ~15, in_row = l & 15;
    if(c <= 0xff)
        return (l & ~3) | ((c >> (2 * (l & 3))) & 3);
    if(c >= 0x101 && c <= 0x10f)
        return in_row + (c - 0x100) < 16 ? l + (c - 0x100) : -1;
    if(c >= 0x111 && c <= 0x11f)
        return in_row - (c - 0x110) >= 0 ? l - (c - 0x110) : -1;
    if(c >= 0x121 && c <= 0x12f)
        return row + ((in_row - (c - 0x120)) & 15);
    switch(c)
    {
    case 0x130:
        return l + 1 < 64 ? l + 1 : -1;
    case 0x134:
        return (l + 1) & 63;
    case 0x138:
        return l - 1;
    case 0x13c:
        return (l + 63) & 63;
    case 0x140:
        return row + 15 - in_row;
    case 0x141:
        return (l & ~7) + 7 - (l & 7);
    case 0x142:
        return l >= 16 ? row - 1 : -1;
    case 0x143:
        return l >= 32 ? 31 : -1;
    default:
        return -1;
    }
}

std::uint32_t sdwa_select(std::uint32_t x, std::uint8_t sel, bool sext)
{
    if(sel <= 3)
    {
        const std::uint32_t b = (x >> (8 * sel)) & 0xff;
        return sext ? static_cast<std::uint32_t>(static_cast<std::int32_t>(static_cast<std::int8_t>(b))) : b;
    }
    if(sel <= 5)
    {
        const std::uint32_t h = (x >> (16 * (sel - 4))) & 0xffff;
        return sext ? static_cast<std::uint32_t>(static_cast<std::int32_t>(static_cast<std::int16_t>(h))) : h;
    }
    return x;
}

} // namespace

void read_vsources(wave& w, const inst& i, int first, int n, vfloat f, vsources& s)
{
    s.write_mask = w.exec();
    if(i.plain) // no modifier to apply: the registers as they are
    {
        for(int k = 0; k < n; ++k)
            s.p[k] = vread(w, i, i.op[first + k], s.tmp[k]);
        return;
    }
    for(int k = 0; k < n; ++k)
    {
        const operand& o       = i.op[first + k];
        const std::uint32_t* p = vread(w, i, o, s.tmp[k]);
        if(i.dpp && k == 0)
        {
            const std::uint64_t e = w.exec();
            std::uint64_t valid   = 0;
            lane_u32 moved;
            for(int l = 0; l < lanes; ++l)
            {
                const int sl  = dpp_source_lane(l, i.dpp_ctrl);
                const bool ok = sl >= 0 && ((e >> sl) & 1);
                moved[l]      = ok ? p[sl] : 0;
                valid |= std::uint64_t{ok} << l;
            }
            std::memcpy(s.tmp[k], moved, sizeof(moved));
            p                  = s.tmp[k];
            std::uint64_t rows = 0;
            for(int l = 0; l < lanes; ++l)
                if(((i.row_mask >> (l >> 4)) & 1) && ((i.bank_mask >> ((l >> 2) & 3)) & 1))
                    rows |= std::uint64_t{1} << l;
            s.write_mask &= rows & (i.bound_ctrl ? ~std::uint64_t{0} : valid);
        }
        if(i.sdwa && k < 2 && (i.src_sel[k] != 6 || o.sext))
        {
            for(int l = 0; l < lanes; ++l)
                s.tmp[k][l] = sdwa_select(p[l], i.src_sel[k], o.sext);
            p = s.tmp[k];
        }
        // VOP3P's neg_lo (and the f16 source modifiers) act on the low half; f32 on the sign bit
        const bool neg = o.neg || (f == vfloat::f16 && ((i.neg_lo >> k) & 1));
        if(f == vfloat::none && (o.abs || neg)) // never ignored: a handler that reads them says how
            fault(w, i, "abs/neg on a source of an instruction hip-cpu reads without float modifiers");
        if(f != vfloat::none && (o.abs || neg))
        {
            const std::uint32_t abs_mask = f == vfloat::f32 ? 0x7fffffffu : 0xffff7fffu;
            const std::uint32_t neg_bit  = f == vfloat::f32 ? 0x80000000u : 0x8000u;
            const std::uint32_t am = o.abs ? abs_mask : 0xffffffffu, xm = neg ? neg_bit : 0u;
            for(int l = 0; l < lanes; ++l)
                s.tmp[k][l] = (p[l] & am) ^ xm;
            p = s.tmp[k];
        }
        // op_sel: a 16-bit source's high half
        if(f != vfloat::f32 && ((i.op_sel >> k) & 1) && !i.sdwa)
        {
            for(int l = 0; l < lanes; ++l)
                s.tmp[k][l] = p[l] >> 16;
            p = s.tmp[k];
        }
        s.p[k] = p;
    }
}

void write_vresult(wave& w, const inst& i, const operand& dst, std::uint32_t* r, std::uint64_t mask, vfloat f,
                   bool half)
{
    if(f == vfloat::f32 && (i.clamp || i.omod != 0))
    {
        const float scale = i.omod == 1 ? 2.f : i.omod == 2 ? 4.f : i.omod == 3 ? 0.5f : 1.f;
        for(int l = 0; l < lanes; ++l)
        {
            float x = as_f32(r[l]) * scale;
            if(i.clamp)
                x = std::isnan(x) ? 0.f : std::fmin(std::fmax(x, 0.f), 1.f);
            r[l] = f32_bits(x);
        }
    }
    if(f == vfloat::f16 && i.clamp)
        for(int l = 0; l < lanes; ++l)
        {
            const float x = f16_to_f32(static_cast<std::uint16_t>(r[l]));
            r[l]          = f32_to_f16(std::isnan(x) ? 0.f : std::fmin(std::fmax(x, 0.f), 1.f));
        }
    lane_u32& d = vdst(w, dst);
    if(i.sdwa && !(i.dst_sel == 6))
    {
        const std::uint8_t sel    = i.dst_sel;
        const int shift           = sel <= 3 ? 8 * sel : 16 * (sel - 4);
        const std::uint32_t field = (sel <= 3 ? 0xffu : 0xffffu) << shift;
        for(int l = 0; l < lanes; ++l)
        {
            if(!((mask >> l) & 1))
                continue;
            const std::uint32_t v = (r[l] << shift) & field;
            std::uint32_t rest    = 0;
            if(i.dst_unused == 2)
                rest = d[l] & ~field;
            else if(i.dst_unused == 1 && ((v >> (shift + (sel <= 3 ? 7 : 15))) & 1))
                rest = ~field & (~0u << shift); // sign bits above the field
            d[l] = v | rest;
        }
        return;
    }
    if(half)
    {
        const bool hi = (i.op_sel >> 3) & 1;
        for(int l = 0; l < lanes; ++l)
            if((mask >> l) & 1)
                d[l] = hi ? (d[l] & 0xffffu) | (r[l] << 16) : (r[l] & 0xffffu);
        return;
    }
    if(mask == ~std::uint64_t{0})
    {
        std::memcpy(d, r, sizeof(lane_u32));
        return;
    }
    for(int l = 0; l < lanes; ++l)
    {
        const std::uint32_t m = 0u - static_cast<std::uint32_t>((mask >> l) & 1);
        d[l]                  = (r[l] & m) | (d[l] & ~m);
    }
}

} // namespace hip_cpu
