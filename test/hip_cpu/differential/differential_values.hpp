// SPDX-License-Identifier: MIT
// The differential tests' values (differential.hpp runs them): the edge cases and fixed-seed random
// values of each input type, and how results print and compare (bit for bit, any NaN for any NaN,
// within 1 ulp).
#pragma once
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <type_traits>
#include <vector>

namespace diff {

using u16 = std::uint16_t;
using u32 = std::uint32_t;
using u64 = std::uint64_t;
using i32 = std::int32_t;
using i64 = std::int64_t;

// how a result compares: bit for bit; bit for bit except that any NaN matches any NaN (IEEE leaves
// the payload open); within one unit in the last place (the hardware's documented accuracy)
enum class check
{
    exact,
    nan_any,
    ulp1
};

// a fixed-seed generator (splitmix64): the same inputs on every run
struct rng
{
    u64 s = 0x9e3779b97f4a7c15ull;
    u64 next()
    {
        u64 z = (s += 0x9e3779b97f4a7c15ull);
        z     = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z     = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    }
};

// ---- edge cases and random values, by type -----------------------------------------------------
inline std::vector<u32> u32_edges()
{
    return {0u,          1u,          2u,          3u,          7u,          31u,         32u,
            33u,         63u,         64u,         0x7fu,       0x80u,       0xffu,       0x100u,
            0x7fffu,     0x8000u,     0xffffu,     0x10000u,    0x7fffffu,   0x800000u,   0xffffffu,
            0x1000000u,  0x7fffffffu, 0x80000000u, 0x80000001u, 0xfffffffeu, 0xffffffffu, 0x55555555u,
            0xaaaaaaaau, 0x12345678u, 0xdeadbeefu, 0xff800000u, 0x00ff00ffu};
}
inline std::vector<u32> f32_edges() // bit patterns
{
    return {0x00000000u, 0x80000000u, 0x3f800000u, 0xbf800000u, 0x3f000000u, 0x3fc00000u, 0x40200000u,
            0xc0200000u, 0x3eaaaaabu, 0x00800000u, 0x80800000u, 0x00000001u, 0x80000001u, 0x007fffffu,
            0x7f7fffffu, 0xff7fffffu, 0x7f800000u, 0xff800000u, 0x7fc00000u, 0xffc00001u, 0x7f800001u,
            0x4f000000u, 0xcf000000u, 0x4f800000u, 0x4effffffu, 0x4f7fffffu, 0xcf000001u, 0x3effffffu,
            0x4b800000u, 0x501502f9u, 0x477fe000u, 0x477ff000u, 0x38800000u, 0x33800000u, 0x33000000u,
            0x33000001u, 0x3f801000u, 0x3f803000u, 0x3f808000u, 0x3f818000u, 0x3f80ffffu, 0xbf7fffffu};
}
inline std::vector<u64> u64_edges()
{
    return {0ull,
            1ull,
            31ull,
            32ull,
            33ull,
            63ull,
            64ull,
            0xffffffffull,
            0x100000000ull,
            0x1ffffffffull,
            0xffffffff00000000ull,
            0x7fffffffffffffffull,
            0x8000000000000000ull,
            0x8000000000000001ull,
            0xffffffffffffffffull,
            0x0123456789abcdefull,
            0xfedcba9876543210ull};
}
inline std::vector<u16> f16_edges() // bit patterns, of _Float16 or of bf16
{
    return {0x0000, 0x8000, 0x0001, 0x8001, 0x03ff, 0x0400, 0x3c00, 0xbc00, 0x3555, 0x7bff, 0xfbff, 0x7c00,
            0xfc00, 0x7e00, 0xfe01, 0x7c01, 0x3f80, 0xbf80, 0x7f7f, 0x7f80, 0xff80, 0x7fc0, 0x0080, 0xffff};
}

template <typename T>
std::vector<T> edges()
{
    if constexpr(std::is_same_v<T, float>)
    {
        std::vector<T> v;
        for(u32 b : f32_edges())
            v.push_back(std::bit_cast<float>(b));
        return v;
    }
    else if constexpr(sizeof(T) == 8)
    {
        std::vector<T> v;
        for(u64 b : u64_edges())
            v.push_back(static_cast<T>(b));
        return v;
    }
    else if constexpr(sizeof(T) == 2)
        return f16_edges();
    else
    {
        std::vector<T> v;
        for(u32 b : u32_edges())
            v.push_back(static_cast<T>(b));
        return v;
    }
}

// random values: all bit patterns alike for integers; for floats half random bit patterns (every
// class: NaN, inf, denormal) and half moderate numbers (exponent within 2^-20..2^20), where sums
// and products round
template <typename T>
T random_value(rng& g)
{
    const u64 r = g.next();
    if constexpr(std::is_same_v<T, float>)
    {
        if(r & 1)
            return std::bit_cast<float>(static_cast<u32>(r >> 32));
        const u32 exponent = 127 - 20 + static_cast<u32>((r >> 8) % 41);
        return std::bit_cast<float>((static_cast<u32>(r >> 63) << 31) | exponent << 23 |
                                    (static_cast<u32>(r >> 16) & 0x7fffff));
    }
    else if constexpr(sizeof(T) == 8)
        return static_cast<T>(r);
    else
        return static_cast<T>(r >> 16);
}

// ---- printing and comparing ----------------------------------------------------------------------
template <typename T>
constexpr bool is_float_v =
    std::is_same_v<T, float> || std::is_same_v<T, double> || std::is_same_v<T, _Float16> || std::is_same_v<T, __bf16>;
template <typename T>
using bits_t = std::conditional_t<sizeof(T) == 8, u64, std::conditional_t<sizeof(T) == 4, u32, u16>>;

template <typename T>
std::string show(T v)
{
    char s[96];
    const auto b = static_cast<unsigned long long>(std::bit_cast<bits_t<T>>(v));
    if constexpr(is_float_v<T>)
        std::snprintf(s, sizeof s, "%a (0x%0*llx)", static_cast<double>(v), static_cast<int>(2 * sizeof(T)), b);
    else
        std::snprintf(s, sizeof s, "0x%0*llx", static_cast<int>(2 * sizeof(T)), b);
    return s;
}

// whether `got` matches `want` under `mode`, each said to be a NaN or not
template <typename T>
bool same(T want, T got, check mode, bool want_nan, bool got_nan)
{
    const auto w = std::bit_cast<bits_t<T>>(want), g = std::bit_cast<bits_t<T>>(got);
    if(w == g)
        return true;
    if(want_nan || got_nan)
        return mode != check::exact && want_nan && got_nan;
    if constexpr(is_float_v<T>)
    {
        // same sign: adjacent bit patterns are adjacent floats
        constexpr int sign = 8 * sizeof(T) - 1;
        return mode == check::ulp1 && (w >> sign) == (g >> sign) && (w > g ? w - g : g - w) <= 1;
    }
    return false;
}

} // namespace diff
