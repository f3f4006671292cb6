// SPDX-License-Identifier: MIT
// Upstream's header name for the split-K contraction with multiple D: here the alias
// DeviceSplitKContractionMultipleD_Xdl_CShuffle of DeviceSplitkGemmBiasEPermute, so that code
// including upstream's path finds the op.
#pragma once
#include "ck/tensor_operation/gpu/device/impl/device_splitk_gemm_bias_e_permute.hpp"
