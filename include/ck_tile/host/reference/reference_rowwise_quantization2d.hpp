// SPDX-License-Identifier: MIT
// Row-wise quantization of an m x n matrix on the host, the check of every kernel that uses
// DynamicQuantEpilogue (upstream's names; the same arithmetic as the epilogue, so the scales agree
// to the last bit and the quantized values exactly, up to the y the kernel computed):
//
//   reference_rowwise_quantization2d<X, Scale, QX>(x, scale, qx)
//       qx[m, n] = saturate_convert<QX>(x[m, n] / scale[m])      (0 where scale[m] is 0)
//   reference_rowwise_dynamic_quant<X, Scale, QX>(x, scale, qx)
//       scale[m] = max_n |x[m, n]| / numeric<QX>::max()           (the arch's fp8 maximum for fp8)
//       then reference_rowwise_quantization2d
//
// x is read in float; x and qx are 2-D with any strides (rows of a buffer with a row stride > n),
// scale is 1-D.
#pragma once
#include <cstddef>
#include <stdexcept>
#include "ck_tile/core.hpp"
#include "ck_tile/host/host_tensor.hpp"

namespace ck_tile {

template <typename XDataType, typename ScaleDataType, typename QXDataType>
void reference_rowwise_quantization2d(const HostTensor<XDataType>& x, const HostTensor<ScaleDataType>& scale,
                                      HostTensor<QXDataType>& qx)
{
    if(x.get_num_of_dimension() != 2 || qx.get_num_of_dimension() != 2 || qx.get_length(0) != x.get_length(0) ||
       qx.get_length(1) != x.get_length(1) || scale.get_num_of_dimension() != 1 ||
       scale.get_length(0) != x.get_length(0))
        throw std::invalid_argument("reference_rowwise_quantization2d: x and qx are m x n, scale is 1-D of m");
    for(std::size_t m = 0; m < x.get_length(0); ++m)
    {
        const float s = type_convert<float>(scale(m));
        for(std::size_t n = 0; n < x.get_length(1); ++n)
        {
            const float v = type_convert<float>(x(m, n));
            qx(m, n)      = saturate_convert<QXDataType>(s > 0.0f ? v / s : 0.0f);
        }
    }
}

template <typename XDataType, typename ScaleDataType, typename QXDataType>
void reference_rowwise_dynamic_quant(const HostTensor<XDataType>& x, HostTensor<ScaleDataType>& scale,
                                     HostTensor<QXDataType>& qx)
{
    if(x.get_num_of_dimension() != 2 || scale.get_num_of_dimension() != 1 || scale.get_length(0) != x.get_length(0))
        throw std::invalid_argument("reference_rowwise_dynamic_quant: x is m x n, scale is 1-D of m");
    const float qmax = type_convert<float>(numeric<QXDataType>::max());
    for(std::size_t m = 0; m < x.get_length(0); ++m)
    {
        float absmax = 0.0f;
        for(std::size_t n = 0; n < x.get_length(1); ++n)
        {
            const float a = abs(type_convert<float>(x(m, n)));
            absmax        = absmax < a ? a : absmax;
        }
        scale(m) = type_convert<ScaleDataType>(absmax / qmax);
    }
    reference_rowwise_quantization2d(x, scale, qx);
}

} // namespace ck_tile
