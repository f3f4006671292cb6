// SPDX-License-Identifier: MIT
// LLC-aware head grouping for the FMHA forward example: when the K/V of all heads does not fit in
// the last-level cache (AMD Infinity Cache / MALL), launching the heads in groups keeps one
// group's K/V resident while all its query tiles read it, instead of every wave of query tiles
// streaming K/V of all heads from DRAM.
//
// This header only decides the group size; the runner launches one kernel per group of heads.
// The decision is made in three layers, each testable alone:
//   compute_head_group_size  the pure formula (LLC size and problem shape in, group size out)
//   get_llc_cache_bytes      the LLC size: environment, else KFD sysfs, else a per-arch default
//   get_head_group_size      switches, logging, and the two above
// Upstream enables this on RDNA (gfx11/gfx12) only; we also apply it to the CDNA archs we build
// for (gfx942, gfx950), whose 256 MiB Infinity Cache makes it matter only for very long K/V.
// On the emulator there is no KFD node, so the emulated arch's default LLC size decides.
//
// Nothing is cached: the tests change the environment between calls, and the example asks once.
#pragma once
#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include "ck_tile/core/config.hpp"
#include "ck_tile/core/numeric/integer.hpp"
#if !defined(CK_TILE_BACKEND_EMULATOR)
#include "ck_tile/host/hip_check_error.hpp"
#include "ck_tile/host/runtime/runtime.hpp"
#endif

namespace fmha_fwd_head_grouping {

using ck_tile::index_t;

// ---- environment ------------------------------------------------------------------------------

// A boolean switch: unset or empty -> def; 1/0, true/false, yes/no, on/off, enable(d)/disable(d)
// in any case; anything else throws, so that a typo cannot silently leave a switch at its default.
inline bool env_bool(const char* name, bool def)
{
    const char* raw = std::getenv(name);
    if(raw == nullptr || *raw == '\0')
        return def;
    std::string v(raw);
    std::transform(v.begin(), v.end(), v.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if(v == "1" || v == "true" || v == "yes" || v == "on" || v == "enable" || v == "enabled")
        return true;
    if(v == "0" || v == "false" || v == "no" || v == "off" || v == "disable" || v == "disabled")
        return false;
    throw std::invalid_argument(std::string(name) + "='" + raw +
                                "' is not a boolean (1/0, true/false, yes/no, on/off, enable/disable)");
}

// An unsigned integer: unset or empty -> 0; decimal, 0x hex or 0 octal; signs, spaces, trailing
// characters and values past 2^64 - 1 throw.
inline uint64_t env_u64(const char* name)
{
    const char* raw = std::getenv(name);
    if(raw == nullptr || *raw == '\0')
        return 0;
    // strtoull would accept leading spaces and a minus sign (negating the value): refuse them
    const bool starts_with_digit = std::isdigit(static_cast<unsigned char>(raw[0])) != 0;
    char* end                    = nullptr;
    errno                        = 0;
    const unsigned long long v   = starts_with_digit ? std::strtoull(raw, &end, 0) : 0;
    if(!starts_with_digit || errno == ERANGE || end == nullptr || *end != '\0')
        throw std::invalid_argument(std::string(name) + "='" + raw +
                                    "' is not an unsigned integer (decimal, 0x hex or 0 octal)");
    return static_cast<uint64_t>(v);
}

// ---- LLC size ---------------------------------------------------------------------------------

// A PCI location as KFD writes it in a node's properties: domain, and
// location_id = (bus << 8) | (device << 3) | function.
struct pci_location
{
    uint32_t domain;
    uint32_t location_id;
};

namespace detail {
// Value of `key` in a KFD properties file ("key value" per line); nullopt if absent or unreadable.
inline std::optional<uint64_t> read_kfd_property(const std::filesystem::path& file, const std::string& key)
{
    std::ifstream in(file);
    std::string line;
    while(std::getline(in, line))
    {
        std::istringstream fields(line);
        std::string k;
        uint64_t v = 0;
        if(fields >> k >> v && k == key)
            return v;
    }
    return std::nullopt;
}

// The largest level-3 cache of one KFD node, in bytes (sizes are in KiB); 0 if none.
inline uint64_t node_l3_bytes(const std::filesystem::path& node)
{
    std::error_code ec;
    uint64_t best = 0;
    for(std::filesystem::directory_iterator it(node / "caches", ec), end; !ec && it != end; it.increment(ec))
    {
        const auto props = it->path() / "properties";
        if(read_kfd_property(props, "level").value_or(0) != 3)
            continue;
        best = std::max(best, read_kfd_property(props, "size").value_or(0) * 1024);
    }
    // a few KiB of "L3" is not a last-level cache worth planning for
    return best < 32 * 1024 ? 0 : best;
}
} // namespace detail

// The LLC of the GPU nodes under a KFD topology root: the node at `device`'s PCI location when
// given, else the largest over all GPU nodes (a CPU node has simd_count 0). 0 if none/unreadable.
inline uint64_t llc_bytes_from_sysfs(const std::string& topology_root, std::optional<pci_location> device)
{
    std::error_code ec;
    uint64_t best = 0;
    for(std::filesystem::directory_iterator it(topology_root, ec), end; !ec && it != end; it.increment(ec))
    {
        const auto props = it->path() / "properties";
        if(detail::read_kfd_property(props, "simd_count").value_or(0) == 0)
            continue;
        if(device.has_value() &&
           (detail::read_kfd_property(props, "location_id") != std::optional<uint64_t>(device->location_id) ||
            detail::read_kfd_property(props, "domain").value_or(0) != device->domain))
            continue;
        best = std::max(best, detail::node_l3_bytes(it->path()));
    }
    return best;
}

// The LLC of the current HIP device from KFD sysfs; 0 on the emulator (it has no GPU node).
inline uint64_t llc_bytes_from_sysfs(const std::string& topology_root = "/sys/class/kfd/kfd/topology/nodes")
{
#if defined(CK_TILE_BACKEND_EMULATOR)
    (void)topology_root;
    return 0;
#else
    int dev = 0;
    if(hipGetDevice(&dev) != hipSuccess)
        return 0;
    char bus_id[64] = {};
    unsigned domain = 0, bus = 0, device = 0, function = 0;
    if(hipDeviceGetPCIBusId(bus_id, static_cast<int>(sizeof(bus_id)), dev) != hipSuccess ||
       std::sscanf(bus_id, "%x:%x:%x.%x", &domain, &bus, &device, &function) != 4)
        return 0;
    return llc_bytes_from_sysfs(topology_root, pci_location{domain, (bus << 8) | (device << 3) | function});
#endif
}

// The LLC an arch is known to have, for when sysfs says nothing; 0 = unknown (no grouping).
inline uint64_t arch_default_llc_bytes(const std::string& arch)
{
    constexpr uint64_t MiB = uint64_t(1) << 20;
    if(arch == "gfx940" || arch == "gfx941" || arch == "gfx942")
        return 256 * MiB; // MI300 series Infinity Cache
    if(arch == "gfx950")
        return 256 * MiB; // MI350 series (MI355X) Infinity Cache
    if(arch == "gfx1100")
        return 96 * MiB;
    if(arch == "gfx1101")
        return 64 * MiB;
    if(arch == "gfx1102")
        return 32 * MiB;
    if(arch == "gfx1151")
        return 32 * MiB;
    if(arch == "gfx1200")
        return 32 * MiB;
    if(arch == "gfx1201")
        return 64 * MiB;
    return 0;
}

struct llc_info
{
    uint64_t bytes;
    const char* source; // "env", "sysfs", "arch-default" or "none"
};

// The LLC size: CK_TILE_FMHA_LLC_CACHE_MB (MiB) when > 0, else KFD sysfs, else the arch default.
inline llc_info get_llc_cache_bytes(const std::string& arch)
{
    if(const uint64_t mb = env_u64("CK_TILE_FMHA_LLC_CACHE_MB"); mb > 0)
        return {mb << 20, "env"};
    if(const uint64_t b = llc_bytes_from_sysfs(); b > 0)
        return {b, "sysfs"};
    if(const uint64_t b = arch_default_llc_bytes(arch); b > 0)
        return {b, "arch-default"};
    return {0, "none"};
}

// ---- group size -------------------------------------------------------------------------------

// Query heads per launch, or nullopt for one launch of all heads. elem_k/elem_v: bytes per element.
//   kv_per_head = seqlen_k * (hdim_q * elem_k + hdim_v * elem_v)
//   target, ratio = 0.85 * LLC, 1.3 when LLC >= 64 MiB (room for Q, O and other traffic),
//                   LLC, 1.5 otherwise
//   no grouping unless nhead_q * kv_per_head >= ratio * target (upstream counts nhead_q even under
//   GQA, where the K/V heads are fewer; kept for identical decisions)
//   g = max(1, floor(target / kv_per_head)), at least nhead_q / 16, at least ceil(nhead_q / 8)
//   (so at most 8 launches), rounded up to a multiple of nhead_q / nhead_k (a group holds whole
//   K/V heads), at most nhead_q; no grouping if g >= nhead_q.
inline std::optional<index_t> compute_head_group_size(uint64_t llc_bytes, index_t nhead_q, index_t nhead_k,
                                                      index_t seqlen_k, index_t hdim_q, index_t hdim_v, index_t elem_k,
                                                      index_t elem_v)
{
    if(llc_bytes == 0 || nhead_q <= 0 || nhead_k <= 0 || seqlen_k <= 0 || hdim_q <= 0 || hdim_v <= 0 || elem_k <= 0 ||
       elem_v <= 0 || nhead_q % nhead_k != 0)
        return std::nullopt;
    const double kv_per_head =
        static_cast<double>(seqlen_k) * (static_cast<double>(hdim_q) * elem_k + static_cast<double>(hdim_v) * elem_v);
    const bool large    = llc_bytes >= (uint64_t(64) << 20);
    const double target = large ? 0.85 * static_cast<double>(llc_bytes) : static_cast<double>(llc_bytes);
    const double ratio  = large ? 1.3 : 1.5;
    if(static_cast<double>(nhead_q) * kv_per_head < ratio * target)
        return std::nullopt;
    const index_t gqa = nhead_q / nhead_k;
    double fit        = std::floor(target / kv_per_head);
    index_t g         = fit >= static_cast<double>(nhead_q) ? nhead_q : std::max<index_t>(1, static_cast<index_t>(fit));
    g                 = std::max(g, std::max<index_t>(1, nhead_q / 16));
    g                 = std::max(g, (nhead_q + 7) / 8);
    g                 = (g + gqa - 1) / gqa * gqa;
    g                 = std::min(g, nhead_q);
    if(g >= nhead_q)
        return std::nullopt;
    return g;
}

// Whether the arch is one head grouping is meant for: RDNA3/4 (upstream) and our CDNA targets.
inline bool arch_supports_head_grouping(const std::string& arch)
{
    return arch.rfind("gfx11", 0) == 0 || arch.rfind("gfx12", 0) == 0 || arch.rfind("gfx94", 0) == 0 ||
           arch == "gfx950";
}

// The group size for the example: CK_TILE_FMHA_DISABLE_HEAD_GROUPING turns it off; the LLC comes
// from get_llc_cache_bytes; CK_TILE_FMHA_HEAD_GROUP_LOG prints the decision. batch is only
// validated (the K/V working set of a launch is per batch). Throws std::invalid_argument for a
// malformed environment variable.
inline std::optional<index_t> get_head_group_size(const std::string& arch, index_t nhead_q, index_t nhead_k,
                                                  index_t batch, index_t seqlen_k, index_t hdim_q, index_t hdim_v,
                                                  index_t elem_k, index_t elem_v)
{
    const bool log = env_bool("CK_TILE_FMHA_HEAD_GROUP_LOG", false);
    auto off       = [&](const std::string& why) -> std::optional<index_t> {
        if(log)
            std::cout << "[LLC Head Grouping] enabled=0 arch=" << arch << " reason=" << why << std::endl;
        return std::nullopt;
    };
    if(env_bool("CK_TILE_FMHA_DISABLE_HEAD_GROUPING", false))
        return off("disabled by env CK_TILE_FMHA_DISABLE_HEAD_GROUPING");
    if(!arch_supports_head_grouping(arch))
        return off("arch not supported");
    if(batch <= 0 || nhead_q <= 0 || nhead_k <= 0 || nhead_q % nhead_k != 0)
        return off("invalid head/batch configuration");
    const llc_info llc = get_llc_cache_bytes(arch);
    if(llc.bytes == 0)
        return off("LLC size unknown");
    const auto g = compute_head_group_size(llc.bytes, nhead_q, nhead_k, seqlen_k, hdim_q, hdim_v, elem_k, elem_v);
    if(log)
    {
        std::cout << "[LLC Head Grouping] enabled=" << (g ? 1 : 0) << " arch=" << arch
                  << " llc_mb=" << static_cast<double>(llc.bytes) / double(1 << 20) << " source=" << llc.source
                  << " nhead_q=" << nhead_q << " nhead_k=" << nhead_k << " gqa_ratio=" << nhead_q / nhead_k;
        if(g)
            std::cout << " group_size=" << *g << " groups=" << (nhead_q + *g - 1) / *g << std::endl;
        else
            std::cout << " reason=K/V of all heads fits the LLC (or shape not groupable)" << std::endl;
    }
    return g;
}

} // namespace fmha_fwd_head_grouping
