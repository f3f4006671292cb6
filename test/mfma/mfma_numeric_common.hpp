// SPDX-License-Identifier: MIT
// The MFMA numeric tests' problems and CPU reference (test_mfma_numeric.cpp on both backends,
// test_mfma_arith.cpp on the emulator): random A, B and C per wave, in the layouts of the
// instruction's traits, and D = A B + C summed as the instruction documents it.
#pragma once
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "ck_tile/host.hpp"
#include "mfma_test_common.hpp"

namespace mfma_test {

using ck_tile::bf16_t;
using ck_tile::half_t;
using ck_tile::index_t;

enum class values
{
    small_integers, // exact in any summation order
    general         // checked against the documented summation order
};

enum class a_layout
{
    correct,
    transposed // lane (row, k) gets A[k][row]: a wrong distribution (square A only)
};

template <typename I>
struct problem
{
    using tr                      = ck_tile::mfma_traits<I>;
    using A                       = typename tr::a_type;
    using B                       = typename tr::b_type;
    using C                       = typename tr::c_type;
    static constexpr index_t nblk = tr::num_blocks, M = tr::M, N = tr::N, K = tr::K;
    static constexpr index_t a_size = nblk * M * K, b_size = nblk * K * N, c_size = nblk * M * N;

    int waves;
    std::vector<A> a; // per wave: [block][row][k]
    std::vector<B> b; // per wave: [block][k][col]
    std::vector<C> c; // per wave: [block][row][col]
};

// Whether the device's MFMAs read 8-bit floats as OCP (gfx950) or FNUZ (gfx942).
inline bool device_reads_ocp()
{
    static const bool ocp = ck_tile::get_arch_info(ck_tile::get_device_arch()).fp8 == ck_tile::fp8_flavour::ocp;
    return ocp;
}

// The value the device reads. A hip build for both archs stores 8-bit floats as one type
// (float8.hpp) and each arch's MFMAs read its bits in their own encoding, so the reference does too.
template <typename T>
float to_float(T x)
{
    if constexpr(ck_tile::is_float8_v<T>)
    {
        const auto bits   = __builtin_bit_cast(std::uint8_t, x);
        constexpr bool e5 = std::is_same_v<T, ck_tile::bf8_t>;
        if(device_reads_ocp())
            return e5 ? float(ck_tile::bf8_ocp_t::from_raw(bits)) : float(ck_tile::fp8_ocp_t::from_raw(bits));
        return e5 ? float(ck_tile::bf8_fnuz_t::from_raw(bits)) : float(ck_tile::fp8_fnuz_t::from_raw(bits));
    }
    else
        return ck_tile::type_convert<float>(x);
}

// A random input value of type T.
template <typename T>
T random_input(std::mt19937& g, values v)
{
    if constexpr(std::is_same_v<T, int8_t>)
        return static_cast<int8_t>(static_cast<int>(g() % 256) - 128);
    else if(v == values::small_integers)
        return ck_tile::type_convert<T>(static_cast<float>(static_cast<int>(g() % 17) - 8));
    else if constexpr(std::is_same_v<T, half_t>)
    {
        uint16_t bits;
        do
            bits = static_cast<uint16_t>(g());
        while((bits & 0x7c00u) == 0x7c00u); // finite, subnormals included
        return __builtin_bit_cast(half_t, bits);
    }
    else if constexpr(std::is_same_v<T, bf16_t>)
    {
        const uint32_t e = 100 + g() % 55; // 2^-27 .. 2^27: no overflow in the sums
        return bf16_t::from_raw(static_cast<uint16_t>((g() & 0x8000u) | (e << 7) | (g() & 0x7fu)));
    }
    else if constexpr(ck_tile::is_float8_v<T>)
    {
        T x;
        do
            x = T::from_raw(static_cast<uint8_t>(g()));
        while(!std::isfinite(to_float(x))); // NaN or infinity in the device's encoding
        return x;
    }
    else
    {
        static_assert(std::is_same_v<T, float>);
        std::uniform_real_distribution<float> d(-4.f, 4.f);
        return std::ldexp(d(g), static_cast<int>(g() % 21) - 10);
    }
}

template <typename T>
T random_acc(std::mt19937& g, values v)
{
    if constexpr(std::is_same_v<T, int32_t>)
        return static_cast<int32_t>(g() % 2000001) - 1000000;
    else if(v == values::small_integers)
        return static_cast<float>(static_cast<int>(g() % 129) - 64);
    else
        return std::uniform_real_distribution<float>(-10.f, 10.f)(g);
}

template <typename I>
problem<I> make_problem(int waves, values v, unsigned seed)
{
    using P = problem<I>;
    std::mt19937 g(seed);
    P p{waves, {}, {}, {}};
    p.a.resize(static_cast<std::size_t>(waves * P::a_size));
    p.b.resize(static_cast<std::size_t>(waves * P::b_size));
    p.c.resize(static_cast<std::size_t>(waves * P::c_size));
    for(auto& x : p.a)
        x = random_input<typename P::A>(g, v);
    for(auto& x : p.b)
        x = random_input<typename P::B>(g, v);
    for(auto& x : p.c)
        x = random_acc<typename P::C>(g, v);
    return p;
}

// CPU reference. Exact (double / int64) for integer-valued inputs; for general inputs the model's
// documented float order: A[r][0] B[0][c], + A[r][k] B[k][c] for k = 1.., then + C.
template <typename I>
std::vector<typename problem<I>::C> reference(const problem<I>& p, values v, bool transpose_a = false)
{
    using P = problem<I>;
    std::vector<typename P::C> d(p.c.size());
    for(int w = 0; w < p.waves; ++w)
        for(index_t blk = 0; blk < P::nblk; ++blk)
            for(index_t i = 0; i < P::M; ++i)
                for(index_t j = 0; j < P::N; ++j)
                {
                    auto A = [&](index_t k) {
                        const index_t r = transpose_a ? k : i, kk = transpose_a ? i : k;
                        return p.a[static_cast<std::size_t>(w * P::a_size + (blk * P::M + r) * P::K + kk)];
                    };
                    auto B = [&](index_t k) {
                        return p.b[static_cast<std::size_t>(w * P::b_size + (blk * P::K + k) * P::N + j)];
                    };
                    const std::size_t ci = static_cast<std::size_t>(w * P::c_size + (blk * P::M + i) * P::N + j);
                    if constexpr(std::is_same_v<typename P::C, int32_t>)
                    {
                        int64_t s = 0;
                        for(index_t k = 0; k < P::K; ++k)
                            s += int64_t{A(k)} * int64_t{B(k)};
                        d[ci] = static_cast<int32_t>(s + p.c[ci]);
                    }
                    else if(v == values::small_integers)
                    {
                        double s = 0;
                        for(index_t k = 0; k < P::K; ++k)
                            s += double(to_float(A(k))) * double(to_float(B(k)));
                        d[ci] = static_cast<float>(s + double(p.c[ci]));
                    }
                    else
                    {
                        float s = to_float(A(0)) * to_float(B(0));
                        for(index_t k = 1; k < P::K; ++k)
                        {
                            const float prod = to_float(A(k)) * to_float(B(k));
                            s                = s + prod;
                        }
                        d[ci] = s + p.c[ci];
                    }
                }
    return d;
}

template <typename T>
bool same_value(T x, T y)
{
    if constexpr(std::is_same_v<T, float>)
        return std::memcmp(&x, &y, sizeof x) == 0 || (std::isnan(x) && std::isnan(y));
    else
        return x == y;
}

template <typename T>
int count_differences(const std::vector<T>& got, const std::vector<T>& want)
{
    int bad = 0;
    for(std::size_t i = 0; i < got.size(); ++i)
        if(!same_value(got[i], want[i]))
        {
            if(++bad <= 3)
                MESSAGE("element " << i << ": device " << double(got[i]) << ", reference " << double(want[i]));
        }
    return bad;
}

// Calls f.template operator()<I>() for every instruction the device's arch has, common ones first.
template <typename F>
void for_each_device_instr(F&& f)
{
    const ck_tile::gpu_arch arch = ck_tile::get_device_arch();
    auto if_supported            = [&]<typename I>() {
        if(ck_tile::mfma_traits<I>::supported_on(arch))
            f.template operator()<I>();
    };
    for_each_instr(common_instrs{}, if_supported);
    for_each_instr(gfx950_instrs{}, if_supported);
}

} // namespace mfma_test
