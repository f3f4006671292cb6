// SPDX-License-Identifier: MIT
// example_splitk_gemm_bias_e_permute_xdl_fp16: A, B, D, E and F in fp16, fp32 accumulation.
#include "run_splitk_gemm_bias_e_permute_example.hpp"

int main(int argc, char* argv[])
{
    using F16 = ck::half_t;
    return splitk_example::run_splitk_gemm_bias_e_permute_example<F16, F16, F16, F16, F16>(argc, argv);
}
