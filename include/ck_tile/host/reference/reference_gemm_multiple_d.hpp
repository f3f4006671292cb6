// SPDX-License-Identifier: MIT
// reference_gemm_multiple_d: E = cde_op(A * B, D0, D1, ...) on the host, for checking the
// multiple-D GEMM (GemmKernelMultiD).
//
//   ck_tile::reference_gemm_multiple_d<ADataType, BDataType, DsDataType, AccDataType, EDataType>(
//       a_m_k, b_k_n, ds_m_n, e_m_n, cde_op);
//
// C = A * B is summed in AccDataType as reference_gemm does (any layouts); then, per element,
// cde_op(e, c, d0[m][n], d1[m][n], ...) with c the sum in AccDataType. ds_m_n is a std::array of
// NumD M x N HostTensors of one type (DDataType, DsDataType's first type; the Ds of
// tile_example_gemm_multi_d_fp16 share it), each of its own layout. DsDataType is upstream's tuple
// of D types; only its size is used.
#pragma once
#include <array>
#include <stdexcept>
#include <utility>
#include "ck_tile/core.hpp"
#include "ck_tile/host/host_tensor.hpp"
#include "ck_tile/host/reference/reference_gemm.hpp"

namespace ck_tile {

template <typename ADataType, typename BDataType, typename DsDataType, typename AccDataType, typename EDataType,
          typename CDEElementOp, typename DDataType, std::size_t NumD>
void reference_gemm_multiple_d(const HostTensor<ADataType>& a_m_k, const HostTensor<BDataType>& b_k_n,
                               const std::array<HostTensor<DDataType>, NumD>& ds_m_n, HostTensor<EDataType>& e_m_n,
                               const CDEElementOp& cde_op = {})
{
    static_assert(static_cast<std::size_t>(DsDataType::size()) == NumD,
                  "reference_gemm_multiple_d: one D tensor per entry of DsDataType");
    if(e_m_n.get_num_of_dimension() != 2)
        throw std::invalid_argument("reference_gemm_multiple_d: E must be 2-D");
    const std::size_t M = e_m_n.get_length(0);
    const std::size_t N = e_m_n.get_length(1);
    for(const auto& d : ds_m_n)
        if(d.get_num_of_dimension() != 2 || d.get_length(0) != M || d.get_length(1) != N)
            throw std::invalid_argument("reference_gemm_multiple_d: every D must be M x N, as E");

    HostTensor<AccDataType> c_m_n(std::vector<std::size_t>{M, N});
    reference_gemm<ADataType, BDataType, AccDataType, AccDataType>(a_m_k, b_k_n, c_m_n);

    const auto apply = [&]<std::size_t... Js>(std::index_sequence<Js...>, std::size_t m, std::size_t n) {
        EDataType e{};
        cde_op(e, c_m_n(m, n), ds_m_n[Js](m, n)...);
        e_m_n(m, n) = e;
    };
    for(std::size_t m = 0; m < M; ++m)
        for(std::size_t n = 0; n < N; ++n)
            apply(std::make_index_sequence<NumD>{}, m, n);
}

} // namespace ck_tile
