// SPDX-License-Identifier: MIT
// get_device_name(): the arch of the device kernels run on, e.g. "gfx942": the current HIP device's
// gcnArchName without its feature suffix, or the arch the emulator emulates.
// get_device_arch(): that arch as the arch table's gpu_arch (what host code asks about the device
// where the host pass of a hip build has no arch of its own); an arch not in the table throws.
// get_device_cu_count(): the device's compute units (multiProcessorCount; on the emulator, the
// OS threads that run workgroups), what a persistent kernel sizes its grid by.
#pragma once
#include <stdexcept>
#include <string>
#include "ck_tile/core/config.hpp"
#include "ck_tile/core/arch/arch_table.hpp"
#include "ck_tile/host/hip_check_error.hpp"
#include "ck_tile/host/runtime/runtime.hpp"

namespace ck_tile {

inline std::string get_device_name()
{
#if defined(CK_TILE_BACKEND_EMULATOR)
    return emu::arch_name();
#else
    int device = 0;
    HIP_CHECK_ERROR(hipGetDevice(&device));
    hipDeviceProp_t props{};
    HIP_CHECK_ERROR(hipGetDeviceProperties(&props, device));
    const std::string name = props.gcnArchName;
    return name.substr(0, name.find(':'));
#endif
}

inline gpu_arch get_device_arch()
{
    const std::string name = get_device_name();
    const arch_info* a     = find_arch(name.c_str());
    if(a == nullptr)
        throw std::runtime_error("ck_tile: the device's arch " + name + " is not in the arch table");
    return arch_of(*a);
}

inline int get_device_cu_count()
{
    int device = 0;
    HIP_CHECK_ERROR(hipGetDevice(&device));
    hipDeviceProp_t props{};
    HIP_CHECK_ERROR(hipGetDeviceProperties(&props, device));
    return props.multiProcessorCount;
}

} // namespace ck_tile
