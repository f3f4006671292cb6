// SPDX-License-Identifier: MIT
// FmhaFwdKernel<TilePartitioner, FmhaPipeline, EpiloguePipeline>: fused multi-head attention,
// forward (upstream's name and split):
//
//   O[b, h] = softmax(scale_s Q[b, h] K[b, h / (nhead_q / nhead_k)]^T + bias, masked) V[b, ...]
//
// with dropout on the softmax and the log-sum-exp of every row as an optional output. Batch mode:
// every batch has seqlen_q and seqlen_k, tensors b x h x s x d in any strides (bhsd or bshd).
// Group ("varlen") mode: batch b's rows are [seqstart_q[b], seqstart_q[b + 1]) of tensors that
// hold all batches' rows.
//
// Head groups: a host may launch a subset of the heads (LLC-aware head grouping): nhead_q is the
// launch's head count and head_start its first head of num_head_q_total; the tensor pointers are
// the group's, but ALiBi slopes and the dropout stream use the global head head_start + h, so a
// grouped run gives bit for bit the ungrouped one.
//
// What a launch does is decided by its arguments (mask_type and window, bias_type, lse_ptr,
// p_drop); the pipeline's traits say which of these the instance was compiled with.
#pragma once
#include <cstdint>
#include <limits>
#include <string>
#include "ck_tile/core.hpp"
#include "ck_tile/host/runtime/runtime.hpp"
#include "ck_tile/ops/fmha/block/block_attention_bias_enum.hpp"
#include "ck_tile/ops/fmha/block/block_dropout.hpp"
#include "ck_tile/ops/fmha/block/block_masking.hpp"
#include "ck_tile/ops/fmha/block/block_position_encoding.hpp"

namespace ck_tile {

// everything a launch needs (the example's fmha_fwd_args)
struct FmhaFwdHostArgs
{
    const void* q_ptr;
    const void* k_ptr;
    const void* v_ptr;
    const void* bias_ptr; // element-wise bias, or the ALiBi slopes ([batch or 1] x nhead_total floats)
    void* lse_ptr;        // nullptr: no LSE
    void* o_ptr;

    const void* seqstart_q_ptr; // group mode: batch + 1 prefix sums (nullptr in batch mode)
    const void* seqstart_k_ptr;
    const void* seqlen_k_ptr; // upstream's padded-K group mode (-s_kpad): not supported, must be nullptr

    index_t seqlen_q; // batch mode
    index_t seqlen_k; // batch mode
    index_t batch;
    index_t max_seqlen_q;
    index_t hdim_q;
    index_t hdim_v;
    index_t nhead_q;
    index_t nhead_k;

    float scale_s;
    float scale_p; // fp8 static quant only
    float scale_o; // fp8 static quant only

    index_t stride_q, stride_k, stride_v, stride_bias, stride_o;
    index_t nhead_stride_q, nhead_stride_k, nhead_stride_v, nhead_stride_bias, nhead_stride_lse, nhead_stride_o;
    index_t batch_stride_q, batch_stride_k, batch_stride_v, batch_stride_bias, batch_stride_lse, batch_stride_o;

    BlockAttentionBiasEnum bias_type;
    index_t window_size_left;
    index_t window_size_right;
    GenericAttentionMaskEnum mask_type;

    float p_drop;
    uint64_t drop_seed;
    uint64_t drop_offset;

    index_t num_head_q_total; // 0: nhead_q
    index_t head_start;
    bool head_major; // block order: consecutive blocks on the tiles of one head (see the partitioner)
};

template <typename TilePartitioner_, typename FmhaPipeline_, typename EpiloguePipeline_>
struct FmhaFwdKernel
{
    using TilePartitioner  = std::remove_cvref_t<TilePartitioner_>;
    using FmhaPipeline     = std::remove_cvref_t<FmhaPipeline_>;
    using EpiloguePipeline = std::remove_cvref_t<EpiloguePipeline_>;
    using Problem          = typename FmhaPipeline::Problem;
    using S                = typename FmhaPipeline::BlockFmhaShape;

    using QDataType    = typename FmhaPipeline::QDataType;
    using KDataType    = typename FmhaPipeline::KDataType;
    using VDataType    = typename FmhaPipeline::VDataType;
    using BiasDataType = typename FmhaPipeline::BiasDataType;
    using LSEDataType  = typename FmhaPipeline::LSEDataType;
    using ODataType    = typename FmhaPipeline::ODataType;
    using FmhaMask     = typename FmhaPipeline::FmhaMask;

    static constexpr index_t kBlockSize  = FmhaPipeline::kBlockSize;
    static constexpr index_t kBlockPerCu = FmhaPipeline::kBlockPerCu;
    static constexpr bool kIsGroupMode   = FmhaPipeline::kIsGroupMode;
    static constexpr index_t kHeadDim    = S::kK0BlockLength;
    static constexpr index_t kHeadDimV   = S::kN1;
    // hdim, strides and batch/head offsets of Q, K, V, O must be multiples: 16-byte accesses
    static constexpr index_t kAlignmentQ = 16 / static_cast<index_t>(sizeof(QDataType));
    static constexpr index_t kAlignmentV = 16 / static_cast<index_t>(sizeof(VDataType));

    using Hargs = FmhaFwdHostArgs;
    using Kargs = FmhaFwdHostArgs;

    CK_TILE_HOST static std::string GetName()
    {
        const auto n      = [](index_t v) { return std::to_string(v); };
        std::string dtype = std::is_same_v<QDataType, half_t>   ? "fp16"
                            : std::is_same_v<QDataType, bf16_t> ? "bf16"
                                                                : "fp8";
        return "fmha_fwd_d" + n(kHeadDim) + "_" + dtype + (kIsGroupMode ? "_group_" : "_batch_") +
               TilePartitioner::name + "_b" + n(S::kM0) + "x" + n(S::kN0) + "x" + n(S::kK0) + "x" + n(S::kN1) + "x" +
               n(S::kK1) + "x" + n(S::kK0BlockLength) + "_r" + n(S::NumWarps) + "x1x1_w" + n(S::kWarpM) + "x" +
               n(S::kWarpN0) + "x" + n(S::kWarpK0) + "_o" + n(kBlockPerCu) + "_" + FmhaPipeline::name +
               (S::IsVLayoutRowMajor ? "_vr" : "_vc") + "_" + FmhaMask::name + (FmhaPipeline::kHasBias ? "_bias" : "") +
               (FmhaPipeline::kStoreLSE ? "_lse" : "") + (FmhaPipeline::kHasDropout ? "_dropout" : "") +
               (FmhaPipeline::kDoFp8StaticQuant ? "_squant" : "");
    }

    CK_TILE_HOST static constexpr Kargs MakeKargs(const Hargs& h) { return h; }

    CK_TILE_HOST static dim3 GridSize(const Hargs& h)
    {
        return TilePartitioner::GridSize(h.batch, h.nhead_q, h.max_seqlen_q, h.hdim_v);
    }
    CK_TILE_HOST static constexpr dim3 BlockSize() { return dim3(kBlockSize); }
    CK_TILE_HOST_DEVICE static constexpr index_t GetSmemSize()
    {
        return max(FmhaPipeline::GetSmemSize(), EpiloguePipeline::GetSmemSize());
    }

    // "" if the instance can run these arguments, else one line saying why not
    CK_TILE_HOST static std::string GetUnsupportedReason(const Hargs& h)
    {
        const auto s = [](long long v) { return std::to_string(v); };
        if(h.q_ptr == nullptr || h.k_ptr == nullptr || h.v_ptr == nullptr || h.o_ptr == nullptr)
            return "a null tensor pointer";
        if(kIsGroupMode != (h.seqstart_q_ptr != nullptr) || (kIsGroupMode && h.seqstart_k_ptr == nullptr))
            return kIsGroupMode ? "group mode needs seqstart_q and seqstart_k" : "batch mode takes no seqstart arrays";
        if(h.seqlen_k_ptr != nullptr)
            return "seqlen_k_ptr (padded K in group mode) is not supported";
        if(h.hdim_q < 1 || h.hdim_q > kHeadDim || h.hdim_v < 1 || h.hdim_v > kHeadDimV)
            return "head dims " + s(h.hdim_q) + "/" + s(h.hdim_v) + " exceed the instance's " + s(kHeadDim) + "/" +
                   s(kHeadDimV);
        if(h.hdim_q % kAlignmentQ != 0 || h.hdim_v % kAlignmentV != 0)
            return "head dims must be multiples of " + s(kAlignmentQ) + " (16-byte vectors), got " + s(h.hdim_q) + "/" +
                   s(h.hdim_v);
        if(h.nhead_q < 1 || h.nhead_k < 1 || h.nhead_q % h.nhead_k != 0)
            return "nhead_q (" + s(h.nhead_q) + ") must be a multiple of nhead_k (" + s(h.nhead_k) + ")";
        if(h.batch < 1 || h.max_seqlen_q < 0 || (!kIsGroupMode && (h.seqlen_q < 0 || h.seqlen_k < 0)))
            return "negative sizes";
        for(index_t st : {h.stride_q, h.stride_k, h.stride_o, h.nhead_stride_q, h.nhead_stride_k, h.nhead_stride_o,
                          h.batch_stride_q, h.batch_stride_k, h.batch_stride_o})
            if(st % kAlignmentQ != 0)
                return "the strides of Q, K and O must be multiples of " + s(kAlignmentQ);
        if(!S::IsVLayoutRowMajor && !kIsGroupMode && h.stride_v < integer_least_multiple(h.seqlen_k, kAlignmentV))
            return "a column-major V's rows must hold seqlen_k rounded up to " + s(kAlignmentV) + " keys (stride_v)";
        if((S::IsVLayoutRowMajor || !kIsGroupMode) &&
           (h.stride_v % kAlignmentV != 0 || h.nhead_stride_v % kAlignmentV != 0 ||
            h.batch_stride_v % kAlignmentV != 0))
            return "the strides of V must be multiples of " + s(kAlignmentV);
        if(h.bias_type != BlockAttentionBiasEnum::NO_BIAS && !FmhaPipeline::kHasBias)
            return "the instance has no bias";
        if(h.bias_type != BlockAttentionBiasEnum::NO_BIAS && h.bias_ptr == nullptr)
            return "a bias without its tensor";
        if(h.lse_ptr != nullptr && !FmhaPipeline::kStoreLSE)
            return "the instance does not store LSE";
        if(h.p_drop > 0.f && !FmhaPipeline::kHasDropout)
            return "the instance has no dropout";
        if(!(h.p_drop >= 0.f && h.p_drop < 1.f))
            return "p_drop must be in [0, 1)";
        if(h.mask_type != GenericAttentionMaskEnum::NO_MASK && !FmhaMask::IsMasking)
            return "the instance has no mask";
        return {};
    }
    CK_TILE_HOST static bool IsSupportedArgument(const Hargs& h) { return GetUnsupportedReason(h).empty(); }

    CK_TILE_DEVICE void operator()(Kargs k) const
    {
        const index_t num_tiles = TilePartitioner::NumTiles(k.max_seqlen_q);
        const auto t            = TilePartitioner::GetTileIndex(k.nhead_q, num_tiles, k.head_major);
        const index_t i_m0      = t.i_tile_m * S::kM0;
        constexpr index_t i_n1  = 0; // the block's O columns: all of hdim_v (see the partitioner)
        const index_t i_batch   = t.i_batch;
        const index_t i_nhead   = t.i_nhead;

        // this batch's rows and keys, and where they start
        long_index_t off_q = 0, off_k = 0, off_v = 0, off_bias = 0;
        index_t seqlen_q = k.seqlen_q, seqlen_k = k.seqlen_k, q_start = 0;
        if constexpr(kIsGroupMode)
        {
            const auto* sq   = static_cast<const int32_t*>(k.seqstart_q_ptr);
            const auto* sk   = static_cast<const int32_t*>(k.seqstart_k_ptr);
            const index_t q0 = sq[i_batch], k0 = sk[i_batch];
            q_start  = q0;
            seqlen_q = sq[i_batch + 1] - q0;
            seqlen_k = sk[i_batch + 1] - k0;
            off_q    = static_cast<long_index_t>(q0) * k.stride_q;
            off_k    = static_cast<long_index_t>(k0) * k.stride_k;
            off_v    = S::IsVLayoutRowMajor ? static_cast<long_index_t>(k0) * k.stride_v : k0;
        }
        else
        {
            off_q = static_cast<long_index_t>(i_batch) * k.batch_stride_q;
            off_k = static_cast<long_index_t>(i_batch) * k.batch_stride_k;
            off_v = static_cast<long_index_t>(i_batch) * k.batch_stride_v;
        }
        off_bias = static_cast<long_index_t>(i_batch) * k.batch_stride_bias;
        if(i_m0 >= seqlen_q)
            return; // a row tile past this batch's rows (group mode)

        const index_t i_nhead_k = i_nhead / (k.nhead_q / k.nhead_k);
        off_q += static_cast<long_index_t>(i_nhead) * k.nhead_stride_q;
        off_k += static_cast<long_index_t>(i_nhead_k) * k.nhead_stride_k;
        off_v += static_cast<long_index_t>(i_nhead_k) * k.nhead_stride_v;

        const index_t nhead_total = k.num_head_q_total > 0 ? k.num_head_q_total : k.nhead_q;
        const index_t i_head_glb  = k.head_start + i_nhead;

        constexpr index_t kVecQ = kAlignmentQ;
        const auto q_view =
            pad_tensor_view(make_naive_tensor_view<address_space_enum::global>(
                                static_cast<const QDataType*>(k.q_ptr) + off_q, make_tuple(seqlen_q, k.hdim_q),
                                make_tuple(k.stride_q, number<1>{}), number<kVecQ>{}),
                            make_tuple(number<S::kM0>{}, number<kHeadDim>{}), sequence<1, 1>{});
        const auto k_view =
            pad_tensor_view(make_naive_tensor_view<address_space_enum::global>(
                                static_cast<const KDataType*>(k.k_ptr) + off_k, make_tuple(seqlen_k, k.hdim_q),
                                make_tuple(k.stride_k, number<1>{}), number<kVecQ>{}),
                            make_tuple(number<S::kN0>{}, number<kHeadDim>{}), sequence<1, 1>{});
        const auto v_view = [&] {
            const auto* p = static_cast<const VDataType*>(k.v_ptr) + off_v;
            if constexpr(S::IsVLayoutRowMajor)
                return pad_tensor_view(
                    make_naive_tensor_view<address_space_enum::global>(
                        p, make_tuple(seqlen_k, k.hdim_v), make_tuple(k.stride_v, number<1>{}), number<kAlignmentV>{}),
                    make_tuple(number<S::kN0>{}, number<S::kN1>{}), sequence<1, 1>{});
            else // [hdim_v, seqlen_k]. Batch mode: 16-byte vectors along the keys, the rows seen
                 // as whole vectors (inside the stride; the pipeline zeroes the keys past
                 // seqlen_k). Group mode: a batch's keys start anywhere, so one key at a time.
                return pad_tensor_view(
                    make_naive_tensor_view<address_space_enum::global>(
                        p,
                        make_tuple(k.hdim_v, kIsGroupMode ? seqlen_k : integer_least_multiple(seqlen_k, kAlignmentV)),
                        make_tuple(k.stride_v, number<1>{}), number<kIsGroupMode ? 1 : kAlignmentV>{}),
                    make_tuple(number<S::kN1>{}, number<S::kN0>{}), sequence<1, 1>{});
        }();
        // the element-wise bias of this (batch, head): [seqlen_q, seqlen_k], rows stride_bias apart
        const bool elementwise_bias = k.bias_type == BlockAttentionBiasEnum::ELEMENTWISE_BIAS;
        const auto bias_buf         = make_buffer_view<address_space_enum::global>(
            static_cast<const BiasDataType*>(k.bias_ptr) +
                (elementwise_bias ? off_bias + static_cast<long_index_t>(i_head_glb) * k.nhead_stride_bias : 0),
            elementwise_bias && seqlen_q > 0 && seqlen_k > 0 ? seqlen_q * k.stride_bias : 0); // 32-bit offsets

        const FmhaMask mask = [&] {
            if constexpr(FmhaMask::IsMasking)
            {
                if(k.mask_type != GenericAttentionMaskEnum::NO_MASK)
                    return make_generic_attention_mask_from_lr_window<FmhaMask>(
                        k.window_size_left, k.window_size_right, seqlen_q, seqlen_k,
                        k.mask_type != GenericAttentionMaskEnum::MASK_FROM_BOTTOM_RIGHT);
                // no mask: a window wider than the matrix
                return FmhaMask{seqlen_q, seqlen_k, seqlen_q, seqlen_k};
            }
            else
                return FmhaMask{seqlen_q, seqlen_k};
        }();

        float slope = 0.f;
        if(k.bias_type == BlockAttentionBiasEnum::ALIBI)
            slope =
                static_cast<const float*>(k.bias_ptr)[static_cast<long_index_t>(i_batch) * k.stride_bias + i_head_glb];
        auto alibi = make_alibi_from_lr_mask<float>(slope, k.window_size_left, k.window_size_right, seqlen_q, seqlen_k,
                                                    k.mask_type);
        // ALiBi's slope and diagonal in vector registers: scalar ones would be live through the loop
        alibi.slope = __builtin_bit_cast(float, opaque_vgpr_copy(__builtin_bit_cast(uint32_t, alibi.slope)));
        alibi.shift = static_cast<index_t>(opaque_vgpr_copy(static_cast<uint32_t>(alibi.shift)));

        const bool is_dropout = k.p_drop > 0.f;
        BlockDropout dropout  = BlockDropout::make(is_dropout ? k.p_drop : 0.f, k.drop_seed, k.drop_offset, i_batch,
                                                   i_head_glb, nhead_total);
        // the stream's seed and offset in vector registers (scalar ones would be live through the loop)
        const auto opaque64 = [](uint64_t v) {
            return static_cast<uint64_t>(opaque_vgpr_copy(static_cast<uint32_t>(v >> 32))) << 32 |
                   opaque_vgpr_copy(static_cast<uint32_t>(v));
        };
        dropout.seed   = opaque64(dropout.seed);
        dropout.offset = opaque64(dropout.offset);

        // O and LSE of this (batch, head): two pointers live through the loop, not their strides
        long_index_t off_o   = static_cast<long_index_t>(i_nhead) * k.nhead_stride_o;
        long_index_t off_lse = static_cast<long_index_t>(i_nhead) * k.nhead_stride_lse;
        if constexpr(kIsGroupMode)
        {
            off_o += static_cast<long_index_t>(q_start) * k.stride_o;
            off_lse += q_start;
        }
        else
        {
            off_o += static_cast<long_index_t>(i_batch) * k.batch_stride_o;
            off_lse += static_cast<long_index_t>(i_batch) * k.batch_stride_lse;
        }
        ODataType* const p_o     = static_cast<ODataType*>(k.o_ptr) + off_o;
        LSEDataType* const p_lse = k.lse_ptr ? static_cast<LSEDataType*>(k.lse_ptr) + off_lse : nullptr;

        __shared__ char p_smem[GetSmemSize()];
        auto r = FmhaPipeline{}(q_view, k_view, v_view, bias_buf, seqlen_q, k.stride_bias, k.bias_type, alibi, mask,
                                i_m0, i_n1, k.scale_s, k.scale_p, dropout, is_dropout, p_smem);
        if constexpr(FmhaPipeline::kDoFp8StaticQuant)
            tile_elementwise_inout([&](auto& o) { o *= k.scale_o; }, r.o);

        // LSE: the first lane of each row writes it
        if constexpr(FmhaPipeline::kStoreLSE)
        {
            using SDstr = typename FmhaPipeline::SDstr;
            if(p_lse != nullptr && get_lane_id() < S::kWarpM)
            {
                const index_t row = i_m0 + SDstr::calculate_index()[0];
                if(row < seqlen_q)
                    p_lse[row] = type_convert<LSEDataType>(r.lse);
            }
        }

        const auto o_view =
            pad_tensor_view(make_naive_tensor_view<address_space_enum::global>(
                                p_o,
                                // the sizes anew: sharing V's view's arithmetic would keep it live through the loop
                                make_tuple(static_cast<index_t>(opaque_sgpr_copy(static_cast<uint32_t>(seqlen_q))),
                                           static_cast<index_t>(opaque_sgpr_copy(static_cast<uint32_t>(k.hdim_v)))),
                                make_tuple(k.stride_o, number<1>{}), number<kVecQ>{}),
                            make_tuple(number<S::kM0>{}, number<S::kN1>{}), sequence<1, 1>{});
        const auto o_win =
            make_tile_window(o_view, make_tuple(number<S::kM0>{}, number<S::kN1>{}), make_multi_index(i_m0, i_n1));
        EpiloguePipeline{}(o_win, r.o);
    }
};

} // namespace ck_tile
