// SPDX-License-Identifier: MIT
#include "smoothquant_instances.hpp"

smoothquant_result smoothquant_bf16(const ck_tile::SmoothquantHostArgs& a, const ck_tile::stream_config& s)
{
    return smoothquant_dispatch<ck_tile::bf16_t>(a, s);
}
