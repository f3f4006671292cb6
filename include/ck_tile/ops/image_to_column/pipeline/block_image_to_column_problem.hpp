// SPDX-License-Identifier: MIT
// BlockImageToColumnProblem: the data types, the block shape (TileImageToColumnShape), the number
// of spatial dimensions and the vector widths, in elements, of the input reads and output writes.
// "Aligment" is upstream's spelling, kept so that upstream's code compiles unchanged.
#pragma once
#include <type_traits>
#include "ck_tile/core.hpp"

namespace ck_tile {

template <typename InDataType_, typename OutDataType_, typename BlockShape_, index_t NDimSpatial_, index_t AligmentIn_,
          index_t AligmentOut_>
struct BlockImageToColumnProblem
{
    using InDataType  = std::remove_cvref_t<InDataType_>;
    using OutDataType = std::remove_cvref_t<OutDataType_>;
    using BlockShape  = std::remove_cvref_t<BlockShape_>;

    static constexpr index_t NDimSpatial = NDimSpatial_;
    static constexpr index_t AligmentIn  = AligmentIn_;
    static constexpr index_t AligmentOut = AligmentOut_;
};

} // namespace ck_tile
