// SPDX-License-Identifier: MIT
// The block GEMM: C (kM x kN, in VGPRs) += A (kM x kK, in LDS) * B (kN x kK, in LDS)^T.
//
// The block's warps tile C as kMWarp x kNWarp; each warp covers kMIter x kNIter warp tiles of
// kM x kN = 32 x 32 (one MFMA each), and walks K in kKIter steps of 8. Per step a warp reads its
// kMIter A warp tiles (32 x 8) and kNIter B warp tiles (32 x 8) from LDS, with the MFMA's operand
// layouts as their distributions, then issues the step's kMIter x kNIter MFMAs together (WarpGemm's
// batch form: the same instructions on a GPU, one wave collective on the emulator), each into its
// warp tile of C.
#pragma once
#include "ck_tile/core.hpp"
#include "block_gemm_asmem_bsmem_creg_policy.hpp"

namespace ck_tile {

template <typename Problem, typename Policy = BlockGemmASmemBSmemCRegPolicy>
struct BlockGemmASmemBSmemCReg
{
    using AccDataType = typename Problem::AccDataType;
    using Shape       = typename Problem::BlockShape;
    using WarpGemm    = decltype(Policy::template GetWarpGemm<Problem>());

    static constexpr index_t kMWarp = Policy::kMWarp;
    static constexpr index_t kNWarp = Policy::kNWarp;
    static constexpr index_t kMIter = Shape::kM / (kMWarp * WarpGemm::kM);
    static constexpr index_t kNIter = Shape::kN / (kNWarp * WarpGemm::kN);
    static constexpr index_t kKIter = Shape::kK / WarpGemm::kK;
    static_assert(kMWarp * kNWarp * get_warp_size() == Problem::kBlockSize, "warps do not match the block size");
    static_assert(kMIter * kMWarp * WarpGemm::kM == Shape::kM && kNIter * kNWarp * WarpGemm::kN == Shape::kN &&
                      kKIter * WarpGemm::kK == Shape::kK,
                  "block tile is not a whole number of warp tiles");

    // C of the whole block: the warp's C layout inside <kMIter, kMWarp> x <kNIter, kNWarp>.
    // P0 (warp id) = (M warp, N warp); Y = (M iteration, N iteration, then the MFMA's own Ys), so
    // each (iteration m, iteration n) owns 16 consecutive registers.
    CK_TILE_HOST_DEVICE static constexpr auto MakeCBlockDistribution()
    {
        constexpr auto outer =
            tile_distribution_encoding<sequence<>, tuple<sequence<kMIter, kMWarp>, sequence<kNIter, kNWarp>>,
                                       tuple<sequence<1, 2>>, tuple<sequence<1, 1>>, sequence<1, 2>, sequence<0, 0>>{};
        return make_static_tile_distribution(
            make_embed_tile_distribution_encoding(outer, typename WarpGemm::CWarpDstrEncoding{}));
    }

    CK_TILE_HOST_DEVICE static constexpr auto MakeCBlockTile()
    {
        return make_static_distributed_tensor<AccDataType>(MakeCBlockDistribution());
    }

    template <typename CBlockTensor, typename ALdsView, typename BLdsView>
    CK_TILE_DEVICE void operator()(CBlockTensor& c_block, const ALdsView& a_lds, const BLdsView& b_lds) const
    {
        using CWarpTensor               = typename WarpGemm::CWarpTensor;
        using AWarpTensor               = typename WarpGemm::AWarpTensor;
        using BWarpTensor               = typename WarpGemm::BWarpTensor;
        constexpr index_t kTiles        = kMIter * kNIter;
        constexpr index_t kCPerWarpTile = CWarpTensor::thread_buffer_size;
        const index_t warp_m            = get_warp_id() / kNWarp;
        const index_t warp_n            = get_warp_id() % kNWarp;

        constexpr auto a_warp_len = make_tuple(number<WarpGemm::kM>{}, number<WarpGemm::kK>{});
        constexpr auto b_warp_len = make_tuple(number<WarpGemm::kN>{}, number<WarpGemm::kK>{});

        // warp tile (m, n) of C: the 16 registers of c_block at (m * kNIter + n) * 16
        CWarpTensor c_warp[kTiles];
        static_for<0, kTiles>{}([&](auto t) {
            static_for<0, kCPerWarpTile>{}(
                [&](auto i) { c_warp[t].get_thread_buffer()[i] = c_block.get_thread_buffer()[t * kCPerWarpTile + i]; });
        });

        static_for<0, kKIter>{}([&](auto k) {
            AWarpTensor a_warp[kMIter];
            BWarpTensor b_warp[kNIter];
            static_for<0, kMIter>{}([&](auto m) {
                // rows of A this warp multiplies in iteration m: the C block layout's M order
                const index_t row0 = (m * kMWarp + warp_m) * WarpGemm::kM;
                a_warp[m] =
                    load_tile(make_tile_window(a_lds, a_warp_len, make_multi_index(row0, k * WarpGemm::kK),
                                               make_static_tile_distribution(typename WarpGemm::AWarpDstrEncoding{})));
            });
            static_for<0, kNIter>{}([&](auto n) {
                const index_t col0 = (n * kNWarp + warp_n) * WarpGemm::kN;
                b_warp[n] =
                    load_tile(make_tile_window(b_lds, b_warp_len, make_multi_index(col0, k * WarpGemm::kK),
                                               make_static_tile_distribution(typename WarpGemm::BWarpDstrEncoding{})));
            });
            // C(m, n) += A(m) * B(n)^T for every warp tile of the step
            array<CWarpTensor*, kTiles> cs;
            array<const AWarpTensor*, kTiles> as;
            array<const BWarpTensor*, kTiles> bs;
            static_for<0, kTiles>{}([&](auto t) {
                cs[t] = &c_warp[t];
                as[t] = &a_warp[t / kNIter];
                bs[t] = &b_warp[t % kNIter];
            });
            WarpGemm{}(cs, as, bs);
        });

        static_for<0, kTiles>{}([&](auto t) {
            static_for<0, kCPerWarpTile>{}(
                [&](auto i) { c_block.get_thread_buffer()[t * kCPerWarpTile + i] = c_warp[t].get_thread_buffer()[i]; });
        });
    }
};

} // namespace ck_tile
