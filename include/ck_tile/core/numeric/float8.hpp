// SPDX-License-Identifier: MIT
// 8-bit floating-point types: fp8 (E4M3: 1 sign, 4 exponent, 3 mantissa bits) and bf8 (E5M2:
// 1 sign, 5 exponent, 2 mantissa bits), each in the two encodings that AMD GPUs use.
//
//   type         encoding   bias  max finite  NaN                      inf        -0
//   fp8_fnuz_t   E4M3 FNUZ     8       240    0x80 (the only one)      none       none
//   bf8_fnuz_t   E5M2 FNUZ    16     57344    0x80 (the only one)      none       none
//   fp8_ocp_t    E4M3FN (OCP)  7       448    0x7f, 0xff               none       0x80
//   bf8_ocp_t    E5M2   (OCP) 15     57344    exponent 11111, m != 0   0x7c, 0xfc 0x80
//
// Each arch computes with one of the two encodings (the fp8 column of arch/arch_table.def), so
// fp8_t / bf8_t name the encoding of the arch being compiled or emulated (FNUZ in host code of a
// build without an arch).
//
// Conversions. fp8 -> float is exact (every value is a float). float -> fp8 rounds to nearest,
// ties to even, and is SATURATING by default: a finite value beyond the largest finite value, and
// an infinity, become the largest finite value of its sign (CK's default conversion to fp8 clips
// the same way). NaN becomes NaN (FNUZ: 0x80; OCP: the sign with 0x7f for E4M3, 0x7e for E5M2).
// float_to_fp8<E, false>(x) is the non-saturating variant: overflow gives infinity where the
// encoding has one (OCP E5M2), NaN otherwise. FNUZ has no negative zero: -0 and negative values
// that round to zero give 0x00. Subnormal fp8 values are produced and read like any other.
//
// Both backends use the same software conversion (no hardware cvt instructions), so host, GPU and
// emulator agree bit for bit. Arithmetic operators compute in float and round back (saturating).
#pragma once
#include <cstdint>
#include <type_traits>
#include "ck_tile/core/config.hpp"
#include "ck_tile/core/arch/arch_table.hpp"

namespace ck_tile {

enum struct fp8_encoding
{
    e4m3_fnuz, // fp8 of the fnuz archs
    e5m2_fnuz, // bf8 of the fnuz archs
    e4m3_ocp,  // fp8 of the ocp archs (OCP E4M3FN)
    e5m2_ocp   // bf8 of the ocp archs (OCP E5M2)
};

// Parameters of an encoding.
template <fp8_encoding E>
struct fp8_encoding_traits
{
    static constexpr bool is_e4m3      = E == fp8_encoding::e4m3_fnuz || E == fp8_encoding::e4m3_ocp;
    static constexpr bool is_fnuz      = E == fp8_encoding::e4m3_fnuz || E == fp8_encoding::e5m2_fnuz;
    static constexpr int exp_bits      = is_e4m3 ? 4 : 5;
    static constexpr int mant_bits     = is_e4m3 ? 3 : 2;
    static constexpr int bias          = (is_e4m3 ? 7 : 15) + (is_fnuz ? 1 : 0);
    static constexpr int min_exp       = 1 - bias; // exponent of the smallest normal value
    static constexpr bool has_inf      = E == fp8_encoding::e5m2_ocp;
    static constexpr bool has_neg_zero = !is_fnuz;
    // Largest finite magnitude: FNUZ uses every exponent/mantissa code; E4M3FN loses 0x7f to NaN;
    // E5M2 loses the whole top exponent to inf/NaN.
    static constexpr uint8_t max_code = E == fp8_encoding::e4m3_ocp ? 0x7e : E == fp8_encoding::e5m2_ocp ? 0x7b : 0x7f;
    static constexpr uint8_t nan_code = is_fnuz ? 0x80 : (is_e4m3 ? 0x7f : 0x7e);
    static constexpr uint8_t inf_code = 0x7c; // only meaningful when has_inf
};

// Is `code` a NaN of encoding E?
template <fp8_encoding E>
CK_TILE_HOST_DEVICE constexpr bool fp8_is_nan(uint8_t code)
{
    using tr = fp8_encoding_traits<E>;
    if constexpr(tr::is_fnuz)
        return code == 0x80;
    else if constexpr(tr::is_e4m3)
        return (code & 0x7f) == 0x7f;
    else
        return (code & 0x7c) == 0x7c && (code & 0x03) != 0;
}

// Exact value of `code` as a float.
template <fp8_encoding E>
CK_TILE_HOST_DEVICE constexpr float fp8_to_float(uint8_t code)
{
    using tr            = fp8_encoding_traits<E>;
    constexpr int mb    = tr::mant_bits;
    const uint32_t sign = uint32_t(code & 0x80) << 24;
    const uint32_t expf = (code >> mb) & ((1u << tr::exp_bits) - 1);
    const uint32_t mant = code & ((1u << mb) - 1);
    if(fp8_is_nan<E>(code))
        return __builtin_bit_cast(float, 0x7fc00000u | sign);
    if constexpr(tr::has_inf)
        if(expf == (1u << tr::exp_bits) - 1)
            return __builtin_bit_cast(float, 0x7f800000u | sign);
    if(expf == 0)
    {
        // subnormal (or zero): mant * 2^(min_exp - mb), an exact product
        constexpr float quantum = __builtin_bit_cast(float, uint32_t(127 + tr::min_exp - mb) << 23);
        const float v           = static_cast<float>(mant) * quantum;
        return __builtin_bit_cast(float, __builtin_bit_cast(uint32_t, v) | sign);
    }
    return __builtin_bit_cast(float, sign | ((expf - tr::bias + 127) << 23) | (mant << (23 - mb)));
}

// float -> code of encoding E, rounding to nearest even; Saturate: see the header comment.
template <fp8_encoding E, bool Saturate = true>
CK_TILE_HOST_DEVICE constexpr uint8_t float_to_fp8(float x)
{
    using tr            = fp8_encoding_traits<E>;
    constexpr int mb    = tr::mant_bits;
    const uint32_t u    = __builtin_bit_cast(uint32_t, x);
    const uint8_t sign  = static_cast<uint8_t>((u >> 24) & 0x80);
    const uint32_t absu = u & 0x7fffffffu;
    if(absu > 0x7f800000u) // NaN
        return tr::is_fnuz ? tr::nan_code : static_cast<uint8_t>(sign | tr::nan_code);

    uint32_t code;
    if(absu == 0x7f800000u) // infinity
        code = 0x100;       // > max_code: handled as an overflow below
    else
    {
        const int e = static_cast<int>(absu >> 23) - 127;
        // Float subnormals (and zero) are far below half the smallest fp8 subnormal.
        if(e < -126)
            code = 0;
        else
        {
            const uint32_t m = (absu & 0x7fffffu) | 0x800000u;           // value = m * 2^(e - 23)
            const int qe     = (e > tr::min_exp ? e : tr::min_exp) - mb; // exponent of one ulp
            const int shift  = qe - (e - 23);                            // >= 23 - mb
            if(shift >= 25)
                code = 0; // below half the smallest subnormal
            else
            {
                uint32_t r         = m >> shift;
                const uint32_t rem = m & ((1u << shift) - 1);
                const uint32_t hlf = 1u << (shift - 1);
                if(rem > hlf || (rem == hlf && (r & 1u)))
                    ++r; // a carry into the exponent is what the code arithmetic below wants
                // r = implicit bit + mantissa for normals (2^mb..2^(mb+1)), the mantissa for
                // subnormals (0..2^mb, 2^mb being the smallest normal).
                const int ebase = (e > tr::min_exp ? e : tr::min_exp) + tr::bias - 1; // >= 0
                code            = (static_cast<uint32_t>(ebase) << mb) + r;
            }
        }
    }
    if(code > tr::max_code)
    {
        if constexpr(Saturate)
            code = tr::max_code;
        else if constexpr(tr::has_inf)
            code = tr::inf_code;
        else
            return tr::is_fnuz ? tr::nan_code : static_cast<uint8_t>(sign | tr::nan_code);
    }
    if constexpr(tr::is_fnuz)
        if(code == 0)
            return 0; // no negative zero
    return static_cast<uint8_t>(sign | code);
}

// An 8-bit float of encoding E, stored as its raw code.
template <fp8_encoding E>
struct float8
{
    using traits                           = fp8_encoding_traits<E>;
    static constexpr fp8_encoding encoding = E;

    uint8_t data;

    float8() = default;
    template <typename T, typename = std::enable_if_t<std::is_arithmetic_v<T>>>
    CK_TILE_HOST_DEVICE constexpr explicit float8(T x) : data(float_to_fp8<E>(static_cast<float>(x)))
    {}
    CK_TILE_HOST_DEVICE constexpr explicit operator float() const { return fp8_to_float<E>(data); }
    CK_TILE_HOST_DEVICE constexpr explicit operator double() const
    {
        return static_cast<double>(fp8_to_float<E>(data));
    }

    CK_TILE_HOST_DEVICE static constexpr float8 from_raw(uint8_t raw)
    {
        float8 r{};
        r.data = raw;
        return r;
    }
    CK_TILE_HOST_DEVICE constexpr bool is_nan() const { return fp8_is_nan<E>(data); }

    CK_TILE_HOST_DEVICE friend constexpr bool operator==(float8 a, float8 b) { return float(a) == float(b); }
    CK_TILE_HOST_DEVICE friend constexpr bool operator!=(float8 a, float8 b) { return !(float(a) == float(b)); }
    CK_TILE_HOST_DEVICE friend constexpr bool operator<(float8 a, float8 b) { return float(a) < float(b); }
    CK_TILE_HOST_DEVICE friend constexpr bool operator>(float8 a, float8 b) { return float(a) > float(b); }
    CK_TILE_HOST_DEVICE friend constexpr bool operator<=(float8 a, float8 b) { return float(a) <= float(b); }
    CK_TILE_HOST_DEVICE friend constexpr bool operator>=(float8 a, float8 b) { return float(a) >= float(b); }
    CK_TILE_HOST_DEVICE friend constexpr float8 operator+(float8 a, float8 b) { return float8(float(a) + float(b)); }
    CK_TILE_HOST_DEVICE friend constexpr float8 operator-(float8 a, float8 b) { return float8(float(a) - float(b)); }
    CK_TILE_HOST_DEVICE friend constexpr float8 operator*(float8 a, float8 b) { return float8(float(a) * float(b)); }
    CK_TILE_HOST_DEVICE friend constexpr float8 operator/(float8 a, float8 b) { return float8(float(a) / float(b)); }
    CK_TILE_HOST_DEVICE friend constexpr float8 operator-(float8 a) { return float8(-float(a)); }
};

using fp8_fnuz_t = float8<fp8_encoding::e4m3_fnuz>;
using bf8_fnuz_t = float8<fp8_encoding::e5m2_fnuz>;
using fp8_ocp_t  = float8<fp8_encoding::e4m3_ocp>;
using bf8_ocp_t  = float8<fp8_encoding::e5m2_ocp>;

static_assert(sizeof(fp8_fnuz_t) == 1 && std::is_trivially_copyable_v<fp8_fnuz_t>);

// A real hip build compiles host code (no arch) and each arch's device code separately, and all of
// them must name the same type, so there the encoding is one choice for the whole build: CMake
// defines CK_TILE_FP8_OCP=1 when every GPU target computes with OCP and 0 otherwise. A binary built
// for archs of both encodings therefore computes fp8 right on only some of them; host code asks
// fp8_native_on(arch) before it runs fp8 kernels on a device.
#if defined(CK_TILE_BACKEND_HIP) && !defined(CK_TILE_DEVICE_CODE_ONLY)
#if defined(CK_TILE_FP8_OCP) && CK_TILE_FP8_OCP
inline constexpr fp8_flavour fp8_build_flavour = fp8_flavour::ocp;
#else
inline constexpr fp8_flavour fp8_build_flavour = fp8_flavour::fnuz;
#endif
#else
inline constexpr fp8_flavour fp8_build_flavour =
    has_compiled_arch ? get_arch_info(compiled_arch).fp8 : fp8_flavour::fnuz;
#endif
using fp8_t = std::conditional_t<fp8_build_flavour == fp8_flavour::ocp, fp8_ocp_t, fp8_fnuz_t>;
using bf8_t = std::conditional_t<fp8_build_flavour == fp8_flavour::ocp, bf8_ocp_t, bf8_fnuz_t>;

// Whether a GPU arch (e.g. "gfx942", "gfx950:sramecc+:xnack-") computes with fp8_t's encoding.
CK_TILE_HOST constexpr bool fp8_native_on(const char* arch)
{
    const arch_info* a = find_arch(arch);
    return a != nullptr && a->fp8 == fp8_build_flavour;
}

template <typename T>
struct is_float8 : std::false_type
{};
template <fp8_encoding E>
struct is_float8<float8<E>> : std::true_type
{};
template <typename T>
inline constexpr bool is_float8_v = is_float8<std::remove_cv_t<T>>::value;

} // namespace ck_tile
