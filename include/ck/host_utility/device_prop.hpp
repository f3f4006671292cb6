// SPDX-License-Identifier: MIT
// ck::get_device_name / ck::is_xdl_supported: the device's arch name (gcnArchName without its
// feature suffix; the emulated arch on the emulator) and whether it has MFMA (XDL) instructions.
#pragma once
#include <string>
#include "ck/ck.hpp"
#include "ck_tile/host/hip_check_error.hpp"
#include "ck_tile/host/runtime/runtime.hpp"

namespace ck {
inline std::string get_device_name()
{
    int dev = 0;
    HIP_CHECK_ERROR(hipGetDevice(&dev));
    hipDeviceProp_t props{};
    HIP_CHECK_ERROR(hipGetDeviceProperties(&props, dev));
    const std::string name = props.gcnArchName;
    return name.substr(0, name.find(':'));
}
inline bool is_xdl_supported()
{
    const std::string n = get_device_name();
    return n == "gfx908" || n == "gfx90a" || n == "gfx940" || n == "gfx941" || n == "gfx942" || n == "gfx950";
}
} // namespace ck
