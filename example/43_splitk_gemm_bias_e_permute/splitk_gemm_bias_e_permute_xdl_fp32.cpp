// SPDX-License-Identifier: MIT
// example_splitk_gemm_bias_e_permute_xdl_fp32: A, B, D, E and F in fp32 (MFMA 32x32x2 f32).
#include "run_splitk_gemm_bias_e_permute_example.hpp"

int main(int argc, char* argv[])
{
    using F32 = float;
    return splitk_example::run_splitk_gemm_bias_e_permute_example<F32, F32, F32, F32, F32>(argc, argv);
}
