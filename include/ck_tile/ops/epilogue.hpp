// SPDX-License-Identifier: MIT
// The epilogues: what a kernel does with a block's accumulator tile (element-wise op, conversion,
// store to C), and the row-wise dynamic quantization of the norms.
#pragma once
#include "ck_tile/ops/epilogue/element_wise.hpp"
#include "ck_tile/ops/epilogue/default_2d_epilogue.hpp"
#include "ck_tile/ops/epilogue/cshuffle_epilogue.hpp"
#include "ck_tile/ops/epilogue/dynamic_quant_epilogue.hpp"
