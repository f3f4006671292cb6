// SPDX-License-Identifier: MIT
// BlockFmhaBwdDQDKDVPipelineKSKTSVR ("ks_kts_vr": K and K^T from LDS, V in registers): the
// gradients of one block's kN0 keys [i_n0, i_n0 + kN0) of one (batch, query head).
//
// For every kM0 query rows [i_m0, i_m0 + kM0) the mask lets see those keys (flash-attention
// backward, recomputing P from the forward's log-sum-exp instead of storing it):
//
//   S^T   = K Q^T                  (+ bias or ALiBi; masked and padding scores drop out)
//   P     = exp(scale S - LSE)     0 where masked or where the row saw no key (LSE = -inf)
//   Pd    = P keep / p_undrop      the forward's dropped P
//   dPd^T = V dO^T
//   dS    = P (dPd keep / p_undrop - D)     D = rowsum(dO * O), from FmhaBwdOGradDotOKernel
//   dV   += Pd^T dO,  dK += dS^T Q          kept in registers through the loop
//   dQ   += dS K                            added atomically into an fp32 workspace
//
// and finally dK *= scale (dQ is scaled before its atomic add). The policy describes the layouts.
#pragma once
#include "ck_tile/core.hpp"
#include "ck_tile/ops/fmha/block/block_attention_bias_enum.hpp"
#include "ck_tile/ops/fmha/block/block_dropout.hpp"
#include "ck_tile/ops/fmha/pipeline/block_fmha_bwd_pipeline_default_policy.hpp"

namespace ck_tile {

template <typename Problem_, typename Policy_ = BlockFmhaBwdPipelineDefaultPolicy>
struct BlockFmhaBwdDQDKDVPipelineKSKTSVR
{
    using Problem = std::remove_cvref_t<Problem_>;
    using Policy  = std::remove_cvref_t<Policy_>;

    using QDataType     = typename Problem::QDataType;
    using KDataType     = typename Problem::KDataType;
    using VDataType     = typename Problem::VDataType;
    using GemmDataType  = typename Problem::GemmDataType;
    using LSEDataType   = typename Problem::LSEDataType;
    using AccDataType   = typename Problem::AccDataType;
    using DDataType     = typename Problem::DDataType;
    using BiasDataType  = typename Problem::BiasDataType;
    using OGradDataType = typename Problem::OGradDataType;
    using FmhaMask      = typename Problem::FmhaMask;
    using S             = typename Problem::BlockFmhaShape;

    static constexpr const char* name = "ks_kts_vr";

    static constexpr index_t kBlockSize  = Problem::kBlockSize;
    static constexpr index_t kM0         = S::kM0;
    static constexpr index_t kN0         = S::kN0;
    static constexpr index_t kQKHeaddim  = S::kQKHeaddim;
    static constexpr index_t kVHeaddim   = S::kVHeaddim;
    static constexpr bool kIsGroupMode   = Problem::kIsGroupMode;
    static constexpr bool kHasBias       = Problem::kHasBias;
    static constexpr bool kHasDropout    = Problem::kHasDropout;
    static constexpr index_t kBlockPerCu = Problem::kBlockPerCu > 0 ? Problem::kBlockPerCu : 1;

    using WarpGemmS  = typename Policy::template WarpGemmS<Problem>;
    using WarpGemmKV = typename Policy::template WarpGemmKV<Problem>;
    using WarpGemmDQ = typename Policy::template WarpGemmDQ<Problem>;

    using SDstr  = std::remove_cvref_t<decltype(Policy::template MakeSBlockTileDistribution<Problem>())>;
    using DKDstr = std::remove_cvref_t<decltype(Policy::template MakeKGradBlockTileDistribution<Problem>())>;
    using DVDstr = std::remove_cvref_t<decltype(Policy::template MakeVGradBlockTileDistribution<Problem>())>;

    CK_TILE_HOST_DEVICE static constexpr index_t GetSmemSize() { return Policy::template GetSmemSize<Problem>(); }

    struct Result
    {
        static_distributed_tensor<AccDataType, DKDstr> dk; // scaled
        static_distributed_tensor<AccDataType, DVDstr> dv;
    };

    // the register of the S^T tile that holds query column `kCol` (relative to the lane's first)
    template <index_t kCol>
    CK_TILE_HOST_DEVICE static constexpr index_t s_register_of_column()
    {
        for(index_t d = 0; d < SDstr::thread_buffer_size; ++d)
        {
            const auto x = SDstr::d_to_x_offset(d);
            if(x[0] == 0 && x[1] == kCol)
                return d;
        }
        return -1;
    }
    // an S^T-shaped tile's registers as the dV / dK GEMM's A warp tile for the query rows
    // [c kK, (c + 1) kK)
    template <index_t kC, typename Tile>
    CK_TILE_DEVICE static auto a_warp_tile(const Tile& t)
    {
        using AWarp = typename WarpGemmKV::AWarpTensor;
        using ADstr = typename AWarp::StaticTileDistribution;
        AWarp a;
        static_for<0, AWarp::thread_buffer_size>{}([&](auto e) {
            constexpr index_t ka = ADstr::d_to_x_offset(e)[1];
            constexpr index_t d  = s_register_of_column<kC * WarpGemmKV::kK + ka>();
            static_assert(d >= 0, "BlockFmhaBwdDQDKDVPipelineKSKTSVR: S^T's layout is not the A layout");
            a.get_thread_buffer()[e] = t.get_thread_buffer()[d];
        });
        return a;
    }

    // acc (a block tile of kN repeats of a warp GEMM's C) += a * b for every repeat n, b from
    // a [N, K] LDS view at (n kWarpN, k0)
    template <typename WarpGemm, index_t kNRepeat, typename Acc, typename AWarp, typename BView>
    CK_TILE_DEVICE static void accumulate(Acc& acc, const AWarp& a, const BView& b_view, index_t k0)
    {
        using CWarp           = typename WarpGemm::CWarpTensor;
        constexpr index_t kC  = CWarp::thread_buffer_size;
        constexpr auto b_dstr = typename WarpGemm::BWarpTensor::StaticTileDistribution{};
        static_for<0, kNRepeat>{}([&](auto n) {
            const auto b = load_tile(make_tile_window(b_view, make_tuple(number<S::kWarpN>{}, number<WarpGemm::kK>{}),
                                                      make_multi_index(n * S::kWarpN, k0), b_dstr));
            CWarp c;
            static_for<0, kC>{}([&](auto e) { c.get_thread_buffer()[e] = acc.get_thread_buffer()[n * kC + e]; });
            WarpGemm{}(c, a, b);
            static_for<0, kC>{}([&](auto e) { acc.get_thread_buffer()[n * kC + e] = c.get_thread_buffer()[e]; });
        });
    }

    // byte (b % 16) of a 16-byte Philox draw, b known only at run time: selected word by word
    // (indexing the array at run time would put it in scratch)
    CK_TILE_DEVICE static uint8_t byte_of(const array<uint8_t, 16>& rv, index_t b)
    {
        uint32_t word = 0;
        static_for<0, 4>{}([&](auto k) {
            const uint32_t wk = uint32_t(rv[4 * k]) | uint32_t(rv[4 * k + 1]) << 8 | uint32_t(rv[4 * k + 2]) << 16 |
                                uint32_t(rv[4 * k + 3]) << 24;
            word              = (b / 4) == k ? wk : word;
        });
        return static_cast<uint8_t>(word >> (8 * (b % 4)));
    }

    // q_view [seqlen_q, hdim_q], k_view [seqlen_k, hdim_q], v_view [seqlen_k, hdim_v], do_view
    // [seqlen_q, hdim_v], dq_view (fp32) [seqlen_q, hdim_q]: the (batch, head)'s tensors padded to
    // whole tiles. lse_buf / d_buf: the rows' LSE and D. bias_buf: [seqlen_q, seqlen_k] rows
    // bias_stride apart (ELEMENTWISE_BIAS); position_encoding: ALiBi (ALIBI). i_n0: the block's
    // first key.
    template <typename QView, typename KView, typename VView, typename OGradView, typename QGradView,
              typename LSEBuffer, typename DBuffer, typename BiasBuffer, typename PositionEncoding>
    CK_TILE_DEVICE Result operator()(const QView& q_view, const KView& k_view, const VView& v_view,
                                     const OGradView& do_view, const QGradView& dq_view, const LSEBuffer& lse_buf,
                                     const DBuffer& d_buf, const BiasBuffer& bias_buf, index_t bias_stride,
                                     BlockAttentionBiasEnum bias_type, const PositionEncoding& position_encoding,
                                     const FmhaMask& mask, index_t i_n0, index_t seqlen_q, float scale,
                                     const BlockDropout& dropout, bool is_dropout, char* p_smem) const
    {
        constexpr float kLog2e  = 1.4426950408889634f;
        constexpr float kNegInf = -numeric<float>::infinity();
        const index_t warp      = get_warp_id();
        const index_t seqlen_k  = mask.x_total;

        Result r;
        clear_tile(r.dk);
        clear_tile(r.dv);

        // ---- the query rows that see any of the keys: (i, j) is visible for i >= j - x + 1 and,
        // with a left window, i <= j + y - 1 (block_masking.hpp); rows start at a tile multiple
        index_t y_start = 0, y_end = seqlen_q;
        if constexpr(FmhaMask::IsMasking)
        {
            y_start = max(i_n0 - mask.x + 1, index_t{0});
            if constexpr(FmhaMask::IsLocal)
                y_end = min(min(i_n0 + kN0, seqlen_k) - 1 + mask.y, seqlen_q);
        }
        y_start                 = (y_start / kM0) * kM0;
        const index_t num_steps = y_end > y_start ? (y_end - y_start + kM0 - 1) / kM0 : 0;
        if(num_steps <= 0 || i_n0 >= seqlen_k)
            return r; // no row sees these keys: their dK and dV are 0

        // ---- LDS views -------------------------------------------------------------------------------
        const auto lds = [&](auto offset, auto desc, auto* type_tag) {
            using T = std::remove_pointer_t<decltype(type_tag)>;
            return make_tensor_view<address_space_enum::lds>(reinterpret_cast<T*>(p_smem + offset), desc);
        };
        constexpr index_t kOffQ  = Policy::template GetSmemOffsetQ<Problem>();
        constexpr index_t kOffDO = Policy::template GetSmemOffsetOGrad<Problem>();
        constexpr index_t kOffDS = Policy::template GetSmemOffsetDS<Problem>();
        const auto k_lds  = lds(0, Policy::template MakeKLdsDescriptor<Problem>(), static_cast<KDataType*>(nullptr));
        const auto kt_lds = lds(0, Policy::template MakeKTLdsDescriptor<Problem>(), static_cast<KDataType*>(nullptr));
        const auto q_lds = lds(kOffQ, Policy::template MakeQLdsDescriptor<Problem>(), static_cast<QDataType*>(nullptr));
        const auto qt_lds =
            lds(kOffQ, Policy::template MakeQTLdsDescriptor<Problem>(), static_cast<QDataType*>(nullptr));
        const auto do_lds =
            lds(kOffDO, Policy::template MakeOGradLdsDescriptor<Problem>(), static_cast<OGradDataType*>(nullptr));
        const auto dot_lds =
            lds(kOffDO, Policy::template MakeOGradTLdsDescriptor<Problem>(), static_cast<OGradDataType*>(nullptr));
        const auto ds_lds =
            lds(kOffDS, Policy::template MakeDSLdsDescriptor<Problem>(), static_cast<GemmDataType*>(nullptr));
        const auto dst_lds =
            lds(kOffDS, Policy::template MakeDSTLdsDescriptor<Problem>(), static_cast<GemmDataType*>(nullptr));

        // ---- K: once, into LDS; V: once, into the dPd GEMM's A warp tiles ---------------------------
        {
            const auto k_win =
                make_tile_window(k_view, make_tuple(number<kN0>{}, number<kQKHeaddim>{}), make_multi_index(i_n0, 0),
                                 Policy::template MakeKDramTileDistribution<Problem>());
            const auto k_regs = load_tile(k_win);
            store_tile(make_tile_window(k_lds, make_tuple(number<kN0>{}, number<kQKHeaddim>{}), make_multi_index(0, 0),
                                        k_win.get_tile_distribution()),
                       k_regs);
        }
        constexpr index_t kVIter = kVHeaddim / WarpGemmS::kK;
        using VWarp              = typename WarpGemmS::AWarpTensor;
        constexpr auto a_dstr_s  = typename VWarp::StaticTileDistribution{};
        VWarp v[kVIter];
        static_for<0, kVIter>{}([&](auto k) {
            v[k] = load_tile(make_tile_window(v_view, make_tuple(number<S::kWarpM>{}, number<WarpGemmS::kK>{}),
                                              make_multi_index(i_n0 + warp * S::kWarpM, k * WarpGemmS::kK), a_dstr_s));
        });

        auto q_win =
            make_tile_window(q_view, make_tuple(number<kM0>{}, number<kQKHeaddim>{}), make_multi_index(y_start, 0),
                             Policy::template MakeQDramTileDistribution<Problem>());
        auto do_win =
            make_tile_window(do_view, make_tuple(number<kM0>{}, number<kVHeaddim>{}), make_multi_index(y_start, 0),
                             Policy::template MakeOGradDramTileDistribution<Problem>());
        const auto q_lds_win =
            make_tile_window(q_lds, q_win.get_window_lengths(), make_multi_index(0, 0), q_win.get_tile_distribution());
        const auto do_lds_win = make_tile_window(do_lds, do_win.get_window_lengths(), make_multi_index(0, 0),
                                                 do_win.get_tile_distribution());
        const auto ds_store_win =
            make_tile_window(dst_lds, make_tuple(number<kN0>{}, number<kM0>{}), make_multi_index(0, 0), SDstr{});

        // the lane's key (one per lane: transposed C) and its first query column
        const auto s_origin = SDstr::calculate_index();
        const index_t key   = i_n0 + s_origin[0];
        // run-time values used per score, in vector registers (scalar copies would stay live
        // through the loop; see the forward pipeline)
        FmhaMask mask_v             = mask;
        mask_v.y                    = static_cast<index_t>(opaque_vgpr_copy(static_cast<uint32_t>(mask.y)));
        mask_v.x                    = static_cast<index_t>(opaque_vgpr_copy(static_cast<uint32_t>(mask.x)));
        mask_v.x_total              = static_cast<index_t>(opaque_vgpr_copy(static_cast<uint32_t>(mask.x_total)));
        const index_t seqlen_q_v    = static_cast<index_t>(opaque_vgpr_copy(static_cast<uint32_t>(seqlen_q)));
        const index_t bias_stride_v = static_cast<index_t>(opaque_vgpr_copy(static_cast<uint32_t>(bias_stride)));
        const float scale_v         = __builtin_bit_cast(float, opaque_vgpr_copy(__builtin_bit_cast(uint32_t, scale)));
        const float rp_undrop       = kHasDropout && is_dropout ? dropout.rp_undrop : 1.f;

        for(index_t step = 0; step < num_steps; ++step)
        {
            const index_t i_m0 = y_start + step * kM0;

            // ---- Q and dO of these rows into LDS ----------------------------------------------------
            const auto q_regs  = load_tile(q_win);
            const auto do_regs = load_tile(do_win);
            move_tile_window(q_win, make_multi_index(kM0, 0));
            move_tile_window(do_win, make_multi_index(kM0, 0));
            block_sync_lds(); // the last step's reads of Q, dO and dS are done
            store_tile(q_lds_win, q_regs);
            store_tile(do_lds_win, do_regs);
            block_sync_lds();

            // ---- S^T = K Q^T, dPd^T = V dO^T: one warp tile each ----------------------------------
            using CWarp           = typename WarpGemmS::CWarpTensor;
            constexpr auto b_dstr = typename WarpGemmS::BWarpTensor::StaticTileDistribution{};
            CWarp st, dpt;
            st.clear();
            dpt.clear();
            static_for<0, kQKHeaddim / WarpGemmS::kK>{}([&](auto k) {
                const auto a =
                    load_tile(make_tile_window(k_lds, make_tuple(number<S::kWarpM>{}, number<WarpGemmS::kK>{}),
                                               make_multi_index(warp * S::kWarpM, k * WarpGemmS::kK), a_dstr_s));
                const auto b = load_tile(make_tile_window(q_lds, make_tuple(number<kM0>{}, number<WarpGemmS::kK>{}),
                                                          make_multi_index(0, k * WarpGemmS::kK), b_dstr));
                WarpGemmS{}(st, a, b);
            });
            static_for<0, kVIter>{}([&](auto k) {
                const auto b = load_tile(make_tile_window(do_lds, make_tuple(number<kM0>{}, number<WarpGemmS::kK>{}),
                                                          make_multi_index(0, k * WarpGemmS::kK), b_dstr));
                WarpGemmS{}(dpt, v[k], b);
            });

            // ---- P, Pd and dS, score by score -------------------------------------------------------
            auto pd_t = make_static_distributed_tensor<GemmDataType>(SDstr{});
            auto ds_t = make_static_distributed_tensor<GemmDataType>(SDstr{});
            static_for<0, SDstr::thread_buffer_size>{}([&](auto d) {
                constexpr auto x  = SDstr::d_to_x_offset(d);
                const index_t row = i_m0 + s_origin[1] + x[1]; // the query
                float s           = st.get_thread_buffer()[d] * scale_v;
                if constexpr(kHasBias)
                {
                    if(bias_type == BlockAttentionBiasEnum::ELEMENTWISE_BIAS)
                        s += type_convert<float>(
                            bias_buf.template get<1>(static_cast<long_index_t>(row) * bias_stride_v + key,
                                                     row < seqlen_q_v && key < mask_v.x_total)[0]);
                    else if(bias_type == BlockAttentionBiasEnum::ALIBI)
                        position_encoding.update(s, row, key);
                }
                const bool in_rows = row < seqlen_q_v;
                const float lse    = lse_buf.template get<1>(row, in_rows)[0];
                const float dd     = d_buf.template get<1>(row, in_rows)[0];
                const bool visible = in_rows && !mask_v.IsOutOfBound(row, key) && lse != kNegInf;
                const float p      = visible ? __builtin_exp2f((s - lse) * kLog2e) : 0.f;
                bool keep          = true;
                if constexpr(kHasDropout)
                {
                    if(is_dropout)
                        keep = dropout.keep(byte_of(dropout.randval16(row, key / 16), key % 16));
                }
                const float pd              = keep ? p * rp_undrop : 0.f;
                const float dp              = keep ? dpt.get_thread_buffer()[d] * rp_undrop : 0.f;
                pd_t.get_thread_buffer()[d] = type_convert<GemmDataType>(pd);
                ds_t.get_thread_buffer()[d] = type_convert<GemmDataType>(p * (dp - dd));
            });

            // ---- dV += Pd^T dO, dK += dS^T Q ------------------------------------------------------------
            static_for<0, kM0 / WarpGemmKV::kK>{}([&](auto c) {
                accumulate<WarpGemmKV, kVHeaddim / S::kWarpN>(r.dv, a_warp_tile<c>(pd_t), dot_lds, c * WarpGemmKV::kK);
                accumulate<WarpGemmKV, kQKHeaddim / S::kWarpN>(r.dk, a_warp_tile<c>(ds_t), qt_lds, c * WarpGemmKV::kK);
            });

            // ---- dQ += scale dS K: each warp its own keys, added atomically --------------------------
            store_tile(ds_store_win, ds_t);
            block_sync_lds();
            {
                using CWarpDQ            = typename WarpGemmDQ::CWarpTensor;
                constexpr auto a_dstr_dq = typename WarpGemmDQ::AWarpTensor::StaticTileDistribution{};
                constexpr auto b_dstr_dq = typename WarpGemmDQ::BWarpTensor::StaticTileDistribution{};
                static_for<0, kQKHeaddim / S::kWarpN>{}([&](auto n) {
                    CWarpDQ acc;
                    acc.clear();
                    static_for<0, S::kWarpM / WarpGemmDQ::kK>{}([&](auto k) {
                        const index_t k0 = warp * S::kWarpM + k * WarpGemmDQ::kK;
                        const auto a =
                            load_tile(make_tile_window(ds_lds, make_tuple(number<kM0>{}, number<WarpGemmDQ::kK>{}),
                                                       make_multi_index(0, k0), a_dstr_dq));
                        const auto b = load_tile(
                            make_tile_window(kt_lds, make_tuple(number<S::kWarpN>{}, number<WarpGemmDQ::kK>{}),
                                             make_multi_index(n * S::kWarpN, k0), b_dstr_dq));
                        WarpGemmDQ{}(acc, a, b);
                    });
                    tile_elementwise_inout([&](auto& x) { x *= scale_v; }, acc);
                    atomic_add_tile(make_tile_window(dq_view, make_tuple(number<kM0>{}, number<S::kWarpN>{}),
                                                     make_multi_index(i_m0, n * S::kWarpN),
                                                     typename CWarpDQ::StaticTileDistribution{}),
                                    acc);
                });
            }
        }

        tile_elementwise_inout([&](auto& x) { x *= scale_v; }, r.dk);
        return r;
    }
};

} // namespace ck_tile
