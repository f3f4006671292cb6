// SPDX-License-Identifier: MIT
// Error checking for runtime API calls (hipMalloc, hipMemcpy, ...; on the emulator backend the
// emulator's functions of the same names).
//
//   HIP_CHECK_ERROR(hipMemcpy(dst, src, bytes, hipMemcpyHostToDevice));
//   ck_tile::hip_check_error(hipDeviceSynchronize());
//
// A result other than hipSuccess throws std::runtime_error whose message names the error
// (hipGetErrorString), its code and, through the macro, the call and its file:line.
#pragma once
#include <stdexcept>
#include <string>

#include "ck_tile/core/config.hpp"
#include "ck_tile/host/runtime/runtime.hpp"

namespace ck_tile {

namespace detail {
inline std::string hip_error_text(hipError_t err)
{
    const char* s = hipGetErrorString(err);
    return std::string(s ? s : "unknown error") + " (code " + std::to_string(static_cast<long long>(err)) + ")";
}
} // namespace detail

// Throws std::runtime_error("HIP error: <description> (code N)") unless err is hipSuccess.
inline void hip_check_error(hipError_t err)
{
    if(err != hipSuccess)
        throw std::runtime_error("HIP error: " + detail::hip_error_text(err));
}

// As hip_check_error, naming the failed call and where it was made.
inline void hip_check_error(hipError_t err, const char* call, const char* file, int line)
{
    if(err != hipSuccess)
        throw std::runtime_error("HIP error: " + detail::hip_error_text(err) + " in " + call + " at " + file + ":" +
                                 std::to_string(line));
}

} // namespace ck_tile

#define HIP_CHECK_ERROR(call) ::ck_tile::hip_check_error((call), #call, __FILE__, __LINE__)
