// SPDX-License-Identifier: MIT
// tile_example_moe_smoothquant: for each token t and each of its topk experts e = topk_ids[t, j],
// qy[j * tokens + t] = rowwise_dynamic_quant(x[t] * smscale[e]) to int8 or the arch's fp8, checked
// against the host reference (the smoothed rows, then reference_rowwise_dynamic_quant).
// -? lists the options.
#include <algorithm>
#include <cstdint>
#include <iostream>
#include <numeric>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "ck_tile/host/reference/reference_rowwise_quantization2d.hpp"
#include "moe_smoothquant.hpp"

namespace {

struct Options
{
    int tokens, hidden, experts, topk, stride;
    bool verify, kname;
    int warmup, repeat;
    std::string prec_i, prec_o;
};

Options read_options(const ck_tile::ArgParser& p)
{
    Options o{};
    o.tokens  = p.get_int_at_least("t", 1);
    o.hidden  = p.get_int_at_least("h", 1);
    o.experts = p.get_int_at_least("e", 1);
    o.topk    = p.get_int_at_least("k", 1);
    if(o.topk > o.experts)
        throw ck_tile::arg_error("error: option -k: the topk (" + std::to_string(o.topk) +
                                 ") must be <= the experts (" + std::to_string(o.experts) + ")");
    o.stride = p.get_row_stride("stride", o.hidden);
    o.verify = p.get_int_in_range("v", 0, 1) == 1;
    o.kname  = p.get_int_in_range("kname", 0, 1) == 1;
    o.warmup = p.get_int_at_least("warmup", 0);
    o.repeat = p.get_int_at_least("repeat", 1);
    // -prec (upstream's older perf script) stands for -prec_i when that is left at its default
    o.prec_i = p.get_str("prec").empty() ? p.get_str("prec_i") : p.get_str("prec");
    o.prec_o = p.get_str("prec_o");
    if(o.prec_i != "fp16" && o.prec_i != "bf16")
        throw ck_tile::arg_error("error: option -prec_i: '" + o.prec_i + "' is not supported (fp16 or bf16)");
    if(o.prec_o != "int8" && o.prec_o != "fp8")
        throw ck_tile::arg_error("error: option -prec_o: '" + o.prec_o + "' is not supported (int8 or fp8)");
    // the kernel addresses x and qy with 32-bit byte offsets
    if(std::int64_t{o.topk} * o.tokens * o.stride * 2 >= (std::int64_t{1} << 31))
        throw ck_tile::arg_error("error: topk x tokens x stride is too large: qy must be smaller than 2 GiB");
    return o;
}

// k distinct experts per token, drawn uniformly (some experts may receive no token)
std::vector<ck_tile::index_t> make_topk_ids(const Options& o)
{
    std::mt19937 gen(20241125);
    std::vector<ck_tile::index_t> all(static_cast<std::size_t>(o.experts));
    std::vector<ck_tile::index_t> ids;
    ids.reserve(static_cast<std::size_t>(o.tokens) * o.topk);
    for(int t = 0; t < o.tokens; ++t)
    {
        std::iota(all.begin(), all.end(), 0);
        for(int j = 0; j < o.topk; ++j) // a partial Fisher-Yates shuffle
        {
            std::uniform_int_distribution<int> pick(j, o.experts - 1);
            std::swap(all[static_cast<std::size_t>(j)], all[static_cast<std::size_t>(pick(gen))]);
            ids.push_back(all[static_cast<std::size_t>(j)]);
        }
    }
    return ids;
}

template <typename XDataType, typename QYDataType>
bool run(const Options& o)
{
    using SmoothScaleDataType = float;
    using YScaleDataType      = float;
    const auto t = static_cast<std::size_t>(o.tokens), h = static_cast<std::size_t>(o.hidden),
               rows = static_cast<std::size_t>(o.topk) * t, st = static_cast<std::size_t>(o.stride);

    ck_tile::HostTensor<XDataType> x_host({t, h}, {st, std::size_t{1}});
    ck_tile::HostTensor<SmoothScaleDataType> smscale_host({static_cast<std::size_t>(o.experts), h});
    ck_tile::HostTensor<ck_tile::index_t> topk_ids_host({t, static_cast<std::size_t>(o.topk)});
    ck_tile::HostTensor<YScaleDataType> yscale_host({rows});
    ck_tile::HostTensor<QYDataType> qy_host({rows, h}, {st, std::size_t{1}});
    ck_tile::FillUniformDistribution<XDataType>{-.5f, .5f}(x_host);
    ck_tile::FillUniformDistribution<SmoothScaleDataType>{1e-3f, .5f, 4242}(smscale_host);
    topk_ids_host.mData = make_topk_ids(o);

    ck_tile::DeviceMem x_dev(x_host.get_element_space_size_in_bytes());
    ck_tile::DeviceMem smscale_dev(smscale_host.get_element_space_size_in_bytes());
    ck_tile::DeviceMem topk_ids_dev(topk_ids_host.get_element_space_size_in_bytes());
    ck_tile::DeviceMem yscale_dev(yscale_host.get_element_space_size_in_bytes());
    ck_tile::DeviceMem qy_dev(qy_host.get_element_space_size_in_bytes());
    x_dev.ToDevice(x_host.data());
    smscale_dev.ToDevice(smscale_host.data());
    topk_ids_dev.ToDevice(topk_ids_host.data());
    yscale_dev.SetZero();
    qy_dev.SetZero(); // the gaps between strided rows stay 0, as in the reference

    const ck_tile::MoeSmoothquantHostArgs args{x_dev.GetDeviceBuffer(),
                                               smscale_dev.GetDeviceBuffer(),
                                               topk_ids_dev.GetDeviceBuffer(),
                                               yscale_dev.GetDeviceBuffer(),
                                               qy_dev.GetDeviceBuffer(),
                                               o.tokens,
                                               o.hidden,
                                               o.experts,
                                               o.topk,
                                               o.stride,
                                               o.stride};
    const ck_tile::stream_config cfg{nullptr, true, 0, o.warmup, o.repeat};
    const moe_smoothquant_result r = moe_smoothquant(moe_smoothquant_traits{o.prec_i, o.prec_o}, args, cfg);

    std::cout << "[" << o.prec_i << "-" << o.prec_o << "] tokens:" << o.tokens << ", hidden_size:" << o.hidden
              << ", stride:" << o.stride << ", experts:" << o.experts << ", topk:" << o.topk;
    if(o.kname)
        std::cout << ", " << r.kernel_name;
    std::cout << std::endl;
    // per output row: its token's x row, its expert's smscale row, its qy row, its scale and topk id
    // (the two-pass instances read x and smscale twice; counted once)
    const double bytes =
        double(rows) * (double(h) * (sizeof(XDataType) + sizeof(SmoothScaleDataType) + sizeof(QYDataType)) +
                        sizeof(YScaleDataType) + sizeof(ck_tile::index_t));
    std::cout << "Perf: " << r.ms << " ms, " << bytes / 1e6 / r.ms << " GB/s" << std::endl;
    if(!o.verify)
        return true;

    yscale_dev.FromDevice(yscale_host.data());
    qy_dev.FromDevice(qy_host.data());
    ck_tile::HostTensor<float> y_ref({rows, h});
    for(std::size_t j = 0; j < static_cast<std::size_t>(o.topk); ++j)
        for(std::size_t tok = 0; tok < t; ++tok)
        {
            const auto e = static_cast<std::size_t>(topk_ids_host(tok, j));
            for(std::size_t n = 0; n < h; ++n)
                y_ref(j * t + tok, n) = ck_tile::type_convert<float>(x_host(tok, n)) * smscale_host(e, n);
        }
    ck_tile::HostTensor<YScaleDataType> yscale_ref({rows});
    ck_tile::HostTensor<QYDataType> qy_ref({rows, h}, {st, std::size_t{1}});
    ck_tile::reference_rowwise_dynamic_quant(y_ref, yscale_ref, qy_ref);

    // both outputs decide the verdict
    const bool yscale_ok =
        ck_tile::check_err(yscale_host.mData, yscale_ref.mData, "Error: yscale is wrong!", 1e-5, 1e-6);
    const bool qy_ok = ck_tile::check_quantized_err(qy_host.mData, qy_ref.mData, "Error: qy is wrong!");
    const bool pass  = yscale_ok && qy_ok;
    std::cout << "valid:" << (pass ? "y" : "n") << std::endl;
    return pass;
}

} // namespace

int main(int argc, char* argv[])
{
#if defined(CK_TILE_RUNS_ON_CPU)
    const char* warmup_default = "1";
    const char* repeat_default = "3";
#else
    const char* warmup_default = "5";
    const char* repeat_default = "20";
#endif
    ck_tile::ArgParser p;
    p.insert("t", "3328", "tokens")
        .insert("h", "4096", "hidden size (columns)")
        .insert("e", "32", "experts")
        .insert("k", "5", "topk: experts per token (<= e)")
        .insert("stride", "-1", "row stride of x and qy (-1: h)")
        .insert("v", "1", "verification: 0 none, 1 CPU reference")
        .insert("kname", "1", "print the kernel name: 0 or 1")
        .insert("prec_i", "fp16", "type of x: fp16 or bf16 (smscale and yscale fp32)")
        .insert("prec", "", "-prec_i under its older name (upstream's perf script)")
        .insert("prec_o", "int8", "type of qy: int8 or fp8 (the arch's fp8)")
        .insert("warmup", warmup_default, "untimed launches before timing")
        .insert("repeat", repeat_default, "timed launches (the perf line is their average)");
    if(!p.parse(argc, argv))
        return p.help_requested() ? 0 : 1;

    try
    {
        const Options o = read_options(p);
        bool pass;
        if(o.prec_i == "fp16")
            pass =
                o.prec_o == "int8" ? run<ck_tile::half_t, ck_tile::int8_t>(o) : run<ck_tile::half_t, ck_tile::fp8_t>(o);
        else
            pass =
                o.prec_o == "int8" ? run<ck_tile::bf16_t, ck_tile::int8_t>(o) : run<ck_tile::bf16_t, ck_tile::fp8_t>(o);
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
