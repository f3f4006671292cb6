// SPDX-License-Identifier: MIT
// Rmsnorm2dFwdTraits and the fusion enums of the rmsnorm2d forward kernels (upstream's names and
// values). Short names (upstream's, used in kernel names): no / pras / pra, no / smdqt / dqt,
// nsm / t5ml.
//
// What a trait means here: a trait says what an instance CAN do; the launch's arguments say what
// it does. The cheap fusions are uniform run-time branches in one instance:
//   FusedAddEnum   NO_ADD: no residual code; PRE_ADD_STORE or PRE_ADD: x += x_residual when the
//                  launch passes p_x_residual, and x' is stored when it also passes p_y_residual;
//   FusedQuantEnum NO_SWEEP: y is stored as YDataType; SMOOTH_DYNAMIC_QUANT or DYNAMIC_QUANT:
//                  row-wise dynamic quantization to int8 / fp8, smoothed by sm_scale[n] when the
//                  launch passes p_sm_scale (so one instance serves fquant=1 and fquant=2);
//   kSaveInvRms    invrms[m] is stored when the launch passes p_invRms;
//   kSaveUnquant   y before quantization is stored when the launch passes p_y_unquant;
//   SensitiveEnum  T5_MODEL_LIKE: the T5-like rounding is applied when the launch asks for it
//                  (Rmsnorm2dFwdHostArgs::sensitive).
// A trait that is off compiles the fusion out. kTwoPass picks the two-pass pipeline (rows longer
// than one block tile); kPadN allows n that is not a multiple of the block tile.
#pragma once
#include "ck_tile/core.hpp"

namespace ck_tile {

enum class Rmsnorm2dFusedAddEnum
{
    NO_ADD        = 0,
    PRE_ADD_STORE = 1, // x' = x + x_residual, stored to y_residual, then normalized
    PRE_ADD       = 2, // x' = x + x_residual, normalized, not stored
};

enum class Rmsnorm2dFusedQuantEnum
{
    NO_SWEEP             = 0,
    SMOOTH_DYNAMIC_QUANT = 1, // y *= sm_scale[n], then row-wise dynamic quant
    DYNAMIC_QUANT        = 2, // row-wise dynamic quant
};

enum class Rmsnorm2dSensitiveEnum
{
    NO_SPECIFIC_MODEL = 0, // y = x' * invrms * gamma in fp32
    T5_MODEL_LIKE     = 1, // x' * invrms rounded to the input type, then times gamma
};

template <Rmsnorm2dFusedAddEnum E>
struct Rmsnorm2dFusedAddEnumName;
template <>
struct Rmsnorm2dFusedAddEnumName<Rmsnorm2dFusedAddEnum::NO_ADD>
{
    static constexpr const char* name = "no";
};
template <>
struct Rmsnorm2dFusedAddEnumName<Rmsnorm2dFusedAddEnum::PRE_ADD_STORE>
{
    static constexpr const char* name = "pras";
};
template <>
struct Rmsnorm2dFusedAddEnumName<Rmsnorm2dFusedAddEnum::PRE_ADD>
{
    static constexpr const char* name = "pra";
};

template <Rmsnorm2dFusedQuantEnum E>
struct Rmsnorm2dFusedQuantEnumName;
template <>
struct Rmsnorm2dFusedQuantEnumName<Rmsnorm2dFusedQuantEnum::NO_SWEEP>
{
    static constexpr const char* name = "no";
};
template <>
struct Rmsnorm2dFusedQuantEnumName<Rmsnorm2dFusedQuantEnum::SMOOTH_DYNAMIC_QUANT>
{
    static constexpr const char* name = "smdqt";
};
template <>
struct Rmsnorm2dFusedQuantEnumName<Rmsnorm2dFusedQuantEnum::DYNAMIC_QUANT>
{
    static constexpr const char* name = "dqt";
};

template <Rmsnorm2dSensitiveEnum E>
struct Rmsnorm2dSensitiveEnumName;
template <>
struct Rmsnorm2dSensitiveEnumName<Rmsnorm2dSensitiveEnum::NO_SPECIFIC_MODEL>
{
    static constexpr const char* name = "nsm";
};
template <>
struct Rmsnorm2dSensitiveEnumName<Rmsnorm2dSensitiveEnum::T5_MODEL_LIKE>
{
    static constexpr const char* name = "t5ml";
};

template <bool kPadN_, bool kSaveInvRms_, bool kSaveUnquant_, bool kTwoPass_, Rmsnorm2dFusedAddEnum kFusedAdd_,
          Rmsnorm2dFusedQuantEnum kFusedQuant_, Rmsnorm2dSensitiveEnum kUseModelSensitiveRMSNorm_>
struct Rmsnorm2dFwdTraits
{
    static constexpr bool kPadN                                       = kPadN_;
    static constexpr bool kSaveInvRms                                 = kSaveInvRms_;
    static constexpr bool kSaveUnquant                                = kSaveUnquant_;
    static constexpr bool kTwoPass                                    = kTwoPass_;
    static constexpr Rmsnorm2dFusedAddEnum kFusedAdd                  = kFusedAdd_;
    static constexpr Rmsnorm2dFusedQuantEnum kFusedQuant              = kFusedQuant_;
    static constexpr Rmsnorm2dSensitiveEnum kUseModelSensitiveRMSNorm = kUseModelSensitiveRMSNorm_;

    static constexpr bool kHasAdd   = kFusedAdd_ != Rmsnorm2dFusedAddEnum::NO_ADD;
    static constexpr bool kHasQuant = kFusedQuant_ != Rmsnorm2dFusedQuantEnum::NO_SWEEP;
    static constexpr bool kHasT5    = kUseModelSensitiveRMSNorm_ == Rmsnorm2dSensitiveEnum::T5_MODEL_LIKE;
    static_assert(!kSaveUnquant || kHasQuant, "Rmsnorm2dFwdTraits: kSaveUnquant needs a quant fusion");
};

} // namespace ck_tile
