// SPDX-License-Identifier: MIT
// What hip-cpu's two HIP API files share: hip_api.cpp (errors, memory, device, streams, events)
// and hip_register.cpp (clang's registration and launch ABI, hipLaunchKernel).
#pragma once
#include <string>

#include "hip/hip_runtime_api.h"

namespace hip_cpu::api {

// Every API call returns its error through here: an error is kept as the thread's last error
// until hipGetLastError reads it.
hipError_t result(hipError_t e);

// A refusal that hardware would not explain: one `hip-cpu: <why>` line on stderr, then result(e).
hipError_t refuse(hipError_t e, const std::string& why);

// "0x7f..." for messages
std::string address(const void* p);

} // namespace hip_cpu::api
