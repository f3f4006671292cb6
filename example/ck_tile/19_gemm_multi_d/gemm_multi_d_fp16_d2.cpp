// SPDX-License-Identifier: MIT
// tile_example_gemm_multi_d_fp16: the kernel instances with 2 D tensor(s).
#include "gemm_multi_d_instances.hpp"

namespace gemm_multi_d_example {
GEMM_MULTI_D_INSTANTIATE(2)
} // namespace gemm_multi_d_example
