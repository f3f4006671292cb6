// SPDX-License-Identifier: MIT
// GenericPermuteProblem: what the generic permute moves and how wide. The file name keeps
// upstream's spelling ("petmute") so that upstream's include lines work unchanged.
//
//   DataType     the element type (only its bits are moved)
//   kBlockSize   threads per block
//   kMaxRanks    the most dimensions a tensor may have
//   KeepLastDim  true: the instance that needs the innermost input dimension to stay innermost
//                (after merging, see GenericPermuteHostArgs) with a length that is a multiple of
//                the vector; each thread then moves one 16-byte vector. false: one element per
//                thread, any permutation.
#pragma once
#include <type_traits>
#include "ck_tile/core.hpp"

namespace ck_tile {

template <typename DataType_, index_t kBlockSize_ = 256, index_t kMaxRanks_ = 8, bool KeepLastDim_ = false>
struct GenericPermuteProblem
{
    using DataType                      = std::remove_cvref_t<DataType_>;
    static constexpr index_t kBlockSize = kBlockSize_;
    static constexpr index_t kMaxRanks  = kMaxRanks_;
    static constexpr bool KeepLastDim   = KeepLastDim_;
};

} // namespace ck_tile
