// SPDX-License-Identifier: MIT
// FusedMoeGemmPipeline_Flatmm: one block's share of the fused-MoE GEMMs, written with the tile API
// (upstream's FusedMoeGemmPipeline_FlatmmUk does the same work in gfx942 inline assembly).
//
// The block owns M sorted rows (one expert x, the rows' tokens and weights in LDS) and an N0 slice
// [n0, n0 + N0) of the intermediate dimension:
//
//   GEMM 0, hidden in K0 steps:
//     A rows (gathered by token) DRAM -> VGPR -> LDS; the G (and U) weights of the slice DRAM -> VGPR
//     gate[M, N0] += A * G^T   (and up[M, N0] += A * U^T), warp GEMMs 16x16x32
//   Y = act(gate) (or act(gate) * up), converted to A's type, -> LDS
//   GEMM 1, hidden in N1 chunks:
//     o[M, N1] = Y * D^T over the slice (K = N0), D's weights DRAM -> VGPR
//     O[token, chunk] += w_row * o  (atomic adds; padding rows and columns past hidden dropped)
//
// The weights are the shuffled ones (utility/moe_weight_layout.hpp) and go to the MFMAs without
// LDS. Rows past the routing's tokens (padding, token id = tokens) read 0 and are not written;
// hidden columns past the hidden size read 0 (A) or fall in the weights' zero padding or outside
// the window (pad_tensor_view), so every K tail adds 0; intermediate columns past the size give
// gate = up = 0, hence Y = act(0) = 0 there (FastGelu and Silu map 0 to 0).
#pragma once
#include "ck_tile/core.hpp"
#include "ck_tile/ops/fused_moe/pipeline/fused_moegemm_pipeline_flatmm_policy.hpp"

namespace ck_tile {

template <typename Problem_, typename Policy_ = FusedMoeGemmPipelineFlatmmPolicy>
struct FusedMoeGemmPipeline_Flatmm
{
    using Problem = Problem_;
    using Policy  = Policy_;

    using ADataType          = typename Problem::ADataType;
    using GDataType          = typename Problem::GDataType;
    using DDataType          = typename Problem::DDataType;
    using AccDataType        = typename Problem::AccDataType;
    using ODataType          = typename Problem::ODataType;
    using YDataType          = typename Problem::YDataType;
    using TopkWeightDataType = typename Problem::TopkWeightDataType;
    using IndexDataType      = typename Problem::IndexDataType;
    using BlockShape         = typename Problem::BlockShape;
    using S                  = BlockShape;

    static constexpr index_t kBlockSize = Problem::kBlockSize;
    static constexpr bool IsGateOnly    = Problem::IsGateOnly;

    using WarpGemm0 = typename Policy::template WarpGemm0<Problem>;
    using WarpGemm1 = typename Policy::template WarpGemm1<Problem>;

    static constexpr index_t kVectorA = Policy::template kVector16B<ADataType>;
    static constexpr index_t kVectorO = 4; // 4 consecutive columns of a row of C per lane

    static constexpr const char* name = "flatmm";

    CK_TILE_HOST_DEVICE static constexpr index_t GetSmemSize() { return Policy::template GetSmemSize<Problem>(); }

    // Runs f(d, row, col) for each vector access of kVec registers of a 2-D distribution (rows and
    // columns in the tile); the vector dimension must be the last Y dimension.
    template <typename Dstr, index_t kVec, typename F>
    CK_TILE_DEVICE static void for_each_row_vector(F&& f)
    {
        constexpr index_t vy = Dstr::get_vector_y_dim();
        static_assert(vy == Dstr::NDimY - 1 && Dstr::ys_lengths::at(vy) % kVec == 0,
                      "FusedMoeGemmPipeline_Flatmm: the vector must be the last Y dimension");
        const auto x0 = Dstr::calculate_index();
        static_for<0, Dstr::thread_buffer_size>{}([&](auto d) {
            constexpr auto y = Dstr::d_to_y(d);
            if constexpr(y[vy] % kVec == 0)
            {
                constexpr auto dx = Dstr::y_to_x_offset(y);
                f(number<d>{}, x0[0] + dx[0], x0[1] + dx[1]);
            }
        });
    }

    // the 8 weight values of (n repeat, k repeat) of a flat weight tile, as a warp GEMM operand
    template <typename WarpTensor, index_t kKRepeat, typename FlatTile, index_t kN, index_t kK>
    CK_TILE_DEVICE static auto weight_operand(const FlatTile& flat, number<kN>, number<kK>)
    {
        WarpTensor w;
        constexpr index_t n = WarpTensor::thread_buffer_size;
        static_for<0, n>{}(
            [&](auto i) { w.get_thread_buffer()[i] = flat.get_thread_buffer()[(kN * kKRepeat + kK) * n + i]; });
        return w;
    }

    // the flat [n blocks, k blocks, 512] view of one shuffled N x K weight matrix, padded to the
    // tile so that blocks past the matrix read 0
    template <typename T, index_t kNBlocks, index_t kKBlocks>
    CK_TILE_DEVICE static auto make_flat_weight_view(const T* p, index_t n, index_t k)
    {
        const index_t nb         = moe_weight_layout::padded_n(n) / moe_weight_layout::kBlockN;
        const index_t kb         = moe_weight_layout::padded_k(k) / moe_weight_layout::kBlockK;
        constexpr index_t kBlock = moe_weight_layout::kBlock;
        const auto v             = make_naive_tensor_view<address_space_enum::global>(
            p, make_tuple(nb, kb, number<kBlock>{}), make_tuple(kb * kBlock, number<kBlock>{}, number<1>{}),
            number<moe_weight_layout::kKPack>{});
        return pad_tensor_view(v, make_tuple(number<kNBlocks>{}, number<kKBlocks>{}, number<kBlock>{}),
                               sequence<1, 1, 0>{});
    }

    // a:        the A tensor ([tokens, stride_token]); g, u, d: this expert's shuffled weights
    //           (u = nullptr when gate only); o: the O tensor; p_smem: GetSmemSize() bytes of LDS
    // rows:     the block's sorted token ids (token in the low 24 bits) and weights, M of each
    // n0:       the slice's first intermediate column
    template <typename Activation>
    CK_TILE_DEVICE void
    operator()(const ADataType* p_a, const GDataType* p_g, const GDataType* p_u, const DDataType* p_d, ODataType* p_o,
               const IndexDataType* p_row_ids, const TopkWeightDataType* p_row_weights, index_t tokens, index_t hidden,
               index_t interm, index_t stride_token, index_t n0, void* p_smem, const Activation& act) const
    {
        Policy::template check_flat_layout<Problem>();
        constexpr index_t kM  = S::Block_M0;
        constexpr index_t kN0 = S::Block_N0;
        constexpr index_t kK0 = S::Block_K0;
        constexpr index_t kN1 = S::Block_N1;
        constexpr index_t kBN = moe_weight_layout::kBlockN;
        constexpr index_t kBK = moe_weight_layout::kBlockK;

        // ---- LDS: A tile, Y tile, the rows' tokens and weights --------------------------------
        char* smem     = static_cast<char*>(p_smem);
        auto* s_a      = reinterpret_cast<ADataType*>(smem);
        auto* s_y      = reinterpret_cast<YDataType*>(smem + Policy::template GetSmemSizeA<Problem>());
        auto* s_tok    = reinterpret_cast<index_t*>(smem + Policy::template GetSmemSizeA<Problem>() +
                                                    Policy::template GetSmemSizeY<Problem>());
        auto* s_weight = reinterpret_cast<TopkWeightDataType*>(s_tok + kM);

        const index_t tid = get_thread_id();
        if(tid < kM)
        {
            s_tok[tid]    = static_cast<index_t>(p_row_ids[tid]) & 0xffffff;
            s_weight[tid] = p_row_weights[tid];
        }
        block_sync_lds();

        const auto a_lds =
            make_tensor_view<address_space_enum::lds>(s_a, Policy::template MakeALdsDescriptor<Problem>());
        const auto y_lds =
            make_tensor_view<address_space_enum::lds>(s_y, Policy::template MakeYLdsDescriptor<Problem>());

        // ---- GEMM 0 -------------------------------------------------------------------------------
        constexpr auto a_dstr = Policy::template MakeAGatherTileDistribution<Problem>();
        using ADstr           = std::remove_cvref_t<decltype(a_dstr)>;
        const auto a_buf =
            make_buffer_view<address_space_enum::global>(p_a, static_cast<long_index_t>(tokens) * stride_token);
        // the calling thread's token rows (LDS is read once) and its A tile's gathered loads
        index_t a_tok[ADstr::thread_buffer_size / kVectorA];
        for_each_row_vector<ADstr, kVectorA>([&](auto d, index_t row, index_t) { a_tok[d / kVectorA] = s_tok[row]; });
        const auto load_a = [&](index_t k0) {
            static_distributed_tensor<ADataType, ADstr> t;
            for_each_row_vector<ADstr, kVectorA>([&](auto d, index_t, index_t col) {
                const index_t tok = a_tok[d / kVectorA];
                const index_t c   = k0 + col;
                const auto v      = a_buf.template get<kVectorA>(static_cast<long_index_t>(tok) * stride_token + c,
                                                                 tok < tokens && c < hidden);
                __builtin_memcpy(&t.get_thread_buffer()[d], &v, sizeof(v));
            });
            return t;
        };
        const auto a_lds_store =
            make_tile_window(a_lds, make_tuple(number<kM>{}, number<kK0>{}), make_multi_index(0, 0), a_dstr);

        constexpr auto g_dstr = Policy::template MakeGFlatTileDistribution<Problem>();
        constexpr auto g_lens = make_tuple(number<S::Repeat_N0 * S::WarpPerBlock_N0>{}, number<S::Repeat_K0>{},
                                           number<moe_weight_layout::kBlock>{});
        const auto g_view =
            make_flat_weight_view<GDataType, S::Repeat_N0 * S::WarpPerBlock_N0, S::Repeat_K0>(p_g, interm, hidden);
        auto g_win = make_tile_window(g_view, g_lens, make_multi_index(n0 / kBN, 0, 0), g_dstr);
        // the up weights: the same view of the up matrix (unused when gate only)
        auto u_win = make_tile_window(make_flat_weight_view<GDataType, S::Repeat_N0 * S::WarpPerBlock_N0, S::Repeat_K0>(
                                          IsGateOnly ? p_g : p_u, interm, hidden),
                                      g_lens, make_multi_index(n0 / kBN, 0, 0), g_dstr);

        constexpr auto c0_dstr = Policy::template MakeC0BlockTileDistribution<Problem>();
        auto gate              = make_static_distributed_tensor<AccDataType>(c0_dstr);
        auto up                = make_static_distributed_tensor<AccDataType>(c0_dstr);
        clear_tile(gate);
        clear_tile(up);

        const index_t warp_id  = get_warp_id();
        const index_t warp_m0  = warp_id / S::WarpPerBlock_N0;
        constexpr auto aw_dstr = make_static_tile_distribution(typename WarpGemm0::AWarpDstrEncoding{});
        using CWarp0           = typename WarpGemm0::CWarpTensor;
        constexpr index_t kC0  = CWarp0::thread_buffer_size;

        const index_t num_k0 = (hidden + kK0 - 1) / kK0;
        auto a_regs          = load_a(0);
        for(index_t i = 0; i < num_k0; ++i)
        {
            block_sync_lds(); // the previous step's A reads are done
            store_tile(a_lds_store, a_regs);
            block_sync_lds();
            if(i + 1 < num_k0)
                a_regs = load_a((i + 1) * kK0);
            const auto g_regs = load_tile(g_win);
            move_tile_window(g_win, {0, S::Repeat_K0, 0});
            auto u_regs = g_regs;
            if constexpr(!IsGateOnly)
            {
                u_regs = load_tile(u_win);
                move_tile_window(u_win, {0, S::Repeat_K0, 0});
            }

            static_for<0, S::Repeat_K0>{}([&](auto kr) {
                static_for<0, S::Repeat_M0>{}([&](auto mr) {
                    const auto a_w = load_tile(make_tile_window(
                        a_lds, make_tuple(number<S::Warp_M0>{}, number<S::Warp_K0>{}),
                        make_multi_index((mr * S::WarpPerBlock_M0 + warp_m0) * S::Warp_M0, kr * S::Warp_K0), aw_dstr));
                    static_for<0, S::Repeat_N0>{}([&](auto nr) {
                        constexpr index_t off = (mr * S::Repeat_N0 + nr) * kC0;
                        const auto run        = [&](auto& acc, const auto& w_regs) {
                            CWarp0 c;
                            static_for<0, kC0>{}(
                                [&](auto e) { c.get_thread_buffer()[e] = acc.get_thread_buffer()[off + e]; });
                            WarpGemm0{}(c, a_w,
                                        weight_operand<typename WarpGemm0::BWarpTensor, S::Repeat_K0>(w_regs, nr, kr));
                            static_for<0, kC0>{}(
                                [&](auto e) { acc.get_thread_buffer()[off + e] = c.get_thread_buffer()[e]; });
                        };
                        run(gate, g_regs);
                        if constexpr(!IsGateOnly)
                            run(up, u_regs);
                    });
                });
            });
        }

        // ---- Y = act(gate) (* up) -> LDS ------------------------------------------------------------
        {
            auto y = make_static_distributed_tensor<YDataType>(c0_dstr);
            static_for<0, decltype(y)::thread_buffer_size>{}([&](auto e) {
                float v = act(type_convert<float>(gate.get_thread_buffer()[e]));
                if constexpr(!IsGateOnly)
                    v *= type_convert<float>(up.get_thread_buffer()[e]);
                y.get_thread_buffer()[e] = type_convert<YDataType>(v);
            });
            store_tile(
                make_tile_window(y_lds, make_tuple(number<kM>{}, number<kN0>{}), make_multi_index(0, 0), c0_dstr), y);
        }
        block_sync_lds();

        // ---- GEMM 1: O[tokens, hidden] += w * Y D^T, hidden in N1 chunks --------------------------------
        const index_t warp_m1  = warp_id / S::WarpPerBlock_N1;
        constexpr auto yw_dstr = make_static_tile_distribution(typename WarpGemm1::AWarpDstrEncoding{});
        using YWarp            = std::remove_cvref_t<decltype(load_tile(make_tile_window(
            y_lds, make_tuple(number<S::Warp_M1>{}, number<S::Warp_K1>{}), make_multi_index(0, 0), yw_dstr)))>;
        // Y's warp tiles stay in registers for every chunk
        YWarp y_w[S::Repeat_M1][S::Repeat_K1];
        static_for<0, S::Repeat_M1>{}([&](auto mr) {
            static_for<0, S::Repeat_K1>{}([&](auto kr) {
                y_w[mr][kr] = load_tile(make_tile_window(
                    y_lds, make_tuple(number<S::Warp_M1>{}, number<S::Warp_K1>{}),
                    make_multi_index((mr * S::WarpPerBlock_M1 + warp_m1) * S::Warp_M1, kr * S::Warp_K1), yw_dstr));
            });
        });

        constexpr auto d_dstr = Policy::template MakeDFlatTileDistribution<Problem>();
        constexpr auto d_lens = make_tuple(number<S::Repeat_N1 * S::WarpPerBlock_N1>{}, number<S::Repeat_K1>{},
                                           number<moe_weight_layout::kBlock>{});
        auto d_win            = make_tile_window(
            make_flat_weight_view<DDataType, S::Repeat_N1 * S::WarpPerBlock_N1, S::Repeat_K1>(p_d, hidden, interm),
            d_lens, make_multi_index(0, n0 / kBK, 0), d_dstr);

        constexpr auto c1_dstr = Policy::template MakeC1BlockTileDistribution<Problem>();
        using C1Dstr           = std::remove_cvref_t<decltype(c1_dstr)>;
        using CWarp1           = typename WarpGemm1::CWarpTensor;
        constexpr index_t kC1  = CWarp1::thread_buffer_size;
        const auto o_buf =
            make_buffer_view<address_space_enum::global>(p_o, static_cast<long_index_t>(tokens) * stride_token);
        // the calling thread's rows of C: their tokens and weights
        index_t o_tok[C1Dstr::thread_buffer_size / kVectorO];
        float o_w[C1Dstr::thread_buffer_size / kVectorO];
        for_each_row_vector<C1Dstr, kVectorO>([&](auto d, index_t row, index_t) {
            o_tok[d / kVectorO] = s_tok[row];
            o_w[d / kVectorO]   = type_convert<float>(s_weight[row]);
        });

        const index_t num_n1 = (hidden + kN1 - 1) / kN1;
        for(index_t j = 0; j < num_n1; ++j)
        {
            const auto d_regs = load_tile(d_win);
            move_tile_window(d_win, {S::Repeat_N1 * S::WarpPerBlock_N1, 0, 0});
            auto o_acc = make_static_distributed_tensor<AccDataType>(c1_dstr);
            clear_tile(o_acc);
            static_for<0, S::Repeat_K1>{}([&](auto kr) {
                static_for<0, S::Repeat_M1>{}([&](auto mr) {
                    static_for<0, S::Repeat_N1>{}([&](auto nr) {
                        constexpr index_t off = (mr * S::Repeat_N1 + nr) * kC1;
                        CWarp1 c;
                        static_for<0, kC1>{}(
                            [&](auto e) { c.get_thread_buffer()[e] = o_acc.get_thread_buffer()[off + e]; });
                        WarpGemm1{}(c, y_w[mr][kr],
                                    weight_operand<typename WarpGemm1::BWarpTensor, S::Repeat_K1>(d_regs, nr, kr));
                        static_for<0, kC1>{}(
                            [&](auto e) { o_acc.get_thread_buffer()[off + e] = c.get_thread_buffer()[e]; });
                    });
                });
            });
            // O[token, h0 + col] += w * o, 4 columns at a time
            const index_t h0 = j * kN1;
            for_each_row_vector<C1Dstr, kVectorO>([&](auto d, index_t, index_t col) {
                const index_t tok = o_tok[d / kVectorO];
                const float w     = o_w[d / kVectorO];
                thread_buffer<ODataType, kVectorO> v;
                static_for<0, kVectorO>{}(
                    [&](auto e) { v[e] = type_convert<ODataType>(w * o_acc.get_thread_buffer()[d + e]); });
                const index_t c = h0 + col;
                o_buf.template atomic_add<kVectorO>(static_cast<long_index_t>(tok) * stride_token + c,
                                                    tok < tokens && c < hidden, v);
            });
        }
    }
};

} // namespace ck_tile
