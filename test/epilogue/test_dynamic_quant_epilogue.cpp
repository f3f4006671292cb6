// SPDX-License-Identifier: MIT
// DynamicQuantEpilogue on the emulator against reference_rowwise_dynamic_quant. One block loads an
// M x N fp32 matrix (padded up to its Generic2dBlockShape tile), quantizes it row by row to int8
// or the arch's fp8, with and without a smooth scale, either in one call (the one-pass path) or
// in two column chunks through the pieces (the multi-pass path). Both block shapes are tried: a
// warp holding whole rows, and four warps sharing each row (the cross-warp absmax through LDS).
// Row 1 is all zeros: its scale is 0 and its values quantize to 0.
#include <doctest/doctest.h>

#include <limits>
#include <random>
#include <vector>
#include "ck_tile/core.hpp"
#include "ck_tile/host.hpp"
#include "ck_tile/host/reference/reference_rowwise_quantization2d.hpp"
#include "ck_tile/ops/common.hpp"
#include "ck_tile/ops/epilogue/dynamic_quant_epilogue.hpp"

using namespace ck_tile;

namespace {

// a warp holds 8 whole rows of 8 lanes x 4 elements, twice along N: tile 8 x 64
using RowsPerWarp = Generic2dBlockShape<sequence<8, 64>, sequence<8, 8>, sequence<1, 4>>;
// four warps share one row, each lane 2 elements, twice along N: tile 1 x 1024
using WarpsPerRow = Generic2dBlockShape<sequence<1, 1024>, sequence<1, 256>, sequence<1, 2>>;

template <typename Shape, typename QT, bool kSmooth, bool kChunked>
struct QuantKernel
{
    using Traits   = DynamicQuantEpilogueTraits<true, true, kSmooth>;
    using Epilogue = DynamicQuantEpilogue<DynamicQuantEpilogueProblem<float, float, float, QT, Shape, Traits>>;
    static constexpr index_t kChunks = kChunked ? 2 : 1;
    static constexpr index_t kTileN  = Shape::Block_N; // one tile per chunk
    static constexpr index_t kSmem   = Epilogue::GetSmemSize();

    CK_TILE_DEVICE void operator()(const float* p_x, const float* p_sm, QT* p_q, float* p_scale, index_t M,
                                   index_t N) const
    {
        const auto tile = make_tuple(number<Shape::Block_M>{}, number<kTileN>{});
        const auto x_view =
            pad_tensor_view(make_naive_tensor_view<address_space_enum::global>(p_x, make_tuple(M, N), make_tuple(N, 1)),
                            tile, sequence<true, true>{});
        const auto q_view =
            pad_tensor_view(make_naive_tensor_view<address_space_enum::global>(p_q, make_tuple(M, N), make_tuple(N, 1)),
                            tile, sequence<true, true>{});
        const auto sm_view =
            pad_tensor_view(make_naive_tensor_view<address_space_enum::global>(p_sm, make_tuple(N), make_tuple(1)),
                            make_tuple(number<kTileN>{}), sequence<true>{});
        const auto s_view =
            pad_tensor_view(make_naive_tensor_view<address_space_enum::global>(p_scale, make_tuple(M), make_tuple(1)),
                            make_tuple(number<Shape::Block_M>{}), sequence<true>{});

        constexpr auto dstr = make_generic_2d_block_tile_distribution<Shape>();
        auto x_win          = make_tile_window(x_view, tile, make_multi_index(0, 0), dstr);
        auto q_win          = make_tile_window(q_view, tile, make_multi_index(0, 0));
        auto sm_win         = make_tile_window(sm_view, make_tuple(number<kTileN>{}), make_multi_index(0));
        const auto s_win    = make_tile_window(s_view, make_tuple(number<Shape::Block_M>{}), make_multi_index(0));
        __shared__ char smem[kSmem > 0 ? kSmem : 4];

        if constexpr(!kChunked)
        {
            const auto x = load_tile(x_win);
            if constexpr(kSmooth)
                Epilogue{}(q_win, sm_win, s_win, x, smem);
            else
                Epilogue{}(q_win, s_win, x, smem);
        }
        else
        {
            // pass 1: the rows' absmax over both chunks
            auto x      = load_tile(x_win);
            auto absmax = Epilogue::template MakeRowAbsMaxTile<decltype(x)>();
            for(index_t c = 0; c < kChunks; ++c)
            {
                if constexpr(kSmooth)
                    Epilogue::apply_smooth_scale(x, sm_win);
                Epilogue::accumulate_row_absmax(absmax, x);
                move_tile_window(x_win, {0, kTileN});
                move_tile_window(sm_win, {kTileN});
                x = load_tile(x_win);
            }
            Epilogue::sync_row_absmax(absmax, smem);
            const auto scale = Epilogue::make_y_scale(absmax);
            Epilogue::store_y_scale(s_win, scale);
            // pass 2: quantize each chunk
            move_tile_window(x_win, {0, -kChunks * kTileN});
            move_tile_window(sm_win, {-kChunks * kTileN});
            for(index_t c = 0; c < kChunks; ++c)
            {
                auto y = load_tile(x_win);
                if constexpr(kSmooth)
                    Epilogue::apply_smooth_scale(y, sm_win);
                Epilogue::quantize_and_store(q_win, y, scale);
                move_tile_window(x_win, {0, kTileN});
                move_tile_window(sm_win, {kTileN});
                move_tile_window(q_win, {0, kTileN});
            }
        }
    }
};

template <typename Shape, typename QT, bool kSmooth, bool kChunked>
void check_quant(index_t M, index_t N)
{
    using K = QuantKernel<Shape, QT, kSmooth, kChunked>;
    REQUIRE(M <= Shape::Block_M);
    REQUIRE(N <= K::kChunks * K::kTileN);
    std::mt19937 gen(M * 131 + N);
    std::uniform_real_distribution<float> dx(-3.f, 3.f), ds(0.01f, 2.f);
    HostTensor<float> x({std::size_t(M), std::size_t(N)}), sm({std::size_t(N)});
    for(auto& v : x.mData)
        v = dx(gen);
    for(auto& v : sm.mData)
        v = ds(gen);
    if(M > 1) // an all-zero row
        for(index_t n = 0; n < N; ++n)
            x(1, n) = 0.f;

    DeviceMem x_dev(x.get_element_space_size_in_bytes()), sm_dev(sm.get_element_space_size_in_bytes()),
        q_dev(std::size_t(M) * N * sizeof(QT)), s_dev(std::size_t(M) * sizeof(float));
    x_dev.ToDevice(x.data());
    sm_dev.ToDevice(sm.data());
    launch_kernel(stream_config{}, make_kernel<Shape::BlockSize>(K{}, dim3(1), dim3(Shape::BlockSize), 0,
                                                                 static_cast<const float*>(x_dev.GetDeviceBuffer()),
                                                                 static_cast<const float*>(sm_dev.GetDeviceBuffer()),
                                                                 static_cast<QT*>(q_dev.GetDeviceBuffer()),
                                                                 static_cast<float*>(s_dev.GetDeviceBuffer()), M, N));
    HostTensor<QT> q({std::size_t(M), std::size_t(N)}), q_ref({std::size_t(M), std::size_t(N)});
    HostTensor<float> s({std::size_t(M)}), s_ref({std::size_t(M)});
    q_dev.FromDevice(q.data());
    s_dev.FromDevice(s.data());

    HostTensor<float> y = x; // the smoothed input is what gets quantized
    if(kSmooth)
        for(index_t m = 0; m < M; ++m)
            for(index_t n = 0; n < N; ++n)
                y(m, n) = x(m, n) * sm(n);
    reference_rowwise_dynamic_quant(y, s_ref, q_ref);

    INFO("M=" << M << " N=" << N << " smooth=" << kSmooth << " chunked=" << kChunked);
    CHECK(check_err(s.mData, s_ref.mData, "y_scale", 0, 0));
    CHECK(check_err(q.mData, q_ref.mData, "quantized y", 0, 0));
    if(M > 1)
    {
        CHECK(s(1) == 0.f);
        CHECK(type_convert<float>(q(1, 0)) == 0.f);
    }
    // every row but the zero one reaches the type's maximum magnitude at its absmax element
    const float qmax = type_convert<float>(numeric<QT>::max());
    for(index_t m = 0; m < M; ++m)
    {
        if(m == 1)
            continue;
        float top = 0;
        for(index_t n = 0; n < N; ++n)
            top = std::max(top, std::fabs(type_convert<float>(q(m, n))));
        CHECK(top == qmax);
    }
}

} // namespace

TEST_CASE("one pass, a warp holds whole rows: int8 and fp8, with and without smoothing")
{
    check_quant<RowsPerWarp, int8_t, false, false>(8, 64);
    check_quant<RowsPerWarp, int8_t, true, false>(5, 37); // padded rows and columns
    check_quant<RowsPerWarp, fp8_t, false, false>(8, 61);
    check_quant<RowsPerWarp, fp8_t, true, false>(3, 64);
}

TEST_CASE("one pass, four warps share a row: the cross-warp absmax")
{
    check_quant<WarpsPerRow, int8_t, true, false>(1, 1024);
    check_quant<WarpsPerRow, fp8_t, false, false>(1, 999);
}

TEST_CASE("two chunks through the pieces (the multi-pass pipelines' path)")
{
    check_quant<RowsPerWarp, int8_t, true, true>(8, 128);
    check_quant<RowsPerWarp, fp8_t, false, true>(6, 100);
    check_quant<WarpsPerRow, int8_t, false, true>(1, 2048);
    check_quant<WarpsPerRow, fp8_t, true, true>(1, 1500);
}

TEST_CASE("saturate_convert rounds to nearest even and clamps")
{
    CHECK(saturate_convert<int8_t>(2.5f) == 2);
    CHECK(saturate_convert<int8_t>(3.5f) == 4);
    CHECK(saturate_convert<int8_t>(-126.6f) == -127);
    CHECK(saturate_convert<int8_t>(1000.f) == 127);
    CHECK(saturate_convert<int8_t>(-1000.f) == -128);
    CHECK(saturate_convert<int8_t>(127.5f) == 127);   // rounds to 128, then clamps
    CHECK(saturate_convert<int8_t>(-128.5f) == -128); // rounds to -128 (even)
    CHECK(saturate_convert<int8_t>(-129.5f) == -128);
    CHECK(saturate_convert<int8_t>(-0.5f) == 0);
    CHECK(saturate_convert<int8_t>(std::numeric_limits<float>::infinity()) == 127);
    CHECK(saturate_convert<int8_t>(-std::numeric_limits<float>::infinity()) == -128);
    CHECK(saturate_convert<int8_t>(std::numeric_limits<float>::quiet_NaN()) == 0);
    CHECK(saturate_convert<int8_t>(-std::numeric_limits<float>::quiet_NaN()) == 0);
    CHECK(saturate_convert<int16_t>(40000.5f) == 32767);
    CHECK(saturate_convert<uint8_t>(-3.f) == 0);
    CHECK(saturate_convert<uint8_t>(255.4f) == 255);
    CHECK(type_convert<float>(saturate_convert<fp8_t>(1e6f)) == type_convert<float>(numeric<fp8_t>::max()));
}

TEST_CASE("the fp8 maximum is the emulated arch's")
{
    // FNUZ E4M3 on gfx942, OCP E4M3FN on gfx950
    const float qmax = type_convert<float>(numeric<fp8_t>::max());
    CHECK((qmax == 240.f || qmax == 448.f));
    CHECK(
        DynamicQuantEpilogue<DynamicQuantEpilogueProblem<float, float, float, fp8_t, RowsPerWarp,
                                                         DynamicQuantEpilogueTraits<true, true, false>>>::quant_max() ==
        qmax);
}
