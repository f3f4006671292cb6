// SPDX-License-Identifier: MIT
// The host side: tensors in host memory, fills, result checks, the argument parser, device
// memory, and kernel launch and timing for the configured backend.
#pragma once
#include "ck_tile/host/runtime/runtime.hpp"
#include "ck_tile/host/hip_check_error.hpp"
#include "ck_tile/host/stream_config.hpp"
#include "ck_tile/host/device_memory.hpp"
#include "ck_tile/host/device_prop.hpp"
#include "ck_tile/host/kernel_launch.hpp"
#include "ck_tile/host/host_tensor.hpp"
#include "ck_tile/host/fill.hpp"
#include "ck_tile/host/check_err.hpp"
#include "ck_tile/host/arg_parser.hpp"
#include "ck_tile/host/timer.hpp"
