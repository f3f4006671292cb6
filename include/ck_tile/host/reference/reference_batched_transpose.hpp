// SPDX-License-Identifier: MIT
// reference_batched_transpose: NCHW <-> NHWC on the host, for checking transpose kernels.
//
//   ck_tile::reference_batched_transpose<T>(x, y, "NCHW", "NHWC");
//
// x is a 4-D HostTensor in layout_in's order of dimensions, y one in layout_out's; y receives x
// with the dimensions reordered. Only NCHW -> NHWC and NHWC -> NCHW are transposes this knows.
#pragma once
#include <stdexcept>
#include <string>
#include "ck_tile/host/host_tensor.hpp"

namespace ck_tile {

template <typename T>
void reference_batched_transpose(const HostTensor<T>& x, HostTensor<T>& y, const std::string& layout_in = "NCHW",
                                 const std::string& layout_out = "NHWC")
{
    const bool to_nhwc = layout_in == "NCHW" && layout_out == "NHWC";
    const bool to_nchw = layout_in == "NHWC" && layout_out == "NCHW";
    if(!to_nhwc && !to_nchw)
        throw std::invalid_argument("reference_batched_transpose: only NCHW -> NHWC and NHWC -> NCHW, not " +
                                    layout_in + " -> " + layout_out);
    if(x.get_num_of_dimension() != 4 || y.get_num_of_dimension() != 4)
        throw std::invalid_argument("reference_batched_transpose: x and y must be 4-D");
    const auto& l = x.get_lengths();
    // x's dims as (n, a, b, c) -> y's as (n, b, c, a) for NCHW -> NHWC; (n, c, a, b) the other way
    const std::size_t n = l[0], d1 = l[1], d2 = l[2], d3 = l[3];
    const auto& ly           = y.get_lengths();
    const bool lengths_match = to_nhwc ? (ly[0] == n && ly[1] == d2 && ly[2] == d3 && ly[3] == d1)
                                       : (ly[0] == n && ly[1] == d3 && ly[2] == d1 && ly[3] == d2);
    if(!lengths_match)
        throw std::invalid_argument("reference_batched_transpose: y's lengths are not x's reordered");
    for(std::size_t i0 = 0; i0 < n; ++i0)
        for(std::size_t i1 = 0; i1 < d1; ++i1)
            for(std::size_t i2 = 0; i2 < d2; ++i2)
                for(std::size_t i3 = 0; i3 < d3; ++i3)
                {
                    if(to_nhwc)
                        y(i0, i2, i3, i1) = x(i0, i1, i2, i3);
                    else
                        y(i0, i3, i1, i2) = x(i0, i1, i2, i3);
                }
}

} // namespace ck_tile
