// SPDX-License-Identifier: MIT
// WarpGemmImpl: one wave computes C (kM x kN) += A (kM x kK) * B (kN x kK)^T on distributed tensors
// whose distributions are the attribute's A/B/C warp encodings (P = lane id).
#pragma once
#include "ck_tile/core.hpp"

namespace ck_tile {

template <typename WarpGemmAttribute_>
struct WarpGemmImpl
{
    using WarpGemmAttribute = WarpGemmAttribute_;

    static constexpr index_t kM = WarpGemmAttribute::kM;
    static constexpr index_t kN = WarpGemmAttribute::kN;
    static constexpr index_t kK = WarpGemmAttribute::kK;

    using ADataType = typename WarpGemmAttribute::ADataType;
    using BDataType = typename WarpGemmAttribute::BDataType;
    using CDataType = typename WarpGemmAttribute::CDataType;

    using AWarpDstrEncoding = typename WarpGemmAttribute::AWarpDstrEncoding;
    using BWarpDstrEncoding = typename WarpGemmAttribute::BWarpDstrEncoding;
    using CWarpDstrEncoding = typename WarpGemmAttribute::CWarpDstrEncoding;

    using AWarpDstr = tile_distribution<AWarpDstrEncoding>;
    using BWarpDstr = tile_distribution<BWarpDstrEncoding>;
    using CWarpDstr = tile_distribution<CWarpDstrEncoding>;

    using AWarpTensor = static_distributed_tensor<ADataType, AWarpDstr>;
    using BWarpTensor = static_distributed_tensor<BDataType, BWarpDstr>;
    using CWarpTensor = static_distributed_tensor<CDataType, CWarpDstr>;

    // c += a * b
    CK_TILE_DEVICE void operator()(CWarpTensor& c, const AWarpTensor& a, const BWarpTensor& b) const
    {
        WarpGemmAttribute::run(c.get_thread_buffer(), a.get_thread_buffer(), b.get_thread_buffer());
    }

    // c[i] += a[i] * b[i] for N warp tiles, in order: the same instructions as N calls, issued as
    // one mfma_batch when the attribute has run_batch (one wave collective on the emulator)
    template <index_t N>
    CK_TILE_DEVICE void operator()(const array<CWarpTensor*, N>& c, const array<const AWarpTensor*, N>& a,
                                   const array<const BWarpTensor*, N>& b) const
    {
        using CBuf = std::remove_cvref_t<decltype(c[0]->get_thread_buffer())>;
        using ABuf = std::remove_cvref_t<decltype(a[0]->get_thread_buffer())>;
        using BBuf = std::remove_cvref_t<decltype(b[0]->get_thread_buffer())>;
        if constexpr(requires(array<CBuf*, N> cs, array<const ABuf*, N> as, array<const BBuf*, N> bs) {
                         WarpGemmAttribute::template run_batch<N>(cs, as, bs);
                     })
        {
            array<CBuf*, N> cs;
            array<const ABuf*, N> as;
            array<const BBuf*, N> bs;
            for(index_t i = 0; i < N; ++i)
            {
                cs[i] = &c[i]->get_thread_buffer();
                as[i] = &a[i]->get_thread_buffer();
                bs[i] = &b[i]->get_thread_buffer();
            }
            WarpGemmAttribute::template run_batch<N>(cs, as, bs);
        }
        else
        {
            for(index_t i = 0; i < N; ++i)
                (*this)(*c[i], *a[i], *b[i]);
        }
    }

    // a * b
    CK_TILE_DEVICE CWarpTensor operator()(const AWarpTensor& a, const BWarpTensor& b) const
    {
        CWarpTensor c;
        c.clear();
        (*this)(c, a, b);
        return c;
    }
};

} // namespace ck_tile
