// SPDX-License-Identifier: MIT
// The example's smoothquant API, in upstream's style: smoothquant(traits, args, stream) picks the
// instance for the type and the row length, launches it and returns its time. One translation
// unit per input type compiles that type's instances (smoothquant_instances.hpp).
#pragma once
#include <string>
#include "ck_tile/core.hpp"
#include "ck_tile/host.hpp"
#include "ck_tile/ops/smoothquant.hpp"

struct smoothquant_traits
{
    std::string data_type; // fp16 or bf16
};

struct smoothquant_result
{
    std::string kernel_name;
    float ms;
};

// Throws std::invalid_argument for a type without instances or arguments no instance supports.
smoothquant_result smoothquant(const smoothquant_traits& t, const ck_tile::SmoothquantHostArgs& a,
                               const ck_tile::stream_config& s);

smoothquant_result smoothquant_fp16(const ck_tile::SmoothquantHostArgs& a, const ck_tile::stream_config& s);
smoothquant_result smoothquant_bf16(const ck_tile::SmoothquantHostArgs& a, const ck_tile::stream_config& s);
