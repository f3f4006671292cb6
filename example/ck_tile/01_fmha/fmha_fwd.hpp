// SPDX-License-Identifier: MIT
// The forward attention API of tile_example_fmha_fwd (upstream's shape):
//
//   float fmha_fwd(fmha_fwd_traits, fmha_fwd_args, const ck_tile::stream_config&);
//
// returns the average time in ms, or -1 when no compiled instance serves the traits. The
// instances (fmha_fwd_traits_ specialisations of fmha_fwd_) and fmha_fwd itself, a dispatch over
// them, are written by generate.py at configure time.
#pragma once
#include <string>
#include "ck_tile/core.hpp"
#include "ck_tile/host.hpp"
#include "ck_tile/ops/fmha.hpp"

template <typename DataType>
struct FmhaFwdTypeConfig;

template <>
struct FmhaFwdTypeConfig<ck_tile::half_t>
{
    using QDataType             = ck_tile::half_t;
    using KDataType             = ck_tile::half_t;
    using VDataType             = ck_tile::half_t;
    using BiasDataType          = ck_tile::half_t;
    using RandValOutputDataType = uint8_t;
    using LSEDataType           = float;
    using SaccDataType          = float;
    using SMPLComputeDataType   = float;
    using PDataType             = ck_tile::half_t;
    using OaccDataType          = float;
    using ODataType             = ck_tile::half_t;
};
template <>
struct FmhaFwdTypeConfig<ck_tile::bf16_t>
{
    using QDataType             = ck_tile::bf16_t;
    using KDataType             = ck_tile::bf16_t;
    using VDataType             = ck_tile::bf16_t;
    using BiasDataType          = ck_tile::bf16_t;
    using RandValOutputDataType = uint8_t;
    using LSEDataType           = float;
    using SaccDataType          = float;
    using SMPLComputeDataType   = float;
    using PDataType             = ck_tile::bf16_t;
    using OaccDataType          = float;
    using ODataType             = ck_tile::bf16_t;
};
template <>
struct FmhaFwdTypeConfig<ck_tile::fp8_t>
{
    using QDataType             = ck_tile::fp8_t;
    using KDataType             = ck_tile::fp8_t;
    using VDataType             = ck_tile::fp8_t;
    using BiasDataType          = float;
    using RandValOutputDataType = uint8_t;
    using LSEDataType           = float;
    using SaccDataType          = float;
    using SMPLComputeDataType   = float;
    using PDataType             = ck_tile::fp8_t;
    using OaccDataType          = float;
    using ODataType             = ck_tile::fp8_t;
};

struct FmhaMasks
{
    using NoMask      = ck_tile::GenericAttentionMask<false>;
    using GenericMask = ck_tile::GenericAttentionMask<true, true>;
    using CausalMask  = ck_tile::GenericAttentionMask<true, false>;
};

using fmha_fwd_args = ck_tile::FmhaFwdHostArgs;

// what a launch needs of an instance (run time)
struct fmha_fwd_traits
{
    int hdim_q;
    int hdim_v;
    std::string data_type; // fp16, bf16, fp8
    bool is_group_mode;
    bool is_v_rowmajor;
    ck_tile::GenericAttentionMaskEnum mask_type;
    ck_tile::BlockAttentionBiasEnum bias_type;
    bool has_lse;
    bool has_dropout;
    bool do_fp8_static_quant;
};

// one instance (compile time)
template <ck_tile::index_t HDim_, typename DataType_, bool kIsGroupMode_, ck_tile::index_t kM0_, ck_tile::index_t kN0_,
          ck_tile::index_t kK0_, ck_tile::index_t kN1_, ck_tile::index_t kK1_, ck_tile::index_t kK0BlockLength_,
          bool kIsVLayoutRowMajor_, ck_tile::BlockFmhaPipelineEnum FmhaPipelineEnum_, typename FmhaMask_,
          bool kHasBias_, bool kStoreLse_, bool kHasDropout_, bool kDoFp8StaticQuant_, bool kPadS_, bool kPadSK_,
          bool kPadD_, bool kPadDv_>
struct fmha_fwd_traits_
{
    static constexpr ck_tile::index_t HDim           = HDim_;
    using DataType                                   = DataType_;
    static constexpr bool kIsGroupMode               = kIsGroupMode_;
    static constexpr ck_tile::index_t kM0            = kM0_;
    static constexpr ck_tile::index_t kN0            = kN0_;
    static constexpr ck_tile::index_t kK0            = kK0_;
    static constexpr ck_tile::index_t kN1            = kN1_;
    static constexpr ck_tile::index_t kK1            = kK1_;
    static constexpr ck_tile::index_t kK0BlockLength = kK0BlockLength_;
    static constexpr bool kIsVLayoutRowMajor         = kIsVLayoutRowMajor_;
    static constexpr auto FmhaPipelineEnum           = FmhaPipelineEnum_;
    using FmhaMask                                   = FmhaMask_;
    static constexpr bool kHasBias                   = kHasBias_;
    static constexpr bool kStoreLse                  = kStoreLse_;
    static constexpr bool kHasDropout                = kHasDropout_;
    static constexpr bool kDoFp8StaticQuant          = kDoFp8StaticQuant_;
    static constexpr bool kPadS                      = kPadS_;
    static constexpr bool kPadSK                     = kPadSK_;
    static constexpr bool kPadD                      = kPadD_;
    static constexpr bool kPadDv                     = kPadDv_;
};

// an instance's launch; throws std::invalid_argument when it cannot run the arguments
template <typename Traits_>
float fmha_fwd_(const ck_tile::stream_config&, fmha_fwd_args);
template <typename Traits_>
std::string fmha_fwd_get_name_();

float fmha_fwd(fmha_fwd_traits, fmha_fwd_args, const ck_tile::stream_config&);
// the name of the instance fmha_fwd would run ("" if none)
std::string fmha_fwd_get_name(fmha_fwd_traits);
