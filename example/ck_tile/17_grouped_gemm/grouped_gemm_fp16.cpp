// SPDX-License-Identifier: MIT
// The fp16 kernel instances, non-persistent (one block per work item).
#include "grouped_gemm_instances.hpp"

namespace grouped_gemm_example {
template LaunchResult launch_grouped_gemm<Fp16Types, false>(const LaunchConfig&,
                                                            const std::vector<ck_tile::GroupedGemmHostArgs>&,
                                                            const std::vector<std::pair<void*, std::size_t>>&);
} // namespace grouped_gemm_example
