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
//
// With Ds (the multiple-D GEMM: E = cde_op(C, D0, D1, ...)): the problem is a
// CShuffleEpilogueProblemWithDs (it adds DsDataType and DsLayout, tuples of one entry per D, and
// the D vector size) and the call takes a tuple of D DRAM windows (kM x kN each, at the block's
// tile; the kernel makes them along each D's layout). After step 3 each D is read with the same
// row-vector distribution as the shuffled C, so that a thread holds the Ds of exactly its own E
// elements (one repeat of rows at a time: one vector per D live, no spills with 4 Ds), and
// e = cde_op(float(c), d0, d1, ...) is computed in float per element. As upstream, C passes through
// LDS in ODataType, so the op sees C rounded to E's type. apply_ds = false (split-K
// splits that must not add the Ds again) skips the D reads and stores C unchanged.
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

// CShuffleEpilogueProblem plus the Ds: DsDataType_ and DsLayout_ are ck_tile::tuple<...> of one
// entry per D (RowMajor: M x N with N contiguous; ColumnMajor: M contiguous), VectorSizeD_ the
// elements one read of a row-major D moves (a column-major D is read element by element).
template <typename AccDataType_, typename ODataType_, typename DsDataType_, typename DsLayout_, index_t kBlockSize_,
          index_t kMPerBlock_, index_t kNPerBlock_, bool kPadM_, bool kPadN_, typename CDEElementwiseOp_,
          index_t VectorSizeC_ = 16 / static_cast<index_t>(sizeof(ODataType_)), index_t VectorSizeD_ = VectorSizeC_>
struct CShuffleEpilogueProblemWithDs
    : CShuffleEpilogueProblem<AccDataType_, ODataType_, kBlockSize_, kMPerBlock_, kNPerBlock_, kPadM_, kPadN_,
                              CDEElementwiseOp_, VectorSizeC_>
{
    using DsDataType                     = DsDataType_;
    using DsLayout                       = DsLayout_;
    static constexpr index_t NumDTensor  = DsDataType::size();
    static constexpr index_t VectorSizeD = VectorSizeD_;
    static_assert(DsLayout::size() == NumDTensor, "CShuffleEpilogueProblemWithDs: one layout per D");
    static_assert(VectorSizeD >= 1 && is_power_of_two_integer(VectorSizeD),
                  "CShuffleEpilogueProblemWithDs: the D vector size is a power of two");
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

    // one repeat of MakeCStoreDistribution: the rows its warps and lanes cover at once (kSliceRows
    // = kMPerBlock / kRepeat), each thread holding one vector; repeat r of the whole distribution is
    // this one kSliceRows * r rows further down, and its registers [r * kVec, (r + 1) * kVec)
    template <typename Problem>
    static constexpr index_t kSliceRows =
        (get_warp_size() / (Problem::kNPerBlock / kVector16B<Problem>)) * (Problem::kBlockSize / get_warp_size());

    template <typename Problem>
    CK_TILE_HOST_DEVICE static constexpr auto MakeCStoreSliceDistribution()
    {
        constexpr index_t kVec      = kVector16B<Problem>;
        constexpr index_t kColLanes = Problem::kNPerBlock / kVec;
        constexpr index_t kRowLanes = get_warp_size() / kColLanes;
        constexpr index_t kWarps    = Problem::kBlockSize / get_warp_size();
        return make_static_tile_distribution(
            tile_distribution_encoding<sequence<>, tuple<sequence<1, kWarps, kRowLanes>, sequence<kColLanes, kVec>>,
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

    // the Ds (none unless the problem is a CShuffleEpilogueProblemWithDs)
    using DsDataType                    = decltype([] {
        if constexpr(requires { typename Problem::DsDataType; })
            return typename Problem::DsDataType{};
        else
            return tuple<>{};
    }());
    using DsLayout                      = decltype([] {
        if constexpr(requires { typename Problem::DsLayout; })
            return typename Problem::DsLayout{};
        else
            return tuple<>{};
    }());
    static constexpr index_t NumDTensor = DsDataType::size();

    CK_TILE_HOST_DEVICE static constexpr index_t GetVectorSizeD()
    {
        if constexpr(requires { Problem::VectorSizeD; })
            return Problem::VectorSizeD;
        else
            return 1;
    }

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

    // With Ds: e = op(c, d0, d1, ...) for every element (apply_ds), or e = c (!apply_ds).
    // ds_dram_windows: a tuple of NumDTensor kM x kN windows at the block's tile.
    template <memory_operation_enum MemOp = memory_operation_enum::set, typename ODramWindow, typename OAccTile,
              typename DsDramWindows>
    CK_TILE_DEVICE void operator()(const ODramWindow& o_dram_window_tmp, const OAccTile& o_acc_tile,
                                   const DsDramWindows& ds_dram_windows, void* p_smem, const ElementwiseOp& op,
                                   bool apply_ds = true) const
    {
        static_assert(DsDramWindows::size() == NumDTensor, "CShuffleEpilogue: one window per D");
        const auto o_tile =
            tile_elementwise_in([&](const AccDataType& x) { return type_convert<ODataType>(x); }, o_acc_tile);

        const auto lds = make_tensor_view<address_space_enum::lds>(static_cast<ODataType*>(p_smem),
                                                                   Policy::template MakeLdsBlockDescriptor<Problem>());
        constexpr auto lens = make_tuple(number<kMPerBlock>{}, number<kNPerBlock>{});
        constexpr auto dstr = Policy::template MakeCStoreDistribution<Problem>();

        block_sync_lds(); // the pipeline may still read the LDS this reuses
        store_tile(make_tile_window(lds, lens, make_multi_index(0, 0)), o_tile);
        block_sync_lds();

        auto e_tile = load_tile(make_tile_window(lds, lens, make_multi_index(0, 0), dstr));
        if(apply_ds)
        {
            // the Ds in the distribution of the shuffled C, one repeat (kSliceRows rows) at a time so
            // that only one vector per D is live: a thread reads the Ds of its own elements
            constexpr index_t kSliceRows  = Policy::template kSliceRows<Problem>;
            constexpr index_t kRepeat     = kMPerBlock / kSliceRows;
            constexpr auto slice_dstr     = Policy::template MakeCStoreSliceDistribution<Problem>();
            constexpr auto slice_lens     = make_tuple(number<kSliceRows>{}, number<kNPerBlock>{});
            constexpr index_t kSliceElems = decltype(e_tile)::thread_buffer_size / kRepeat;
            static_for<0, kRepeat>{}([&](auto r) {
                const auto d_tiles = generate_tuple(
                    [&](auto j) {
                        const auto& w = ds_dram_windows.at(j);
                        return load_tile(make_tile_window(w.get_bottom_tensor_view(), slice_lens,
                                                          w.get_window_origin() + make_multi_index(r * kSliceRows, 0),
                                                          slice_dstr));
                    },
                    number<NumDTensor>{});
                static_for<0, kSliceElems>{}([&](auto i) {
                    constexpr index_t k = r * kSliceElems + i;
                    const float c       = type_convert<float>(e_tile.get_thread_buffer()[k]);
                    apply_cde(op, e_tile.get_thread_buffer()[k], c, d_tiles, i,
                              std::make_index_sequence<static_cast<std::size_t>(NumDTensor)>{});
                });
            });
        }
        update_tile<MemOp>(o_dram_window_tmp, e_tile);
    }

private:
    template <typename E, typename DTiles, typename I, std::size_t... Js>
    CK_TILE_DEVICE static void apply_cde(const ElementwiseOp& op, E& e, float c, const DTiles& d_tiles, I i,
                                         std::index_sequence<Js...>)
    {
        op(e, c, d_tiles.at(number<static_cast<index_t>(Js)>{}).get_thread_buffer()[i]...);
    }
};

} // namespace ck_tile
