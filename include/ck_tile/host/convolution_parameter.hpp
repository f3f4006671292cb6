// SPDX-License-Identifier: MIT
// ck_tile::conv::ConvParam: a grouped convolution's sizes (upstream's names): G groups, N images,
// K output and C input channels per group, and per spatial dimension the filter and input lengths,
// strides, dilations and left/right pads. The output lengths are derived:
//   out = floor((in + left_pad + right_pad - ((filter - 1) * dilation + 1)) / stride) + 1
// and are <= 0 when the dilated filter does not fit the padded input (callers refuse that).
#pragma once
#include <cstddef>
#include <stdexcept>
#include <vector>
#include "ck_tile/core/config.hpp"
#include "ck_tile/core/numeric/integer.hpp"

namespace ck_tile::conv {

struct ConvParam
{
    ConvParam() = default;
    ConvParam(index_t n_dim, index_t group_count, index_t n_batch, index_t n_out_channels, index_t n_in_channels,
              const std::vector<index_t>& filters_len, const std::vector<index_t>& input_len,
              const std::vector<index_t>& strides, const std::vector<index_t>& dilations,
              const std::vector<index_t>& left_pads, const std::vector<index_t>& right_pads)
        : num_dim_spatial_(n_dim), G_(group_count), N_(n_batch), K_(n_out_channels), C_(n_in_channels),
          filter_spatial_lengths_(filters_len.begin(), filters_len.end()),
          input_spatial_lengths_(input_len.begin(), input_len.end()),
          output_spatial_lengths_(static_cast<std::size_t>(n_dim)),
          conv_filter_strides_(strides.begin(), strides.end()),
          conv_filter_dilations_(dilations.begin(), dilations.end()),
          input_left_pads_(left_pads.begin(), left_pads.end()), input_right_pads_(right_pads.begin(), right_pads.end())
    {
        const auto n = static_cast<std::size_t>(n_dim);
        if(filter_spatial_lengths_.size() != n || input_spatial_lengths_.size() != n ||
           conv_filter_strides_.size() != n || conv_filter_dilations_.size() != n || input_left_pads_.size() != n ||
           input_right_pads_.size() != n)
            throw std::invalid_argument("ConvParam: every spatial list needs one entry per spatial dimension");
        for(std::size_t d = 0; d < n; ++d)
        {
            const long_index_t eff = (filter_spatial_lengths_[d] - 1) * conv_filter_dilations_[d] + 1;
            const long_index_t num = input_spatial_lengths_[d] + input_left_pads_[d] + input_right_pads_[d] - eff;
            // floor division: a negative numerator means the filter does not fit (C++ would round up)
            output_spatial_lengths_[d] = num < 0 ? 0 : num / conv_filter_strides_[d] + 1;
        }
    }

    const std::vector<long_index_t>& GetOutputSpatialLengths() const { return output_spatial_lengths_; }

    index_t num_dim_spatial_ = 2;
    long_index_t G_ = 1, N_ = 1, K_ = 1, C_ = 1;
    std::vector<long_index_t> filter_spatial_lengths_;
    std::vector<long_index_t> input_spatial_lengths_;
    std::vector<long_index_t> output_spatial_lengths_;
    std::vector<long_index_t> conv_filter_strides_;
    std::vector<long_index_t> conv_filter_dilations_;
    std::vector<long_index_t> input_left_pads_;
    std::vector<long_index_t> input_right_pads_;
};

} // namespace ck_tile::conv
