// SPDX-License-Identifier: MIT
// __CK_WRAPPER_LAUNCH_BOUNDS__: the launch bounds wrapper kernels declare (CK_MAX_THREAD_PER_BLOCK
// threads, CK_MIN_BLOCK_PER_CU blocks per CU).
#pragma once
#include "ck/ck.hpp"

#define __CK_WRAPPER_LAUNCH_BOUNDS__ __launch_bounds__(CK_MAX_THREAD_PER_BLOCK, CK_MIN_BLOCK_PER_CU)
