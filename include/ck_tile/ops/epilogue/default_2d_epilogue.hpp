// SPDX-License-Identifier: MIT
// Default2DEpilogue: stores a block's accumulator tile to C as it is distributed (the block GEMM's
// C distribution), after y = op(acc) and the conversion to ODataType, through the C window the
// kernel made (padded where the problem pads, so a partial tile drops its out-of-range part), or
// adds it into C atomically (operator()<memory_operation_enum::atomic_add>, for split-K).
//
//   Default2DEpilogueProblem<AccDataType, ODataType, kPadM, kPadN,
//                            ElementwiseOp = element_wise::PassThrough, VectorSizeC = 16 bytes>
//
// VectorSizeC is the alignment the kernel promises for C's rows (as for A and B); an access moves
// the lesser of it and the run of consecutive columns a lane holds (4 with the transposed C
// distribution). Needs no LDS.
#pragma once
#include "ck_tile/core.hpp"
#include "ck_tile/ops/epilogue/element_wise.hpp"

namespace ck_tile {

template <typename AccDataType_, typename ODataType_, bool kPadM_, bool kPadN_,
          typename ElementwiseOp_ = element_wise::PassThrough,
          index_t VectorSizeC_    = 16 / static_cast<index_t>(sizeof(ODataType_))>
struct Default2DEpilogueProblem
{
    using AccDataType                    = std::remove_cv_t<AccDataType_>;
    using ODataType                      = std::remove_cv_t<ODataType_>;
    using ElementwiseOp                  = ElementwiseOp_;
    static constexpr bool kPadM          = kPadM_;
    static constexpr bool kPadN          = kPadN_;
    static constexpr index_t VectorSizeC = VectorSizeC_;
};

template <typename Problem_, typename Policy_ = void>
struct Default2DEpilogue
{
    using Problem       = Problem_;
    using AccDataType   = typename Problem::AccDataType;
    using ODataType     = typename Problem::ODataType;
    using ElementwiseOp = typename Problem::ElementwiseOp;

    static constexpr bool kPadM = Problem::kPadM;
    static constexpr bool kPadN = Problem::kPadN;

    static constexpr const char* name = "default";

    CK_TILE_HOST_DEVICE static constexpr index_t GetVectorSizeC() { return Problem::VectorSizeC; }
    CK_TILE_HOST_DEVICE static constexpr index_t GetSmemSize() { return 0; }

    // the vector of an atomic add into C (split-K): the C vector size bounds it
    CK_TILE_HOST_DEVICE static constexpr index_t GetAtomicVectorSize() { return Problem::VectorSizeC; }

    // MemOp: store the tile (set) or add it into C atomically (atomic_add)
    template <memory_operation_enum MemOp = memory_operation_enum::set, typename ODramWindow, typename OAccTile>
    CK_TILE_DEVICE void operator()(const ODramWindow& o_dram_window_tmp, const OAccTile& o_acc_tile,
                                   void* /*p_smem*/ = nullptr, const ElementwiseOp& op = {}) const
    {
        // op and the conversion run access by access: a whole converted copy of a large
        // accumulator tile (256 x 256 over 8 waves: 64 more registers in bf16) would spill
        update_tile_transformed<MemOp>(o_dram_window_tmp, o_acc_tile, [&](const AccDataType& x) {
            AccDataType y;
            op(y, x);
            return type_convert<ODataType>(y);
        });
    }
};

} // namespace ck_tile
