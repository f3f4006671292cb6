// SPDX-License-Identifier: MIT
// The permute example's host API: permute() picks an instance for the data type and the problem
// and runs it (upstream's shape: traits + host args + stream config).
#pragma once
#include <string>
#include "ck_tile/core.hpp"
#include "ck_tile/host.hpp"
#include "ck_tile/ops/permute.hpp"

struct permute_traits
{
    std::string data_type; // fp8, fp16 or fp32
};

using permute_args = ck_tile::GenericPermuteHostArgs;

struct permute_result
{
    float ms;
    std::string instance; // which kernel ran
};

// throws ck_tile::arg_error for a data type it has no instance of
permute_result permute(const permute_traits& t, const permute_args& a, const ck_tile::stream_config& s);

#if defined(PERMUTE_USE_ALTERNATIVE_IMPL)
// alternative_impl/matrix_core_swizzle.cpp: runs the fp16 matrix-core swizzle when the
// permutation and shape are one of its layouts and returns true; false (nothing run) otherwise
bool matrix_core_swizzle(const permute_args& a, const ck_tile::stream_config& s, permute_result& r);
#endif
