// SPDX-License-Identifier: MIT
// Layout tags of 2-D GEMM operands, with upstream's names:
//   ck_tile::tensor_layout::gemm::RowMajor     rows x cols, element (r, c) at r * stride + c
//   ck_tile::tensor_layout::gemm::ColumnMajor  rows x cols, element (r, c) at r + c * stride
// For a GEMM, A is M x K, B is K x N and C is M x N; "column-major B" is therefore B stored N x K
// with K contiguous.
#pragma once
#include <type_traits>
#include "ck_tile/core/config.hpp"

namespace ck_tile {
namespace tensor_layout {
namespace gemm {

struct RowMajor
{
    static constexpr const char* name = "RowMajor";
};

struct ColumnMajor
{
    static constexpr const char* name = "ColumnMajor";
};

} // namespace gemm
} // namespace tensor_layout

template <typename Layout>
inline constexpr bool is_row_major_v = std::is_same_v<Layout, tensor_layout::gemm::RowMajor>;

} // namespace ck_tile
