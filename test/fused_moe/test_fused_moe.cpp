// SPDX-License-Identifier: MIT
// The pieces of the fused-MoE GEMMs that stand alone: the shuffled weight layout (against
// upstream's definition as a permuted view, and shuffle / unshuffle round trips with padding), the
// activations, reference_fused_moe on hand-worked cases, and the 16x16x32 warp GEMM the kernel uses
// (two 16x16x16 MFMAs on gfx942, one 16x16x32 on gfx950) against a host product on the device.
#include <doctest/doctest.h>

#include <cmath>
#include <random>
#include <vector>
#include "ck_tile/host.hpp"
#include "ck_tile/host/reference/reference_fused_moe.hpp"
#include "ck_tile/host/reference/reference_moe_sorting.hpp"
#include "ck_tile/host/shuffle_moe_weight.hpp"
#include "ck_tile/ops/fused_moe.hpp"
#include "ck_tile/ops/gemm.hpp"

using namespace ck_tile;

namespace {

// upstream's definition: the [b, n/16, 16, k/32, 4, 8] view of the weight permuted to
// (0, 1, 3, 4, 2, 5), i.e. stored as [b, n/16, k/32, 4, 16, 8]
long_index_t upstream_offset(index_t b, index_t n, index_t k, index_t N, index_t K)
{
    const index_t i0 = b, i1 = n / 16, i2 = n % 16, i3 = k / 32, i4 = (k % 32) / 8, i5 = k % 8;
    const index_t l1 = N / 16, l3 = K / 32;
    // permuted order (i0, i1, i3, i4, i2, i5) with lengths (B, l1, l3, 4, 16, 8)
    return ((((static_cast<long_index_t>(i0) * l1 + i1) * l3 + i3) * 4 + i4) * 16 + i2) * 8 + i5;
}

} // namespace

TEST_CASE("moe_weight_layout is upstream's permuted view where N and K are multiples of 16 and 32")
{
    const index_t B = 3, N = 48, K = 96;
    for(index_t b = 0; b < B; ++b)
        for(index_t n = 0; n < N; ++n)
            for(index_t k = 0; k < K; ++k)
                REQUIRE(b * moe_weight_layout::matrix_size(N, K) + moe_weight_layout::offset(n, k, K) ==
                        upstream_offset(b, n, k, N, K));
}

TEST_CASE("a wave reading 8 elements per lane from a shuffled block gets the 16x16x32 MFMA operand")
{
    // lane l, element e of block (n block 1, k block 2) of a 48 x 96 matrix: row 16 + l % 16,
    // column 64 + (l / 16) * 8 + e
    const index_t N = 48, K = 96;
    const long_index_t base = (1 * (K / 32) + 2) * moe_weight_layout::kBlock;
    for(index_t l = 0; l < 64; ++l)
        for(index_t e = 0; e < 8; ++e)
            REQUIRE(moe_weight_layout::offset(16 + l % 16, 64 + (l / 16) * 8 + e, K) == base + l * 8 + e);
    (void)N;
}

TEST_CASE("shuffle_moe_weight / unshuffle_moe_weight round trip, with zero padding for odd sizes")
{
    for(auto [b, n, k] : {std::array<index_t, 3>{2, 32, 64}, {3, 24, 40}, {1, 8, 8}, {2, 136, 200}})
    {
        CAPTURE(n);
        CAPTURE(k);
        HostTensor<float> w({std::size_t(b), std::size_t(n), std::size_t(k)});
        for(std::size_t i = 0; i < w.mData.size(); ++i)
            w.mData[i] = static_cast<float>(i + 1); // all nonzero
        const HostTensor<float> s = shuffle_moe_weight(w);
        const index_t np = (n + 15) / 16 * 16, kp = (k + 31) / 32 * 32;
        REQUIRE(s.mData.size() == std::size_t(b) * np * kp);
        std::size_t zeros = 0;
        for(float x : s.mData)
            zeros += x == 0.f;
        CHECK(zeros == std::size_t(b) * (np * kp - n * k)); // the padding, and only it
        const HostTensor<float> back = unshuffle_moe_weight(s, b, n, k);
        CHECK(back.mData == w.mData);
    }
    // bf16 values survive unchanged
    HostTensor<bf16_t> w({1, 16, 32});
    for(std::size_t i = 0; i < w.mData.size(); ++i)
        w.mData[i] = type_convert<bf16_t>(static_cast<float>(i) / 8.f);
    const auto back = unshuffle_moe_weight(shuffle_moe_weight(w), 1, 16, 32);
    for(std::size_t i = 0; i < w.mData.size(); ++i)
        REQUIRE(type_convert<float>(back.mData[i]) == type_convert<float>(w.mData[i]));
}

TEST_CASE("activations: FastGelu is the tanh form of GELU, Silu is x * sigmoid(x), both map 0 to 0")
{
    const element_wise::FastGelu gelu;
    const element_wise::Silu silu;
    CHECK(gelu(0.f) == 0.f);
    CHECK(silu(0.f) == 0.f);
    for(float x = -12.f; x <= 12.f; x += 0.125f)
    {
        CAPTURE(x);
        const double xd   = x;
        const double gref = 0.5 * xd * (1.0 + std::tanh(std::sqrt(2.0 / M_PI) * (xd + 0.044715 * xd * xd * xd)));
        const double sref = xd / (1.0 + std::exp(-xd));
        CHECK(std::abs(gelu(x) - gref) <= 1e-6 * (1.0 + std::abs(gref)));
        CHECK(std::abs(silu(x) - sref) <= 1e-6 * (1.0 + std::abs(sref)));
        float y = 0;
        silu(y, x);
        CHECK(y == silu(x));
    }
    // far negative inputs give -0, not NaN
    CHECK(gelu(-1000.f) == 0.f);
    CHECK(silu(-1000.f) == 0.f);
    CHECK(gelu(3.f) > 2.99f); // close to x for large x
}

namespace {

struct Twice // an activation easy to follow by hand
{
    float operator()(float x) const { return 2.f * x; }
};

// 2 tokens, 2 experts, topk 1, hidden 2, interm 1: token 0 -> expert 1 (weight 0.5), token 1 ->
// expert 0 (weight 1); A = [[1, 2], [3, -1]]; gate rows g[0] = [1, 1], g[1] = [2, 0]; up rows
// u[0] = [0, 1], u[1] = [1, 1]; D columns d[0] = [1, 2], d[1] = [-1, 1]
HostTensor<float> run_small(bool gate_only)
{
    HostTensor<index_t> ids({2, 1});
    HostTensor<float> w({2, 1});
    ids(0, 0)          = 1;
    ids(1, 0)          = 0;
    w(0, 0)            = 0.5f;
    w(1, 0)            = 1.f;
    const index_t unit = 4, n = moe_sorting_max_output_ids(2, 2, 1, unit);
    HostTensor<index_t> sids({std::size_t(n)}), eids({std::size_t(n / unit)});
    HostTensor<float> sw({std::size_t(n)});
    index_t tiles = 0;
    reference_moe_sorting<float, index_t>(ids, w, HostTensor<index_t>{}, sids, sw, eids, tiles, 2, unit);

    HostTensor<float> a({2, 2}), g({2, gate_only ? 1u : 2u, 2}), d({2, 2, 1}), o({2, 2});
    a(0, 0) = 1, a(0, 1) = 2, a(1, 0) = 3, a(1, 1) = -1;
    g(0, 0, 0) = 1, g(0, 0, 1) = 1, g(1, 0, 0) = 2, g(1, 0, 1) = 0;
    if(!gate_only)
        g(0, 1, 0) = 0, g(0, 1, 1) = 1, g(1, 1, 0) = 1, g(1, 1, 1) = 1;
    d(0, 0, 0) = 1, d(0, 1, 0) = 2, d(1, 0, 0) = -1, d(1, 1, 0) = 1;
    reference_fused_moe<float>(a, g, d, o, sids, sw, eids, tiles * unit, unit, gate_only, Twice{});
    return o;
}

} // namespace

TEST_CASE("reference_fused_moe on a hand-worked routing")
{
    // gate only: token 0: gate 2, y 4, o = 0.5 * 4 * [-1, 1]; token 1: gate 2, y 4, o = 4 * [1, 2]
    const auto o1 = run_small(true);
    CHECK(o1.mData == std::vector<float>{-2.f, 2.f, 4.f, 8.f});
    // gate + up: token 0: up 3, y 12, o = 0.5 * 12 * [-1, 1]; token 1: up -1, y -4, o = -4 * [1, 2]
    const auto o2 = run_small(false);
    CHECK(o2.mData == std::vector<float>{-6.f, 6.f, -4.f, -8.f});
}

TEST_CASE("reference_fused_moe sums a token's experts and leaves unrouted tokens zero")
{
    // 3 tokens, 1 of them (token 2) routed nowhere: its ids are out of range
    HostTensor<index_t> ids({3, 2});
    HostTensor<float> w({3, 2});
    const index_t r[3][2] = {{0, 1}, {1, 0}, {-1, 7}};
    for(index_t t = 0; t < 3; ++t)
        for(index_t s = 0; s < 2; ++s)
            ids(t, s) = r[t][s], w(t, s) = 1.f + s;
    const index_t unit = 2, n = moe_sorting_max_output_ids(3, 2, 2, unit);
    HostTensor<index_t> sids({std::size_t(n)}), eids({std::size_t(n / unit)});
    HostTensor<float> sw({std::size_t(n)});
    index_t tiles = 0;
    reference_moe_sorting<float, index_t>(ids, w, HostTensor<index_t>{}, sids, sw, eids, tiles, 2, unit);
    // hidden 1, interm 1: expert x computes y = 2 (a * g_x), o += w * y * d_x
    HostTensor<float> a({3, 1}), g({2, 1, 1}), d({2, 1, 1}), o({3, 1});
    a(0, 0) = 1, a(1, 0) = 2, a(2, 0) = 5;
    g(0, 0, 0) = 1, g(1, 0, 0) = 3;
    d(0, 0, 0) = 1, d(1, 0, 0) = 10;
    reference_fused_moe<float>(a, g, d, o, sids, sw, eids, tiles * unit, unit, true, Twice{});
    // token 0: slot 0 expert 0 (w 1): 2 * 1 * 1; slot 1 expert 1 (w 2): 2 * 2 * 3 * 10 = 120 -> 122
    // token 1: slot 0 expert 1 (w 1): 2 * 2 * 3 * 10 = 120; slot 1 expert 0 (w 2): 2 * 2 * 2 * 1 = 8 -> 128
    CHECK(o(0, 0) == 122.f);
    CHECK(o(1, 0) == 128.f);
    CHECK(o(2, 0) == 0.f);
}

namespace {

// One wave: C (16 x 16) = A (16 x 32) * B (16 x 32)^T with the 16x16x32 warp GEMM the fused-MoE
// kernel uses, operands read with the warp GEMM's encodings, C written with its C encoding.
template <typename T, bool kTransposeC>
struct WarpGemmKernel
{
    using WG = WarpGemmMfmaDispatcher_t<T, T, float, 16, 16, 32, kTransposeC>;
    CK_TILE_DEVICE void operator()(const T* a, const T* b, float* c) const
    {
        const auto av =
            make_naive_tensor_view<address_space_enum::global>(a, make_tuple(16, 32), make_tuple(32, 1), number<8>{});
        const auto bv =
            make_naive_tensor_view<address_space_enum::global>(b, make_tuple(16, 32), make_tuple(32, 1), number<8>{});
        const auto cv = make_naive_tensor_view<address_space_enum::global>(c, make_tuple(16, 16), make_tuple(16, 1));
        const auto at = load_tile(make_tile_window(av, make_tuple(number<16>{}, number<32>{}), make_multi_index(0, 0),
                                                   make_static_tile_distribution(typename WG::AWarpDstrEncoding{})));
        const auto bt = load_tile(make_tile_window(bv, make_tuple(number<16>{}, number<32>{}), make_multi_index(0, 0),
                                                   make_static_tile_distribution(typename WG::BWarpDstrEncoding{})));
        const auto ct = WG{}(at, bt);
        store_tile(make_tile_window(cv, make_tuple(number<16>{}, number<16>{}), make_multi_index(0, 0),
                                    make_static_tile_distribution(typename WG::CWarpDstrEncoding{})),
                   ct);
    }
};

template <typename T, bool kTransposeC>
void check_warp_gemm()
{
    std::mt19937 rng(5);
    std::uniform_int_distribution<int> d(-4, 4);
    std::vector<T> a(16 * 32), b(16 * 32);
    for(auto& x : a)
        x = type_convert<T>(static_cast<float>(d(rng)));
    for(auto& x : b)
        x = type_convert<T>(static_cast<float>(d(rng)));
    DeviceMem ad(a.size() * sizeof(T)), bd(b.size() * sizeof(T)), cd(256 * sizeof(float));
    ad.ToDevice(a.data());
    bd.ToDevice(b.data());
    launch_kernel(stream_config{}, make_kernel<64>(WarpGemmKernel<T, kTransposeC>{}, dim3(1), dim3(64), 0,
                                                   static_cast<const T*>(ad.GetDeviceBuffer()),
                                                   static_cast<const T*>(bd.GetDeviceBuffer()),
                                                   static_cast<float*>(cd.GetDeviceBuffer())));
    std::vector<float> c(256);
    cd.FromDevice(c.data());
    for(int m = 0; m < 16; ++m)
        for(int n = 0; n < 16; ++n)
        {
            float ref = 0;
            for(int k = 0; k < 32; ++k)
                ref += type_convert<float>(a[m * 32 + k]) * type_convert<float>(b[n * 32 + k]);
            CAPTURE(m);
            CAPTURE(n);
            REQUIRE(c[m * 16 + n] == ref); // small integers: exact
        }
}

} // namespace

#if defined(CK_TILE_BACKEND_EMULATOR)
TEST_CASE("the 16x16x32 warp GEMM (two 16x16x16 MFMAs on gfx942, one 16x16x32 on gfx950) is A * B^T")
{
    check_warp_gemm<bf16_t, true>();
    check_warp_gemm<bf16_t, false>();
    check_warp_gemm<half_t, true>();
    check_warp_gemm<half_t, false>();
}
#endif
