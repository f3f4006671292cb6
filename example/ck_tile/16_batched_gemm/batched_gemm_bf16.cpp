// SPDX-License-Identifier: MIT
// tile_example_batched_gemm: the bf16 kernel instances.
#include "batched_gemm_instances.hpp"

namespace batched_gemm_example {
template LaunchResult launch_batched_gemm<Bf16Types>(const Config&, const ck_tile::BatchedGemmHostArgs&, std::size_t);
} // namespace batched_gemm_example
