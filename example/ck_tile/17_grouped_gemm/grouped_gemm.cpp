// SPDX-License-Identifier: MIT
// tile_example_grouped_gemm: group_count GEMMs of different shapes in one launch (GroupedGemmKernel
// over the universal GEMM kernel), one block per C tile and K split of every group, each block
// finding its group in the descriptors of a device workspace; checked per group against a CPU
// reference. -? lists the options.
#include "run_grouped_gemm_example.hpp"

int main(int argc, char* argv[]) { return grouped_gemm_example::run_grouped_gemm_example<false>(argc, argv); }
