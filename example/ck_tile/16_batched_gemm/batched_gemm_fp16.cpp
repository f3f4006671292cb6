// SPDX-License-Identifier: MIT
// tile_example_batched_gemm: the fp16 kernel instances.
#include "batched_gemm_instances.hpp"

namespace batched_gemm_example {
template LaunchResult launch_batched_gemm<Fp16Types>(const Config&, const ck_tile::BatchedGemmHostArgs&, std::size_t);
} // namespace batched_gemm_example
