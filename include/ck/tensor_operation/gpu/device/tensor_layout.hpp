// SPDX-License-Identifier: MIT
// Classic CK's layout tags: CK Tile's GEMM ones (ck::tensor_layout::gemm::RowMajor, ColumnMajor)
// and the convolution ones the examples name (ck::tensor_layout::convolution::NDHWGC, ...).
#pragma once
#include "ck_tile/core/tensor/tensor_layout.hpp"

namespace ck::tensor_layout {
namespace gemm {
using RowMajor    = ck_tile::tensor_layout::gemm::RowMajor;
using ColumnMajor = ck_tile::tensor_layout::gemm::ColumnMajor;
} // namespace gemm
namespace convolution {
// clang-format off
struct NWGC   { static constexpr const char* name = "NWGC"; };
struct NHWGC  { static constexpr const char* name = "NHWGC"; };
struct NDHWGC { static constexpr const char* name = "NDHWGC"; };
struct GNWC   { static constexpr const char* name = "GNWC"; };
struct GNHWC  { static constexpr const char* name = "GNHWC"; };
struct GNDHWC { static constexpr const char* name = "GNDHWC"; };
// clang-format on
} // namespace convolution
} // namespace ck::tensor_layout
