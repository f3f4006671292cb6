// SPDX-License-Identifier: MIT
// What one block of a batched 2-D transpose moves: the element type and the block's tile of the
// input ([height x width] row-major, height = M, width = N), and what the tensors promise.
//
//   BlockTile   sequence<kMPerBlock, kNPerBlock>: rows x columns of the input one block moves
//   WarpLayout  sequence<WarpsM, WarpsN>: the block's waves over that tile
//   kPadM/N     pad height / width up to whole tiles (needed unless they are tile multiples)
//   kVectorAccess  height and width are multiples of kVector: 16-byte accesses on both sides
//                  (else element by element)
//
// Every lane holds a kVector x kVector sub-tile (kVector = 16 bytes of elements): it reads kVector
// rows of kVector contiguous input elements and, after the in-register transpose, writes kVector
// rows of kVector contiguous output elements. A wave's 64 lanes form an 8 x 8 grid of sub-tiles.
#pragma once
#include "ck_tile/core.hpp"

namespace ck_tile {

template <typename InputType_, typename BlockTile_, typename WarpLayout_, bool kPadM_, bool kPadN_,
          bool kVectorAccess_ = true>
struct BatchedTransposeProblem
{
    using InputType = InputType_;

    static constexpr index_t kMPerBlock = BlockTile_::at(0);
    static constexpr index_t kNPerBlock = BlockTile_::at(1);
    static constexpr index_t kWarpsM    = WarpLayout_::at(0);
    static constexpr index_t kWarpsN    = WarpLayout_::at(1);
    static constexpr index_t kBlockSize = kWarpsM * kWarpsN * get_warp_size();

    static constexpr bool kPadM         = kPadM_;
    static constexpr bool kPadN         = kPadN_;
    static constexpr bool kVectorAccess = kVectorAccess_;

    static constexpr index_t kVector  = 16 / index_t(sizeof(InputType)); // the lane's sub-tile edge
    static constexpr index_t kLanesN  = 8;
    static constexpr index_t kLanesM  = get_warp_size() / kLanesN;
    static constexpr index_t kRepeatM = kMPerBlock / (kWarpsM * kLanesM * kVector);
    static constexpr index_t kRepeatN = kNPerBlock / (kWarpsN * kLanesN * kVector);
    // what the views promise: kVector when the sizes allow it, else single elements
    static constexpr index_t kAlignment = kVectorAccess ? kVector : 1;

    static_assert(kRepeatM >= 1 && kRepeatM * kWarpsM * kLanesM * kVector == kMPerBlock,
                  "BatchedTransposeProblem: kMPerBlock must be a multiple of WarpsM x 8 x (16 bytes of elements)");
    static_assert(kRepeatN >= 1 && kRepeatN * kWarpsN * kLanesN * kVector == kNPerBlock,
                  "BatchedTransposeProblem: kNPerBlock must be a multiple of WarpsN x 8 x (16 bytes of elements)");
};

// The LDS pipeline's problem: the same tile, staged through LDS.
template <typename InputType_, typename BlockTile_, typename WarpLayout_, bool kPadM_, bool kPadN_,
          bool kVectorAccess_ = true>
struct BatchedTransposeLdsProblem
    : BatchedTransposeProblem<InputType_, BlockTile_, WarpLayout_, kPadM_, kPadN_, kVectorAccess_>
{};

} // namespace ck_tile
