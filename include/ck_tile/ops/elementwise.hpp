// SPDX-License-Identifier: MIT
// Element-wise operations shared by the ops (activations).
#pragma once
#include "ck_tile/ops/elementwise/unary_element_wise_operation.hpp"
