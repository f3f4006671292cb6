// SPDX-License-Identifier: MIT
// bias_info: the example's -bias option, decoded as upstream spells it.
//
//   n, 0                       no bias
//   e, 1, elementwise[:k]      element-wise bias added to the scores; k (0..2) is upstream's rank
//                              hint: 0 -> 1 x 1 x sq x sk, 1 -> 1 x h x sq x sk, 2 -> b x h x sq x sk
//   a, 2, alibi[:k]            ALiBi slopes (get_alibi_slopes); k (0..1): 0 -> one per head, shared
//                              by the batches (1 x h), 1 -> b x h
//
// Printed as upstream prints it in the status line: n, e, e[k], alibi, alibi[k] (k shown only
// when it is not 0). Anything else throws std::invalid_argument naming the value.
#pragma once
#include <ostream>
#include <stdexcept>
#include <string>
#include "ck_tile/core.hpp"
#include "ck_tile/ops/fmha/block/block_attention_bias_enum.hpp"
#include "parse_int.hpp"

struct bias_info
{
    ck_tile::BlockAttentionBiasEnum type = ck_tile::BlockAttentionBiasEnum::NO_BIAS;
    int rank_info                        = 0;

    static bias_info decode(std::string str)
    {
        using E = ck_tile::BlockAttentionBiasEnum;
        bias_info info;
        const auto colon = str.find(':');
        if(colon != std::string::npos)
        {
            const std::string t = str.substr(0, colon);
            int max_rank        = 0;
            if(t == "e" || t == "elementwise")
            {
                info.type = E::ELEMENTWISE_BIAS;
                max_rank  = 2;
            }
            else if(t == "a" || t == "alibi")
            {
                info.type = E::ALIBI;
                max_rank  = 1;
            }
            else
                throw std::invalid_argument("invalid bias value: '" + str + "'");
            info.rank_info = parse_option_int(std::string_view(str).substr(colon + 1), str, "bias");
            if(info.rank_info < 0 || info.rank_info > max_rank)
                throw std::invalid_argument("invalid bias rank: '" + str + "'");
        }
        else if(str == "n" || str == "0")
            info.type = E::NO_BIAS;
        else if(str == "e" || str == "1" || str == "elementwise")
            info.type = E::ELEMENTWISE_BIAS;
        else if(str == "a" || str == "2" || str == "alibi")
            info.type = E::ALIBI;
        else
            throw std::invalid_argument("invalid bias value: '" + str + "'");
        return info;
    }

    friend std::ostream& operator<<(std::ostream& os, const bias_info& bi)
    {
        using E = ck_tile::BlockAttentionBiasEnum;
        if(bi.type == E::NO_BIAS)
            return os << "n";
        os << (bi.type == E::ALIBI ? "alibi" : "e");
        if(bi.rank_info != 0)
            os << "[" << bi.rank_info << "]";
        return os;
    }
};
