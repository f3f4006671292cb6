// SPDX-License-Identifier: MIT
// The layernorm2d_fwd API of the example (upstream's names): layernorm2d_fwd_traits says which
// types and fusions a call wants, layernorm2d_fwd_args carries the pointers and sizes (a null
// pointer: that fusion is off), and layernorm2d_fwd() picks the instance and launches it.
//
// The instances (layernorm2d_fwd_instance.hpp, compiled in layernorm2d_fwd_{fp16,bf16}.cpp): per
// input type and output (the input type, or int8 / fp8 with a fused quantization): vector 8 (n
// and every stride in use a multiple of 8: 16-byte accesses of 16-bit data) one pass for
// n <= 1024 and two passes beyond; vector 1 (any n and stride) one pass for n <= 512 and two
// passes beyond. Bias, fused add
// (with or without the store), save_mv and the smooth scale are run-time switches of every
// instance (see Layernorm2dFwdTraits).
#pragma once
#include <string>
#include "ck_tile/core.hpp"
#include "ck_tile/host.hpp"
#include "ck_tile/ops/common.hpp"
#include "ck_tile/ops/epilogue.hpp"
#include "ck_tile/ops/layernorm2d.hpp"

// types of one input / output combination: gamma, beta, bias, residuals, mean and inv_std in the
// input type (as upstream's LayerNormTypeConfig), compute fp32, scales fp32
template <typename InType, typename OutType>
struct LayerNormTypeConfig
{
    using XDataType           = InType;
    using YDataType           = OutType;
    using XBiasDataType       = InType;
    using GammaDataType       = InType;
    using BetaDataType        = InType;
    using MeanDataType        = InType;
    using InvStdDataType      = InType;
    using ComputeDataType     = float;
    using SmoothScaleDataType = float;
    using YScaleDataType      = float;
};

struct layernorm2d_fwd_traits
{
    std::string prec_i; // fp16 | bf16
    std::string prec_o; // prec_i, or int8 | fp8 with fused_quant
    std::string prec_sm;
    std::string prec_sy;
    bool save_mean_var;
    int xbias;       // Layernorm2dXBiasEnum
    int fused_add;   // Layernorm2dFusedAddEnum
    int fused_quant; // Layernorm2dFusedQuantEnum
};

struct layernorm2d_fwd_args : ck_tile::Layernorm2dFwdHostArgs
{};

// the block's row tile (Block_N) per vector: the one-pass instance takes n up to it, the two-pass
// one any n
template <ck_tile::index_t kVector>
inline constexpr ck_tile::index_t layernorm2d_block_n = kVector == 8 ? 1024 : 512;

template <typename InType, typename OutType, ck_tile::index_t kVector, bool kTwoPass>
struct layernorm2d_fwd_instance
{
    using Types                  = LayerNormTypeConfig<InType, OutType>;
    static constexpr bool kQuant = !std::is_same_v<InType, OutType>;
    // 4 warps, one row each; a lane moves kVector elements, Block_N / (64 * kVector) times per row
    using Shape = ck_tile::Generic2dBlockShape<ck_tile::sequence<4, layernorm2d_block_n<kVector>>,
                                               ck_tile::sequence<4, 64>, ck_tile::sequence<1, kVector>>;
    using Traits =
        ck_tile::Layernorm2dFwdTraits<true, true, false, true, kTwoPass, ck_tile::Layernorm2dXBiasEnum::ADD_BIAS,
                                      ck_tile::Layernorm2dFusedAddEnum::PRE_ADD_STORE,
                                      kQuant ? ck_tile::Layernorm2dFusedQuantEnum::SMOOTH_DYNAMIC_QUANT
                                             : ck_tile::Layernorm2dFusedQuantEnum::NO_SWEEP>;
    using Problem = ck_tile::Layernorm2dFwdPipelineProblem<
        typename Types::XDataType, typename Types::XBiasDataType, typename Types::GammaDataType,
        typename Types::BetaDataType, typename Types::ComputeDataType, typename Types::YDataType,
        typename Types::MeanDataType, typename Types::InvStdDataType, typename Types::SmoothScaleDataType,
        typename Types::YScaleDataType, Shape, Traits>;
    using Pipeline      = std::conditional_t<kTwoPass, ck_tile::Layernorm2dFwdPipelineTwoPass<Problem>,
                                             ck_tile::Layernorm2dFwdPipelineOnePass<Problem>>;
    using QuantEpilogue = ck_tile::DynamicQuantEpilogue<
        ck_tile::DynamicQuantEpilogueProblem<float, typename Types::SmoothScaleDataType, typename Types::YScaleDataType,
                                             OutType, Shape, ck_tile::DynamicQuantEpilogueTraits<true, true, true>>>;
    using PlainEpilogue = ck_tile::Default2DEpilogue<ck_tile::Default2DEpilogueProblem<float, OutType, true, true>>;
    using Epilogue      = std::conditional_t<kQuant, QuantEpilogue, PlainEpilogue>;
    using Kernel        = ck_tile::Layernorm2dFwd<Pipeline, Epilogue>;
};

// defined in layernorm2d_fwd_instance.hpp, instantiated in the instance files
template <typename Instance>
bool layernorm2d_fwd_supports(const layernorm2d_fwd_args& a);
template <typename Instance>
float layernorm2d_fwd_run(const layernorm2d_fwd_args& a, const ck_tile::stream_config& s, std::string* kernel_name);

// launches the instance that fits (its time in ms), or returns -1 when none does
float layernorm2d_fwd(const layernorm2d_fwd_traits& t, const layernorm2d_fwd_args& a, const ck_tile::stream_config& s,
                      std::string* kernel_name = nullptr);
