// SPDX-License-Identifier: MIT
#include "topk_softmax_instances.hpp"

topk_softmax_result topk_softmax_fp16(const ck_tile::TopkSoftmaxHostArgs& a, const ck_tile::stream_config& s)
{
    return topk_softmax_dispatch<ck_tile::half_t>(a, s);
}
