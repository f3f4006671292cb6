// SPDX-License-Identifier: MIT
// Every MFMA instruction of the device's arch (ck_tile::mfma in kernels of several waves, operands
// distributed to the lanes by the layout formulas), against a CPU matrix product:
//   - integer-valued inputs: exact for f16, bf16, fp8, bf8, f32 (all sums exact) and i8;
//   - general inputs (random f16/bf16 bit patterns, every finite fp8/bf8 code, random f32):
//     bit-exact against a reference that sums in the documented order (k increasing, then + C);
//   - a deliberately transposed A layout gives a wrong D (and exactly A^T B + C).
// The same source runs on the emulator and, compiled as HIP, on hip-cpu (test/hip_cpu): there the
// instructions are the compiler's v_mfma_* in the real code objects of gfx942 and gfx950. The
// cases that test the emulator's own arithmetic paths are the emulator's only.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "ck_tile/host.hpp"
#include "mfma_test_common.hpp"

using namespace mfma_test;
#if CK_TILE_BACKEND_EMULATOR
namespace emu = ck_tile::emu;
#endif
using ck_tile::bf16_t;
using ck_tile::half_t;
using ck_tile::index_t;

namespace {

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
bool device_reads_ocp()
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

// Wave w (two per workgroup) computes D = A B + C of its problem: each lane gathers its register
// elements of A, B and C by the layout formulas and scatters D's the same way.
template <typename I>
struct mfma_kernel
{
    using P  = problem<I>;
    using tr = typename P::tr;

    CK_TILE_DEVICE void operator()(const typename P::A* pa, const typename P::B* pb, const typename P::C* pc,
                                   typename P::C* pd, a_layout al) const
    {
        if constexpr(tr::supported) // compiled for every arch; launched only where it has the instruction
        {
            const index_t lane = ck_tile::get_lane_id();
            const index_t w    = ck_tile::get_block_id() * 2 + ck_tile::get_warp_id();
            ck_tile::mfma_a_buffer<I> a;
            ck_tile::mfma_b_buffer<I> b;
            ck_tile::mfma_c_buffer<I> c;
            for(index_t e = 0; e < tr::a_per_lane; ++e)
            {
                const ck_tile::mfma_coord x = tr::a_coord(lane, e);
                const index_t row           = al == a_layout::correct ? x.row : x.col;
                const index_t k             = al == a_layout::correct ? x.col : x.row;
                a[e]                        = pa[w * P::a_size + (x.block * P::M + row) * P::K + k];
            }
            for(index_t e = 0; e < tr::b_per_lane; ++e)
            {
                const ck_tile::mfma_coord x = tr::b_coord(lane, e);
                b[e]                        = pb[w * P::b_size + (x.block * P::K + x.row) * P::N + x.col];
            }
            for(index_t e = 0; e < tr::c_per_lane; ++e)
            {
                const ck_tile::mfma_coord x = tr::d_coord(lane, e);
                c[e]                        = pc[w * P::c_size + (x.block * P::M + x.row) * P::N + x.col];
            }
            const auto r = ck_tile::mfma<I>(a, b, c);
            for(index_t e = 0; e < tr::c_per_lane; ++e)
            {
                const ck_tile::mfma_coord x                                 = tr::d_coord(lane, e);
                pd[w * P::c_size + (x.block * P::M + x.row) * P::N + x.col] = r[e];
            }
        }
        else
        {
            (void)pa, (void)pb, (void)pc, (void)pd, (void)al;
        }
    }
};

// Device memory holding a copy of v.
template <typename T>
ck_tile::DeviceMem to_device(const std::vector<T>& v)
{
    ck_tile::DeviceMem m(v.size() * sizeof(T));
    m.ToDevice(v.data());
    return m;
}

// D of every wave, computed on the device: waves of 64 lanes, two per workgroup.
template <typename I>
std::vector<typename problem<I>::C> run_on_device(const problem<I>& p, a_layout al = a_layout::correct)
{
    using P = problem<I>;
    REQUIRE(p.waves % 2 == 0);
    const auto da = to_device(p.a), db = to_device(p.b), dc = to_device(p.c);
    ck_tile::DeviceMem dd(p.c.size() * sizeof(typename P::C));
    ck_tile::launch_kernel(ck_tile::stream_config{},
                           ck_tile::make_kernel<128>(mfma_kernel<I>{}, dim3(p.waves / 2), dim3(128), 0,
                                                     static_cast<const typename P::A*>(da.GetDeviceBuffer()),
                                                     static_cast<const typename P::B*>(db.GetDeviceBuffer()),
                                                     static_cast<const typename P::C*>(dc.GetDeviceBuffer()),
                                                     static_cast<typename P::C*>(dd.GetDeviceBuffer()), al));
    std::vector<typename P::C> d(p.c.size());
    dd.FromDevice(d.data());
    return d;
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

template <typename I>
void check_instruction(values v, unsigned seed)
{
    const std::string name = ck_tile::mfma_traits<I>::mnemonic;
    CAPTURE(name);
    const auto p = make_problem<I>(4, v, seed);
    CHECK(count_differences(run_on_device<I>(p), reference<I>(p, v)) == 0);
}

// Thread t: entry 2t of a, b and c holds the first operands of its lane, 2t + 1 the second. one_by_one
// gets (a0 b0 + c0) then + a1 b0, and a1 b1 + c1, from single instructions; batched gets the same
// from one mfma_batch of (a0, b0, c0), (a1, b1, c1), (a1, b0, c0), whose third entry adds to the
// first one's result.
template <typename I>
struct mfma_batch_kernel
{
    using tr                    = ck_tile::mfma_traits<I>;
    using A                     = typename tr::a_type;
    using B                     = typename tr::b_type;
    using C                     = typename tr::c_type;
    static constexpr index_t na = tr::a_per_lane, nb = tr::b_per_lane, nc = tr::c_per_lane;

    CK_TILE_DEVICE void operator()(const A* pa, const B* pb, const C* pc, C* one_by_one, C* batched) const
    {
        if constexpr(tr::supported)
        {
            const index_t t = ck_tile::get_thread_id();
            ck_tile::mfma_a_buffer<I> a0, a1;
            ck_tile::mfma_b_buffer<I> b0, b1;
            ck_tile::mfma_c_buffer<I> c0, c1;
            for(index_t e = 0; e < na; ++e)
            {
                a0[e] = pa[(t * 2) * na + e];
                a1[e] = pa[(t * 2 + 1) * na + e];
            }
            for(index_t e = 0; e < nb; ++e)
            {
                b0[e] = pb[(t * 2) * nb + e];
                b1[e] = pb[(t * 2 + 1) * nb + e];
            }
            for(index_t e = 0; e < nc; ++e)
            {
                c0[e] = pc[(t * 2) * nc + e];
                c1[e] = pc[(t * 2 + 1) * nc + e];
            }
            auto s0 = ck_tile::mfma<I>(a0, b0, c0);
            auto s1 = ck_tile::mfma<I>(a1, b1, c1);
            s0      = ck_tile::mfma<I>(a1, b0, s0);
            ck_tile::mfma_batch<I, 3>({{{&a0, &b0, &c0}, {&a1, &b1, &c1}, {&a1, &b0, &c0}}});
            for(index_t e = 0; e < nc; ++e)
            {
                one_by_one[(t * 2) * nc + e]     = s0[e];
                one_by_one[(t * 2 + 1) * nc + e] = s1[e];
                batched[(t * 2) * nc + e]        = c0[e];
                batched[(t * 2 + 1) * nc + e]    = c1[e];
            }
        }
        else
        {
            (void)pa, (void)pb, (void)pc, (void)one_by_one, (void)batched;
        }
    }
};

// mfma_batch against the same instructions one by one, in kernels of `threads` threads (96: a
// second wave with half its lanes absent), each lane's operands random register contents. Returns
// the number of elements (both outputs, every lane) that differ in their bits.
template <typename I>
int batch_differences(unsigned threads, unsigned seed)
{
    using K = mfma_batch_kernel<I>;
    std::mt19937 g(seed);
    std::vector<typename K::A> a(threads * 2 * K::na);
    std::vector<typename K::B> b(threads * 2 * K::nb);
    std::vector<typename K::C> c(threads * 2 * K::nc);
    for(auto& x : a)
        x = random_input<typename K::A>(g, values::general);
    for(auto& x : b)
        x = random_input<typename K::B>(g, values::general);
    for(auto& x : c)
        x = random_acc<typename K::C>(g, values::general);
    const auto da = to_device(a), db = to_device(b), dc = to_device(c);
    ck_tile::DeviceMem d1(c.size() * sizeof(c[0])), d2(c.size() * sizeof(c[0]));
    ck_tile::launch_kernel(ck_tile::stream_config{},
                           ck_tile::make_kernel<128>(K{}, dim3(1), dim3(threads), 0,
                                                     static_cast<const typename K::A*>(da.GetDeviceBuffer()),
                                                     static_cast<const typename K::B*>(db.GetDeviceBuffer()),
                                                     static_cast<const typename K::C*>(dc.GetDeviceBuffer()),
                                                     static_cast<typename K::C*>(d1.GetDeviceBuffer()),
                                                     static_cast<typename K::C*>(d2.GetDeviceBuffer())));
    std::vector<typename K::C> one_by_one(c.size()), batched(c.size());
    d1.FromDevice(one_by_one.data());
    d2.FromDevice(batched.data());
    int differ = 0;
    for(std::size_t i = 0; i < c.size(); ++i)
        differ += std::memcmp(&one_by_one[i], &batched[i], sizeof(c[0])) != 0;
    return differ;
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

} // namespace

TEST_SUITE("mfma_numeric")
{
    TEST_CASE("integer-valued inputs: exact")
    {
        unsigned seed = 1;
        for_each_device_instr([&]<typename I>() { check_instruction<I>(values::small_integers, seed++); });
    }

    TEST_CASE("general inputs: bit-exact against the documented summation order")
    {
        unsigned seed = 100;
        for_each_device_instr([&]<typename I>() { check_instruction<I>(values::general, seed++); });
    }

    TEST_CASE("a transposed A distribution gives a wrong D")
    {
        auto check = [&]<typename I>() {
            const std::string name = ck_tile::mfma_traits<I>::mnemonic;
            CAPTURE(name);
            static_assert(ck_tile::mfma_traits<I>::M == ck_tile::mfma_traits<I>::K);
            const auto p     = make_problem<I>(2, values::small_integers, 7);
            const auto wrong = run_on_device<I>(p, a_layout::transposed);
            const auto right = reference<I>(p, values::small_integers);
            int differ       = 0;
            for(std::size_t i = 0; i < wrong.size(); ++i)
                differ += !same_value(wrong[i], right[i]);
            CHECK(differ > static_cast<int>(wrong.size()) / 2); // most of D is wrong
            // ... and it is what the hardware would compute: A^T B + C
            CHECK(count_differences(wrong, reference<I>(p, values::small_integers, true)) == 0);
        };
        check.operator()<mi::v_mfma_f32_16x16x16_f16>();
        check.operator()<mi::v_mfma_f32_16x16x16_bf16>();
        check.operator()<mi::v_mfma_f32_4x4x4_16b_f16>();
    }

    TEST_CASE("fp8 inputs use the arch's encoding")
    {
        using I = mi::v_mfma_f32_16x16x32_fp8_fp8;
        static_assert(std::is_same_v<ck_tile::mfma_traits<I>::a_type, ck_tile::fp8_t>);
        const uint8_t one = device_reads_ocp() ? 0x38 : 0x40;
        // A = B = all ones (raw code of 1.0): D = K + C
        problem<I> p = make_problem<I>(2, values::small_integers, 3);
        for(auto& x : p.a)
            x = ck_tile::fp8_t::from_raw(one);
        for(auto& x : p.b)
            x = ck_tile::fp8_t::from_raw(one);
        const auto d = run_on_device<I>(p);
        for(std::size_t i = 0; i < d.size(); ++i)
            REQUIRE(d[i] == p.c[i] + 32.f);
    }

    TEST_CASE("mfma_batch gives what the same instructions give one by one, chained C included")
    {
        unsigned seed = 500;
        auto check    = [&]<typename I>() {
            const std::string name = ck_tile::mfma_traits<I>::mnemonic;
            CAPTURE(name);
            CHECK(batch_differences<I>(64, seed++) == 0);
            CHECK(batch_differences<I>(96, seed++) == 0);
        };
        for_each_device_instr(check);
    }

#if CK_TILE_BACKEND_EMULATOR // the emulator's own arithmetic paths
#if CK_TILE_EMU_MFMA_AVX2_DISPATCH
    TEST_CASE("the baseline and the AVX2 arithmetic agree bit for bit")
    {
        if(!emu::detail::mfma_cpu_has_avx2())
        {
            MESSAGE("this CPU has no AVX2: only the baseline arithmetic runs");
            return;
        }
        unsigned seed = 500;
        auto check    = [&]<typename I>() {
            using P                = problem<I>;
            const std::string name = ck_tile::mfma_traits<I>::mnemonic;
            CAPTURE(name);
            const auto p = make_problem<I>(1, values::general, seed++);
            auto d1      = p.c;
            auto d2      = p.c;
            emu::detail::mfma_arith_default<typename P::A, typename P::B, typename P::C, P::nblk, P::M, P::N, P::K>(
                p.a.data(), p.b.data(), d1.data());
            emu::detail::mfma_arith_avx2<typename P::A, typename P::B, typename P::C, P::nblk, P::M, P::N, P::K>(
                p.a.data(), p.b.data(), d2.data());
            CHECK(std::memcmp(d1.data(), d2.data(), d1.size() * sizeof(d1[0])) == 0);
        };
        for_each_device_instr(check);
    }
#endif

    TEST_CASE("the row-major D arithmetic (hip-cpu's) gives the column-major one's bits")
    {
        unsigned seed = 600;
        auto check    = [&]<typename I>() {
            using P                = problem<I>;
            const std::string name = ck_tile::mfma_traits<I>::mnemonic;
            CAPTURE(name);
            const auto p = make_problem<I>(1, values::general, seed++);
            auto by_col  = p.c; // d[block][col][row]
            auto by_row  = p.c; // d[block][row][col]
            auto at_row  = [](index_t blk, index_t i, index_t j) { return (blk * P::M + i) * P::N + j; };
            auto at_col  = [](index_t blk, index_t i, index_t j) { return (blk * P::N + j) * P::M + i; };
            for(index_t blk = 0; blk < P::nblk; ++blk)
                for(index_t i = 0; i < P::M; ++i)
                    for(index_t j = 0; j < P::N; ++j)
                        by_row[at_row(blk, i, j)] = p.c[at_col(blk, i, j)];
            emu::detail::mfma_arith<typename P::A, typename P::B, typename P::C, P::nblk, P::M, P::N, P::K>(
                p.a.data(), p.b.data(), by_col.data());
            emu::detail::mfma_arith<typename P::A, typename P::B, typename P::C, P::nblk, P::M, P::N, P::K, true>(
                p.a.data(), p.b.data(), by_row.data());
            int differ = 0;
            for(index_t blk = 0; blk < P::nblk; ++blk)
                for(index_t i = 0; i < P::M; ++i)
                    for(index_t j = 0; j < P::N; ++j)
                        differ +=
                            std::memcmp(&by_row[at_row(blk, i, j)], &by_col[at_col(blk, i, j)], sizeof(by_col[0])) != 0;
            CHECK(differ == 0);
        };
        for_each_device_instr(check);
    }

    TEST_CASE("the model's f16 conversion is exact for all 65536 codes")
    {
        for(uint32_t h = 0; h < 0x10000u; ++h)
        {
            const float want = to_float(__builtin_bit_cast(half_t, static_cast<uint16_t>(h)));
            const float got  = emu::detail::mfma_f16_to_float(static_cast<uint16_t>(h));
            if(std::isnan(want))
                REQUIRE(std::isnan(got));
            else
                REQUIRE(std::memcmp(&want, &got, sizeof got) == 0);
        }
    }
#endif
}
