// SPDX-License-Identifier: MIT
// reference_gemm_bias_e_permute: the host reference of the split-K GEMM with bias, element-wise
// and permute epilogue (example/43_splitk_gemm_bias_e_permute):
//
//   F[g0,g1,m0,m1,n0,n1] = (sum_k A[g0,g1,m0,m1,k] B[g0,g1,n0,n1,k] + D[g0,g1,m0,m1,n0,n1])
//                          * E[g0,g1,m0,m1,n0,n1]
//
// A [G0,G1,M0,M1,K], B [G0,G1,N0,N1,K], D, E and F [G0,G1,M0,M1,N0,N1] are HostTensors of any
// strides (D with zero M strides is a bias; F's strides give its permuted layout). The sum is
// reference_gemm's (in AccDataType, order of k, all cores), once per (g0, g1); the epilogue is
// computed in AccDataType and converted to F's type once.
#pragma once
#include <cstddef>
#include <stdexcept>
#include "ck_tile/core.hpp"
#include "ck_tile/host/host_tensor.hpp"
#include "ck_tile/host/reference/reference_gemm.hpp"

namespace ck_tile {

template <typename ADataType, typename BDataType, typename DDataType, typename EDataType, typename FDataType,
          typename AccDataType = float>
void reference_gemm_bias_e_permute(const HostTensor<ADataType>& a_gs_ms_ks, const HostTensor<BDataType>& b_gs_ns_ks,
                                   const HostTensor<DDataType>& d_gs_ms_ns, const HostTensor<EDataType>& e_gs_ms_ns,
                                   HostTensor<FDataType>& f_gs_ms_ns)
{
    if(a_gs_ms_ks.get_num_of_dimension() != 5 || b_gs_ns_ks.get_num_of_dimension() != 5 ||
       d_gs_ms_ns.get_num_of_dimension() != 6 || e_gs_ms_ns.get_num_of_dimension() != 6 ||
       f_gs_ms_ns.get_num_of_dimension() != 6)
        throw std::invalid_argument("reference_gemm_bias_e_permute: A and B must be 5-D, D, E and F 6-D");
    const auto& al       = a_gs_ms_ks.get_lengths();
    const auto& bl       = b_gs_ns_ks.get_lengths();
    const std::size_t G0 = al[0], G1 = al[1], M0 = al[2], M1 = al[3], K = al[4], N0 = bl[2], N1 = bl[3];
    const std::vector<std::size_t> out{G0, G1, M0, M1, N0, N1};
    if(bl[0] != G0 || bl[1] != G1 || bl[4] != K || d_gs_ms_ns.get_lengths() != out || e_gs_ms_ns.get_lengths() != out ||
       f_gs_ms_ns.get_lengths() != out)
        throw std::invalid_argument("reference_gemm_bias_e_permute: the lengths disagree");
    const std::size_t M = M0 * M1, N = N0 * N1;

    HostTensor<ADataType> a_m_k({M, K});
    HostTensor<BDataType> b_k_n({K, N}, {std::size_t{1}, K}); // N rows of K, seen as K x N
    HostTensor<AccDataType> c_m_n({M, N});
    for(std::size_t g0 = 0; g0 < G0; ++g0)
        for(std::size_t g1 = 0; g1 < G1; ++g1)
        {
            for(std::size_t m = 0; m < M; ++m)
                for(std::size_t k = 0; k < K; ++k)
                    a_m_k(m, k) = a_gs_ms_ks(g0, g1, m / M1, m % M1, k);
            for(std::size_t n = 0; n < N; ++n)
                for(std::size_t k = 0; k < K; ++k)
                    b_k_n(k, n) = b_gs_ns_ks(g0, g1, n / N1, n % N1, k);
            reference_gemm<ADataType, BDataType, AccDataType, AccDataType>(a_m_k, b_k_n, c_m_n);
            for(std::size_t m = 0; m < M; ++m)
                for(std::size_t n = 0; n < N; ++n)
                {
                    const std::size_t m0 = m / M1, m1 = m % M1, n0 = n / N1, n1 = n % N1;
                    const AccDataType c = c_m_n(m, n) + type_convert<AccDataType>(d_gs_ms_ns(g0, g1, m0, m1, n0, n1));
                    f_gs_ms_ns(g0, g1, m0, m1, n0, n1) =
                        type_convert<FDataType>(c * type_convert<AccDataType>(e_gs_ms_ns(g0, g1, m0, m1, n0, n1)));
                }
        }
}

} // namespace ck_tile
