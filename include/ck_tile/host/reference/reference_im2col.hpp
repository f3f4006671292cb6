// SPDX-License-Identifier: MIT
// reference_im2col: the im2col of a grouped convolution's input on the host, for checking
// image-to-column kernels.
//
//   ck_tile::reference_im2col<InDataType, OutDataType, 2>(in_g_n_c_hi_wi, out_g_m_k, conv_params);
//
// `in` is indexed (g, n, c, spatial...) through its strides (any layout; the examples use NHWGC
// strides), `out` is [G, N * Ho * Wo, Y * X * C] with rows in (n, ho, wo) order and columns in
// (y, x, c) order; a window position in the padding gives 0. Output lengths come from conv_params.
#pragma once
#include <cstddef>
#include <stdexcept>
#include <vector>
#include "ck_tile/core.hpp"
#include "ck_tile/host/convolution_parameter.hpp"
#include "ck_tile/host/host_tensor.hpp"

namespace ck_tile {

template <typename InDataType, typename OutDataType, index_t NDimSpatial>
void reference_im2col(const HostTensor<InDataType>& in, HostTensor<OutDataType>& out, const conv::ConvParam& p)
{
    static_assert(NDimSpatial == 2, "reference_im2col: 2 spatial dimensions");
    const auto& o        = p.GetOutputSpatialLengths();
    const long_index_t Y = p.filter_spatial_lengths_[0], X = p.filter_spatial_lengths_[1];
    const long_index_t Ho = o[0], Wo = o[1], C = p.C_;
    if(in.get_num_of_dimension() != 5 || out.get_num_of_dimension() != 3 ||
       out.get_length(1) != static_cast<std::size_t>(p.N_ * Ho * Wo) ||
       out.get_length(2) != static_cast<std::size_t>(Y * X * C))
        throw std::invalid_argument("reference_im2col: in must be (G, N, C, Hi, Wi) and out [G, N*Ho*Wo, Y*X*C]");
    for(long_index_t g = 0; g < p.G_; ++g)
        for(long_index_t n = 0; n < p.N_; ++n)
            for(long_index_t ho = 0; ho < Ho; ++ho)
                for(long_index_t wo = 0; wo < Wo; ++wo)
                {
                    const long_index_t row = (n * Ho + ho) * Wo + wo;
                    for(long_index_t y = 0; y < Y; ++y)
                        for(long_index_t x = 0; x < X; ++x)
                        {
                            const long_index_t hi = ho * p.conv_filter_strides_[0] + y * p.conv_filter_dilations_[0] -
                                                    p.input_left_pads_[0];
                            const long_index_t wi = wo * p.conv_filter_strides_[1] + x * p.conv_filter_dilations_[1] -
                                                    p.input_left_pads_[1];
                            const bool inside     = hi >= 0 && hi < p.input_spatial_lengths_[0] && wi >= 0 &&
                                                    wi < p.input_spatial_lengths_[1];
                            // C runs along both tensors' C strides: step pointers instead of indexing
                            const auto& is   = in.get_strides();
                            const auto& os   = out.get_strides();
                            OutDataType* dst = out.data() + g * os[0] + row * os[1] +
                                               (y * X + x) * C * static_cast<long_index_t>(os[2]);
                            if(!inside)
                            {
                                for(long_index_t c = 0; c < C; ++c)
                                    dst[c * os[2]] = OutDataType{};
                                continue;
                            }
                            const InDataType* src = in.data() + g * is[0] + n * is[1] + hi * is[3] + wi * is[4];
                            for(long_index_t c = 0; c < C; ++c)
                                dst[c * os[2]] = type_convert<OutDataType>(src[c * is[2]]);
                        }
                }
}

} // namespace ck_tile
