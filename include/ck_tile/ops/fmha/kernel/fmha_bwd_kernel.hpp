// SPDX-License-Identifier: MIT
// The FMHA backward kernels (upstream's names and roles), run in this order by a host API:
//
//   FmhaBwdOGradDotOKernel     D[b, h, i] = sum_k dO[i, k] O[i, k]   (one thread per row); it
//                              also zeroes the row's fp32 dQ accumulator (saves a memset launch)
//   FmhaBwdDQDKDVKernel        one block per (kN0 keys, query head, batch): dK and dV of those
//                              keys (written directly, or added into fp32 workspaces when several
//                              query heads share a K/V head), dQ added into an fp32 workspace
//   FmhaBwdConvertQGradKernel  an fp32 workspace [rows, hdim] -> the output type (dQ; and dK,
//                              dV under GQA/MQA)
//
// The dK/dV workspaces (GQA) must be zero before FmhaBwdDQDKDVKernel runs (the host API clears them).
// Group ("varlen") mode: batch b's rows are [seqstart_q[b], seqstart_q[b + 1]) of tensors that
// hold every batch's rows, keys likewise with seqstart_k.
#pragma once
#include <cstdint>
#include <string>
#include "ck_tile/core.hpp"
#include "ck_tile/host/runtime/runtime.hpp"
#include "ck_tile/ops/fmha/block/block_attention_bias_enum.hpp"
#include "ck_tile/ops/fmha/block/block_dropout.hpp"
#include "ck_tile/ops/fmha/block/block_fmha_bwd_global_access.hpp"
#include "ck_tile/ops/fmha/block/block_masking.hpp"
#include "ck_tile/ops/fmha/block/block_position_encoding.hpp"

namespace ck_tile {

// everything one backward call needs (the example's fmha_bwd_args)
struct FmhaBwdHostArgs
{
    const void* q_ptr;
    const void* k_ptr;
    const void* v_ptr;
    const void* bias_ptr; // element-wise bias, or ALiBi slopes ([batch or 1] x nhead_q floats)
    const void* o_ptr;
    const void* lse_ptr;
    const void* do_ptr;
    void* d_ptr;      // fp32 [batch, nhead_q, seqlen_q] (strides as LSE's)
    void* dq_acc_ptr; // fp32 workspace, strides *_dq_acc
    void* dq_ptr;
    void* dk_ptr;
    void* dv_ptr;
    void* dk_acc_ptr; // fp32 workspaces [.., nhead_k, seqlen_k, ..]: used when nhead_q > nhead_k
    void* dv_acc_ptr;

    const void* seqstart_q_ptr; // group mode: batch + 1 prefix sums (nullptr in batch mode)
    const void* seqstart_k_ptr;

    index_t seqlen_q; // batch mode
    index_t seqlen_k; // batch mode
    index_t batch;
    index_t max_seqlen_q;
    index_t max_seqlen_k;
    index_t hdim_q;
    index_t hdim_v;
    index_t nhead_q;
    index_t nhead_k;
    float scale;

    index_t stride_q, stride_k, stride_v, stride_bias, stride_o, stride_do, stride_dq_acc, stride_dq, stride_dk,
        stride_dv, stride_dk_acc, stride_dv_acc;
    index_t nhead_stride_q, nhead_stride_k, nhead_stride_v, nhead_stride_bias, nhead_stride_o, nhead_stride_do,
        nhead_stride_lsed, nhead_stride_dq_acc, nhead_stride_dq, nhead_stride_dk, nhead_stride_dv, nhead_stride_dk_acc,
        nhead_stride_dv_acc;
    index_t batch_stride_q, batch_stride_k, batch_stride_v, batch_stride_bias, batch_stride_o, batch_stride_do,
        batch_stride_lsed, batch_stride_dq_acc, batch_stride_dq, batch_stride_dk, batch_stride_dv, batch_stride_dk_acc,
        batch_stride_dv_acc;

    BlockAttentionBiasEnum bias_type;
    index_t window_size_left;
    index_t window_size_right;
    GenericAttentionMaskEnum mask_type;

    float p_drop;
    uint64_t drop_seed;
    uint64_t drop_offset;
};

namespace detail {
// batch b's first row and row count: from the seqstart array in group mode
template <bool kIsGroupMode>
CK_TILE_DEVICE void fmha_bwd_rows(const void* seqstart, index_t seqlen, index_t i_batch, index_t& start, index_t& len)
{
    if constexpr(kIsGroupMode)
    {
        const auto* s = static_cast<const int32_t*>(seqstart);
        start         = s[i_batch];
        len           = s[i_batch + 1] - start;
    }
    else
    {
        start = 0;
        len   = seqlen;
    }
}
} // namespace detail

// ---- D = rowsum(dO * O) --------------------------------------------------------------------------
template <typename ODataType_, typename OGradDataType_, typename DDataType_, bool kIsGroupMode_>
struct FmhaBwdOGradDotOKernel
{
    using ODataType     = ODataType_;
    using OGradDataType = OGradDataType_;
    using DDataType     = DDataType_;

    static constexpr bool kIsGroupMode   = kIsGroupMode_;
    static constexpr index_t kBlockSize  = 256;
    static constexpr index_t kBlockPerCu = 2;
    static constexpr index_t kM0         = kBlockSize; // rows per block: one per thread

    using Kargs = FmhaBwdHostArgs;

    CK_TILE_HOST static std::string GetName()
    {
        return std::string("fmha_bwd_dot_do_o_") + (kIsGroupMode ? "group" : "batch") + "_b" + std::to_string(kM0);
    }
    CK_TILE_HOST static dim3 GridSize(const Kargs& k)
    {
        return dim3((k.max_seqlen_q + kM0 - 1) / kM0, k.nhead_q, k.batch);
    }
    CK_TILE_HOST static constexpr dim3 BlockSize() { return dim3(kBlockSize); }

    CK_TILE_DEVICE void operator()(Kargs k) const
    {
        const index_t i_batch = get_block_id_z(), i_nhead = get_block_id_y();
        index_t q_start, seqlen_q;
        detail::fmha_bwd_rows<kIsGroupMode>(k.seqstart_q_ptr, k.seqlen_q, i_batch, q_start, seqlen_q);
        const index_t row = get_block_id() * kM0 + get_thread_id();
        if(row >= seqlen_q)
            return;
        const long_index_t b = kIsGroupMode ? 0 : i_batch;
        const auto* o        = static_cast<const ODataType*>(k.o_ptr) + b * k.batch_stride_o +
                               static_cast<long_index_t>(i_nhead) * k.nhead_stride_o +
                               static_cast<long_index_t>(q_start + row) * k.stride_o;
        const auto* dout     = static_cast<const OGradDataType*>(k.do_ptr) + b * k.batch_stride_do +
                               static_cast<long_index_t>(i_nhead) * k.nhead_stride_do +
                               static_cast<long_index_t>(q_start + row) * k.stride_do;
        float acc            = 0.f;
        for(index_t c = 0; c < k.hdim_v; ++c)
            acc += type_convert<float>(o[c]) * type_convert<float>(dout[c]);
        auto* dq_acc = static_cast<float*>(k.dq_acc_ptr) + b * k.batch_stride_dq_acc +
                       static_cast<long_index_t>(i_nhead) * k.nhead_stride_dq_acc +
                       static_cast<long_index_t>(q_start + row) * k.stride_dq_acc;
        for(index_t c = 0; c < k.hdim_q; ++c)
            dq_acc[c] = 0.f;
        static_cast<DDataType*>(k.d_ptr)[b * k.batch_stride_lsed +
                                         static_cast<long_index_t>(i_nhead) * k.nhead_stride_lsed + q_start + row] =
            type_convert<DDataType>(acc);
    }
};

// ---- dQ, dK, dV ------------------------------------------------------------------------------------
template <typename FmhaPipeline_>
struct FmhaBwdDQDKDVKernel
{
    using FmhaPipeline = std::remove_cvref_t<FmhaPipeline_>;
    using Problem      = typename FmhaPipeline::Problem;
    using S            = typename FmhaPipeline::S;

    using QDataType     = typename Problem::QDataType;
    using KDataType     = typename Problem::KDataType;
    using VDataType     = typename Problem::VDataType;
    using BiasDataType  = typename Problem::BiasDataType;
    using LSEDataType   = typename Problem::LSEDataType;
    using DDataType     = typename Problem::DDataType;
    using AccDataType   = typename Problem::AccDataType;
    using OGradDataType = typename Problem::OGradDataType;
    using KGradDataType = typename Problem::KGradDataType;
    using VGradDataType = typename Problem::VGradDataType;
    using FmhaMask      = typename Problem::FmhaMask;

    static constexpr index_t kBlockSize  = FmhaPipeline::kBlockSize;
    static constexpr index_t kBlockPerCu = FmhaPipeline::kBlockPerCu;
    static constexpr bool kIsGroupMode   = FmhaPipeline::kIsGroupMode;
    static constexpr index_t kVec        = 16 / static_cast<index_t>(sizeof(QDataType));

    using Kargs = FmhaBwdHostArgs;

    CK_TILE_HOST static std::string GetName()
    {
        const auto n      = [](index_t v) { return std::to_string(v); };
        std::string dtype = std::is_same_v<QDataType, half_t> ? "fp16" : "bf16";
        return "fmha_bwd_d" + n(S::kQKHeaddim) + "_" + dtype + (kIsGroupMode ? "_group" : "_batch") + "_b" + n(S::kM0) +
               "x" + n(S::kN0) + "x" + n(S::kQKHeaddim) + "x" + n(S::kVHeaddim) + "_r" + n(S::NumWarps) + "x1x1_w" +
               n(S::kWarpM) + "x" + n(S::kWarpN) + "x" + n(S::kWarpK) + "_" + FmhaPipeline::name + "_" +
               FmhaMask::name + (FmhaPipeline::kHasBias ? "_bias" : "") + (FmhaPipeline::kHasDropout ? "_dropout" : "");
    }
    CK_TILE_HOST static dim3 GridSize(const Kargs& k)
    {
        return dim3((k.max_seqlen_k + S::kN0 - 1) / S::kN0, k.nhead_q, k.batch);
    }
    CK_TILE_HOST static constexpr dim3 BlockSize() { return dim3(kBlockSize); }
    CK_TILE_HOST_DEVICE static constexpr index_t GetSmemSize() { return FmhaPipeline::GetSmemSize(); }

    // "" if the instance can run these arguments, else one line saying why not
    CK_TILE_HOST static std::string GetUnsupportedReason(const Kargs& h)
    {
        const auto s = [](long long v) { return std::to_string(v); };
        if(h.q_ptr == nullptr || h.k_ptr == nullptr || h.v_ptr == nullptr || h.o_ptr == nullptr ||
           h.lse_ptr == nullptr || h.do_ptr == nullptr || h.d_ptr == nullptr || h.dq_acc_ptr == nullptr ||
           h.dq_ptr == nullptr || h.dk_ptr == nullptr || h.dv_ptr == nullptr)
            return "a null tensor pointer";
        if(h.nhead_q != h.nhead_k && (h.dk_acc_ptr == nullptr || h.dv_acc_ptr == nullptr))
            return "nhead_q > nhead_k needs the fp32 dK/dV workspaces";
        if(kIsGroupMode != (h.seqstart_q_ptr != nullptr) || (kIsGroupMode && h.seqstart_k_ptr == nullptr))
            return kIsGroupMode ? "group mode needs seqstart_q and seqstart_k" : "batch mode takes no seqstart arrays";
        if(h.hdim_q < 1 || h.hdim_q > S::kQKHeaddim || h.hdim_v < 1 || h.hdim_v > S::kVHeaddim)
            return "head dims " + s(h.hdim_q) + "/" + s(h.hdim_v) + " exceed the instance's " + s(S::kQKHeaddim) + "/" +
                   s(S::kVHeaddim);
        if(h.hdim_q % kVec != 0 || h.hdim_v % kVec != 0)
            return "head dims must be multiples of " + s(kVec) + " (16-byte vectors)";
        if(h.nhead_q < 1 || h.nhead_k < 1 || h.nhead_q % h.nhead_k != 0)
            return "nhead_q must be a multiple of nhead_k";
        for(index_t st :
            {h.stride_q, h.stride_k, h.stride_v, h.stride_do, h.nhead_stride_q, h.nhead_stride_k, h.nhead_stride_v,
             h.nhead_stride_do, h.batch_stride_q, h.batch_stride_k, h.batch_stride_v, h.batch_stride_do})
            if(st % kVec != 0)
                return "the strides of Q, K, V and dO must be multiples of " + s(kVec);
        if(h.bias_type != BlockAttentionBiasEnum::NO_BIAS && !FmhaPipeline::kHasBias)
            return "the instance has no bias";
        if(h.bias_type != BlockAttentionBiasEnum::NO_BIAS && h.bias_ptr == nullptr)
            return "a bias without its tensor";
        if(h.p_drop > 0.f && !FmhaPipeline::kHasDropout)
            return "the instance has no dropout";
        if(!(h.p_drop >= 0.f && h.p_drop < 1.f))
            return "p_drop must be in [0, 1)";
        if(h.mask_type != GenericAttentionMaskEnum::NO_MASK && !FmhaMask::IsMasking)
            return "the instance has no mask";
        return {};
    }

    CK_TILE_DEVICE void operator()(Kargs k) const
    {
        const index_t i_n0 = get_block_id() * S::kN0, i_nhead = get_block_id_y(), i_batch = get_block_id_z();
        index_t q_start, seqlen_q, k_start, seqlen_k;
        detail::fmha_bwd_rows<kIsGroupMode>(k.seqstart_q_ptr, k.seqlen_q, i_batch, q_start, seqlen_q);
        detail::fmha_bwd_rows<kIsGroupMode>(k.seqstart_k_ptr, k.seqlen_k, i_batch, k_start, seqlen_k);
        if(i_n0 >= seqlen_k)
            return; // a key tile past this batch's keys (group mode)

        const long_index_t b    = kIsGroupMode ? 0 : i_batch;
        const index_t i_nhead_k = i_nhead / (k.nhead_q / k.nhead_k);
        const auto off = [&](index_t stride, index_t nhead_stride, index_t batch_stride, index_t head, index_t start) {
            return b * batch_stride + static_cast<long_index_t>(head) * nhead_stride +
                   static_cast<long_index_t>(start) * stride;
        };

        // the (batch, head)'s tensors (the pipeline's FmhaBwdTensor: no padded views)
        const auto q_g = make_fmha_bwd_tensor(static_cast<const QDataType*>(k.q_ptr) +
                                                  off(k.stride_q, k.nhead_stride_q, k.batch_stride_q, i_nhead, q_start),
                                              seqlen_q, k.hdim_q, k.stride_q);
        const auto k_g =
            make_fmha_bwd_tensor(static_cast<const KDataType*>(k.k_ptr) +
                                     off(k.stride_k, k.nhead_stride_k, k.batch_stride_k, i_nhead_k, k_start),
                                 seqlen_k, k.hdim_q, k.stride_k);
        const auto v_g =
            make_fmha_bwd_tensor(static_cast<const VDataType*>(k.v_ptr) +
                                     off(k.stride_v, k.nhead_stride_v, k.batch_stride_v, i_nhead_k, k_start),
                                 seqlen_k, k.hdim_v, k.stride_v);
        const auto do_g =
            make_fmha_bwd_tensor(static_cast<const OGradDataType*>(k.do_ptr) +
                                     off(k.stride_do, k.nhead_stride_do, k.batch_stride_do, i_nhead, q_start),
                                 seqlen_q, k.hdim_v, k.stride_do);
        const auto dq_g =
            make_fmha_bwd_tensor(static_cast<AccDataType*>(k.dq_acc_ptr) + off(k.stride_dq_acc, k.nhead_stride_dq_acc,
                                                                               k.batch_stride_dq_acc, i_nhead, q_start),
                                 seqlen_q, k.hdim_q, k.stride_dq_acc);
        const long_index_t off_lsed = off(1, k.nhead_stride_lsed, k.batch_stride_lsed, i_nhead, q_start);
        const auto lse_buf          = make_buffer_view<address_space_enum::global>(
            static_cast<const LSEDataType*>(k.lse_ptr) + off_lsed, seqlen_q);
        const auto d_buf =
            make_buffer_view<address_space_enum::global>(static_cast<const DDataType*>(k.d_ptr) + off_lsed, seqlen_q);

        // the element-wise bias of this (batch, head): [seqlen_q, seqlen_k], rows stride_bias apart
        const bool elementwise_bias = k.bias_type == BlockAttentionBiasEnum::ELEMENTWISE_BIAS;
        const auto bias_buf         = make_buffer_view<address_space_enum::global>(
            static_cast<const BiasDataType*>(k.bias_ptr) +
                (elementwise_bias ? static_cast<long_index_t>(i_batch) * k.batch_stride_bias +
                                        static_cast<long_index_t>(i_nhead) * k.nhead_stride_bias
                                  : 0),
            elementwise_bias && seqlen_q > 0 && seqlen_k > 0 ? static_cast<long_index_t>(seqlen_q) * k.stride_bias : 0);

        const FmhaMask mask = [&] {
            if constexpr(FmhaMask::IsMasking)
            {
                if(k.mask_type != GenericAttentionMaskEnum::NO_MASK)
                    return make_generic_attention_mask_from_lr_window<FmhaMask>(
                        k.window_size_left, k.window_size_right, seqlen_q, seqlen_k,
                        k.mask_type != GenericAttentionMaskEnum::MASK_FROM_BOTTOM_RIGHT);
                return FmhaMask{seqlen_q, seqlen_k, seqlen_q, seqlen_k}; // a window wider than the matrix
            }
            else
                return FmhaMask{seqlen_q, seqlen_k};
        }();

        // ALiBi: the positive slope (the constructor negates it where the mode needs)
        float slope = 0.f;
        if(k.bias_type == BlockAttentionBiasEnum::ALIBI)
            slope = static_cast<const float*>(k.bias_ptr)[static_cast<long_index_t>(i_batch) * k.stride_bias + i_nhead];
        auto alibi  = make_alibi_from_lr_mask<float>(slope, k.window_size_left, k.window_size_right, seqlen_q, seqlen_k,
                                                     k.mask_type);
        alibi.slope = __builtin_bit_cast(float, opaque_vgpr_copy(__builtin_bit_cast(uint32_t, alibi.slope)));
        alibi.shift = static_cast<index_t>(opaque_vgpr_copy(static_cast<uint32_t>(alibi.shift)));

        const bool is_dropout = k.p_drop > 0.f;
        BlockDropout dropout =
            BlockDropout::make(is_dropout ? k.p_drop : 0.f, k.drop_seed, k.drop_offset, i_batch, i_nhead, k.nhead_q);
        const auto opaque64 = [](uint64_t v) {
            return static_cast<uint64_t>(opaque_vgpr_copy(static_cast<uint32_t>(v >> 32))) << 32 |
                   opaque_vgpr_copy(static_cast<uint32_t>(v));
        };
        dropout.seed   = opaque64(dropout.seed);
        dropout.offset = opaque64(dropout.offset);

        // dK and dV: where they go, computed before the loop
        const bool shared_kv = k.nhead_q != k.nhead_k;
        auto* const p_dk_acc = static_cast<AccDataType*>(k.dk_acc_ptr) +
                               off(k.stride_dk_acc, k.nhead_stride_dk_acc, k.batch_stride_dk_acc, i_nhead_k, k_start);
        auto* const p_dv_acc = static_cast<AccDataType*>(k.dv_acc_ptr) +
                               off(k.stride_dv_acc, k.nhead_stride_dv_acc, k.batch_stride_dv_acc, i_nhead_k, k_start);
        auto* const p_dk     = static_cast<KGradDataType*>(k.dk_ptr) +
                               off(k.stride_dk, k.nhead_stride_dk, k.batch_stride_dk, i_nhead, k_start);
        auto* const p_dv     = static_cast<VGradDataType*>(k.dv_ptr) +
                               off(k.stride_dv, k.nhead_stride_dv, k.batch_stride_dv, i_nhead, k_start);

        __shared__ char p_smem[GetSmemSize()];
        const auto r = FmhaPipeline{}(q_g, k_g, v_g, do_g, dq_g, lse_buf, d_buf, bias_buf, k.stride_bias, k.bias_type,
                                      alibi, mask, i_n0, seqlen_q, k.scale, dropout, is_dropout, p_smem);

        const uint32_t sk = opaque_sgpr_copy(static_cast<uint32_t>(seqlen_k));
        const auto out    = [&](const auto& tile, auto* p, index_t cols, index_t stride) {
            using T      = std::remove_pointer_t<decltype(p)>;
            const auto g = make_fmha_bwd_tensor(p, static_cast<index_t>(sk), cols, stride);
            if constexpr(std::is_same_v<T, AccDataType>)
                fmha_bwd_atomic_add(tile, g, i_n0, 0, sk, static_cast<uint32_t>(cols), static_cast<uint32_t>(stride));
            else
                fmha_bwd_store<1>(cast_tile<T>(tile), g, i_n0, 0, sk, static_cast<uint32_t>(cols),
                                  static_cast<uint32_t>(stride));
        };
        if(shared_kv)
        {
            // several query heads add into one K/V head's fp32 rows
            out(r.dk, p_dk_acc, k.hdim_q, k.stride_dk_acc);
            out(r.dv, p_dv_acc, k.hdim_v, k.stride_dv_acc);
        }
        else
        {
            out(r.dk, p_dk, k.hdim_q, k.stride_dk);
            out(r.dv, p_dv, k.hdim_v, k.stride_dv);
        }
    }
};

// ---- an fp32 accumulator -> the output type ----------------------------------------------------------
// Rows of a (batch, head): seqstart (group mode) or seqlen; used for dQ (query rows) and, under
// GQA, for dK and dV (key rows). The pointers/strides are passed per call (ConvertArgs).
template <typename AccDataType_, typename QGradDataType_, bool kIsGroupMode_>
struct FmhaBwdConvertQGradKernel
{
    using AccDataType   = AccDataType_;
    using QGradDataType = QGradDataType_;

    static constexpr bool kIsGroupMode   = kIsGroupMode_;
    static constexpr index_t kBlockSize  = 256;
    static constexpr index_t kBlockPerCu = 2;
    static constexpr index_t kM0         = 64; // rows per block

    struct Kargs
    {
        const void* acc_ptr;
        void* out_ptr;
        const void* seqstart_ptr;
        index_t seqlen, hdim, batch, nhead, max_seqlen;
        index_t stride_acc, nhead_stride_acc, batch_stride_acc;
        index_t stride_out, nhead_stride_out, batch_stride_out;
    };

    CK_TILE_HOST static std::string GetName()
    {
        return std::string("fmha_bwd_convert_dq_") + (kIsGroupMode ? "group" : "batch") + "_b" + std::to_string(kM0);
    }
    CK_TILE_HOST static dim3 GridSize(const Kargs& k) { return dim3((k.max_seqlen + kM0 - 1) / kM0, k.nhead, k.batch); }
    CK_TILE_HOST static constexpr dim3 BlockSize() { return dim3(kBlockSize); }

    CK_TILE_DEVICE void operator()(Kargs k) const
    {
        const index_t i_batch = get_block_id_z(), i_nhead = get_block_id_y(), i_m0 = get_block_id() * kM0;
        index_t start, len;
        detail::fmha_bwd_rows<kIsGroupMode>(k.seqstart_ptr, k.seqlen, i_batch, start, len);
        const index_t rows = min(len - i_m0, kM0);
        if(rows <= 0)
            return;
        const long_index_t b = kIsGroupMode ? 0 : i_batch;
        const auto* acc      = static_cast<const AccDataType*>(k.acc_ptr) + b * k.batch_stride_acc +
                               static_cast<long_index_t>(i_nhead) * k.nhead_stride_acc +
                               static_cast<long_index_t>(start + i_m0) * k.stride_acc;
        auto* out            = static_cast<QGradDataType*>(k.out_ptr) + b * k.batch_stride_out +
                               static_cast<long_index_t>(i_nhead) * k.nhead_stride_out +
                               static_cast<long_index_t>(start + i_m0) * k.stride_out;
        // consecutive threads on consecutive columns
        for(index_t e = get_thread_id(); e < rows * k.hdim; e += kBlockSize)
        {
            const index_t r = e / k.hdim, c = e % k.hdim;
            out[static_cast<long_index_t>(r) * k.stride_out + c] =
                type_convert<QGradDataType>(acc[static_cast<long_index_t>(r) * k.stride_acc + c]);
        }
    }
};

} // namespace ck_tile
