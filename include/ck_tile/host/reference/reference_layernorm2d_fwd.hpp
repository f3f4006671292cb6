// SPDX-License-Identifier: MIT
// Layernorm forward of an m x n matrix on the host, the check of Layernorm2dFwd (upstream's name):
//
//   reference_layernorm2d_fwd<X, Gamma, Beta, Compute, Y, Mean, InvStd>(x, gamma, beta, y, mean,
//                                                                       inv_std, epsilon[, epilogue])
//     mean[m]    = sum_n x[m, n] / n,  var[m] = sum_n (x[m, n] - mean[m])^2 / n   (Welford, in Compute,
//                  one value at a time in column order)
//     inv_std[m] = 1 / sqrt(var[m] + epsilon)
//     y[m, n]    = (x[m, n] - mean[m]) * inv_std[m] * gamma[n] + beta[n]
//   The default epilogue stores type_convert<Y>(y); a custom one is called once per row as
//   epilogue(m, y_tensor, row) with row the n Compute values of y (a quantization, for example).
//   mean and inv_std are written when they hold m elements (pass empty tensors to skip them).
//   x and y are 2-D with any strides; fused bias / residual are applied to x by the caller.
#pragma once
#include <cstddef>
#include <stdexcept>
#include <vector>
#include "ck_tile/core.hpp"
#include "ck_tile/host/host_tensor.hpp"
#include "ck_tile/ops/welford/thread/thread_welford.hpp"

namespace ck_tile {

struct reference_layernorm2d_default_epilogue
{
    template <typename YDataType, typename ComputeDataType>
    void operator()(std::size_t m, HostTensor<YDataType>& y, const std::vector<ComputeDataType>& row) const
    {
        for(std::size_t n = 0; n < row.size(); ++n)
            y(m, n) = type_convert<YDataType>(row[n]);
    }
};

template <typename XDataType, typename GammaDataType, typename BetaDataType, typename ComputeDataType,
          typename YDataType, typename MeanDataType, typename InvStdDataType,
          typename Epilogue = reference_layernorm2d_default_epilogue>
void reference_layernorm2d_fwd(const HostTensor<XDataType>& x_m_n, const HostTensor<GammaDataType>& gamma_n,
                               const HostTensor<BetaDataType>& beta_n, HostTensor<YDataType>& y_m_n,
                               HostTensor<MeanDataType>& mean_m, HostTensor<InvStdDataType>& inv_std_m,
                               ComputeDataType epsilon, const Epilogue& epilogue = {})
{
    if(x_m_n.get_num_of_dimension() != 2 || y_m_n.get_num_of_dimension() != 2)
        throw std::invalid_argument("reference_layernorm2d_fwd: x and y are m x n");
    const std::size_t M = x_m_n.get_length(0), N = x_m_n.get_length(1);
    if(y_m_n.get_length(0) != M || y_m_n.get_length(1) != N || gamma_n.get_element_size() != N ||
       beta_n.get_element_size() != N)
        throw std::invalid_argument("reference_layernorm2d_fwd: y is m x n, gamma and beta have n elements");
    const bool save_mean    = mean_m.get_element_size() == M;
    const bool save_inv_std = inv_std_m.get_element_size() == M;

    std::vector<ComputeDataType> row(N);
    for(std::size_t m = 0; m < M; ++m)
    {
        ComputeDataType mean = 0, m2 = 0;
        for(std::size_t n = 0; n < N; ++n)
            welford_update(mean, m2, type_convert<ComputeDataType>(x_m_n(m, n)), static_cast<int>(n + 1));
        const ComputeDataType var     = m2 / type_convert<ComputeDataType>(static_cast<int>(N));
        const ComputeDataType inv_std = ComputeDataType(1) / sqrt(var + epsilon);
        if(save_mean)
            mean_m(m) = type_convert<MeanDataType>(mean);
        if(save_inv_std)
            inv_std_m(m) = type_convert<InvStdDataType>(inv_std);
        for(std::size_t n = 0; n < N; ++n)
            row[n] = (type_convert<ComputeDataType>(x_m_n(m, n)) - mean) * inv_std *
                         type_convert<ComputeDataType>(gamma_n(n)) +
                     type_convert<ComputeDataType>(beta_n(n));
        epilogue(m, y_m_n, row);
    }
}

} // namespace ck_tile
