// SPDX-License-Identifier: MIT
// CShuffleEpilogue: stores a block's accumulator tile to C through LDS, so that the DRAM stores are
// whole 16-byte row-major vectors whatever the MFMA's C layout:
//   1. y = op(acc), converted to ODataType, written to LDS with the accumulator's distribution;
//   2. barrier;
//   3. read back with MakeCStoreDistribution: each thread holds runs of VectorSizeC consecutive
//      columns of a row (rows = <repeats, warps, lanes>, columns = <lanes, vector>);
//   4. stored to the C window (padded where the problem pads), or added into it atomically
//      (operator()<memory_operation_enum::atomic_add>, for split-K).
// It starts with a barrier of its own, as the LDS it reuses may still be read by the pipeline.
//
//   CShuffleEpilogueProblem<AccDataType, ODataType, kBlockSize, kMPerBlock, kNPerBlock, kPadM,
//                           kPadN, ElementwiseOp = element_wise::PassThrough, VectorSizeC = 16 B>
//
// The policy (CShuffleEpilogueDefaultPolicy) gives the LDS layout (kM x kN, rows padded by one
// vector) and the read-back distribution; both are hooks for other layouts.
#pragma once
#include "ck_tile/core.hpp"
#include "ck_tile/ops/epilogue/element_wise.hpp"

namespace ck_tile {

template <typename AccDataType_, typename ODataType_, index_t kBlockSize_, index_t kMPerBlock_, index_t kNPerBlock_,
          bool kPadM_, bool kPadN_, typename ElementwiseOp_ = element_wise::PassThrough,
          index_t VectorSizeC_ = 16 / static_cast<index_t>(sizeof(ODataType_))>
struct CShuffleEpilogueProblem
{
    using AccDataType                    = std::remove_cv_t<AccDataType_>;
    using ODataType                      = std::remove_cv_t<ODataType_>;
    using ElementwiseOp                  = ElementwiseOp_;
    static constexpr index_t kBlockSize  = kBlockSize_;
    static constexpr index_t kMPerBlock  = kMPerBlock_;
    static constexpr index_t kNPerBlock  = kNPerBlock_;
    static constexpr bool kPadM          = kPadM_;
    static constexpr bool kPadN          = kPadN_;
    static constexpr index_t VectorSizeC = VectorSizeC_;
};

struct CShuffleEpilogueDefaultPolicy
{
    template <typename Problem>
    static constexpr index_t kVector16B = 16 / static_cast<index_t>(sizeof(typename Problem::ODataType));

    // C tile in LDS: kM x kN, row-major, rows padded by one 16-byte vector
    template <typename Problem>
    CK_TILE_HOST_DEVICE static constexpr auto MakeLdsBlockDescriptor()
    {
        constexpr index_t kVec = kVector16B<Problem>;
        return make_naive_tensor_descriptor(make_tuple(number<Problem::kMPerBlock>{}, number<Problem::kNPerBlock>{}),
                                            make_tuple(number<Problem::kNPerBlock + kVec>{}, number<1>{}),
                                            number<kVec>{});
    }

    // the read-back distribution: 16-byte runs of a row per thread, rows over repeats, warps, lanes
    template <typename Problem>
    CK_TILE_HOST_DEVICE static constexpr auto MakeCStoreDistribution()
    {
        constexpr index_t kVec      = kVector16B<Problem>;
        constexpr index_t kColLanes = Problem::kNPerBlock / kVec;
        static_assert(Problem::kNPerBlock % kVec == 0 && kColLanes <= get_warp_size() &&
                          get_warp_size() % kColLanes == 0,
                      "CShuffleEpilogue: the N tile does not split into vectors over a warp's lanes");
        constexpr index_t kRowLanes = get_warp_size() / kColLanes;
        constexpr index_t kWarps    = Problem::kBlockSize / get_warp_size();
        constexpr index_t kRepeat   = Problem::kMPerBlock / (kWarps * kRowLanes);
        static_assert(kRepeat >= 1 && kRepeat * kWarps * kRowLanes == Problem::kMPerBlock,
                      "CShuffleEpilogue: the M tile does not split over the block's warps and lanes");
        return make_static_tile_distribution(
            tile_distribution_encoding<sequence<>,
                                       tuple<sequence<kRepeat, kWarps, kRowLanes>, sequence<kColLanes, kVec>>,
                                       tuple<sequence<1>, sequence<1, 2>>, tuple<sequence<1>, sequence<2, 0>>,
                                       sequence<1, 2>, sequence<0, 1>>{});
    }

    template <typename Problem>
    CK_TILE_HOST_DEVICE static constexpr index_t GetSmemSize()
    {
        return integer_least_multiple(static_cast<index_t>(MakeLdsBlockDescriptor<Problem>().get_element_space_size() *
                                                           sizeof(typename Problem::ODataType)),
                                      16);
    }
};

template <typename Problem_, typename Policy_ = CShuffleEpilogueDefaultPolicy>
struct CShuffleEpilogue
{
    using Problem       = Problem_;
    using Policy        = Policy_;
    using AccDataType   = typename Problem::AccDataType;
    using ODataType     = typename Problem::ODataType;
    using ElementwiseOp = typename Problem::ElementwiseOp;

    static constexpr bool kPadM         = Problem::kPadM;
    static constexpr bool kPadN         = Problem::kPadN;
    static constexpr index_t kMPerBlock = Problem::kMPerBlock;
    static constexpr index_t kNPerBlock = Problem::kNPerBlock;

    static constexpr const char* name = "cshuffle";

    CK_TILE_HOST_DEVICE static constexpr index_t GetVectorSizeC() { return Problem::VectorSizeC; }
    CK_TILE_HOST_DEVICE static constexpr index_t GetSmemSize() { return Policy::template GetSmemSize<Problem>(); }

    // the vector of an atomic add into C (split-K): the read-back's row runs
    CK_TILE_HOST_DEVICE static constexpr index_t GetAtomicVectorSize() { return Problem::VectorSizeC; }

    // MemOp: store the tile (set) or add it into C atomically (atomic_add)
    template <memory_operation_enum MemOp = memory_operation_enum::set, typename ODramWindow, typename OAccTile>
    CK_TILE_DEVICE void operator()(const ODramWindow& o_dram_window_tmp, const OAccTile& o_acc_tile, void* p_smem,
                                   const ElementwiseOp& op = {}) const
    {
        const auto o_tile = tile_elementwise_in(
            [&](const AccDataType& x) {
                AccDataType y;
                op(y, x);
                return type_convert<ODataType>(y);
            },
            o_acc_tile);

        const auto lds = make_tensor_view<address_space_enum::lds>(static_cast<ODataType*>(p_smem),
                                                                   Policy::template MakeLdsBlockDescriptor<Problem>());
        constexpr auto lens = make_tuple(number<kMPerBlock>{}, number<kNPerBlock>{});

        block_sync_lds(); // the pipeline may still read the LDS this reuses
        store_tile(make_tile_window(lds, lens, make_multi_index(0, 0)), o_tile);
        block_sync_lds();

        const auto o_shuffled = load_tile(
            make_tile_window(lds, lens, make_multi_index(0, 0), Policy::template MakeCStoreDistribution<Problem>()));
        update_tile<MemOp>(o_dram_window_tmp, o_shuffled);
    }
};

} // namespace ck_tile
