// SPDX-License-Identifier: MIT
// reference_fused_moe: the host reference of the fused-MoE GEMMs (ops/fused_moe/kernel/
// fused_moegemm_kernel.hpp), over the output of MoE sorting (reference_moe_sorting or the kernel's).
//
//   for each sorted row r < num_sorted_rows whose token t = sorted_token_ids[r] & 0xffffff is a
//   real token (t < tokens; padding rows carry t = tokens), with expert x = sorted_expert_ids[r /
//   block_m] and weight w = sorted_weights[r]:
//     gate_only: y[j] = act(sum_h a[t, h] g[x, j, h])
//     gate + up: y[j] = act(sum_h a[t, h] g[x, j, h]) * sum_h a[t, h] g[x, interm + j, h]
//     y[j] is rounded to ADataType (the kernel keeps Y in A's type for the second GEMM)
//     o[t, h] += w * sum_j y[j] d[x, h, j]
//   o is zeroed first; sums in AccDataType, o converted once at the end.
//
// a: [tokens, hidden]; g: [experts, interm, hidden] (gate only) or [experts, 2 * interm, hidden]
// (gate rows, then up rows); d: [experts, hidden, interm]; o: [tokens, hidden]; not shuffled.
#pragma once
#include <algorithm>
#include <cstddef>
#include <stdexcept>
#include <thread>
#include <vector>
#include "ck_tile/core.hpp"
#include "ck_tile/host/host_tensor.hpp"

namespace ck_tile {

template <typename AccDataType, typename Activation, typename ADataType, typename GDataType, typename DDataType,
          typename ODataType, typename IndexType, typename WeightType>
CK_TILE_HOST void
reference_fused_moe(const HostTensor<ADataType>& a, const HostTensor<GDataType>& g, const HostTensor<DDataType>& d,
                    HostTensor<ODataType>& o, const HostTensor<IndexType>& sorted_token_ids,
                    const HostTensor<WeightType>& sorted_weights, const HostTensor<IndexType>& sorted_expert_ids,
                    index_t num_sorted_rows, index_t block_m, bool gate_only, const Activation& act = {})
{
    const index_t tokens  = static_cast<index_t>(a.get_length(0));
    const index_t hidden  = static_cast<index_t>(a.get_length(1));
    const index_t experts = static_cast<index_t>(g.get_length(0));
    const index_t interm  = static_cast<index_t>(d.get_length(2));
    if(g.get_length(1) != static_cast<std::size_t>(gate_only ? interm : 2 * interm) ||
       g.get_length(2) != static_cast<std::size_t>(hidden) || d.get_length(0) != static_cast<std::size_t>(experts) ||
       d.get_length(1) != static_cast<std::size_t>(hidden) || o.get_length(0) != static_cast<std::size_t>(tokens) ||
       o.get_length(1) != static_cast<std::size_t>(hidden) || block_m < 1)
        throw std::invalid_argument("reference_fused_moe: the tensor shapes do not agree");

    // the sorted rows of each token, in sorted order (so the sum order is fixed)
    std::vector<std::vector<index_t>> rows(tokens);
    for(index_t r = 0; r < num_sorted_rows; ++r)
    {
        const index_t t = static_cast<index_t>(sorted_token_ids(r)) & 0xffffff;
        if(t >= tokens)
            continue;
        const index_t x = static_cast<index_t>(sorted_expert_ids(r / block_m));
        if(x < 0 || x >= experts)
            throw std::invalid_argument("reference_fused_moe: an expert id outside [0, experts)");
        rows[t].push_back(r);
    }

    const auto one_token = [&](index_t t, std::vector<AccDataType>& y, std::vector<AccDataType>& acc) {
        std::fill(acc.begin(), acc.end(), AccDataType{0});
        for(index_t r : rows[t])
        {
            const index_t x = static_cast<index_t>(sorted_expert_ids(r / block_m));
            const auto w    = type_convert<AccDataType>(sorted_weights(r));
            for(index_t j = 0; j < interm; ++j)
            {
                AccDataType gate = 0, up = 0;
                for(index_t h = 0; h < hidden; ++h)
                {
                    const auto av = type_convert<AccDataType>(a(t, h));
                    gate += av * type_convert<AccDataType>(g(x, j, h));
                    if(!gate_only)
                        up += av * type_convert<AccDataType>(g(x, interm + j, h));
                }
                AccDataType v = act(static_cast<float>(gate));
                if(!gate_only)
                    v *= up;
                y[j] = type_convert<AccDataType>(type_convert<ADataType>(static_cast<float>(v)));
            }
            for(index_t h = 0; h < hidden; ++h)
            {
                AccDataType s = 0;
                for(index_t j = 0; j < interm; ++j)
                    s += y[j] * type_convert<AccDataType>(d(x, h, j));
                acc[h] += w * s;
            }
        }
        for(index_t h = 0; h < hidden; ++h)
            o(t, h) = type_convert<ODataType>(static_cast<float>(acc[h]));
    };

    const index_t n_threads =
        std::max<index_t>(1, std::min<index_t>(tokens, static_cast<index_t>(std::thread::hardware_concurrency())));
    std::vector<std::thread> pool;
    for(index_t i = 0; i < n_threads; ++i)
        pool.emplace_back([&, i] {
            std::vector<AccDataType> y(interm), acc(hidden);
            for(index_t t = i; t < tokens; t += n_threads)
                one_token(t, y, acc);
        });
    for(auto& th : pool)
        th.join();
}

} // namespace ck_tile
