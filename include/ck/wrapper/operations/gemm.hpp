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
// (N, K) layouts, or (K0, M, K1) / (K0, N, K1) with K = K0 K1), M and N compile-time; K (a
// multiple of the MFMA's K: 8 for 32x32, 16 for 16x16 fp16) is run in steps of one MFMA. The block has (MPerBlock /
// (MPerXDL MXdlPerWave)) x (NPerBlock / (NPerXDL NXdlPerWave)) waves of 64 lanes, which must be BlockSize threads. C
// accumulates in fp32 in the block GEMM's register distribution; the C partition maps each thread's accumulators to
// their elements of the tile (a padded tile drops the ones outside C).
#pragma once
#include <type_traits>
#include "ck/ck.hpp"
#include "ck/wrapper/tensor.hpp"
#include "ck/wrapper/traits/blockwise_gemm_xdl_traits.hpp"
#include "ck_tile/ops/gemm.hpp"

namespace ck::wrapper {

namespace detail {
// rows (compile-time) and K (run-time) of an operand tile: (Rows, K) or (K0, Rows, K1)
template <typename TileLayout>
struct gemm_tile_dims
{
    using L                       = std::remove_cvref_t<TileLayout>;
    using E                       = typename L::extents_type;
    static constexpr index_t rank = L::rank;
    static_assert(rank == 2 || rank == 3, "ck::wrapper::blockwise_gemm_xdl: tiles are (M, K) or (K0, M, K1)");
    using RowsT = std::remove_cvref_t<decltype(std::declval<E>().at(Number<rank == 2 ? 0 : 1>{}))>;
    static_assert(is_number_v<RowsT>, "ck::wrapper::blockwise_gemm_xdl: the tile's M (N) length must be compile-time");
    static constexpr index_t rows = RowsT::value;
    CK_TILE_HOST_DEVICE static constexpr index_t k(const L& l)
    {
        if constexpr(rank == 2)
            return static_cast<index_t>(l.extents_.at(Number<1>{}));
        else
            return static_cast<index_t>(l.extents_.at(Number<0>{})) * static_cast<index_t>(l.extents_.at(Number<2>{}));
    }
};

// The block GEMM runs K in steps of one MFMA's K (the tile's K may be a run-time length)
template <typename DataType, typename ATileLayout, typename BTileLayout, index_t BlockSize, typename Traits>
struct blockwise_gemm_xdl_config
{
    static constexpr index_t M      = gemm_tile_dims<ATileLayout>::rows;
    static constexpr index_t N      = gemm_tile_dims<BTileLayout>::rows;
    static constexpr index_t MWaves = M / (Traits::MPerXDL * Traits::MXdlPerWave);
    static constexpr index_t NWaves = N / (Traits::NPerXDL * Traits::NXdlPerWave);
    static_assert(MWaves * Traits::MPerXDL * Traits::MXdlPerWave == M &&
                      NWaves * Traits::NPerXDL * Traits::NXdlPerWave == N,
                  "ck::wrapper::blockwise_gemm_xdl: the tile is not a whole number of XDL tiles per wave");
    static_assert(MWaves * NWaves * ck_tile::get_warp_size() == BlockSize,
                  "ck::wrapper::blockwise_gemm_xdl: the traits' waves do not make up BlockSize threads");
    // K of one MFMA: 32x32x8 / 16x16x16 for 16-bit types
    static constexpr index_t kWarpK = Traits::MPerXDL == 32 ? 8 : 16;
    using Shape = ck_tile::TileGemmShape<ck_tile::sequence<M, N, kWarpK>, ck_tile::sequence<MWaves, NWaves, 1>,
                                         ck_tile::sequence<Traits::MPerXDL, Traits::NPerXDL, kWarpK>>;
    using GTraits =
        ck_tile::TileGemmTraits<false, false, false, ck_tile::tensor_layout::gemm::RowMajor,
                                ck_tile::tensor_layout::gemm::ColumnMajor, ck_tile::tensor_layout::gemm::RowMajor>;
    using Problem   = ck_tile::GemmPipelineProblem<DataType, DataType, float, Shape, GTraits>;
    using BlockGemm = decltype(ck_tile::GemmPipelineAGmemBGmemCRegV1DefaultPolicy::GetBlockGemm<Problem>());
    using CTile     = decltype(BlockGemm::MakeCBlockTile());
};

// an (M, K) view of an operand tile in LDS
template <typename TileTensor>
CK_TILE_DEVICE auto make_lds_gemm_view(const TileTensor& t)
{
    using L        = typename TileTensor::layout_type;
    using D        = gemm_tile_dims<L>;
    const auto& st = t.layout_.strides_;
    const auto& ex = t.layout_.extents_;
    auto* p        = t.GetPointer();
    if constexpr(L::rank == 2)
        return ck_tile::make_naive_tensor_view<ck_tile::address_space_enum::lds>(
            p, ck_tile::make_tuple(Number<D::rows>{}, static_cast<index_t>(ex.at(Number<1>{}))),
            ck_tile::make_tuple(st.at(Number<0>{}), st.at(Number<1>{})), Number<1>{});
    else
    {
        const index_t k0 = static_cast<index_t>(ex.at(Number<0>{}));
        const index_t k1 = static_cast<index_t>(ex.at(Number<2>{}));
        const auto v3    = ck_tile::make_naive_tensor_view<ck_tile::address_space_enum::lds>(
            p, ck_tile::make_tuple(k0, Number<D::rows>{}, k1),
            ck_tile::make_tuple(st.at(Number<0>{}), st.at(Number<1>{}), st.at(Number<2>{})), Number<1>{});
        return ck_tile::transform_tensor_view(
            v3,
            ck_tile::make_tuple(ck_tile::make_pass_through_transform(Number<D::rows>{}),
                                ck_tile::make_merge_transform(ck_tile::make_tuple(k0, k1))),
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
template <typename DataType, index_t BlockSize, typename GemmTraits, typename ATensor, typename BTensor, typename CTile>
CK_TILE_DEVICE void blockwise_gemm_xdl(const ATensor& a_lds, const BTensor& b_lds, BlockwiseGemmXdlCVgpr<CTile>& c)
{
    static_assert(ATensor::memory_type == MemoryTypeEnum::Lds && BTensor::memory_type == MemoryTypeEnum::Lds,
                  "ck::wrapper::blockwise_gemm_xdl: A and B in LDS");
    using Cfg = detail::blockwise_gemm_xdl_config<DataType, typename ATensor::layout_type,
                                                  typename BTensor::layout_type, BlockSize, GemmTraits>;
    static_assert(std::is_same_v<CTile, typename Cfg::CTile>, "ck::wrapper::blockwise_gemm_xdl: C of another GEMM");
    const auto a_view = detail::make_lds_gemm_view(a_lds);
    const auto b_view = detail::make_lds_gemm_view(b_lds);
    const index_t K   = detail::gemm_tile_dims<typename ATensor::layout_type>::k(a_lds.layout_);
    for(index_t k = 0; k < K; k += Cfg::kWarpK)
    {
        const auto a_win = ck_tile::make_tile_window(
            a_view, ck_tile::make_tuple(Number<Cfg::M>{}, Number<Cfg::kWarpK>{}), ck_tile::make_multi_index(0, k));
        const auto b_win = ck_tile::make_tile_window(
            b_view, ck_tile::make_tuple(Number<Cfg::N>{}, Number<Cfg::kWarpK>{}), ck_tile::make_multi_index(0, k));
        typename Cfg::BlockGemm{}(c.tile_, a_win, b_win);
    }
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
