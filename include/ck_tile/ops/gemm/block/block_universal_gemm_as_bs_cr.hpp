// SPDX-License-Identifier: MIT
// BlockUniversalGemmAsBsCr: the block GEMM of the universal pipelines. C (in VGPRs) += A * B^T
// with A (kM x kK) and B (kN x kK) in LDS, split in two steps so that a pipeline can overwrite
// LDS while the MFMAs run:
//
//   LocalPrefetch(a_lds_window, b_lds_window)   every warp tile this warp needs for the whole
//                                               K step, LDS -> VGPRs
//   operator()(c_block_tile)                    the MFMAs, from those registers only
//
// The warp arrangement, the per-warp iteration counts and the C distribution are those of
// BlockGemmASmemBSmemCRegV1 (its header explains them); this block GEMM reads all KIterPerWarp K
// slices before the first MFMA (upstream's Intrawave schedule: one burst of LDS reads, then one
// burst of MFMAs per wave). The Interwave schedule (a slice read, its MFMAs, the next slice...) is
// BlockGemmASmemBSmemCRegV1 itself.
#pragma once
#include "ck_tile/core.hpp"
#include "ck_tile/ops/gemm/block/block_gemm_asmem_bsmem_creg_v1.hpp"

namespace ck_tile {

template <typename Problem_, typename Policy_>
struct BlockUniversalGemmAsBsCr : BlockGemmASmemBSmemCRegV1<Problem_, Policy_>
{
    using Base     = BlockGemmASmemBSmemCRegV1<Problem_, Policy_>;
    using WarpGemm = typename Base::WarpGemm;
    using typename Base::ADataType;
    using typename Base::BDataType;

    static constexpr index_t MWarp        = Base::MWarp;
    static constexpr index_t NWarp        = Base::NWarp;
    static constexpr index_t MIterPerWarp = Base::MIterPerWarp;
    static constexpr index_t NIterPerWarp = Base::NIterPerWarp;
    static constexpr index_t KIterPerWarp = Base::KIterPerWarp;

    using AWarpTile =
        static_distributed_tensor<ADataType,
                                  decltype(make_static_tile_distribution(typename WarpGemm::AWarpDstrEncoding{}))>;
    using BWarpTile =
        static_distributed_tensor<BDataType,
                                  decltype(make_static_tile_distribution(typename WarpGemm::BWarpDstrEncoding{}))>;

    // this warp's A and B warp tiles of the whole K step: [k][m] and [k][n]
    array<AWarpTile, KIterPerWarp * MIterPerWarp> a_warp_tiles;
    array<BWarpTile, KIterPerWarp * NIterPerWarp> b_warp_tiles;

    template <typename ABlockWindow, typename BBlockWindow>
    CK_TILE_DEVICE void LocalPrefetch(const ABlockWindow& a_block_window, const BBlockWindow& b_block_window)
    {
        const index_t warp_m  = get_warp_id() / NWarp;
        const index_t warp_n  = get_warp_id() % NWarp;
        constexpr auto a_lens = make_tuple(number<WarpGemm::kM>{}, number<WarpGemm::kK>{});
        constexpr auto b_lens = make_tuple(number<WarpGemm::kN>{}, number<WarpGemm::kK>{});
        constexpr auto a_dstr = make_static_tile_distribution(typename WarpGemm::AWarpDstrEncoding{});
        constexpr auto b_dstr = make_static_tile_distribution(typename WarpGemm::BWarpDstrEncoding{});
        const auto a_origin   = a_block_window.get_window_origin();
        const auto b_origin   = b_block_window.get_window_origin();

        static_for<0, KIterPerWarp>{}([&](auto k) {
            static_for<0, MIterPerWarp>{}([&](auto m) {
                const index_t row = (m * MWarp + warp_m) * WarpGemm::kM;
                load_tile(a_warp_tiles[k * MIterPerWarp + m],
                          make_tile_window(a_block_window.get_bottom_tensor_view(), a_lens,
                                           a_origin + make_multi_index(row, k * WarpGemm::kK), a_dstr));
            });
            static_for<0, NIterPerWarp>{}([&](auto n) {
                const index_t col = (n * NWarp + warp_n) * WarpGemm::kN;
                load_tile(b_warp_tiles[k * NIterPerWarp + n],
                          make_tile_window(b_block_window.get_bottom_tensor_view(), b_lens,
                                           b_origin + make_multi_index(col, k * WarpGemm::kK), b_dstr));
            });
        });
    }

    // c_block_tensor += A * B^T from the prefetched warp tiles: all KIterPerWarp x MIterPerWarp x
    // NIterPerWarp MFMAs of the K step as one batch (WarpGemm's batch form: the same instructions
    // in the same order on a GPU, one wave collective on the emulator)
    template <typename CBlockTensor>
    CK_TILE_DEVICE void operator()(CBlockTensor& c_block_tensor) const
    {
        using CWarpTensor        = typename Base::CWarpTensor;
        constexpr index_t kTiles = Base::kCWarpTiles;
        constexpr index_t kSteps = KIterPerWarp * kTiles;
        static_assert(CBlockTensor::thread_buffer_size == kTiles * CWarpTensor::thread_buffer_size,
                      "BlockUniversalGemmAsBsCr: C tile of another distribution (use MakeCBlockTile)");

        CWarpTensor c_warp[kTiles];
        Base::split_c_block(c_block_tensor, c_warp);
        array<CWarpTensor*, kSteps> cs;
        array<const typename WarpGemm::AWarpTensor*, kSteps> as;
        array<const typename WarpGemm::BWarpTensor*, kSteps> bs;
        static_for<0, KIterPerWarp>{}([&](auto k) {
            static_for<0, kTiles>{}([&](auto t) {
                constexpr index_t m = t / NIterPerWarp;
                constexpr index_t n = t % NIterPerWarp;
                cs[k * kTiles + t]  = &c_warp[t];
                as[k * kTiles + t]  = &a_warp_tiles[k * MIterPerWarp + m];
                bs[k * kTiles + t]  = &b_warp_tiles[k * NIterPerWarp + n];
            });
        });
        WarpGemm{}(cs, as, bs);
        Base::merge_c_block(c_block_tensor, c_warp);
    }
};

} // namespace ck_tile
