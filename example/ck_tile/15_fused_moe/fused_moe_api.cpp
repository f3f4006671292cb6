// SPDX-License-Identifier: MIT
// fused_moe / fused_moegemm: pick the instance, build the launches, run them in one timed sequence.
#include <stdexcept>
#include "fused_moegemm_instance.hpp"

FUSED_MOEGEMM_INSTANCES(extern template, ck_tile::bf16_t)
FUSED_MOEGEMM_INSTANCES(extern template, ck_tile::half_t)

namespace {

template <typename T>
fused_moe_launch make_for_type(const fused_moegemm_traits& t, const fused_moegemm_args& a)
{
    using Gelu = ck_tile::element_wise::FastGelu;
    using Silu = ck_tile::element_wise::Silu;
    if(t.gate_only)
        return t.activation == 0 ? fused_moegemm_make<T, true, Gelu>(a) : fused_moegemm_make<T, true, Silu>(a);
    return t.activation == 0 ? fused_moegemm_make<T, false, Gelu>(a) : fused_moegemm_make<T, false, Silu>(a);
}

} // namespace

fused_moe_launch fused_moegemm_launch(const fused_moegemm_traits& t, const fused_moegemm_args& a)
{
    if(t.prec_w != t.prec_i || t.prec_o != t.prec_i || (t.prec_i != "bf16" && t.prec_i != "fp16"))
        throw std::invalid_argument("fused_moegemm: no instance for prec_i/prec_w/prec_o " + t.prec_i + "/" + t.prec_w +
                                    "/" + t.prec_o + " (bf16 or fp16, all three the same)");
    if(t.prec_kw != "fp32")
        throw std::invalid_argument("fused_moegemm: no instance for topk weights of " + t.prec_kw + " (fp32)");
    if(t.block_m != 32)
        throw std::invalid_argument("fused_moegemm: no instance for block_m " + std::to_string(t.block_m) + " (32)");
    if(t.activation != 0 && t.activation != 1)
        throw std::invalid_argument("fused_moegemm: no activation " + std::to_string(t.activation) +
                                    " (0 gelu, 1 silu)");
    return t.prec_i == "bf16" ? make_for_type<ck_tile::bf16_t>(t, a) : make_for_type<ck_tile::half_t>(t, a);
}

namespace {

ck_tile::MoeSortingHostArgs sorting_args(const fused_moe_traits& t, const fused_moe_args& a)
{
    ck_tile::MoeSortingHostArgs s{};
    s.p_topk_ids              = a.topk_ids_ptr;
    s.p_weights               = a.topk_weight_ptr;
    s.p_local_expert_mask     = nullptr;
    s.p_local_tokens          = nullptr;
    s.p_sorted_token_ids      = const_cast<void*>(a.sorted_token_ids_ptr);
    s.p_sorted_weights        = const_cast<void*>(a.sorted_weight_ptr);
    s.p_sorted_expert_ids     = const_cast<void*>(a.sorted_expert_ids_ptr);
    s.p_total_tokens_post_pad = const_cast<void*>(a.num_sorted_tiles_ptr);
    s.p_moe_buf               = a.o_ptr; // O, zeroed by the sorting launch
    s.p_ws                    = a.ws_ptr;
    s.tokens                  = a.num_tokens;
    s.unit_size               = t.block_m;
    s.num_experts             = a.num_experts;
    s.topk                    = a.topk;
    s.moe_buf_interm_dim      = a.stride_token;
    s.moe_buf_elem_bytes      = 2; // bf16 or fp16 O
    return s;
}

} // namespace

ck_tile::index_t fused_moe_get_workspace_size(const fused_moe_traits& t, const fused_moe_args& a)
{
    return ck_tile::moe_sorting_get_workspace_size(a.num_tokens, a.num_experts, a.topk, t.sorting_dispatch);
}

fused_moe_launch fused_moesorting_launch(const fused_moe_traits& t, const fused_moe_args& a)
{
    const ck_tile::MoeSortingHostArgs s = sorting_args(t, a);
    if(!ck_tile::moe_sorting_is_mp(a.num_tokens, a.num_experts, a.topk, t.sorting_dispatch))
    {
        using Kernel = ck_tile::MoeSortingKernel<ck_tile::MoeSortingProblem<ck_tile::index_t, float, 256, false>>;
        if(!Kernel::IsSupportedArgument(s))
            throw std::invalid_argument("fused_moe: " + Kernel::GetName() +
                                        " does not support these arguments (at most 2047 experts)");
        auto k = ck_tile::make_kernel<Kernel::kBlockSize>(Kernel{}, Kernel::GridSize(s), Kernel::BlockSize(s), 0,
                                                          Kernel::MakeKargs(s));
        return {Kernel::GetName(), [k](const ck_tile::stream_config& c) mutable { k(c); }};
    }
    using P  = ck_tile::MoeSortingProblem<ck_tile::index_t, float, 64, false>;
    using K0 = ck_tile::MoeSortingMultiPhaseKernel<P, 0>;
    using K1 = ck_tile::MoeSortingMultiPhaseKernel<P, 1>;
    using K2 = ck_tile::MoeSortingMultiPhaseKernel<P, 2>;
    using K3 = ck_tile::MoeSortingMultiPhaseKernel<P, 3>;
    if(!K0::IsSupportedArgument(s))
        throw std::invalid_argument("fused_moe: the multi-phase sorting needs a workspace");
    constexpr ck_tile::index_t B = P::kBlockSize;
    auto k0 = ck_tile::make_kernel<B>(K0{}, K0::GridSize(s), K0::BlockSize(s), 0, K0::MakeKargs(s));
    auto k1 = ck_tile::make_kernel<B>(K1{}, K1::GridSize(s), K1::BlockSize(s), 0, K1::MakeKargs(s));
    auto k2 = ck_tile::make_kernel<B>(K2{}, K2::GridSize(s), K2::BlockSize(s), 0, K2::MakeKargs(s));
    auto k3 = ck_tile::make_kernel<B>(K3{}, K3::GridSize(s), K3::BlockSize(s), 0, K3::MakeKargs(s));
    return {"moe_sorting_mp_b" + std::to_string(B), [k0, k1, k2, k3](const ck_tile::stream_config& c) mutable {
                k0(c);
                k1(c);
                k2(c);
                k3(c);
            }};
}

fused_moe_result fused_moegemm(const fused_moegemm_traits& t, const fused_moegemm_args& a,
                               const ck_tile::stream_config& s)
{
    fused_moe_launch g = fused_moegemm_launch(t, a);
    return {g.name, ck_tile::launch_kernel(s, g.run)};
}

fused_moe_result fused_moe(const fused_moe_traits& t, const fused_moe_args& a, const ck_tile::stream_config& s)
{
    fused_moe_launch g    = fused_moegemm_launch(t, a); // first: it checks the arguments
    fused_moe_launch sort = fused_moesorting_launch(t, a);
    return {sort.name + "+" + g.name, ck_tile::launch_kernel(s, sort.run, g.run)};
}
