// SPDX-License-Identifier: MIT
// The image-to-column op: ImageToColumn (im2col of an NHWGC image), its problem and block shape.
#pragma once
#include "ck_tile/ops/image_to_column/pipeline/tile_image_to_column_shape.hpp"
#include "ck_tile/ops/image_to_column/pipeline/block_image_to_column_problem.hpp"
#include "ck_tile/ops/image_to_column/kernel/image_to_column_kernel.hpp"
