// SPDX-License-Identifier: MIT
// moe_sorting(traits, args, stream): the single-workgroup kernel or the four multi-phase launches.
#include <stdexcept>
#include "moe_sorting_api.hpp"

namespace {

template <bool kMasking>
moe_sorting_result run(const moe_sorting_args& a, bool mp, const ck_tile::stream_config& s)
{
    using Problem = ck_tile::MoeSortingProblem<ck_tile::index_t, float, 256, kMasking>;
    if(!mp)
    {
        using Kernel = ck_tile::MoeSortingKernel<Problem>;
        if(!Kernel::IsSupportedArgument(a))
            throw std::invalid_argument("moe_sorting: " + Kernel::GetName() +
                                        " does not support these arguments (at most 2047 experts)");
        const float ms = ck_tile::launch_kernel(
            s, ck_tile::make_kernel<Kernel::kBlockSize>(Kernel{}, Kernel::GridSize(a), Kernel::BlockSize(a), 0,
                                                        Kernel::MakeKargs(a)));
        return {Kernel::GetName(), ms, false};
    }
    // one wave per workgroup: the chunks spread over more workgroups
    using MpProblem = ck_tile::MoeSortingProblem<ck_tile::index_t, float, 64, kMasking>;
    using K0        = ck_tile::MoeSortingMultiPhaseKernel<MpProblem, 0>;
    using K1        = ck_tile::MoeSortingMultiPhaseKernel<MpProblem, 1>;
    using K2        = ck_tile::MoeSortingMultiPhaseKernel<MpProblem, 2>;
    using K3        = ck_tile::MoeSortingMultiPhaseKernel<MpProblem, 3>;
    if(!K0::IsSupportedArgument(a))
        throw std::invalid_argument("moe_sorting: the multi-phase kernels need a workspace");
    constexpr ck_tile::index_t B = MpProblem::kBlockSize;
    const float ms =
        ck_tile::launch_kernel(s, ck_tile::make_kernel<B>(K0{}, K0::GridSize(a), K0::BlockSize(a), 0, K0::MakeKargs(a)),
                               ck_tile::make_kernel<B>(K1{}, K1::GridSize(a), K1::BlockSize(a), 0, K1::MakeKargs(a)),
                               ck_tile::make_kernel<B>(K2{}, K2::GridSize(a), K2::BlockSize(a), 0, K2::MakeKargs(a)),
                               ck_tile::make_kernel<B>(K3{}, K3::GridSize(a), K3::BlockSize(a), 0, K3::MakeKargs(a)));
    return {"moe_sorting_mp_b" + std::to_string(B) + (kMasking ? "_lem" : ""), ms, true};
}

} // namespace

moe_sorting_result moe_sorting(const moe_sorting_trait& t, const moe_sorting_args& a, const ck_tile::stream_config& s)
{
    if(t.index_type != "int32" || t.weight_type != "fp32")
        throw std::invalid_argument("moe_sorting: no instance for " + t.index_type + " / " + t.weight_type);
    const bool mp = ck_tile::moe_sorting_is_mp(a.tokens, a.num_experts, a.topk, t.dispatch_policy);
    return t.local_expert_masking ? run<true>(a, mp, s) : run<false>(a, mp, s);
}
