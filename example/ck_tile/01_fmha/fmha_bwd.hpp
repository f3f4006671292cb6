// SPDX-License-Identifier: MIT
// The backward attention API of tile_example_fmha_bwd (upstream's shape):
//
//   float fmha_bwd(fmha_bwd_traits, fmha_bwd_args, const ck_tile::stream_config&);
//
// runs FmhaBwdOGradDotOKernel, FmhaBwdDQDKDVKernel and FmhaBwdConvertQGradKernel (and, when
// several query heads share a K/V head, the convert kernel again for dK and dV) and returns the
// average time in ms of the whole sequence, or -1 when no compiled instance serves the traits.
// The instances are hand-written (fmha_bwd_instances.cpp): one per (data type, head dim, mode).
#pragma once
#include <string>
#include "ck_tile/core.hpp"
#include "ck_tile/host.hpp"
#include "ck_tile/ops/fmha.hpp"
#include "fmha_fwd.hpp"

template <typename DataType>
struct FmhaBwdTypeConfig
{
    using QDataType     = DataType;
    using KDataType     = DataType;
    using VDataType     = DataType;
    using GemmDataType  = DataType;
    using BiasDataType  = DataType;
    using LSEDataType   = float;
    using AccDataType   = float;
    using DDataType     = float;
    using ODataType     = DataType;
    using OGradDataType = DataType;
    using QGradDataType = DataType;
    using KGradDataType = DataType;
    using VGradDataType = DataType;
};

// pointers, sizes and strides; d_ptr, dq_acc_ptr (and under GQA dk_acc_ptr, dv_acc_ptr) are fp32
// workspaces the caller allocates: D and dQ like LSE and Q, dK / dV accumulators packed bhsd
// ([batch, nhead_k, seqlen_k, hdim]; group mode [1, nhead_k, total_k, hdim])
using fmha_bwd_args = ck_tile::FmhaBwdHostArgs;

struct fmha_bwd_traits
{
    int hdim_q;
    int hdim_v;
    std::string data_type; // fp16, bf16
    bool is_group_mode;
    ck_tile::GenericAttentionMaskEnum mask_type;
    ck_tile::BlockAttentionBiasEnum bias_type;
    bool has_dbias; // not supported: no instance
    bool has_dropout;
    bool is_deterministic; // not supported: no instance
};

// one instance (compile time): data type, head dim bucket, mode
template <typename DataType_, ck_tile::index_t HDim_, bool kIsGroupMode_>
struct fmha_bwd_traits_
{
    using DataType                         = DataType_;
    static constexpr ck_tile::index_t HDim = HDim_;
    static constexpr bool kIsGroupMode     = kIsGroupMode_;
};

template <typename Traits_>
float fmha_bwd_(const ck_tile::stream_config&, fmha_bwd_args);
template <typename Traits_>
std::string fmha_bwd_get_name_();

float fmha_bwd(fmha_bwd_traits, fmha_bwd_args, const ck_tile::stream_config&);
// the name of the dQ/dK/dV kernel fmha_bwd would run ("" if none)
std::string fmha_bwd_get_name(fmha_bwd_traits);
