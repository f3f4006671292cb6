// SPDX-License-Identifier: MIT
// reference_rmsnorm2d_fwd: row-wise RMS normalization on the host, the check of the rmsnorm2d
// kernels (upstream's name and template parameter order):
//
//   reference_rmsnorm2d_fwd<X, Gamma, Compute, Y, InvRms, UnquantY>(
//       x, gamma, y, invrms, y_unquant, epsilon, epilogue = {}, use_model_sensitive_rmsnorm = 0)
//
//   invrms[m]    = 1 / sqrt(sum_n x[m, n]^2 * (1 / n) + epsilon)       in Compute (fp32)
//   acc[m, n]    = x[m, n] * invrms[m] * gamma[n]
//                  (use_model_sensitive_rmsnorm = 1, T5-like: x * invrms is rounded to X first)
//   y_unquant    = acc converted to UnquantY
//   epilogue(acc, y): acc (fp32, m x n) to y; the default converts, the dynamic-quant epilogue
//                  below smooths (optionally) and quantizes row-wise with y_scale
//
// x is x' (after any fused add; the caller adds the residual). invrms and y_unquant are skipped
// when they have no elements (pass an empty HostTensor). x, y and y_unquant may be strided.
// The same arithmetic as the kernels (fp32, the same formula for invrms), summed in row order.
#pragma once
#include <cstddef>
#include <stdexcept>
#include "ck_tile/core.hpp"
#include "ck_tile/host/host_tensor.hpp"
#include "ck_tile/host/reference/reference_rowwise_quantization2d.hpp"

namespace ck_tile {

struct reference_rmsnorm2d_default_epilogue
{
    template <typename AccDataType, typename OutDataType>
    void operator()(const HostTensor<AccDataType>& acc, HostTensor<OutDataType>& o) const
    {
        for(std::size_t m = 0; m < acc.get_length(0); ++m)
            for(std::size_t n = 0; n < acc.get_length(1); ++n)
                o(m, n) = type_convert<OutDataType>(acc(m, n));
    }
};

// (acc[m, n] *= sm_scale[n] when sm_scale is given), then y_scale[m] = absmax / qmax and
// y = saturate_convert(acc / y_scale): reference_rowwise_dynamic_quant
template <typename SmoothScaleDataType, typename YScaleDataType>
struct reference_rmsnorm2d_dynamic_quant_epilogue
{
    const HostTensor<SmoothScaleDataType>* sm_scale; // null: no smoothing
    HostTensor<YScaleDataType>* y_scale;

    template <typename AccDataType, typename OutDataType>
    void operator()(const HostTensor<AccDataType>& acc, HostTensor<OutDataType>& o) const
    {
        HostTensor<AccDataType> a = acc;
        if(sm_scale != nullptr)
            for(std::size_t m = 0; m < a.get_length(0); ++m)
                for(std::size_t n = 0; n < a.get_length(1); ++n)
                    a(m, n) = a(m, n) * type_convert<AccDataType>((*sm_scale)(n));
        reference_rowwise_dynamic_quant(a, *y_scale, o);
    }
};

template <typename XDataType, typename GammaDataType, typename ComputeDataType, typename YDataType,
          typename InvRmsDataType, typename UnquantYDataType, typename Epilogue = reference_rmsnorm2d_default_epilogue>
void reference_rmsnorm2d_fwd(const HostTensor<XDataType>& x, const HostTensor<GammaDataType>& gamma,
                             HostTensor<YDataType>& y, HostTensor<InvRmsDataType>& invrms,
                             HostTensor<UnquantYDataType>& y_unquant, ComputeDataType epsilon,
                             const Epilogue& epilogue = {}, int use_model_sensitive_rmsnorm = 0)
{
    if(x.get_num_of_dimension() != 2 || y.get_num_of_dimension() != 2 || y.get_length(0) != x.get_length(0) ||
       y.get_length(1) != x.get_length(1) || gamma.get_element_size() != x.get_length(1))
        throw std::invalid_argument("reference_rmsnorm2d_fwd: x and y are m x n, gamma has n elements");
    const std::size_t M = x.get_length(0), N = x.get_length(1);
    const bool save_invrms  = invrms.get_element_size() > 0;
    const bool save_unquant = y_unquant.get_element_size() > 0;
    if(save_invrms && invrms.get_element_size() != M)
        throw std::invalid_argument("reference_rmsnorm2d_fwd: invrms has m elements");

    HostTensor<ComputeDataType> acc({M, N});
    const ComputeDataType inv_n = ComputeDataType(1) / static_cast<ComputeDataType>(N);
    for(std::size_t m = 0; m < M; ++m)
    {
        ComputeDataType ss = 0;
        for(std::size_t n = 0; n < N; ++n)
        {
            const ComputeDataType v = type_convert<ComputeDataType>(x(m, n));
            ss += v * v;
        }
        const ComputeDataType r = rsqrt(ss * inv_n + epsilon);
        if(save_invrms)
            invrms.mData[m] = type_convert<InvRmsDataType>(r);
        for(std::size_t n = 0; n < N; ++n)
        {
            ComputeDataType v = type_convert<ComputeDataType>(x(m, n)) * r;
            if(use_model_sensitive_rmsnorm == 1)
                v = type_convert<ComputeDataType>(type_convert<XDataType>(v));
            acc(m, n) = v * type_convert<ComputeDataType>(gamma.mData[n]);
            if(save_unquant)
                y_unquant(m, n) = type_convert<UnquantYDataType>(acc(m, n));
        }
    }
    epilogue(acc, y);
}

} // namespace ck_tile
