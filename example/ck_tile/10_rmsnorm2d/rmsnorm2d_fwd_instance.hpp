// SPDX-License-Identifier: MIT
// The definition of rmsnorm2d_fwd_run (see rmsnorm2d_fwd.hpp): block shapes, traits, problem,
// pipeline and epilogue of one instance, and its launch.
#pragma once
#include <type_traits>
#include "rmsnorm2d_fwd.hpp"

namespace rmsnorm2d_example {

// the two-pass pipeline: one row per block, 4 warps along it, chunks of 2048 columns
template <int kVector>
using TwoPassShape =
    ck_tile::Generic2dBlockShape<ck_tile::sequence<1, 2048>, ck_tile::sequence<1, 256>, ck_tile::sequence<1, kVector>>;
// the one-pass pipeline (vector 8): 8 rows per block, 32 lanes per row (two rows per warp), 8
// elements x 8 repeats per lane (64 lanes per row: 1.4x slower on the emulator, where each lane
// and each shuffle round costs; 16 lanes per row, 128 elements per lane,
// was slower still)
using OnePassShape =
    ck_tile::Generic2dBlockShape<ck_tile::sequence<8, kOnePassMaxN>, ck_tile::sequence<8, 32>, ck_tile::sequence<1, 8>>;

template <bool kTwoPass, int kVector>
using BlockShape = std::conditional_t<kTwoPass, TwoPassShape<kVector>, OnePassShape>;
static_assert(OnePassShape::Block_N == kOnePassMaxN);

template <typename XDataType, typename YDataType, bool kTwoPass, int kVector>
run_result rmsnorm2d_fwd_run(const ck_tile::Rmsnorm2dFwdHostArgs& args, const ck_tile::stream_config& cfg)
{
    using namespace ck_tile;
    constexpr bool kQuant = !std::is_same_v<XDataType, YDataType>;
    using Shape           = BlockShape<kTwoPass, kVector>;
    using Traits =
        Rmsnorm2dFwdTraits<true, true, kQuant, kTwoPass, Rmsnorm2dFusedAddEnum::PRE_ADD_STORE,
                           kQuant ? Rmsnorm2dFusedQuantEnum::SMOOTH_DYNAMIC_QUANT : Rmsnorm2dFusedQuantEnum::NO_SWEEP,
                           Rmsnorm2dSensitiveEnum::T5_MODEL_LIKE>;
    // gamma, invrms and y_unquant in the input type, scales fp32 (upstream's RmsnormTypeConfig)
    using Problem = Rmsnorm2dFwdPipelineProblem<XDataType, XDataType, float, YDataType, XDataType, XDataType, float,
                                                float, Shape, Traits>;
    using Pipeline =
        std::conditional_t<kTwoPass, Rmsnorm2dFwdPipelineTwoPass<Problem>, Rmsnorm2dFwdPipelineOnePass<Problem>>;
    using Epilogue =
        std::conditional_t<kQuant,
                           DynamicQuantEpilogue<DynamicQuantEpilogueProblem<
                               float, float, float, YDataType, Shape, DynamicQuantEpilogueTraits<true, true, true>>>,
                           Default2DEpilogue<Default2DEpilogueProblem<float, YDataType, true, true>>>;
    using Kernel = Rmsnorm2dFwd<Pipeline, Epilogue>;

    if(!Kernel::IsSupportedArgument(args))
        return {false, 0.f, Kernel::GetName()};
    const float ms =
        launch_kernel(cfg, make_kernel<Kernel::kBlockSize>(Kernel{}, Kernel::GridSize(args), Kernel::BlockSize(), 0,
                                                           Kernel::MakeKargs(args)));
    return {true, ms, Kernel::GetName()};
}

} // namespace rmsnorm2d_example

// instantiates the vector-8 instances of one input type and pipeline
#define RMSNORM2D_FWD_INSTANCES(X, TWO_PASS)                                                                           \
    namespace rmsnorm2d_example {                                                                                      \
    template run_result rmsnorm2d_fwd_run<X, X, TWO_PASS, 8>(const ck_tile::Rmsnorm2dFwdHostArgs&,                     \
                                                             const ck_tile::stream_config&);                           \
    template run_result rmsnorm2d_fwd_run<X, int8_t, TWO_PASS, 8>(const ck_tile::Rmsnorm2dFwdHostArgs&,                \
                                                                  const ck_tile::stream_config&);                      \
    template run_result rmsnorm2d_fwd_run<X, ck_tile::fp8_t, TWO_PASS, 8>(const ck_tile::Rmsnorm2dFwdHostArgs&,        \
                                                                          const ck_tile::stream_config&);              \
    }

// the vector-1 instances of one input type (the two-pass pipeline, which takes any n)
#define RMSNORM2D_FWD_INSTANCES_V1(X)                                                                                  \
    namespace rmsnorm2d_example {                                                                                      \
    template run_result rmsnorm2d_fwd_run<X, X, true, 1>(const ck_tile::Rmsnorm2dFwdHostArgs&,                         \
                                                         const ck_tile::stream_config&);                               \
    template run_result rmsnorm2d_fwd_run<X, int8_t, true, 1>(const ck_tile::Rmsnorm2dFwdHostArgs&,                    \
                                                              const ck_tile::stream_config&);                          \
    template run_result rmsnorm2d_fwd_run<X, ck_tile::fp8_t, true, 1>(const ck_tile::Rmsnorm2dFwdHostArgs&,            \
                                                                      const ck_tile::stream_config&);                  \
    }
