// SPDX-License-Identifier: MIT
// BlockFmhaPipelineQRKSVS ("qr"): one block's rows of attention, flash-attention style.
//
// The block owns kM0 query rows [i_m0, i_m0 + kM0) of one (batch, head) and kN1 output columns;
// each warp owns kWarpM of those rows. For every kN0 keys [j, j + kN0) the mask leaves visible:
//
//   S = Q K^T                     Q in registers (loaded once), K through LDS; MFMA
//   t = (scale_s S + bias) log2e  element-wise bias or ALiBi; masked and padding keys -> -inf
//   m' = max(m, rowmax t)         online softmax in base 2: P = exp2(t - m'),
//   l  = l exp2(m - m') + rowsum P    O = O exp2(m - m') (running max and sum)
//   P  = dropout(P)               the kept values (the 1 / p_undrop rescale is applied to O once)
//   O += P V                      P stays in registers as GEMM 1's A operand, V through LDS
//
// and finally O / l (a row that sees no key gives O = 0 and LSE = -inf). A lane holds one query
// row (the transposed-C warp GEMM, see the policy), so m and l are one register each and the row
// reductions are one xor butterfly over the lanes of the row.
#pragma once
#include "ck_tile/core.hpp"
#include "ck_tile/ops/fmha/block/block_attention_bias_enum.hpp"
#include "ck_tile/ops/fmha/block/block_dropout.hpp"
#include "ck_tile/ops/fmha/pipeline/block_fmha_pipeline_enum.hpp"
#include "ck_tile/ops/fmha/pipeline/block_fmha_pipeline_qr_ks_vs_default_policy.hpp"

namespace ck_tile {

template <typename Problem_, typename Policy_ = BlockFmhaPipelineQRKSVSDefaultPolicy>
struct BlockFmhaPipelineQRKSVS
{
    using Problem = std::remove_cvref_t<Problem_>;
    using Policy  = std::remove_cvref_t<Policy_>;

    using QDataType           = typename Problem::QDataType;
    using KDataType           = typename Problem::KDataType;
    using VDataType           = typename Problem::VDataType;
    using SaccDataType        = typename Problem::SaccDataType;
    using SMPLComputeDataType = typename Problem::SMPLComputeDataType;
    using BiasDataType        = typename Problem::BiasDataType;
    using LSEDataType         = typename Problem::LSEDataType;
    using PDataType           = typename Problem::PDataType;
    using OaccDataType        = typename Problem::OaccDataType;
    using ODataType           = typename Problem::ODataType;
    using FmhaMask            = typename Problem::FmhaMask;
    using BlockFmhaShape      = typename Problem::BlockFmhaShape;
    using S                   = BlockFmhaShape;

    static constexpr BlockFmhaPipelineEnum kPipelineEnum = BlockFmhaPipelineEnum::QRKSVS;
    static constexpr const char* name                    = "qr";

    static constexpr index_t kBlockSize = Problem::kBlockSize;
    static constexpr index_t kM0        = S::kM0;
    static constexpr index_t kN0        = S::kN0;
    static constexpr index_t kN1        = S::kN1;
    static constexpr index_t kK1        = S::kK1;
    static constexpr index_t kHeadDim   = S::kK0BlockLength;

    static constexpr bool kIsGroupMode      = Problem::kIsGroupMode;
    static constexpr bool kPadSeqLenQ       = Problem::kPadSeqLenQ;
    static constexpr bool kPadSeqLenK       = Problem::kPadSeqLenK;
    static constexpr bool kPadHeadDimQ      = Problem::kPadHeadDimQ;
    static constexpr bool kPadHeadDimV      = Problem::kPadHeadDimV;
    static constexpr bool kHasBias          = Problem::kHasBias;
    static constexpr bool kStoreLSE         = Problem::kStoreLSE;
    static constexpr bool kHasDropout       = Problem::kHasDropout;
    static constexpr bool kDoFp8StaticQuant = Problem::kDoFp8StaticQuant;

    // occupancy: blocks per CU the instance is built for (upstream's defaults for "qr")
    static constexpr index_t kBlockPerCu = Problem::kBlockPerCu > 0 ? Problem::kBlockPerCu
                                           : kHeadDim <= 32         ? 2
                                           : kHeadDim <= 64         ? 3
                                           : kHeadDim <= 128        ? 2
                                                                    : 1;

    using WarpGemm0 = typename Policy::template WarpGemm0<Problem>;
    using WarpGemm1 = typename Policy::template WarpGemm1<Problem>;

    using SDstr      = std::remove_cvref_t<decltype(Policy::template MakeSBlockTileDistribution<Problem>())>;
    using ODstr      = std::remove_cvref_t<decltype(Policy::template MakeOBlockTileDistribution<Problem>())>;
    using SBlockTile = static_distributed_tensor<SMPLComputeDataType, SDstr>;
    using OBlockTile = static_distributed_tensor<OaccDataType, ODstr>;

    static_assert(S::kWarpN0 == S::kWarpM && S::kWarpN1 == S::kWarpM, "BlockFmhaPipelineQRKSVS: square warp tiles");
    static_assert(kN0 % (WarpGemm1::kK) == 0, "BlockFmhaPipelineQRKSVS: kN0 must be whole GEMM 1 warp steps");

    CK_TILE_HOST_DEVICE static constexpr index_t GetSmemSize() { return Policy::template GetSmemSize<Problem>(); }

    // What the pipeline hands back: the block's O (already divided by the row sums, and by
    // p_undrop under dropout) and its row's log-sum-exp (natural log) in each lane.
    struct Result
    {
        OBlockTile o;
        float lse;
    };

    // The element of the S block tile (register index) that holds the key `col` of the calling
    // lane's row, for a column offset relative to the lane's first column (compile time).
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

    // P's registers as GEMM 1's A warp tile for keys [c kWarpK1, (c + 1) kWarpK1)
    template <index_t kC, typename PTile>
    CK_TILE_DEVICE static auto p_warp_tile(const PTile& p)
    {
        using AWarp = typename WarpGemm1::AWarpTensor;
        using ADstr = typename AWarp::StaticTileDistribution;
        AWarp a;
        static_for<0, AWarp::thread_buffer_size>{}([&](auto e) {
            constexpr index_t ka = ADstr::d_to_x_offset(e)[1];
            constexpr index_t d  = s_register_of_column<kC * WarpGemm1::kK + ka>();
            static_assert(d >= 0, "BlockFmhaPipelineQRKSVS: P's layout is not GEMM 1's A layout");
            a.get_thread_buffer()[e] = p.get_thread_buffer()[d];
        });
        return a;
    }

    // A column-major V is read in vectors along the keys: in the last step the last vector of a
    // row may run past seqlen_k into the next row's values. P is 0 there, but 0 * inf or NaN is
    // not: after V's tile is in LDS, the block zeroes its columns past seqlen_k (a plain loop over
    // the few elements; doing it in the registers of every step costs scalar registers).
    // (Group mode reads a column-major V one key at a time: nothing past seqlen_k is read.)
    CK_TILE_DEVICE static void zero_lds_keys_past_end(VDataType* p_v_lds, index_t valid_keys)
    {
        if constexpr(!S::IsVLayoutRowMajor && !kIsGroupMode)
        {
            if(valid_keys < kN0)
            {
                constexpr index_t kStride = Policy::template GetVLdsRowStride<Problem>();
                static_assert(kN1 * kN0 % kBlockSize == 0, "zero_lds_keys_past_end: whole elements per thread");
                block_sync_lds(); // the tile's stores are done
                const index_t tid = get_thread_id();
                static_for<0, kN1 * kN0 / kBlockSize>{}([&](auto i) {
                    const index_t e = tid + i * kBlockSize, col = e % kN0;
                    if(col >= valid_keys)
                        p_v_lds[(e / kN0) * kStride + col] = type_convert<VDataType>(0.f);
                });
            }
        }
    }

    // q_view [seqlen_q, hdim_q], k_view [seqlen_k, hdim_q], v_view [seqlen_k, hdim_v] (row-major V)
    // or [hdim_v, seqlen_k], bias_view [seqlen_q, seqlen_k]: the (batch, head)'s tensors, padded to
    // whole tiles (pad_tensor_view: padding reads 0). i_m0 / i_n1: the block's first row / column.
    // bias_type: at run time, which bias to add (kHasBias instances only). position_encoding:
    // ALiBi (or EmptyPositionEncoding). scale_s: softmax scale; scale_p: fp8 static quant's P
    // scale. dropout: the dropout stream (block_dropout.hpp; used when is_dropout).
    template <typename QView, typename KView, typename VView, typename BiasBuffer, typename PositionEncoding,
              typename Dropout>
    CK_TILE_DEVICE Result operator()(const QView& q_view, const KView& k_view, const VView& v_view,
                                     const BiasBuffer& bias_buf, index_t bias_rows, index_t bias_stride,
                                     BlockAttentionBiasEnum bias_type, const PositionEncoding& position_encoding,
                                     const FmhaMask& mask, index_t i_m0, index_t i_n1, float scale_s, float scale_p,
                                     const Dropout& dropout, bool is_dropout, void* p_smem) const
    {
        constexpr float kLog2e  = 1.4426950408889634f;
        constexpr float kNegInf = -numeric<float>::infinity();
        const index_t warp      = get_warp_id();

        Result r;
        clear_tile(r.o);
        r.lse = kNegInf;

        // the keys this row block sees: whole kN0 tiles from x_start, up to x_end
        const auto range        = mask.GetTileRangeAlongX(i_m0, number<kM0>{}, number<kN0>{});
        const index_t x_start   = range.at(number<0>{});
        const index_t x_end     = range.at(number<1>{});
        const index_t num_steps = x_end > x_start ? (x_end - x_start + kN0 - 1) / kN0 : 0;
        if(num_steps <= 0)
            return r; // no visible key: O = 0, LSE = -inf

        // the mask for the per-score checks, in vector registers (only the loop bounds above need
        // it uniform; scalar copies would be live through the loop)
        FmhaMask mask_v             = mask;
        mask_v.y                    = static_cast<index_t>(opaque_vgpr_copy(static_cast<uint32_t>(mask.y)));
        mask_v.x                    = static_cast<index_t>(opaque_vgpr_copy(static_cast<uint32_t>(mask.x)));
        mask_v.x_total              = static_cast<index_t>(opaque_vgpr_copy(static_cast<uint32_t>(mask.x_total)));
        const index_t bias_rows_v   = static_cast<index_t>(opaque_vgpr_copy(static_cast<uint32_t>(bias_rows)));
        const index_t bias_stride_v = static_cast<index_t>(opaque_vgpr_copy(static_cast<uint32_t>(bias_stride)));

        // ---- Q: once, into GEMM 0's A warp tiles ----------------------------------------------------
        constexpr index_t kQIter = kHeadDim / WarpGemm0::kK;
        using QWarp              = typename WarpGemm0::AWarpTensor;
        constexpr auto q_dstr    = typename QWarp::StaticTileDistribution{};
        QWarp q[kQIter];
        static_for<0, kQIter>{}([&](auto k) {
            q[k] = load_tile(make_tile_window(q_view, make_tuple(number<S::kWarpM>{}, number<WarpGemm0::kK>{}),
                                              make_multi_index(i_m0 + warp * S::kWarpM, k * WarpGemm0::kK), q_dstr));
        });

        // ---- K, V windows (DRAM) and their LDS views ------------------------------------------------
        auto k_win =
            make_tile_window(k_view, make_tuple(number<kN0>{}, number<kHeadDim>{}), make_multi_index(x_start, 0),
                             Policy::template MakeKDramTileDistribution<Problem>());
        auto v_win = [&] {
            constexpr auto dstr = Policy::template MakeVDramTileDistribution<Problem>();
            if constexpr(S::IsVLayoutRowMajor)
                return make_tile_window(v_view, make_tuple(number<kN0>{}, number<kN1>{}),
                                        make_multi_index(x_start, i_n1), dstr);
            else
                return make_tile_window(v_view, make_tuple(number<kN1>{}, number<kN0>{}),
                                        make_multi_index(i_n1, x_start), dstr);
        }();
        const multi_index<2> v_step = S::IsVLayoutRowMajor ? make_multi_index(kN0, 0) : make_multi_index(0, kN0);

        const auto k_lds = make_tensor_view<address_space_enum::lds>(static_cast<KDataType*>(p_smem),
                                                                     Policy::template MakeKLdsDescriptor<Problem>());
        const auto v_lds = make_tensor_view<address_space_enum::lds>(static_cast<VDataType*>(p_smem),
                                                                     Policy::template MakeVLdsDescriptor<Problem>());
        const auto v_lds_store = make_tensor_view<address_space_enum::lds>(
            static_cast<VDataType*>(p_smem), Policy::template MakeVLdsStoreDescriptor<Problem>());
        const auto k_lds_win = make_tile_window(k_lds, make_tuple(number<kN0>{}, number<kHeadDim>{}),
                                                make_multi_index(0, 0), k_win.get_tile_distribution());
        const auto v_lds_win = make_tile_window(v_lds_store, v_win.get_window_lengths(), make_multi_index(0, 0),
                                                v_win.get_tile_distribution());

        // the calling lane's row and first column in the S tile
        const auto s_origin = SDstr::calculate_index();
        const index_t row   = i_m0 + s_origin[0];
        float m             = kNegInf; // running max (base 2)
        float l             = 0.f;     // running sum
        // in a vector register, like mask_v
        const float scale_s2 =
            __builtin_bit_cast(float, opaque_vgpr_copy(__builtin_bit_cast(uint32_t, scale_s* kLog2e)));
        const auto row_reduce = [&](float v, auto op) {
            return warp_butterfly(v, S::kWarpM, get_warp_size(), [&](float a, float b) { return op(a, b); });
        };

        auto k_regs = load_tile(k_win);
        auto v_regs = load_tile(v_win);
        for(index_t step = 0; step < num_steps; ++step)
        {
            const index_t j = x_start + step * kN0;

            // ---- S = Q K^T -----------------------------------------------------------------------
            block_sync_lds(); // the last step's V reads are done
            store_tile(k_lds_win, k_regs);
            block_sync_lds();
            if(step + 1 < num_steps)
            {
                move_tile_window(k_win, make_multi_index(kN0, 0));
                k_regs = load_tile(k_win);
            }
            SBlockTile s;
            clear_tile(s);
            {
                using CWarp           = typename WarpGemm0::CWarpTensor;
                constexpr index_t kC  = CWarp::thread_buffer_size;
                constexpr auto b_dstr = typename WarpGemm0::BWarpTensor::StaticTileDistribution{};
                static_for<0, kN0 / S::kWarpN0>{}([&](auto n) {
                    CWarp c;
                    c.clear();
                    static_for<0, kQIter>{}([&](auto k) {
                        const auto b =
                            load_tile(make_tile_window(k_lds, make_tuple(number<S::kWarpN0>{}, number<WarpGemm0::kK>{}),
                                                       make_multi_index(n * S::kWarpN0, k * WarpGemm0::kK), b_dstr));
                        WarpGemm0{}(c, q[k], b);
                    });
                    static_for<0, kC>{}([&](auto e) { s.get_thread_buffer()[n * kC + e] = c.get_thread_buffer()[e]; });
                });
            }

            // ---- scale, bias, mask (base 2) ---------------------------------------------------------
            const bool edge = mask.IsEdgeTile(i_m0, j, number<kM0>{}, number<kN0>{});
            if constexpr(kHasBias)
            {
                if(bias_type == BlockAttentionBiasEnum::ELEMENTWISE_BIAS)
                {
                    // element by element (scores past seqlen_k read 0 and are masked below)
                    static_for<0, SDstr::thread_buffer_size>{}([&](auto d) {
                        constexpr auto x  = SDstr::d_to_x_offset(d);
                        const index_t col = j + s_origin[1] + x[1];
                        const auto b = bias_buf.template get<1>(static_cast<long_index_t>(row) * bias_stride_v + col,
                                                                row < bias_rows_v && col < mask_v.x_total)[0];
                        s.get_thread_buffer()[d] =
                            s.get_thread_buffer()[d] * scale_s2 + type_convert<float>(b) * kLog2e;
                    });
                }
                else if(bias_type == BlockAttentionBiasEnum::ALIBI)
                {
                    static_for<0, SDstr::thread_buffer_size>{}([&](auto d) {
                        constexpr auto x = SDstr::d_to_x_offset(d);
                        float a          = 0.f;
                        position_encoding.update(a, row, j + s_origin[1] + x[1]);
                        s.get_thread_buffer()[d] = s.get_thread_buffer()[d] * scale_s2 + a * kLog2e;
                    });
                }
                else
                    tile_elementwise_inout([&](auto& v) { v *= scale_s2; }, s);
            }
            else
                tile_elementwise_inout([&](auto& v) { v *= scale_s2; }, s);
            if(edge)
            {
                static_for<0, SDstr::thread_buffer_size>{}([&](auto d) {
                    constexpr auto x = SDstr::d_to_x_offset(d);
                    if(mask_v.IsOutOfBound(row, j + s_origin[1] + x[1]))
                        s.get_thread_buffer()[d] = kNegInf;
                });
            }

            // ---- online softmax ----------------------------------------------------------------------
            float row_max = kNegInf;
            static_for<0, SDstr::thread_buffer_size>{}(
                [&](auto d) { row_max = max(row_max, s.get_thread_buffer()[d]); });
            row_max             = row_reduce(row_max, [](float a, float b) { return max(a, b); });
            const float m_new   = max(m, row_max);
            const float m_base  = m_new == kNegInf ? 0.f : m_new; // a row with nothing visible yet
            const float rescale = __builtin_exp2f(m - m_base);
            float row_sum       = 0.f;
            static_for<0, SDstr::thread_buffer_size>{}([&](auto d) {
                const float p            = __builtin_exp2f(s.get_thread_buffer()[d] - m_base);
                s.get_thread_buffer()[d] = p;
                row_sum += p;
            });
            row_sum = row_reduce(row_sum, [](float a, float b) { return a + b; });
            l       = l * rescale + row_sum;
            m       = m_new;
            tile_elementwise_inout([&](auto& o) { o *= rescale; }, r.o);

            if constexpr(kHasDropout)
            {
                if(is_dropout)
                {
                    // one Philox draw per score (block_dropout.hpp: upstream's stream)
                    static_for<0, SDstr::thread_buffer_size>{}([&](auto d) {
                        constexpr auto x = SDstr::d_to_x_offset(d);
                        if(!dropout.keep(dropout.randval(row, j + s_origin[1] + x[1])))
                            s.get_thread_buffer()[d] = 0.f;
                    });
                }
            }

            // P in GEMM 1's type (fp8: scaled into its range first)
            auto p = make_static_distributed_tensor<PDataType>(SDstr{});
            static_for<0, SDstr::thread_buffer_size>{}([&](auto d) {
                const float v            = s.get_thread_buffer()[d];
                p.get_thread_buffer()[d] = type_convert<PDataType>(kDoFp8StaticQuant ? v * scale_p : v);
            });

            // ---- O += P V --------------------------------------------------------------------------------
            block_sync_lds(); // every warp's K reads are done
            store_tile(v_lds_win, v_regs);
            zero_lds_keys_past_end(static_cast<VDataType*>(p_smem), mask.x_total - j);
            block_sync_lds();
            if(step + 1 < num_steps)
            {
                move_tile_window(v_win, v_step);
                v_regs = load_tile(v_win);
            }
            {
                using CWarp           = typename WarpGemm1::CWarpTensor;
                constexpr index_t kC  = CWarp::thread_buffer_size;
                constexpr auto b_dstr = typename WarpGemm1::BWarpTensor::StaticTileDistribution{};
                static_for<0, kN0 / WarpGemm1::kK>{}([&](auto c) {
                    const auto a = p_warp_tile<c>(p);
                    static_for<0, kN1 / S::kWarpN1>{}([&](auto n) {
                        const auto b =
                            load_tile(make_tile_window(v_lds, make_tuple(number<S::kWarpN1>{}, number<WarpGemm1::kK>{}),
                                                       make_multi_index(n * S::kWarpN1, c * WarpGemm1::kK), b_dstr));
                        CWarp o;
                        static_for<0, kC>{}(
                            [&](auto e) { o.get_thread_buffer()[e] = r.o.get_thread_buffer()[n * kC + e]; });
                        WarpGemm1{}(o, a, b);
                        static_for<0, kC>{}(
                            [&](auto e) { r.o.get_thread_buffer()[n * kC + e] = o.get_thread_buffer()[e]; });
                    });
                });
            }
        }

        // ---- O / l, LSE ------------------------------------------------------------------------------
        float o_scale = l > 0.f ? 1.f / l : 0.f;
        if constexpr(kHasDropout)
        {
            if(is_dropout)
                o_scale *= dropout.rp_undrop;
        }
        tile_elementwise_inout([&](auto& o) { o *= o_scale; }, r.o);
        // LSE = ln(sum exp(t)) = (m + log2 l) ln 2
        r.lse = (m == kNegInf || !(l > 0.f)) ? kNegInf : (m + __builtin_log2f(l)) * 0.6931471805599453f;
        return r;
    }
};

} // namespace ck_tile
