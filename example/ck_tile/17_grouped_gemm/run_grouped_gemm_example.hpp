// SPDX-License-Identifier: MIT
// The body of tile_example_grouped_gemm and tile_example_grouped_gemm_tileloop: options, data,
// launch and verification; the two binaries differ in the kernel's grid (kPersistent).
#pragma once
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <iostream>
#include <limits>
#include <string>
#include <vector>

#include "ck_tile/host/reference/reference_gemm.hpp"
#include "grouped_gemm.hpp"

namespace grouped_gemm_example {

// -Ms=256,0,512: one integer per group ("" or absent: no list)
inline std::vector<int> parse_list(const ck_tile::ArgParser& p, const std::string& name)
{
    const std::string v = p.get_str(name);
    std::vector<int> out;
    if(v.empty())
        return out;
    std::size_t pos = 0;
    while(true)
    {
        const std::size_t comma = v.find(',', pos);
        const std::string item  = v.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
        int x                   = 0;
        const auto [ptr, ec]    = std::from_chars(item.data(), item.data() + item.size(), x, 10);
        if(item.empty() || ec != std::errc{} || ptr != item.data() + item.size())
            throw ck_tile::arg_error("error: option -" + name + ": '" + item + "' (value " +
                                     std::to_string(out.size()) + " of '" + v + "') is not an integer");
        if(x < 0)
            throw ck_tile::arg_error("error: option -" + name + ": value " + std::to_string(out.size()) +
                                     " must be >= 0, got " + std::to_string(x));
        out.push_back(x);
        if(comma == std::string::npos)
            break;
        pos = comma + 1;
    }
    return out;
}

inline void require_layout(const ck_tile::ArgParser& p, const std::string& name, char want, const char* what)
{
    const std::string v = p.get_str(name);
    if(v != "R" && v != "r" && v != "C" && v != "c")
        throw ck_tile::arg_error("error: option -" + name + ": '" + v +
                                 "' is not a layout (R: row-major, C: column-major)");
    if(std::toupper(static_cast<unsigned char>(v[0])) != want)
        throw ck_tile::arg_error("error: option -" + name + ": only " + std::string(1, want) + " (" + what +
                                 ") is supported; the grouped kernel takes A row-major, B column-major, C row-major");
}

struct Group
{
    int M, N, K, stride_a, stride_b, stride_c;
};

// The groups from the lists, or upstream's default shapes when no list is given.
inline std::vector<Group> make_groups(const ck_tile::ArgParser& p, bool group_count_given, std::string& origin)
{
    const std::vector<int> Ms = parse_list(p, "Ms"), Ns = parse_list(p, "Ns"), Ks = parse_list(p, "Ks");
    const std::vector<int> sAs = parse_list(p, "stride_As"), sBs = parse_list(p, "stride_Bs"),
                           sCs = parse_list(p, "stride_Cs");
    const int group_count      = p.get_int_at_least("group_count", 1);
    std::size_t n              = 0;
    if(Ms.empty() && Ns.empty() && Ks.empty())
    {
        if(!sAs.empty() || !sBs.empty() || !sCs.empty())
            throw ck_tile::arg_error(
                "error: options -stride_As/-stride_Bs/-stride_Cs need the shapes -Ms, -Ns and -Ks");
        n = static_cast<std::size_t>(group_count);
    }
    else
    {
        n = Ms.size();
        if(Ns.size() != n || Ks.size() != n)
            throw ck_tile::arg_error("error: options -Ms, -Ns, -Ks: lists of " + std::to_string(Ms.size()) + ", " +
                                     std::to_string(Ns.size()) + " and " + std::to_string(Ks.size()) +
                                     " values; each needs one value per group");
        if(group_count_given && static_cast<std::size_t>(group_count) != n)
            throw ck_tile::arg_error("error: option -group_count: " + std::to_string(group_count) +
                                     " groups, but -Ms, -Ns and -Ks list " + std::to_string(n));
        for(const auto* l : {&sAs, &sBs, &sCs})
            if(!l->empty() && l->size() != n)
                throw ck_tile::arg_error("error: options -stride_As, -stride_Bs, -stride_Cs: lists of " +
                                         std::to_string(sAs.size()) + ", " + std::to_string(sBs.size()) + " and " +
                                         std::to_string(sCs.size()) + " values for " + std::to_string(n) +
                                         " groups (each list: one value per group, or none for packed)");
    }

    std::vector<Group> groups;
    for(std::size_t i = 0; i < n; ++i)
    {
        Group g{};
        if(Ms.empty())
        {
            // upstream's defaults: M = 256 + 256 i, N = 256 + 512 i, K = 512 + 128 i; the emulator
            // runs them at a quarter of each size (a CPU takes minutes for the full ones)
#if defined(CK_TILE_RUNS_ON_CPU)
            constexpr int scale = 4;
#else
            constexpr int scale = 1;
#endif
            const int ii = static_cast<int>(i);
            g.M          = (256 + 256 * ii) / scale;
            g.N          = (256 + 512 * ii) / scale;
            g.K          = (512 + 128 * ii) / scale;
            origin       = scale == 1 ? "default shapes: M = 256 + 256 i, N = 256 + 512 i, K = 512 + 128 i"
                                      : "default shapes: upstream's M = 256 + 256 i, N = 256 + 512 i, K = 512 + 128 i, "
                                        "scaled down by 4 on the emulator";
        }
        else
        {
            g.M    = Ms[i];
            g.N    = Ns[i];
            g.K    = Ks[i];
            origin = "shapes from -Ms, -Ns, -Ks";
        }
        // 0 (or no list): packed; otherwise at least the contiguous dimension
        const auto stride = [&](const std::vector<int>& l, int inner, const char* opt, const char* inner_name,
                                const char* what) {
            const int s = l.empty() ? 0 : l[i];
            if(s == 0)
                return inner;
            if(s < inner)
                throw ck_tile::arg_error("error: option -" + std::string(opt) + ": group " + std::to_string(i) + ": " +
                                         std::to_string(s) + " is smaller than " + inner_name + "=" +
                                         std::to_string(inner) + ", the contiguous dimension of " + what);
            return s;
        };
        g.stride_a = stride(sAs, g.K, "stride_As", "K", "row-major A (M x K)");
        g.stride_b = stride(sBs, g.K, "stride_Bs", "K", "column-major B (K x N)");
        g.stride_c = stride(sCs, g.N, "stride_Cs", "N", "row-major C (M x N)");
        // the kernel addresses each matrix with 32-bit byte offsets: refuse before allocating
        const auto span = [&](const char* name, long long outer, long long inner, long long s, long long bytes) {
            const long long b = outer == 0 || inner == 0 ? 0 : ((outer - 1) * s + inner) * bytes;
            if(b > 0x7fffffffll)
                throw ck_tile::arg_error("error: group " + std::to_string(i) + ": " + name + " spans " +
                                         std::to_string(b) +
                                         " bytes; the kernel uses 32-bit offsets (at most 2^31 - 1 bytes per matrix)");
        };
        span("A", g.M, g.K, g.stride_a, 2);
        span("B", g.N, g.K, g.stride_b, 2);
        span("C", g.M, g.N, g.stride_c, 2);
        groups.push_back(g);
    }
    return groups;
}

template <typename Types, bool kPersistent>
bool run(const std::vector<Group>& groups, const std::string& origin, int k_batch, bool validate,
         const LaunchConfig& cfg)
{
    using A   = typename Types::ADataType;
    using B   = typename Types::BDataType;
    using Acc = typename Types::AccDataType;
    using C   = typename Types::CDataType;

    std::cout << "grouped gemm" << (kPersistent ? " (persistent tile loop)" : "") << ": " << groups.size()
              << " groups, " << origin << ", kbatch=" << k_batch << ", layouts A=R B=C C=R, prec " << Types::name
              << " (" << Types::types << "), arch " << ck_tile::compiled_arch_name << std::endl;

    std::vector<ck_tile::HostTensor<A>> a;
    std::vector<ck_tile::HostTensor<B>> b;
    std::vector<ck_tile::HostTensor<C>> c;
    std::vector<ck_tile::DeviceMem> a_dev, b_dev, c_dev;
    std::vector<ck_tile::GroupedGemmHostArgs> descs;
    std::vector<std::pair<void*, std::size_t>> c_buffers;
    double flops = 0, bytes = 0;
    for(std::size_t i = 0; i < groups.size(); ++i)
    {
        const Group& g = groups[i];
        a.emplace_back(ck_tile::host_tensor_descriptor(g.M, g.K, g.stride_a, true));
        b.emplace_back(ck_tile::host_tensor_descriptor(g.K, g.N, g.stride_b, false));
        c.emplace_back(ck_tile::host_tensor_descriptor(g.M, g.N, g.stride_c, true));
        ck_tile::FillUniformDistribution<A>{-1.f, 1.f, 11939 + 2 * static_cast<std::uint32_t>(i)}(a.back());
        ck_tile::FillUniformDistribution<B>{-1.f, 1.f, 11940 + 2 * static_cast<std::uint32_t>(i)}(b.back());
        // C starts as NaN where the kernel stores it (kbatch 1): an element it misses shows
        const float init = k_batch == 1 ? std::numeric_limits<float>::quiet_NaN() : 0.f;
        for(auto& x : c.back().mData)
            x = ck_tile::type_convert<C>(init);
        a_dev.emplace_back(a.back().get_element_space_size_in_bytes());
        b_dev.emplace_back(b.back().get_element_space_size_in_bytes());
        c_dev.emplace_back(c.back().get_element_space_size_in_bytes());
        a_dev.back().ToDevice(a.back().data());
        b_dev.back().ToDevice(b.back().data());
        c_dev.back().ToDevice(c.back().data());
        descs.emplace_back(a_dev.back().GetDeviceBuffer(), b_dev.back().GetDeviceBuffer(),
                           c_dev.back().GetDeviceBuffer(), k_batch, g.M, g.N, g.K, g.stride_a, g.stride_b, g.stride_c);
        c_buffers.emplace_back(c_dev.back().GetDeviceBuffer(), c.back().get_element_space_size_in_bytes());
        std::cout << "group " << i << ": M=" << g.M << " N=" << g.N << " K=" << g.K << " stride_A=" << g.stride_a
                  << " stride_B=" << g.stride_b << " stride_C=" << g.stride_c
                  << (g.M == 0 || g.N == 0 ? " (no output)"
                      : g.K == 0           ? " (K = 0: C = 0)"
                                           : "")
                  << std::endl;
        flops += 2.0 * g.M * g.N * g.K;
        bytes += double(sizeof(A)) * g.M * g.K + double(sizeof(B)) * g.K * g.N + double(sizeof(C)) * g.M * g.N;
    }

    const LaunchResult r = launch_grouped_gemm<Types, kPersistent>(cfg, descs, c_buffers);
    std::cout << r.instance << ", grid " << r.grid.x << " blocks for " << r.work_items
              << " work items (C tiles x K splits)" << std::endl;
    if(r.work_items == 0)
        std::cout << "nothing to compute: every group has M = 0 or N = 0" << std::endl;
    else
        std::cout << "Perf: " << r.ms << " ms, " << flops / 1e9 / r.ms << " TFlops, " << bytes / 1e6 / r.ms << " GB/s"
                  << std::endl;

    if(!validate)
        return true;
    bool pass = true;
    for(std::size_t i = 0; i < groups.size(); ++i)
    {
        const Group& g = groups[i];
        if(g.M == 0 || g.N == 0)
            continue;
        c_dev[i].FromDevice(c[i].data());
        ck_tile::HostTensor<C> c_ref(c[i].mDesc);
        ck_tile::reference_gemm<A, B, Acc, C>(a[i], b[i], c_ref);
        // the matrix's elements only (not the gaps a stride leaves)
        std::vector<C> out, ref;
        double max_ref = 0;
        for(int m = 0; m < g.M; ++m)
            for(int n = 0; n < g.N; ++n)
            {
                out.push_back(c[i](m, n));
                ref.push_back(c_ref(m, n));
                max_ref = std::max(max_ref, std::fabs(double(ck_tile::type_convert<float>(ref.back()))));
            }
        // K = 0: exactly zero
        const auto [rtol, atol] = g.K == 0 ? std::pair<double, double>{0, 0}
                                           : ck_tile::calculate_rtol_atol<A, B, Acc, C>(g.K, k_batch, max_ref);
        std::cout << "group " << i << ": Relative error threshold: " << rtol << " Absolute error threshold: " << atol
                  << std::endl;
        pass = ck_tile::check_err(out, ref, "Error: group " + std::to_string(i) + ": incorrect results!", rtol, atol) &&
               pass;
    }
    std::cout << "valid:" << (pass ? "y" : "n") << std::endl;
    return pass;
}

template <bool kPersistent>
int run_grouped_gemm_example(int argc, char* argv[])
{
#if defined(CK_TILE_RUNS_ON_CPU)
    const char* warmup_default = "1";
    const char* repeat_default = "3";
#else
    const char* warmup_default = "10";
    const char* repeat_default = "100";
#endif
    ck_tile::ArgParser p;
    p.insert("Ms", "", "M of each group, comma-separated (no lists: upstream's default shapes)")
        .insert("Ns", "", "N of each group, comma-separated")
        .insert("Ks", "", "K of each group, comma-separated")
        .insert("stride_As", "", "leading-dimension stride of each A (0 or no list: packed)")
        .insert("stride_Bs", "", "leading-dimension stride of each B (0 or no list: packed)")
        .insert("stride_Cs", "", "leading-dimension stride of each C (0 or no list: packed)")
        .insert("a_layout", "R", "A (M x K): R row-major (the only one)")
        .insert("b_layout", "C", "B (K x N): C column-major, stored N x K (the only one)")
        .insert("c_layout", "R", "C (M x N): R row-major (the only one)")
        .insert("validate", "1", "0: none, 1: each group against a CPU reference")
        .insert("warmup", warmup_default, "untimed launches before timing")
        .insert("repeat", repeat_default, "timed launches (the perf line is their average)")
        .insert("group_count", "8", "groups when no lists are given (with lists: their length)")
        .insert("kbatch", "1", "K splits of every group: the splits' partial results are added into a zeroed C")
        .insert("prec", "fp16", "data type of A, B and C: fp16 or bf16");
    if(!p.parse(argc, argv))
        return p.help_requested() ? 0 : 1;
    bool group_count_given = false;
    for(int i = 1; i < argc; ++i)
        group_count_given = group_count_given || std::strncmp(argv[i], "-group_count=", 13) == 0 ||
                            std::strncmp(argv[i], "--group_count=", 14) == 0;

    try
    {
        require_layout(p, "a_layout", 'R', "row-major A");
        require_layout(p, "b_layout", 'C', "column-major B");
        require_layout(p, "c_layout", 'R', "row-major C");
        std::string origin;
        const std::vector<Group> groups = make_groups(p, group_count_given, origin);
        const int k_batch               = p.get_int_in_range("kbatch", 1, 65535);
        const bool validate             = p.get_int_in_range("validate", 0, 1) == 1;
        LaunchConfig cfg;
        cfg.warmup = p.get_int_at_least("warmup", 0);
        cfg.repeat = p.get_int_at_least("repeat", 1);

        const std::string prec = p.get_str("prec");
        bool pass;
        if(prec == "fp16")
            pass = run<Fp16Types, kPersistent>(groups, origin, k_batch, validate, cfg);
        else if(prec == "bf16")
            pass = run<Bf16Types, kPersistent>(groups, origin, k_batch, validate, cfg);
        else
            throw ck_tile::arg_error("error: option -prec: '" + prec + "' is not supported (fp16 or bf16)");
        return pass ? 0 : 1;
    }
    catch(const ck_tile::arg_error& e)
    {
        std::cerr << e.what() << std::endl;
        return 1;
    }
    catch(const std::exception& e)
    {
        std::cerr << "error: " << e.what() << std::endl;
        return 1;
    }
}

} // namespace grouped_gemm_example
