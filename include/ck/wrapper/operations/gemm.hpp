// SPDX-License-Identifier: MIT
// The block GEMM of the wrapper, on MFMA (XDL) instructions, built on CK Tile's
// BlockGemmASmemBSmemCRegV1 (warp GEMMs from WarpGemmMfmaDispatcher):
//
//   auto c_vgpr = make_blockwise_gemm_xdl_c_vgpr<DataType, ATileLayout, BTileLayout, BlockSize, Traits>();
//   clear(c_vgpr);
//   blockwise_gemm_xdl<DataType, BlockSize, Traits>(a_lds_tensor, b_lds_tensor, c_vgpr);   // C += A B^T
//   auto c_part = make_blockwise_gemm_xdl_c_local_partition<DataType, ATileLayout, BTileLayout,
//                                                           BlockSize, Traits>(c_tile_tensor);
//   copy(c_vgpr, c_part);                     // each thread stores its accumulators to C's tile
//
// A and B are LDS tensors of a tile, MPerBlock x KPerBlock and NPerBlock x KPerBlock ((M, K) /
// (N, K) layouts, or (K0, M, K1) / (K0, N, K1) with K = K0 K1), of compile-time shape and
// strides. The block has (MPerBlock / (MPerXDL MXdlPerWave)) x (NPerBlock / (NPerXDL
// NXdlPerWave)) waves of 64 lanes, which must be BlockSize threads. C accumulates in fp32 in the
// block GEMM's register distribution; the C partition maps each thread's accumulators to their
// elements of the tile (a padded tile drops the ones outside C).
#pragma once
#include <type_traits>
#include "ck/ck.hpp"
#include "ck/wrapper/tensor.hpp"
#include "ck/wrapper/traits/blockwise_gemm_xdl_traits.hpp"
#include "ck_tile/ops/gemm.hpp"

namespace ck::wrapper {

namespace detail {
// rows and K of an operand tile: (Rows, K) or (K0, Rows, K1)
template <typename TileLayout>
struct gemm_tile_dims
{
    using E = typename TileLayout::extents_type;
    template <index_t I>
    static constexpr index_t ext = std::remove_cvref_t<decltype(std::declval<E>().at(Number<I>{}))>::value;
    static constexpr index_t rank = TileLayout::rank;
    static_assert(rank == 2 || rank == 3, "ck::wrapper::blockwise_gemm_xdl: tiles are (M, K) or (K0, M, K1)");
    static constexpr index_t rows = rank == 2 ? ext<0> : ext<1>;
    static constexpr index_t k    = rank == 2 ? ext<1> : ext<0> * ext<rank - 1>;
};

template <typename DataType, typename ATileLayout, typename BTileLayout, index_t BlockSize, typename Traits>
struct blockwise_gemm_xdl_config
{
    static constexpr index_t M = gemm_tile_dims<ATileLayout>::rows;
    static constexpr index_t N = gemm_tile_dims<BTileLayout>::rows;
    static constexpr index_t K = gemm_tile_dims<ATileLayout>::k;
    static_assert(gemm_tile_dims<BTileLayout>::k == K, "ck::wrapper::blockwise_gemm_xdl: A and B tiles of one K");
    static constexpr index_t MWaves = M / (Traits::MPerXDL * Traits::MXdlPerWave);
    static constexpr index_t NWaves = N / (Traits::NPerXDL * Traits::NXdlPerWave);
    static_assert(MWaves * Traits::MPerXDL * Traits::MXdlPerWave == M &&
                      NWaves * Traits::NPerXDL * Traits::NXdlPerWave == N,
                  "ck::wrapper::blockwise_gemm_xdl: the tile is not a whole number of XDL tiles per wave");
    static_assert(MWaves * NWaves * ck_tile::get_warp_size() == BlockSize,
                  "ck::wrapper::blockwise_gemm_xdl: the traits' waves do not make up BlockSize threads");
    // K of one MFMA: 32x32x8 / 16x16x16 for 16-bit types
    static constexpr index_t kWarpK = Traits::MPerXDL == 32 ? 8 : 16;
    using Shape  = ck_tile::TileGemmShape<ck_tile::sequence<M, N, K>, ck_tile::sequence<MWaves, NWaves, 1>,
                                          ck_tile::sequence<Traits::MPerXDL, Traits::NPerXDL, kWarpK>>;
    using GTraits = ck_tile::TileGemmTraits<false, false, false, ck_tile::tensor_layout::gemm::RowMajor,
                                            ck_tile::tensor_layout::gemm::ColumnMajor,
                                            ck_tile::tensor_layout::gemm::RowMajor>;
    using Problem   = ck_tile::GemmPipelineProblem<DataType, DataType, float, Shape, GTraits>;
    using BlockGemm = decltype(ck_tile::GemmPipelineAGmemBGmemCRegV1DefaultPolicy::GetBlockGemm<Problem>());
    using CTile     = decltype(BlockGemm::MakeCBlockTile());
};

// an (M, K) view of an operand tile in LDS
template <typename TileTensor>
CK_TILE_DEVICE auto make_lds_gemm_view(const TileTensor& t)
{
    using L          = typename TileTensor::layout_type;
    const auto& st   = t.layout_.strides_;
    auto* p          = t.GetPointer();
    using D          = gemm_tile_dims<L>;
    if constexpr(L::rank == 2)
        return ck_tile::make_naive_tensor_view<ck_tile::address_space_enum::lds>(
            p, ck_tile::make_tuple(Number<D::rows>{}, Number<D::k>{}),
            ck_tile::make_tuple(st.at(Number<0>{}), st.at(Number<1>{})), Number<1>{});
    else
    {
        constexpr index_t k0 = D::template ext<0>, k1 = D::template ext<2>;
        const auto v3        = ck_tile::make_naive_tensor_view<ck_tile::address_space_enum::lds>(
            p, ck_tile::make_tuple(Number<k0>{}, Number<D::rows>{}, Number<k1>{}),
            ck_tile::make_tuple(st.at(Number<0>{}), st.at(Number<1>{}), st.at(Number<2>{})), Number<1>{});
        return ck_tile::transform_tensor_view(
            v3,
            ck_tile::make_tuple(ck_tile::make_pass_through_transform(Number<D::rows>{}),
                                ck_tile::make_merge_transform(ck_tile::make_tuple(Number<k0>{}, Number<k1>{}))),
            ck_tile::make_tuple(ck_tile::sequence<1>{}, ck_tile::sequence<0, 2>{}),
            ck_tile::make_tuple(ck_tile::sequence<0>{}, ck_tile::sequence<1>{}));
    }
}
} // namespace detail

// the block's C accumulators (fp32, the block GEMM's register distribution)
template <typename CTile>
struct BlockwiseGemmXdlCVgpr
{
    CTile tile_;
};

// the thread's elements of C's tile that its accumulators go to
template <typename CTileTensor, typename CTile>
struct BlockwiseGemmXdlCPartition
{
    CTileTensor tile_;
};

template <typename DataType, typename ATileLayout, typename BTileLayout, index_t BlockSize, typename GemmTraits>
CK_TILE_DEVICE auto make_blockwise_gemm_xdl_c_vgpr()
{
    using Cfg = detail::blockwise_gemm_xdl_config<DataType, ATileLayout, BTileLayout, BlockSize, GemmTraits>;
    return BlockwiseGemmXdlCVgpr<typename Cfg::CTile>{Cfg::BlockGemm::MakeCBlockTile()};
}

template <typename DataType, typename ATileLayout, typename BTileLayout, index_t BlockSize, typename GemmTraits,
          typename CTileTensor>
CK_TILE_DEVICE auto make_blockwise_gemm_xdl_c_local_partition(const CTileTensor& c_tile)
{
    using Cfg = detail::blockwise_gemm_xdl_config<DataType, ATileLayout, BTileLayout, BlockSize, GemmTraits>;
    static_assert(CTileTensor::rank == 2, "ck::wrapper: C's tile is M x N");
    return BlockwiseGemmXdlCPartition<CTileTensor, typename Cfg::CTile>{c_tile};
}

template <typename CTile>
CK_TILE_DEVICE void clear(BlockwiseGemmXdlCVgpr<CTile>& c)
{
    ck_tile::clear_tile(c.tile_);
}

// C's tile += A B^T; ends with a block barrier, so the caller may overwrite the LDS tiles next
template <typename DataType, index_t BlockSize, typename GemmTraits, typename ATensor, typename BTensor,
          typename CTile>
CK_TILE_DEVICE void blockwise_gemm_xdl(const ATensor& a_lds, const BTensor& b_lds, BlockwiseGemmXdlCVgpr<CTile>& c)
{
    static_assert(ATensor::memory_type == MemoryTypeEnum::Lds && BTensor::memory_type == MemoryTypeEnum::Lds,
                  "ck::wrapper::blockwise_gemm_xdl: A and B in LDS");
    using Cfg = detail::blockwise_gemm_xdl_config<DataType, typename ATensor::layout_type,
                                                  typename BTensor::layout_type, BlockSize, GemmTraits>;
    static_assert(std::is_same_v<CTile, typename Cfg::CTile>, "ck::wrapper::blockwise_gemm_xdl: C of another GEMM");
    const auto a_view = detail::make_lds_gemm_view(a_lds);
    const auto b_view = detail::make_lds_gemm_view(b_lds);
    const auto a_win  = ck_tile::make_tile_window(a_view, ck_tile::make_tuple(Number<Cfg::M>{}, Number<Cfg::K>{}),
                                                  ck_tile::make_multi_index(0, 0));
    const auto b_win  = ck_tile::make_tile_window(b_view, ck_tile::make_tuple(Number<Cfg::N>{}, Number<Cfg::K>{}),
                                                  ck_tile::make_multi_index(0, 0));
    typename Cfg::BlockGemm{}(c.tile_, a_win, b_win);
    // the block's reads of A and B are done before anyone overwrites the tiles (the next copy)
    ck_tile::block_sync_lds();
}

// each accumulator, converted to C's type, to its element of C's tile
template <typename CTile, typename CTileTensor>
CK_TILE_DEVICE void copy(const BlockwiseGemmXdlCVgpr<CTile>& src, BlockwiseGemmXdlCPartition<CTileTensor, CTile>& dst)
{
    using Dstr        = typename CTile::StaticTileDistribution;
    using T           = typename CTileTensor::DataType;
    const auto origin = Dstr::calculate_index();
    ck_tile::sweep_tile(src.tile_, [&](auto idx) {
        using I            = decltype(idx);
        constexpr auto off = I::get_x_offset();
        typename CTileTensor::index_array i{};
        i[0] = origin[0] + off[0];
        i[1] = origin[1] + off[1];
        dst.tile_.store(i, ck_tile::type_convert<T>(src.tile_.get_thread_buffer()[Number<I::d>{}]));
    });
}

} // namespace ck::wrapper
