// SPDX-License-Identifier: MIT
// Element-wise kernels: y = op(x) over a 2-D tensor (ElementWiseKernel); the ops are those of
// ops/epilogue/element_wise.hpp.
#pragma once
#include "ck_tile/ops/epilogue/element_wise.hpp"
#include "ck_tile/ops/elementwise/elementwise_kernel.hpp"
