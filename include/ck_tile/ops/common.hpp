// SPDX-License-Identifier: MIT
// Pieces several ops share: the block shape of the row-wise 2-D kernels.
#pragma once
#include "ck_tile/ops/common/generic_2d_block_shape.hpp"
