# SPDX-License-Identifier: MIT
# The client examples' targets, for the top-level build's proxies (cmake/CkClientExamples.cmake).
set(CK_CLIENT_EXAMPLE_TARGETS client_tensor_transform_using_wrapper client_wrapper_img2col client_wrapper_basic_gemm
                              client_wrapper_optimized_gemm)
