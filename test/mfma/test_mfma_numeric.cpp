// SPDX-License-Identifier: MIT
// Every MFMA instruction of the device's arch (ck_tile::mfma in kernels of several waves, operands
// distributed to the lanes by the layout formulas), against a CPU matrix product:
//   - integer-valued inputs: exact for f16, bf16, fp8, bf8, f32 (all sums exact) and i8;
//   - general inputs (random f16/bf16 bit patterns, every finite fp8/bf8 code, random f32):
//     bit-exact against a reference that sums in the documented order (k increasing, then + C);
//   - a deliberately transposed A layout gives a wrong D (and exactly A^T B + C).
// The same source runs on the emulator and, compiled as HIP, on hip-cpu (test/hip_cpu): there the
// instructions are the compiler's v_mfma_* in the real code objects of gfx942 and gfx950. The
// emulator's own arithmetic paths are tested against each other in test_mfma_arith.cpp.
#include <doctest/doctest.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "mfma_numeric_common.hpp"

using namespace mfma_test;

namespace {

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
    using P                     = problem<I>; // its types
    using A                     = typename P::A;
    using B                     = typename P::B;
    using C                     = typename P::C;
    static constexpr index_t na = P::tr::a_per_lane, nb = P::tr::b_per_lane, nc = P::tr::c_per_lane;

    CK_TILE_DEVICE void operator()(const A* pa, const B* pb, const C* pc, C* one_by_one, C* batched) const
    {
        if constexpr(P::tr::supported)
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
}
