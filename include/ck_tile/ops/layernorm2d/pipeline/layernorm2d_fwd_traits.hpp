// SPDX-License-Identifier: MIT
// Layernorm2dFwdTraits and the fusion enums of the layernorm forward (upstream's names).
//
//   Layernorm2dXBiasEnum       NO_BIAS, ADD_BIAS              x' = x + bias[n] first
//   Layernorm2dFusedAddEnum    NO_ADD, PRE_ADD_STORE, PRE_ADD x' += x_residual (and store x' to
//                                                             y_residual)
//   Layernorm2dFusedQuantEnum  NO_SWEEP, SMOOTH_DYNAMIC_QUANT, DYNAMIC_QUANT
//
// In our pipelines an enum value other than NO_* compiles the fusion in, and the kernel arguments
// switch it on at run time (a uniform branch on the block): ADD_BIAS applies the bias when
// p_x_bias is given; PRE_ADD_STORE adds x_residual when p_x_residual is given and stores x' when
// p_y_residual is given as well (so it also covers PRE_ADD); SMOOTH_DYNAMIC_QUANT multiplies by
// sm_scale when p_sm_scale is given, else it is DYNAMIC_QUANT; kSaveMeanInvStd saves the row
// statistics when p_mean / p_invStd are given. The quantized output type is compile-time (the
// pipeline's Y type). kWelford is always true (fp32 Welford), kFastFDiv is accepted and unused.
#pragma once
#include "ck_tile/core.hpp"

namespace ck_tile {

enum class Layernorm2dXBiasEnum
{
    NO_BIAS  = 0,
    ADD_BIAS = 1,
};

enum class Layernorm2dFusedAddEnum
{
    NO_ADD        = 0,
    PRE_ADD_STORE = 1, // x' = x + x_residual, stored to y_residual
    PRE_ADD       = 2, // x' = x + x_residual, not stored
};

enum class Layernorm2dFusedQuantEnum
{
    NO_SWEEP             = 0,
    SMOOTH_DYNAMIC_QUANT = 1, // y *= sm_scale[n], then per-row dynamic quantization
    DYNAMIC_QUANT        = 2,
};

template <Layernorm2dXBiasEnum E>
struct Layernorm2dXBiasEnumName;
template <>
struct Layernorm2dXBiasEnumName<Layernorm2dXBiasEnum::NO_BIAS>
{
    static constexpr const char* name = "no";
};
template <>
struct Layernorm2dXBiasEnumName<Layernorm2dXBiasEnum::ADD_BIAS>
{
    static constexpr const char* name = "xbias";
};

template <Layernorm2dFusedAddEnum E>
struct Layernorm2dFusedAddEnumName;
template <>
struct Layernorm2dFusedAddEnumName<Layernorm2dFusedAddEnum::NO_ADD>
{
    static constexpr const char* name = "no";
};
template <>
struct Layernorm2dFusedAddEnumName<Layernorm2dFusedAddEnum::PRE_ADD_STORE>
{
    static constexpr const char* name = "pras";
};
template <>
struct Layernorm2dFusedAddEnumName<Layernorm2dFusedAddEnum::PRE_ADD>
{
    static constexpr const char* name = "pra";
};

template <Layernorm2dFusedQuantEnum E>
struct Layernorm2dFusedQuantEnumName;
template <>
struct Layernorm2dFusedQuantEnumName<Layernorm2dFusedQuantEnum::NO_SWEEP>
{
    static constexpr const char* name = "no";
};
template <>
struct Layernorm2dFusedQuantEnumName<Layernorm2dFusedQuantEnum::SMOOTH_DYNAMIC_QUANT>
{
    static constexpr const char* name = "smdqt";
};
template <>
struct Layernorm2dFusedQuantEnumName<Layernorm2dFusedQuantEnum::DYNAMIC_QUANT>
{
    static constexpr const char* name = "dqt";
};

template <bool kPadN_, bool kSaveMeanInvStd_, bool kFastFDiv_, bool kWelford_, bool kTwoPass_,
          Layernorm2dXBiasEnum kXbias_, Layernorm2dFusedAddEnum kFusedAdd_, Layernorm2dFusedQuantEnum kFusedQuant_>
struct Layernorm2dFwdTraits
{
    static constexpr bool kPadN                            = kPadN_;
    static constexpr bool kSaveMeanInvStd                  = kSaveMeanInvStd_;
    static constexpr bool kFastFDiv                        = kFastFDiv_;
    static constexpr bool kWelford                         = kWelford_;
    static constexpr bool kTwoPass                         = kTwoPass_;
    static constexpr Layernorm2dXBiasEnum kXbias           = kXbias_;
    static constexpr Layernorm2dFusedAddEnum kFusedAdd     = kFusedAdd_;
    static constexpr Layernorm2dFusedQuantEnum kFusedQuant = kFusedQuant_;
    static_assert(kWelford, "Layernorm2dFwdTraits: our pipelines compute the statistics with Welford only");
};

// the run-time switches of the fusions an instance compiles in (see Layernorm2dFwdTraits)
struct Layernorm2dFwdFlags
{
    bool bias;           // x' += bias[n]
    bool add;            // x' += x_residual
    bool store_residual; // y_residual = x'
    bool save_mv;        // mean[m], inv_std[m]
    bool smooth;         // y *= sm_scale[n] before the quantization
};

} // namespace ck_tile
