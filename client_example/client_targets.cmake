# SPDX-License-Identifier: MIT
# The client examples' targets and sources, for the top-level build (cmake/CkClientExamples.cmake).
set(CK_CLIENT_EXAMPLE_TARGETS client_tensor_transform_using_wrapper client_wrapper_img2col client_wrapper_basic_gemm
                              client_wrapper_optimized_gemm)
set(CK_CLIENT_EXAMPLE_SOURCE_client_tensor_transform_using_wrapper 25_wrapper/tensor_transform_using_wrapper.cpp)
set(CK_CLIENT_EXAMPLE_SOURCE_client_wrapper_img2col 25_wrapper/wrapper_img2col.cpp)
set(CK_CLIENT_EXAMPLE_SOURCE_client_wrapper_basic_gemm 25_wrapper/wrapper_basic_gemm.cpp)
set(CK_CLIENT_EXAMPLE_SOURCE_client_wrapper_optimized_gemm 25_wrapper/wrapper_optimized_gemm.cpp)
