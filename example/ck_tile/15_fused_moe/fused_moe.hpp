// SPDX-License-Identifier: MIT
// The fused-MoE API of tile_example_fused_moe, upstream's shape:
//
//   fused_moe(traits, args, stream)      MoE sorting (which also zeroes O) then the expert GEMMs
//   fused_moegemm(traits, args, stream)  the expert GEMMs over an existing sorting (O zeroed first)
//
// Instances: prec_i = prec_w = prec_o in {bf16, fp16}, topk weights fp32, block_m 32, gate only or
// gate + up, activation 0 (gelu) or 1 (silu); anything else throws std::invalid_argument.
#pragma once
#include <functional>
#include <string>
#include "ck_tile/core.hpp"
#include "ck_tile/host.hpp"
#include "ck_tile/ops/fused_moe.hpp"

// the intermediate columns one block of the GEMM kernel covers (the instance's N0): each output
// element gets one atomic add per slice and per expert of its token
inline constexpr int fused_moegemm_block_n0 = 256;

struct fused_moegemm_traits
{
    std::string prec_i;  // A: bf16 or fp16
    std::string prec_w;  // G and D: as prec_i
    std::string prec_o;  // O: as prec_i
    std::string prec_kw; // topk weights: fp32
    int block_m;         // 32
    int activation;      // 0 gelu, 1 silu
    bool gate_only;      // true: Y = act(A G^T); false: Y = act(A G_gate^T) * A G_up^T
};

struct fused_moegemm_args : public ck_tile::FusedMoeGemmHostArgs
{};

struct fused_moe_traits : public fused_moegemm_traits
{
    int sorting_dispatch; // 0 auto, 1 single workgroup, 2 multi-phase
};

struct fused_moe_args : public fused_moegemm_args
{
    const void* topk_ids_ptr;    // [tokens, topk] int32
    const void* topk_weight_ptr; // [tokens, topk] fp32
    void* ws_ptr;                // fused_moe_get_workspace_size bytes (may be nullptr when 0)
};

// one kernel launch of the API, and its name
struct fused_moe_launch
{
    std::string name;
    std::function<void(const ck_tile::stream_config&)> run;
};

// the expert-GEMM launch of an instance (throws std::invalid_argument: no instance, or arguments
// the kernel does not support, with the reason)
fused_moe_launch fused_moegemm_launch(const fused_moegemm_traits& t, const fused_moegemm_args& a);
// the sorting launches of fused_moe (zeroing O)
fused_moe_launch fused_moesorting_launch(const fused_moe_traits& t, const fused_moe_args& a);
// bytes of workspace fused_moe's sorting needs (0: none)
ck_tile::index_t fused_moe_get_workspace_size(const fused_moe_traits& t, const fused_moe_args& a);

struct fused_moe_result
{
    std::string kernel_name;
    float ms;
};

fused_moe_result fused_moegemm(const fused_moegemm_traits& t, const fused_moegemm_args& a,
                               const ck_tile::stream_config& s);
fused_moe_result fused_moe(const fused_moe_traits& t, const fused_moe_args& a, const ck_tile::stream_config& s);
