// SPDX-License-Identifier: MIT
// TileCopyProblem: what one tile copy moves (element type, shape) and what the tensors promise.
//   kVectorAccess  the row length is a multiple of the shape's vector, so every row starts aligned
//                  and a lane's ThreadTile N elements move as one access; false: element by element
//                  (any N works, the views are padded either way)
#pragma once
#include "ck_tile/core.hpp"

namespace ck_tile {

template <typename XDataType_, typename BlockShape_, bool kVectorAccess_ = true>
struct TileCopyProblem
{
    using XDataType  = XDataType_;
    using BlockShape = BlockShape_;

    static constexpr bool kVectorAccess = kVectorAccess_;
    static constexpr index_t kBlockSize = BlockShape::kBlockSize;
    static constexpr index_t kVector    = kVectorAccess ? BlockShape::kVector : 1;
};

} // namespace ck_tile
