// SPDX-License-Identifier: MIT
// topk_softmax(traits, args, stream): the instances of the traits' input type and activation.
#include <stdexcept>
#include "topk_softmax_api.hpp"

topk_softmax_result topk_softmax(const topk_softmax_trait& t, const ck_tile::TopkSoftmaxHostArgs& a,
                                 const ck_tile::stream_config& s)
{
    if(t.weight_type != "fp32")
        throw std::invalid_argument("topk_softmax: no instance for weight type " + t.weight_type);
    if(t.activation != "softmax" && t.activation != "sigmoid")
        throw std::invalid_argument("topk_softmax: no instance for activation " + t.activation);
    ck_tile::TopkSoftmaxHostArgs args = a;
    args.activation =
        t.activation == "softmax" ? ck_tile::TopkSoftmaxActivation::softmax : ck_tile::TopkSoftmaxActivation::sigmoid;
    if(t.input_type == "fp16")
        return topk_softmax_fp16(args, s);
    if(t.input_type == "bf16")
        return topk_softmax_bf16(args, s);
    throw std::invalid_argument("topk_softmax: no instance for input type " + t.input_type);
}
