// SPDX-License-Identifier: MIT
// BlockGemmASmemBSmemCRegV1: C (kM x kN, in VGPRs) += A (kM x kK, in LDS) * B (kN x kK, in LDS)^T
// for one block.
//
// The block's MWarp x NWarp warps tile C; each warp owns MIterPerWarp x NIterPerWarp warp tiles
// (warp tile (m, n) covers rows (m * MWarp + warp_m) * WarpGemm::kM, columns likewise) and walks
// K in KIterPerWarp steps of WarpGemm::kK. Per step a warp reads its MIterPerWarp A warp tiles and
// NIterPerWarp B warp tiles from LDS, with the warp GEMM's A and B distributions, then issues one
// warp GEMM (MFMA) per (m, n) into the C registers of that warp tile.
//
// The C block tile's distribution (MakeCBlockTile) is the warp GEMM's C distribution embedded in
// <MIterPerWarp, MWarp> x <NIterPerWarp, NWarp>: P0 (warp id) = (M warp, N warp), and the Ys
// (M iteration, N iteration, the warp GEMM's own Ys), so warp tile (m, n) owns one run of
// consecutive registers.
#pragma once
#include "ck_tile/core.hpp"
#include "ck_tile/ops/gemm/block/block_gemm_asmem_bsmem_creg_v1_default_policy.hpp"

namespace ck_tile {

template <typename Problem_, typename Policy_ = BlockGemmASmemBSmemCRegV1DefaultPolicy>
struct BlockGemmASmemBSmemCRegV1
{
    using Problem        = Problem_;
    using Policy         = Policy_;
    using ADataType      = typename Problem::ADataType;
    using BDataType      = typename Problem::BDataType;
    using AccDataType    = typename Problem::AccDataType;
    using CDataType      = AccDataType;
    using BlockGemmShape = typename Problem::BlockGemmShape;

    static constexpr index_t kBlockSize = Problem::kBlockSize;
    static constexpr index_t MPerBlock  = BlockGemmShape::kM;
    static constexpr index_t NPerBlock  = BlockGemmShape::kN;
    static constexpr index_t KPerBlock  = BlockGemmShape::kK;

    using WarpGemmConfig                  = decltype(Policy::template GetWarpGemmMWarpNWarp<Problem>());
    using WarpGemm                        = std::remove_cvref_t<decltype(WarpGemmConfig{}.at(number<0>{}))>;
    static constexpr index_t MWarp        = std::remove_cvref_t<decltype(WarpGemmConfig{}.at(number<1>{}))>::value;
    static constexpr index_t NWarp        = std::remove_cvref_t<decltype(WarpGemmConfig{}.at(number<2>{}))>::value;
    static constexpr index_t MIterPerWarp = MPerBlock / (MWarp * WarpGemm::kM);
    static constexpr index_t NIterPerWarp = NPerBlock / (NWarp * WarpGemm::kN);
    static constexpr index_t KIterPerWarp = KPerBlock / WarpGemm::kK;

    static_assert(MWarp * NWarp * get_warp_size() == kBlockSize,
                  "BlockGemmASmemBSmemCRegV1: MWarp x NWarp warps must make up the block");
    static_assert(MIterPerWarp * MWarp * WarpGemm::kM == MPerBlock &&
                      NIterPerWarp * NWarp * WarpGemm::kN == NPerBlock && KIterPerWarp * WarpGemm::kK == KPerBlock,
                  "BlockGemmASmemBSmemCRegV1: the block tile is not a whole number of warp tiles");
    static_assert(std::is_same_v<ADataType, typename WarpGemm::ADataType> &&
                      std::is_same_v<BDataType, typename WarpGemm::BDataType> &&
                      std::is_same_v<AccDataType, typename WarpGemm::CDataType>,
                  "BlockGemmASmemBSmemCRegV1: the warp GEMM's data types differ from the problem's");

    CK_TILE_HOST_DEVICE static constexpr auto MakeCBlockDistributionEncoding()
    {
        constexpr auto outer =
            tile_distribution_encoding<sequence<>, tuple<sequence<MIterPerWarp, MWarp>, sequence<NIterPerWarp, NWarp>>,
                                       tuple<sequence<1, 2>>, tuple<sequence<1, 1>>, sequence<1, 2>, sequence<0, 0>>{};
        return make_embed_tile_distribution_encoding(outer, typename WarpGemm::CWarpDstrEncoding{});
    }

    CK_TILE_HOST_DEVICE static constexpr auto MakeCBlockTile()
    {
        return make_static_distributed_tensor<AccDataType>(
            make_static_tile_distribution(MakeCBlockDistributionEncoding()));
    }

    // C of the block as this warp's MIterPerWarp x NIterPerWarp warp tiles: tile (m, n) is the
    // registers of the C block tile at (m * NIterPerWarp + n) * (registers per warp tile)
    static constexpr index_t kCWarpTiles = MIterPerWarp * NIterPerWarp;
    using CWarpTensor                    = typename WarpGemm::CWarpTensor;

    template <typename CBlockTensor>
    CK_TILE_DEVICE static void split_c_block(const CBlockTensor& c_block, CWarpTensor (&c_warp)[kCWarpTiles])
    {
        constexpr index_t n = CWarpTensor::thread_buffer_size;
        static_for<0, kCWarpTiles>{}([&](auto t) {
            static_for<0, n>{}(
                [&](auto i) { c_warp[t].get_thread_buffer()[i] = c_block.get_thread_buffer()[t * n + i]; });
        });
    }

    template <typename CBlockTensor>
    CK_TILE_DEVICE static void merge_c_block(CBlockTensor& c_block, const CWarpTensor (&c_warp)[kCWarpTiles])
    {
        constexpr index_t n = CWarpTensor::thread_buffer_size;
        static_for<0, kCWarpTiles>{}([&](auto t) {
            static_for<0, n>{}(
                [&](auto i) { c_block.get_thread_buffer()[t * n + i] = c_warp[t].get_thread_buffer()[i]; });
        });
    }

    // c_block_tensor += A * B^T; the windows are kM x kK and kN x kK windows into LDS views.
    template <typename CBlockTensor, typename ABlockWindow, typename BBlockWindow>
    CK_TILE_DEVICE void operator()(CBlockTensor& c_block_tensor, const ABlockWindow& a_block_window,
                                   const BBlockWindow& b_block_window) const
    {
        static_assert(CBlockTensor::thread_buffer_size == kCWarpTiles * CWarpTensor::thread_buffer_size,
                      "BlockGemmASmemBSmemCRegV1: C tile of another distribution (use MakeCBlockTile)");

        const index_t warp_id = get_warp_id();
        const index_t warp_m  = warp_id / NWarp;
        const index_t warp_n  = warp_id % NWarp;

        const auto& a_view    = a_block_window.get_bottom_tensor_view();
        const auto& b_view    = b_block_window.get_bottom_tensor_view();
        const auto a_origin   = a_block_window.get_window_origin();
        const auto b_origin   = b_block_window.get_window_origin();
        constexpr auto a_lens = make_tuple(number<WarpGemm::kM>{}, number<WarpGemm::kK>{});
        constexpr auto b_lens = make_tuple(number<WarpGemm::kN>{}, number<WarpGemm::kK>{});
        constexpr auto a_dstr = make_static_tile_distribution(typename WarpGemm::AWarpDstrEncoding{});
        constexpr auto b_dstr = make_static_tile_distribution(typename WarpGemm::BWarpDstrEncoding{});

        constexpr index_t kTiles = kCWarpTiles;
        CWarpTensor c_warp[kTiles];
        split_c_block(c_block_tensor, c_warp);

        static_for<0, KIterPerWarp>{}([&](auto k) {
            // this warp's A and B warp tiles of K step k
            const auto a_warp_tiles = generate_tuple(
                [&](auto m) {
                    const index_t row = (m * MWarp + warp_m) * WarpGemm::kM;
                    return load_tile(
                        make_tile_window(a_view, a_lens, a_origin + make_multi_index(row, k * WarpGemm::kK), a_dstr));
                },
                number<MIterPerWarp>{});
            const auto b_warp_tiles = generate_tuple(
                [&](auto n) {
                    const index_t col = (n * NWarp + warp_n) * WarpGemm::kN;
                    return load_tile(
                        make_tile_window(b_view, b_lens, b_origin + make_multi_index(col, k * WarpGemm::kK), b_dstr));
                },
                number<NIterPerWarp>{});

            // the step's MIterPerWarp x NIterPerWarp MFMAs as one batch (WarpGemm's batch form: the
            // same instructions in the same order on a GPU, one wave collective on the emulator)
            array<CWarpTensor*, kTiles> cs;
            array<const typename WarpGemm::AWarpTensor*, kTiles> as;
            array<const typename WarpGemm::BWarpTensor*, kTiles> bs;
            static_for<0, kTiles>{}([&](auto t) {
                cs[t] = &c_warp[t];
                as[t] = &a_warp_tiles.at(number<t / NIterPerWarp>{});
                bs[t] = &b_warp_tiles.at(number<t % NIterPerWarp>{});
            });
            WarpGemm{}(cs, as, bs);
        });
        merge_c_block(c_block_tensor, c_warp);
    }

    // A * B^T into a new C tile
    template <typename ABlockWindow, typename BBlockWindow>
    CK_TILE_DEVICE auto operator()(const ABlockWindow& a_block_window, const BBlockWindow& b_block_window) const
    {
        auto c_block_tensor = MakeCBlockTile();
        clear_tile(c_block_tensor);
        (*this)(c_block_tensor, a_block_window, b_block_window);
        return c_block_tensor;
    }
};

} // namespace ck_tile
