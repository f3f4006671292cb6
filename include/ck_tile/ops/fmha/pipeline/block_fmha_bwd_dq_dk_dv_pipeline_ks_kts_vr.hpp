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
#include "ck_tile/ops/fmha/block/block_fmha_bwd_global_access.hpp"
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

    // v where the bit mask m is all ones, +0 where it is 0 (also for an inf or NaN v)
    CK_TILE_DEVICE static float and_bits(float v, uint32_t m)
    {
        return __builtin_bit_cast(float, __builtin_bit_cast(uint32_t, v) & m);
    }

    // q_g [seqlen_q, hdim_q], k_g [seqlen_k, hdim_q], v_g [seqlen_k, hdim_v], do_g [seqlen_q,
    // hdim_v], dq_g (fp32) [seqlen_q, hdim_q]: the (batch, head)'s tensors (block_fmha_bwd_global_
    // access.hpp). lse_buf / d_buf: the rows' LSE and D. bias_buf: [seqlen_q, seqlen_k] rows
    // bias_stride apart (ELEMENTWISE_BIAS); position_encoding: ALiBi (ALIBI). i_n0: the block's
    // first key.
    template <typename LSEBuffer, typename DBuffer, typename BiasBuffer, typename PositionEncoding>
    CK_TILE_DEVICE Result operator()(const FmhaBwdTensor<const QDataType>& q_g,
                                     const FmhaBwdTensor<const KDataType>& k_g,
                                     const FmhaBwdTensor<const VDataType>& v_g,
                                     const FmhaBwdTensor<const OGradDataType>& do_g,
                                     const FmhaBwdTensor<AccDataType>& dq_g, const LSEBuffer& lse_buf,
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
        constexpr index_t kVecQK = Policy::template kVector16B<QDataType>;
        constexpr index_t kVecV  = Policy::template kVector16B<VDataType>;
        {
            constexpr auto k_dstr = Policy::template MakeKDramTileDistribution<Problem>();
            auto k_regs           = make_static_distributed_tensor<KDataType>(k_dstr);
            fmha_bwd_load<kVecQK>(k_regs, k_g, i_n0, 0, k_g.rows, k_g.cols, k_g.stride);
            store_tile(make_tile_window(k_lds, make_tuple(number<kN0>{}, number<kQKHeaddim>{}), make_multi_index(0, 0),
                                        k_dstr),
                       k_regs);
        }
        constexpr index_t kVIter = kVHeaddim / WarpGemmS::kK;
        using VWarp              = typename WarpGemmS::AWarpTensor;
        constexpr auto a_dstr_s  = typename VWarp::StaticTileDistribution{};
        VWarp v[kVIter];
        static_for<0, kVIter>{}([&](auto k) {
            fmha_bwd_load<kVecV>(v[k], v_g, i_n0 + warp * S::kWarpM, k * WarpGemmS::kK, v_g.rows, v_g.cols, v_g.stride);
        });

        constexpr auto q_dstr  = Policy::template MakeQDramTileDistribution<Problem>();
        constexpr auto do_dstr = Policy::template MakeOGradDramTileDistribution<Problem>();
        const auto q_lds_win =
            make_tile_window(q_lds, make_tuple(number<kM0>{}, number<kQKHeaddim>{}), make_multi_index(0, 0), q_dstr);
        const auto do_lds_win =
            make_tile_window(do_lds, make_tuple(number<kM0>{}, number<kVHeaddim>{}), make_multi_index(0, 0), do_dstr);
        const auto ds_store_win =
            make_tile_window(dst_lds, make_tuple(number<kN0>{}, number<kM0>{}), make_multi_index(0, 0), SDstr{});

        // the lane's key (one per lane: transposed C) and its first query column
        const auto s_origin = SDstr::calculate_index();
        const index_t key   = i_n0 + s_origin[0];
        // run-time values used per score, in vector registers (scalar copies would stay live
        // through the loop; see the forward pipeline)
        const uint32_t mask_x_v   = opaque_vgpr_copy(static_cast<uint32_t>(mask.x));
        const uint32_t mask_y_v   = opaque_vgpr_copy(static_cast<uint32_t>(mask.y));
        const uint32_t seqlen_q_v = opaque_vgpr_copy(static_cast<uint32_t>(seqlen_q));
        // the shapes and strides of Q, dO and dQ likewise (fmha_bwd_for_each_access)
        const uint32_t hdim_q_v      = opaque_vgpr_copy(static_cast<uint32_t>(q_g.cols));
        const uint32_t hdim_v_v      = opaque_vgpr_copy(static_cast<uint32_t>(do_g.cols));
        const uint32_t stride_q_v    = opaque_vgpr_copy(static_cast<uint32_t>(q_g.stride));
        const uint32_t stride_do_v   = opaque_vgpr_copy(static_cast<uint32_t>(do_g.stride));
        const uint32_t stride_dq_v   = opaque_vgpr_copy(static_cast<uint32_t>(dq_g.stride));
        const uint32_t bias_stride_v = opaque_vgpr_copy(static_cast<uint32_t>(bias_stride));
        const float scale_v          = __builtin_bit_cast(float, opaque_vgpr_copy(__builtin_bit_cast(uint32_t, scale)));
        const uint32_t key_ok        = fmha_bwd_neg_mask(static_cast<uint32_t>(key - seqlen_k)); // key < seqlen_k
        const float rp_undrop        = kHasDropout && is_dropout ? dropout.rp_undrop : 1.f;
        const uint32_t drop_threshold_v = opaque_vgpr_copy(dropout.p_undrop_in_uint8_t);

        for(index_t step = 0; step < num_steps; ++step)
        {
            const index_t i_m0 = y_start + step * kM0;

            // ---- Q and dO of these rows into LDS ----------------------------------------------------
            auto q_regs  = make_static_distributed_tensor<QDataType>(q_dstr);
            auto do_regs = make_static_distributed_tensor<OGradDataType>(do_dstr);
            fmha_bwd_load<kVecQK>(q_regs, q_g, i_m0, 0, seqlen_q_v, hdim_q_v, stride_q_v);
            fmha_bwd_load<kVecV>(do_regs, do_g, i_m0, 0, seqlen_q_v, hdim_v_v, stride_do_v);
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

            // ---- P, Pd and dS, score by score, a phase at a time ---------------------------------------
            // (the conditions as bit masks in vector registers, see fmha_bwd_neg_mask; uniform branches
            // around whole phases, not inside the per-score work)
            constexpr index_t kS = SDstr::thread_buffer_size;
            float s[kS];
            static_for<0, kS>{}([&](auto d) { s[d] = st.get_thread_buffer()[d] * scale_v; });
            if constexpr(kHasBias)
            {
                if(bias_type == BlockAttentionBiasEnum::ELEMENTWISE_BIAS)
                {
                    static_for<0, kS>{}([&](auto d) {
                        constexpr auto x  = SDstr::d_to_x_offset(d);
                        const index_t row = i_m0 + s_origin[1] + x[1];
                        // outside the rows or keys: an offset past any buffer (the read gives 0)
                        const uint32_t ok = fmha_bwd_neg_mask(static_cast<uint32_t>(row) - seqlen_q_v) & key_ok;
                        const uint32_t i  = (static_cast<uint32_t>(row) * bias_stride_v + static_cast<uint32_t>(key)) |
                                            (~ok & 0x7fffffffu);
                        s[d] += type_convert<float>(bias_buf.template get<1>(i, true)[0]);
                    });
                }
                else if(bias_type == BlockAttentionBiasEnum::ALIBI)
                {
                    static_for<0, kS>{}([&](auto d) {
                        constexpr auto x = SDstr::d_to_x_offset(d);
                        position_encoding.update(s[d], i_m0 + s_origin[1] + x[1], key);
                    });
                }
            }
            float p[kS], dp[kS], dd[kS];
            static_for<0, kS>{}([&](auto d) {
                constexpr auto x       = SDstr::d_to_x_offset(d);
                const index_t row      = i_m0 + s_origin[1] + x[1]; // the query
                const uint32_t in_rows = fmha_bwd_neg_mask(static_cast<uint32_t>(row) - seqlen_q_v);
                const float lse        = lse_buf.template get<1>(row, true)[0];
                dd[d]                  = d_buf.template get<1>(row, true)[0];
                // visible: in the rows, inside the mask (block_masking.hpp's IsOutOfBound) and
                // LSE > -inf (a row that saw no key in the forward)
                uint32_t ok = in_rows & key_ok;
                if constexpr(FmhaMask::IsMasking)
                {
                    ok &= fmha_bwd_neg_mask(static_cast<uint32_t>(key) - static_cast<uint32_t>(row) -
                                            mask_x_v); // key < row + x
                    if constexpr(FmhaMask::IsLocal)
                        ok &= fmha_bwd_neg_mask(static_cast<uint32_t>(row) - mask_y_v -
                                                static_cast<uint32_t>(key)); // key > row - y
                }
                const float lse_e = lse == kNegInf ? -kNegInf : lse;
                p[d]              = and_bits(__builtin_exp2f((s[d] - lse_e) * kLog2e), ok);
                dp[d]             = dpt.get_thread_buffer()[d];
            });
            float pd[kS];
            static_for<0, kS>{}([&](auto d) { pd[d] = p[d]; });
            if constexpr(kHasDropout)
            {
                if(is_dropout)
                {
                    static_for<0, kS>{}([&](auto d) {
                        constexpr auto x  = SDstr::d_to_x_offset(d);
                        const index_t row = i_m0 + s_origin[1] + x[1];
                        // one Philox draw per score (block_dropout.hpp: upstream's stream)
                        const uint32_t rv = dropout.randval(row, key);
                        // kept iff byte <= threshold
                        const uint32_t keep = ~fmha_bwd_neg_mask(drop_threshold_v - rv);
                        pd[d]               = and_bits(p[d] * rp_undrop, keep);
                        dp[d]               = and_bits(dp[d] * rp_undrop, keep);
                    });
                }
            }
            auto pd_t = make_static_distributed_tensor<GemmDataType>(SDstr{});
            auto ds_t = make_static_distributed_tensor<GemmDataType>(SDstr{});
            static_for<0, kS>{}([&](auto d) {
                pd_t.get_thread_buffer()[d] = type_convert<GemmDataType>(pd[d]);
                ds_t.get_thread_buffer()[d] = type_convert<GemmDataType>(p[d] * (dp[d] - dd[d]));
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
                    fmha_bwd_atomic_add(acc, dq_g, i_m0, n * S::kWarpN, seqlen_q_v, hdim_q_v, stride_dq_v);
                });
            }
        }

        tile_elementwise_inout([&](auto& x) { x *= scale_v; }, r.dk);
        return r;
    }
};

} // namespace ck_tile
