// SPDX-License-Identifier: MIT
// The supported archs and their facts as C++ values, read from arch_table.def:
//
//   ck_tile::gpu_arch                  one enumerator per arch (gpu_arch::gfx942, ...)
//   ck_tile::arch_table                arch_info of every arch, in gpu_arch order
//   ck_tile::compiled_arch             the arch this translation unit emulates or, in the device
//                                      pass, compiles for; gpu_arch::host in host code of a hip build
//   ck_tile::compiled_arch_info()      its arch_info (host code: none, see has_compiled_arch)
//   ck_tile::compiled_arch_name        its name ("host" for host code of a hip build)
//   ck_tile::find_arch("gfx950:xnack-")  the arch_info of a device name, or nullptr
//   ck_tile::mfma_set_includes(have, need) whether MFMA set `have` contains set `need`
#pragma once
#include "ck_tile/core/config.hpp"
#include "ck_tile/core/numeric/integer.hpp"

namespace ck_tile {

enum class fp8_flavour
{
    fnuz, // E4M3 / E5M2 FNUZ: one NaN, no infinities, no -0
    ocp   // OCP E4M3FN / E5M2
};

enum class mfma_set
{
    cdna3,
    cdna4 // cdna3 plus the double-K f16 / bf16 / i8 instructions and the f8f6f4 ones
};

struct arch_info
{
    const char* name;
    index_t wave_size;
    index_t lds_bytes;
    fp8_flavour fp8;
    mfma_set mfma;
    bool lds_transpose_read;
};

enum class gpu_arch
{
#define CK_TILE_ARCH(NAME, WAVE, LDS_KIB, FP8, MFMA, LDS_TR) NAME,
#include "ck_tile/core/arch/arch_table.def"
#undef CK_TILE_ARCH
    host // not an arch: host code of a hip build
};

inline constexpr arch_info arch_table[] = {
#define CK_TILE_ARCH(NAME, WAVE, LDS_KIB, FP8, MFMA, LDS_TR)                                                           \
    {#NAME, WAVE, (LDS_KIB) * 1024, fp8_flavour::FP8, mfma_set::MFMA, (LDS_TR) != 0},
#include "ck_tile/core/arch/arch_table.def"
#undef CK_TILE_ARCH
};

// Whether an arch with MFMA set `have` has the instructions of set `need`: each set contains the
// ones declared before it (cdna4 is cdna3 plus its own).
constexpr bool mfma_set_includes(mfma_set have, mfma_set need)
{
    return static_cast<int>(have) >= static_cast<int>(need);
}

inline constexpr index_t num_archs = static_cast<index_t>(sizeof(arch_table) / sizeof(arch_table[0]));

constexpr const arch_info& get_arch_info(gpu_arch a) { return arch_table[static_cast<int>(a)]; }

// The wave size every arch of the table has (host code of a hip build sizes its launches with it).
inline constexpr index_t common_wave_size = [] {
    for(const arch_info& a : arch_table)
        if(a.wave_size != arch_table[0].wave_size)
            return index_t{0};
    return arch_table[0].wave_size;
}();
static_assert(common_wave_size > 0, "ck_tile: archs of different wave sizes need per-arch host code");

// config.hpp names the compiled arch (CK_TILE_COMPILED_ARCH) from the compiler's or the emulator's macro.
#if defined(CK_TILE_COMPILED_ARCH)
inline constexpr gpu_arch compiled_arch = gpu_arch::CK_TILE_COMPILED_ARCH;
#else
inline constexpr gpu_arch compiled_arch = gpu_arch::host;
#endif
inline constexpr bool has_compiled_arch = compiled_arch != gpu_arch::host;

// A template only so that the check below fires where it is called, not in every pass that
// includes this header (host code of a hip build has no arch and must not call it).
template <gpu_arch A = compiled_arch>
constexpr const arch_info& compiled_arch_info()
{
    static_assert(A != gpu_arch::host, "ck_tile: no arch in this pass (host code of a hip build)");
    return get_arch_info(A);
}

inline constexpr const char* compiled_arch_name = has_compiled_arch ? get_arch_info(compiled_arch).name : "host";

// The arch of a device name such as "gfx942" or "gfx950:sramecc+:xnack-" (feature suffix ignored),
// or nullptr if the table has none of that name.
constexpr const arch_info* find_arch(const char* device_name)
{
    for(const arch_info& a : arch_table)
    {
        index_t i = 0;
        while(a.name[i] != '\0' && a.name[i] == device_name[i])
            ++i;
        if(a.name[i] == '\0' && (device_name[i] == '\0' || device_name[i] == ':'))
            return &a;
    }
    return nullptr;
}

// The arch of an entry of the table.
constexpr gpu_arch arch_of(const arch_info& a) { return static_cast<gpu_arch>(&a - arch_table); }

} // namespace ck_tile
