// SPDX-License-Identifier: MIT
// Reading what clang puts in a HIP program: the offload bundle (one code object per arch), and in a
// code object the kernels: their machine code, kernel descriptor (`<kernel>.kd`) and the AMDGPU
// metadata note (kernel-argument layout, hidden arguments). Facts from LLVM's AMDGPUUsage.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace hip_cpu {

// The per-arch code objects of a clang offload bundle ("__CLANG_OFFLOAD_BUNDLE__"), by arch name.
struct bundle_entry
{
    std::string arch; // e.g. gfx942 (from the entry id hipv4-amdgcn-amd-amdhsa--gfx942[:features])
    const std::uint8_t* data = nullptr;
    std::size_t size         = 0;
};
std::vector<bundle_entry> read_bundle(const void* bundle); // throws launch_failure

// One kernel argument as the metadata describes it.
struct kernel_argument
{
    std::uint32_t offset = 0;
    std::uint32_t size   = 0;
    std::string value_kind; // by_value, global_buffer, hidden_block_count_x, hidden_group_size_x, ...
};

// The kernel descriptor's fields the engine needs (AMDGPUUsage, "Kernel Descriptor").
struct kernel_descriptor
{
    std::uint32_t group_segment_fixed_size   = 0; // static LDS bytes
    std::uint32_t private_segment_fixed_size = 0; // scratch bytes per lane
    std::uint32_t kernarg_size               = 0;
    std::int64_t code_entry_offset           = 0; // from the descriptor's address
    std::uint32_t rsrc1 = 0, rsrc2 = 0, rsrc3 = 0;
    std::uint16_t code_properties = 0;
    std::uint16_t kernarg_preload =
        0; // gfx940+: dwords of kernel arguments preloaded into SGPRs [6:0], their offset [15:7]
};

struct kernel_info
{
    std::string name;
    kernel_descriptor descriptor;
    std::uint64_t entry                   = 0; // code address of the first instruction (ELF virtual address)
    std::uint64_t code_end                = 0; // end of the function symbol
    std::uint32_t kernarg_segment_size    = 0;
    std::uint32_t max_flat_workgroup_size = 1024;
    std::uint32_t wavefront_size          = 64;
    std::vector<kernel_argument> arguments; // explicit and hidden, in metadata order
};

// A loaded code object: the image (its loadable segments at their virtual addresses) and its kernels.
class code_object
{
public:
    code_object(const std::uint8_t* data, std::size_t size, std::string arch); // throws launch_failure

    const std::string& arch() const { return arch_; }
    const kernel_info* find_kernel(std::string_view name) const;
    // The bytes at virtual address `address`, `bytes` long; nullptr when outside the image.
    const std::uint8_t* at(std::uint64_t address, std::uint64_t bytes) const;
    // The image in host memory: kernels see it at this address (s_getpc_b64 and what it addresses).
    const std::uint8_t* image() const { return image_.data(); }
    std::size_t image_size() const { return image_.size(); }

private:
    std::string arch_;
    std::vector<std::uint8_t> image_; // the loadable segments, laid out by virtual address from 0
    std::map<std::string, kernel_info, std::less<>> kernels_;
};

} // namespace hip_cpu
