// SPDX-License-Identifier: MIT
// tile_example_grouped_gemm_tileloop: tile_example_grouped_gemm with a persistent kernel: as many
// blocks as the device runs at once (compute units x occupancy), each looping over the work items
// (C tiles and K splits of every group) and finding each one's group in the descriptors.
// -? lists the options.
#include "run_grouped_gemm_example.hpp"

int main(int argc, char* argv[]) { return grouped_gemm_example::run_grouped_gemm_example<true>(argc, argv); }
