// SPDX-License-Identifier: MIT
// Element-wise kernels: y = op(x) over a 2-D tensor (ElementWiseKernel); the ops are those of
// ops/epilogue/element_wise.hpp and the activations of elementwise/unary_element_wise_operation.hpp
// (FastGelu, Silu).
#pragma once
#include "ck_tile/ops/epilogue/element_wise.hpp"
#include "ck_tile/ops/elementwise/unary_element_wise_operation.hpp"
#include "ck_tile/ops/elementwise/elementwise_kernel.hpp"
