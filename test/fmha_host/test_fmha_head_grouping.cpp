// SPDX-License-Identifier: MIT
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <unistd.h>
#include "example/ck_tile/01_fmha/fmha_fwd_head_grouping.hpp"

namespace hg           = fmha_fwd_head_grouping;
namespace fs           = std::filesystem;
constexpr uint64_t MiB = uint64_t(1) << 20;

// group size for nhead_q = nhead_k (MHA) and hdim_q = hdim_v
static std::optional<int> mha(uint64_t llc, int h, int s_k, int d, int elem)
{
    return hg::compute_head_group_size(llc, h, h, s_k, d, d, elem, elem);
}

// Sets (or with nullptr unsets) an environment variable for one scope.
struct scoped_env
{
    std::string name;
    std::optional<std::string> old;
    scoped_env(const char* n, const char* v) : name(n)
    {
        if(const char* o = std::getenv(n))
            old = o;
        if(v)
            setenv(n, v, 1);
        else
            unsetenv(n);
    }
    ~scoped_env()
    {
        if(old)
            setenv(name.c_str(), old->c_str(), 1);
        else
            unsetenv(name.c_str());
    }
};

TEST_CASE("formula: the worked values of upstream's description (bf16, h=24, d=128)")
{
    // 64 MiB (gfx1201): target 54.4 MiB, groups when 24 heads need >= 1.3 * target
    CHECK(mha(64 * MiB, 24, 4096, 128, 2) == std::nullopt); // 48 MiB of K/V: fits well enough
    CHECK(mha(64 * MiB, 24, 8192, 128, 2) == 13);           // 4 MiB per head
    CHECK(mha(64 * MiB, 24, 12288, 128, 2) == 9);
    CHECK(mha(64 * MiB, 24, 16384, 128, 2) == 6);
    CHECK(mha(64 * MiB, 24, 24576, 128, 2) == 4);
    // 96 MiB (gfx1100): target 81.6 MiB
    CHECK(mha(96 * MiB, 24, 8192, 128, 2) == std::nullopt);
    CHECK(mha(96 * MiB, 24, 12288, 128, 2) == 13);
    CHECK(mha(96 * MiB, 24, 16384, 128, 2) == 10);
    // 1 MiB (AITER's pinned test size): 1 MiB per head -> one head per launch
    CHECK(mha(1 * MiB, 8, 2048, 128, 2) == 1);
    // fp8 GQA 8/2: 0.5 MiB per head -> 2, rounded up to whole K/V heads (4 query heads each)
    CHECK(hg::compute_head_group_size(1 * MiB, 8, 2, 2048, 128, 128, 1, 1) == 4);
}

TEST_CASE("formula: more LLC sizes, heads, lengths and head dims")
{
    // 256 MiB (gfx942/gfx950 default): target 217.6 MiB, trigger 282.9 MiB
    CHECK(mha(256 * MiB, 24, 16384, 128, 2) == std::nullopt); // 192 MiB
    CHECK(mha(256 * MiB, 24, 32768, 128, 2) == 13);           // 16 MiB per head
    CHECK(mha(256 * MiB, 24, 65536, 128, 2) == 6);
    // the 64 MiB boundary: 63 MiB is a small LLC (target = LLC, trigger 1.5x)
    CHECK(mha(63 * MiB, 24, 8192, 128, 2) == 15);
    // fp32 K/V, 32 MiB: 4 MiB per head of d=64, 16 heads = 64 MiB >= 48 MiB
    CHECK(mha(32 * MiB, 16, 8192, 64, 4) == 8);
    CHECK(mha(32 * MiB, 11, 8192, 64, 4) == std::nullopt); // 44 MiB < 48 MiB
    // hdim_q != hdim_v: 8192 * (192 * 2 + 128 * 2) = 5 MiB per head
    CHECK(hg::compute_head_group_size(64 * MiB, 16, 16, 8192, 192, 128, 2, 2) == 10);
    // at most 8 launches: a very long K/V still groups at least ceil(h / 8) heads
    CHECK(mha(64 * MiB, 128, 65536, 128, 2) == 16); // fit 1, h/16 = 8, ceil(h/8) = 16
    CHECK(mha(64 * MiB, 24, 262144, 128, 2) == 3);  // fit 0 -> 1, ceil(24/8) = 3
    // the trigger is inclusive: 3 heads of 0.5 MiB on 1 MiB is exactly 1.5x
    CHECK(mha(1 * MiB, 3, 1024, 128, 2) == 2);
    CHECK(mha(1 * MiB, 2, 1024, 128, 2) == std::nullopt);
    // just below and just above the 64 MiB trigger (1.3 * 54.4 = 70.7 MiB of K/V)
    CHECK(mha(64 * MiB, 17, 8192, 128, 2) == std::nullopt); // 68 MiB
    CHECK(mha(64 * MiB, 18, 8192, 128, 2) == 13);           // 72 MiB
}

TEST_CASE("formula: GQA rounds the group up to whole K/V heads")
{
    // 64 MiB, s_k 16384, bf16 d=128: 8 MiB per head -> 6 query heads fit
    CHECK(hg::compute_head_group_size(64 * MiB, 32, 32, 16384, 128, 128, 2, 2) == 6);
    CHECK(hg::compute_head_group_size(64 * MiB, 32, 16, 16384, 128, 128, 2, 2) == 6);           // gqa 2
    CHECK(hg::compute_head_group_size(64 * MiB, 32, 8, 16384, 128, 128, 2, 2) == 8);            // gqa 4
    CHECK(hg::compute_head_group_size(64 * MiB, 32, 4, 16384, 128, 128, 2, 2) == 8);            // gqa 8
    CHECK(hg::compute_head_group_size(64 * MiB, 32, 2, 16384, 128, 128, 2, 2) == 16);           // gqa 16
    CHECK(hg::compute_head_group_size(64 * MiB, 32, 1, 16384, 128, 128, 2, 2) == std::nullopt); // MQA
    CHECK(hg::compute_head_group_size(64 * MiB, 24, 8, 16384, 128, 128, 2, 2) == 6);            // gqa 3
    CHECK(hg::compute_head_group_size(64 * MiB, 40, 8, 8192, 128, 128, 2, 2) == 15);            // 13 -> 15
}

TEST_CASE("formula: invalid shapes give no grouping")
{
    CHECK(mha(0, 24, 16384, 128, 2) == std::nullopt);
    CHECK(hg::compute_head_group_size(64 * MiB, 24, 5, 16384, 128, 128, 2, 2) == std::nullopt);
    CHECK(hg::compute_head_group_size(64 * MiB, 24, 0, 16384, 128, 128, 2, 2) == std::nullopt);
    CHECK(mha(64 * MiB, 0, 16384, 128, 2) == std::nullopt);
    CHECK(mha(64 * MiB, 24, 0, 128, 2) == std::nullopt);
    CHECK(mha(64 * MiB, 24, 16384, 0, 2) == std::nullopt);
    CHECK(mha(64 * MiB, 24, 16384, 128, 0) == std::nullopt);
}

TEST_CASE("env_bool: the accepted spellings, and anything else throws")
{
    const char* n = "CK_TILE_TEST_HG_BOOL";
    {
        scoped_env e(n, nullptr);
        CHECK(hg::env_bool(n, true));
        CHECK_FALSE(hg::env_bool(n, false));
    }
    {
        scoped_env e(n, "");
        CHECK(hg::env_bool(n, true));
    }
    for(const char* t : {"1", "true", "TRUE", "Yes", "on", "ON", "enable", "Enabled"})
    {
        scoped_env e(n, t);
        CHECK(hg::env_bool(n, false));
    }
    for(const char* f : {"0", "false", "False", "no", "NO", "off", "disable", "DISABLED"})
    {
        scoped_env e(n, f);
        CHECK_FALSE(hg::env_bool(n, true));
    }
    for(const char* bad : {"2", "y", "t", "tru", " true", "true ", "enable d", "-1"})
    {
        scoped_env e(n, bad);
        CHECK_THROWS_AS(hg::env_bool(n, false), std::invalid_argument);
    }
}

TEST_CASE("env_u64: decimal, hex, octal; malformed throws")
{
    const char* n = "CK_TILE_TEST_HG_U64";
    {
        scoped_env e(n, nullptr);
        CHECK(hg::env_u64(n) == 0);
    }
    const std::pair<const char*, uint64_t> good[] = {
        {"64", 64}, {"0x40", 64}, {"0X40", 64}, {"0100", 64}, {"0", 0}, {"18446744073709551615", ~uint64_t(0)}};
    for(const auto& [text, value] : good)
    {
        scoped_env e(n, text);
        CHECK(hg::env_u64(n) == value);
    }
    for(const char* bad : {"-1", "+1", " 5", "5 ", "5MB", "0x", "09", "abc", "18446744073709551616"})
    {
        scoped_env e(n, bad);
        CHECK_THROWS_AS(hg::env_u64(n), std::invalid_argument);
    }
}

// A fake KFD topology: nodes/<N>/properties and nodes/<N>/caches/<M>/properties.
struct fake_topology
{
    fs::path root;
    fake_topology()
    {
        root = fs::temp_directory_path() / ("ck_tile_kfd_" + std::to_string(::getpid()));
        fs::remove_all(root);
        node(0, "cpu_cores_count 16\nsimd_count 0\nlocation_id 0\ndomain 0\n", {{3, 32768}});
        node(1,
             "simd_count 1216\nlocation_id 768\ndomain 0\n", // PCI 0000:03:00.0
             {{1, 16}, {2, 4096}, {3, 262144}, {3, 131072}});
        node(2, "simd_count 1216\nlocation_id 33536\ndomain 0\n", {{3, 65536}}); // 0000:83:00.0
        node(3, "simd_count 64\nlocation_id 1024\ndomain 0\n", {{3, 16}});       // tiny "L3"
        fs::create_directories(root / "4");                                      // no properties
        std::ofstream(root / "stray_file") << "not a node\n";
    }
    ~fake_topology() { fs::remove_all(root); }
    void node(int id, const std::string& props, std::initializer_list<std::pair<int, int>> caches)
    {
        const fs::path n = root / std::to_string(id);
        fs::create_directories(n / "caches");
        std::ofstream(n / "properties") << props;
        int m = 0;
        for(auto [level, kib] : caches)
        {
            const fs::path c = n / "caches" / std::to_string(m++);
            fs::create_directories(c);
            std::ofstream(c / "properties")
                << "processor_id_low 0\nlevel " << level << "\nsize " << kib << "\ncache_line_size 64\n";
        }
    }
};

TEST_CASE("llc_bytes_from_sysfs: largest L3 of the GPU nodes, or of the node at a PCI location")
{
    fake_topology t;
    const std::string root = t.root.string();
    CHECK(hg::llc_bytes_from_sysfs(root, std::nullopt) == 256 * MiB); // the CPU's L3 is not counted
    CHECK(hg::llc_bytes_from_sysfs(root, hg::pci_location{0, 768}) == 256 * MiB);
    CHECK(hg::llc_bytes_from_sysfs(root, hg::pci_location{0, (0x83u << 8) | (0 << 3) | 0}) == 64 * MiB);
    CHECK(hg::llc_bytes_from_sysfs(root, hg::pci_location{0, 1024}) == 0); // 16 KiB is ignored
    CHECK(hg::llc_bytes_from_sysfs(root, hg::pci_location{1, 768}) == 0);  // other PCI domain
    CHECK(hg::llc_bytes_from_sysfs(root, hg::pci_location{0, 999}) == 0);  // no such device
    CHECK(hg::llc_bytes_from_sysfs((t.root / "missing").string(), std::nullopt) == 0);
#if defined(CK_TILE_BACKEND_EMULATOR)
    CHECK(hg::llc_bytes_from_sysfs(root) == 0); // the emulator has no KFD node
#endif
}

TEST_CASE("LLC resolution: env, else sysfs, else the arch default")
{
    CHECK(hg::arch_default_llc_bytes("gfx942") == 256 * MiB);
    CHECK(hg::arch_default_llc_bytes("gfx950") == 256 * MiB);
    CHECK(hg::arch_default_llc_bytes("gfx1100") == 96 * MiB);
    CHECK(hg::arch_default_llc_bytes("gfx1101") == 64 * MiB);
    CHECK(hg::arch_default_llc_bytes("gfx1102") == 32 * MiB);
    CHECK(hg::arch_default_llc_bytes("gfx1151") == 32 * MiB);
    CHECK(hg::arch_default_llc_bytes("gfx1200") == 32 * MiB);
    CHECK(hg::arch_default_llc_bytes("gfx1201") == 64 * MiB);
    CHECK(hg::arch_default_llc_bytes("gfx90a") == 0);
    {
        scoped_env e("CK_TILE_FMHA_LLC_CACHE_MB", "3");
        const auto llc = hg::get_llc_cache_bytes("gfx950");
        CHECK(llc.bytes == 3 * MiB);
        CHECK(std::string(llc.source) == "env");
    }
#if defined(CK_TILE_BACKEND_EMULATOR)
    {
        scoped_env e("CK_TILE_FMHA_LLC_CACHE_MB", "0"); // 0 = not set
        const auto llc = hg::get_llc_cache_bytes("gfx950");
        CHECK(llc.bytes == 256 * MiB);
        CHECK(std::string(llc.source) == "arch-default");
        CHECK(hg::get_llc_cache_bytes("gfx90a").bytes == 0);
        CHECK(std::string(hg::get_llc_cache_bytes("gfx90a").source) == "none");
    }
#endif
    {
        scoped_env e("CK_TILE_FMHA_LLC_CACHE_MB", "lots");
        CHECK_THROWS_AS(hg::get_llc_cache_bytes("gfx950"), std::invalid_argument);
    }
}

TEST_CASE("get_head_group_size: switches, arch gate, log lines")
{
    scoped_env log("CK_TILE_FMHA_HEAD_GROUP_LOG", nullptr);
    scoped_env off("CK_TILE_FMHA_DISABLE_HEAD_GROUPING", nullptr);
    {
        scoped_env llc("CK_TILE_FMHA_LLC_CACHE_MB", "64");
        CHECK(hg::get_head_group_size("gfx1201", 24, 24, 1, 8192, 128, 128, 2, 2) == 13);
        CHECK(hg::get_head_group_size("gfx950", 24, 24, 1, 8192, 128, 128, 2, 2) == 13);
        CHECK(hg::get_head_group_size("gfx90a", 24, 24, 1, 8192, 128, 128, 2, 2) == std::nullopt);
        CHECK(hg::get_head_group_size("gfx1201", 24, 24, 0, 8192, 128, 128, 2, 2) == std::nullopt);
        {
            scoped_env d("CK_TILE_FMHA_DISABLE_HEAD_GROUPING", "yes");
            CHECK(hg::get_head_group_size("gfx1201", 24, 24, 1, 8192, 128, 128, 2, 2) == std::nullopt);
        }
        {
            scoped_env d("CK_TILE_FMHA_DISABLE_HEAD_GROUPING", "maybe");
            CHECK_THROWS_AS(hg::get_head_group_size("gfx1201", 24, 24, 1, 8192, 128, 128, 2, 2), std::invalid_argument);
        }

        scoped_env l("CK_TILE_FMHA_HEAD_GROUP_LOG", "1");
        std::ostringstream out;
        auto* old    = std::cout.rdbuf(out.rdbuf());
        const auto g = hg::get_head_group_size("gfx1201", 24, 24, 2, 16384, 128, 128, 2, 2);
        const auto n = hg::get_head_group_size("gfx1201", 24, 24, 2, 1024, 128, 128, 2, 2);
        std::cout.rdbuf(old);
        CHECK(g == 6);
        CHECK(n == std::nullopt);
        const std::string text = out.str();
        CHECK(text.find("[LLC Head Grouping] enabled=1 arch=gfx1201 llc_mb=64 source=env nhead_q=24 nhead_k=24 "
                        "gqa_ratio=1 group_size=6 groups=4") != std::string::npos);
        CHECK(text.find("[LLC Head Grouping] enabled=0") != std::string::npos);
    }
#if defined(CK_TILE_BACKEND_EMULATOR)
    // on the emulator the emulated arch's default decides: 256 MiB
    scoped_env llc("CK_TILE_FMHA_LLC_CACHE_MB", nullptr);
    CHECK(hg::get_head_group_size("gfx950", 24, 24, 1, 16384, 128, 128, 2, 2) == std::nullopt);
    CHECK(hg::get_head_group_size("gfx942", 24, 24, 1, 32768, 128, 128, 2, 2) == 13);
#endif
}
