// SPDX-License-Identifier: MIT
// smoothquant(traits, args, stream): the instances of the traits' input type.
#include <stdexcept>
#include "smoothquant.hpp"

smoothquant_result smoothquant(const smoothquant_traits& t, const ck_tile::SmoothquantHostArgs& a,
                               const ck_tile::stream_config& s)
{
    if(t.data_type == "fp16")
        return smoothquant_fp16(a, s);
    if(t.data_type == "bf16")
        return smoothquant_bf16(a, s);
    throw std::invalid_argument("smoothquant: no instance for type " + t.data_type);
}
