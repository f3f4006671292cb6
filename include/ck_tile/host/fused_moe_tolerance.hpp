// SPDX-License-Identifier: MIT
// The check_err tolerance of the output O of the fused-MoE GEMMs (tile_example_fused_moe against
// reference_fused_moe), derived from the roundings the kernel does and the reference does not,
// instead of a 1e-2 floor that let fp16 results 20 ulps off pass.
//
//   const int n_adds  = fused_moe_adds_per_element(topk, interm, block_n0);
//   const tolerance t = fused_moe_tolerance<ODataType>(n_adds, max_abs_value(o_ref.mData));
//   check_err(o, o_ref, msg, t.rtol, t.atol);
//
// Why this bound. Both compute Y = act(A G^T) (times A U^T) in fp32 and round it to the input
// type, then w * Y D^T in fp32; they differ in what happens to the fp32 results p_i, one per
// (expert of the token, slice of block_n0 intermediate columns), n_adds of them per element:
//   * the kernel rounds each p_i to O's type T (n_adds roundings), then adds it atomically into O,
//     each add but the first onto zero rounding the running sum to T (n_adds - 1 roundings);
//   * the reference sums the p_i in fp32 and rounds once (1 rounding).
// That is r = 2 n_adds roundings to T, each off by at most half an ulp of the value rounded. The
// values are partial sums of the element, which are not bounded by the element itself (they can
// cancel), so the ulp is the one of the largest output: U = ulp of T at max|O_ref|, and the bound
// is absolute (rtol = 0; a relative term would only loosen the check of the largest elements,
// whose own roundings U already counts).
//   * worst case: r U / 2, all roundings in one direction. Reached at r = 4 (2 adds: the cases at
//     the example's sizes show errors of exactly 2 U).
//   * many adds: the rounding errors have random signs; a sum of r errors uniform in
//     [-U/2, U/2] has standard deviation sqrt(r / 12) U, and sqrt(r) U is 3.5 of those. That model
//     is pessimistic (most partial sums are well below max|O|, their ulps smaller), which pays for
//     the partial sums that do exceed max|O|.
//   atol = min(r / 2, sqrt(r)) U + T's subnormal spacing (an all-zero or tiny O).
// What the bound leaves out: the fp32 sums of kernel and reference run in different orders, which
// moves the values rounded by a few fp32 ulps (2^-24 relative) and, rarely, flips one rounding of
// an element of Y to the neighbouring value; both are far below U for any sum of more than a few
// terms. A bug that moves an element by more than a few U fails: at fp16 (U is 2^-10 to 2^-11 of
// max|O|) one of 0.6e-2 max|O| (a single hidden column dropped from the first GEMM at hidden
// 65536), which the former 1e-2 max|O| + 1e-2 |O_ref| accepted;
// test/fused_moe/test_fused_moe_tolerance.cpp plants such bugs.
#pragma once
#include <algorithm>
#include <cmath>
#include "ck_tile/core.hpp"
#include "ck_tile/host/check_err.hpp"
#include "ck_tile/host/ulp.hpp"

namespace ck_tile {

// atomic adds into each element of O: one per expert of the token (topk) and per slice of
// block_n0 intermediate columns (one rank's interm)
inline int fused_moe_adds_per_element(int topk, int interm, int block_n0)
{
    return topk * ((interm + block_n0 - 1) / block_n0);
}

// see above: the check_err {rtol, atol} of O of type T after n_adds atomic adds per element;
// max_abs_o = max |O_ref|
template <typename ODataType>
tolerance fused_moe_tolerance(int n_adds, double max_abs_o)
{
    const double r         = 2.0 * std::max(n_adds, 1);
    const double roundings = std::min(r / 2, std::sqrt(r));
    return {0.0, roundings * ulp_at<ODataType>(max_abs_o) + ulp_at<ODataType>(0.0)};
}

} // namespace ck_tile
