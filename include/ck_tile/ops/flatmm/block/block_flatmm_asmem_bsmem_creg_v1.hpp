// SPDX-License-Identifier: MIT
// BlockFlatmmASmemBSmemCRegV1: the block GEMM of the flatmm pipeline. C (in VGPRs) += A * B^T with
// A (kM x kK) in LDS, read per warp tile with the warp GEMM's A distribution as
// BlockGemmASmemBSmemCRegV1 does, and B already in registers: the warp's B warp tiles of the K step,
// loaded by the pipeline straight from the pre-shuffled ("flat") B in DRAM (shuffle_b: each lane's
// run of K values is the warp GEMM's B operand, so no shuffle is needed in the kernel).
//
// Warps, per-warp iterations and the C distribution are those of BlockGemmASmemBSmemCRegV1 (one
// warp tile (m, n) per M and N iteration, C runs per warp tile), so any epilogue takes its C.
//
// MakeBFlatDistribution: how one warp reads the B of one N iteration and the whole K step from
// flat B: the run of KIterPerWarp warp tiles (each kN x kK elements, contiguous), lane l taking
// kBPerLane consecutive elements of each, at l * kBPerLane: thread buffer = [k iteration][element].
#pragma once
#include "ck_tile/core.hpp"
#include "ck_tile/ops/gemm/block/block_gemm_asmem_bsmem_creg_v1.hpp"

namespace ck_tile {

template <typename Problem_, typename Policy_>
struct BlockFlatmmASmemBSmemCRegV1 : BlockGemmASmemBSmemCRegV1<Problem_, Policy_>
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

    using BWarpTensor                        = typename WarpGemm::BWarpTensor;
    static constexpr index_t kBPerLane       = BWarpTensor::thread_buffer_size;
    static constexpr index_t kBWarpTileElems = WarpGemm::kN * WarpGemm::kK;
    static_assert(kBPerLane * get_warp_size() == kBWarpTileElems,
                  "BlockFlatmmASmemBSmemCRegV1: a B warp tile is one run per lane of the wave");

    // one warp's flat-B window of one N iteration: 1 x (KIterPerWarp * kN * kK) elements
    CK_TILE_HOST_DEVICE static constexpr auto MakeBFlatDistribution()
    {
        return make_static_tile_distribution(
            tile_distribution_encoding<sequence<>,
                                       tuple<sequence<1>, sequence<KIterPerWarp, get_warp_size(), kBPerLane>>,
                                       tuple<sequence<2>>, tuple<sequence<1>>, sequence<1, 2, 2>, sequence<0, 0, 2>>{});
    }

    // c_block_tensor += A * B^T; a_block_window: kM x kK in LDS; b_flat_tiles[n]: this warp's B of
    // N iteration n, in MakeBFlatDistribution
    template <typename CBlockTensor, typename ABlockWindow, typename BFlatTiles>
    CK_TILE_DEVICE void operator()(CBlockTensor& c_block_tensor, const ABlockWindow& a_block_window,
                                   const BFlatTiles& b_flat_tiles) const
    {
        using CWarpTensor               = typename WarpGemm::CWarpTensor;
        constexpr index_t kCPerWarpTile = CWarpTensor::thread_buffer_size;
        static_assert(CBlockTensor::thread_buffer_size == MIterPerWarp * NIterPerWarp * kCPerWarpTile,
                      "BlockFlatmmASmemBSmemCRegV1: C tile of another distribution (use MakeCBlockTile)");

        const index_t warp_m  = get_warp_id() / NWarp;
        const auto& a_view    = a_block_window.get_bottom_tensor_view();
        const auto a_origin   = a_block_window.get_window_origin();
        constexpr auto a_lens = make_tuple(number<WarpGemm::kM>{}, number<WarpGemm::kK>{});
        constexpr auto a_dstr = make_static_tile_distribution(typename WarpGemm::AWarpDstrEncoding{});

        static_for<0, KIterPerWarp>{}([&](auto k) {
            // the B warp tiles of K step k: a slice of each N iteration's flat run
            const auto b_warp_tiles = generate_tuple(
                [&](auto n) {
                    BWarpTensor b;
                    static_for<0, kBPerLane>{}([&](auto e) {
                        b.get_thread_buffer()[e] = b_flat_tiles.at(n).get_thread_buffer()[k * kBPerLane + e];
                    });
                    return b;
                },
                number<NIterPerWarp>{});
            static_for<0, MIterPerWarp>{}([&](auto m) {
                const index_t row = (m * MWarp + warp_m) * WarpGemm::kM;
                const auto a_warp = load_tile(
                    make_tile_window(a_view, a_lens, a_origin + make_multi_index(row, k * WarpGemm::kK), a_dstr));
                static_for<0, NIterPerWarp>{}([&](auto n) {
                    constexpr index_t c_offset = (m * NIterPerWarp + n) * kCPerWarpTile;
                    CWarpTensor c_warp;
                    static_for<0, kCPerWarpTile>{}([&](auto i) {
                        c_warp.get_thread_buffer()[i] = c_block_tensor.get_thread_buffer()[c_offset + i];
                    });
                    WarpGemm{}(c_warp, a_warp, b_warp_tiles.at(n));
                    static_for<0, kCPerWarpTile>{}([&](auto i) {
                        c_block_tensor.get_thread_buffer()[c_offset + i] = c_warp.get_thread_buffer()[i];
                    });
                });
            });
        });
    }
};

} // namespace ck_tile
