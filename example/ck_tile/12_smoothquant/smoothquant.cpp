// SPDX-License-Identifier: MIT
// tile_example_smoothquant: qy = rowwise_dynamic_quant(x * smscale) for an m x n fp16 or bf16
// matrix with a per-column fp32 smoothing scale, to int8 with a per-row fp32 scale, checked
// against the host reference (the smoothed product, then reference_rowwise_dynamic_quant).
// -? lists the options.
#include <algorithm>
#include <cstdint>
#include <iostream>
#include <stdexcept>
#include <string>

#include "ck_tile/host/reference/reference_rowwise_quantization2d.hpp"
#include "smoothquant.hpp"

namespace {

struct Options
{
    int m, n, x_stride, y_stride;
    bool verify, kname;
    int warmup, repeat;
    std::string prec;
};

Options read_options(const ck_tile::ArgParser& p)
{
    Options o{};
    o.m = p.get_int_at_least("m", 1);
    o.n = p.get_int_at_least("n", 1);
    // -stride (upstream's older scripts) sets both strides unless they are given themselves
    const int stride = p.get_row_stride("stride", o.n);
    o.x_stride       = p.get_row_stride("x_stride", o.n, stride);
    o.y_stride       = p.get_row_stride("y_stride", o.n, stride);
    (void)p.get_float("e"); // accepted for upstream's scripts: smoothquant has no epsilon
    o.verify = p.get_int_in_range("v", 0, 1) == 1;
    o.kname  = p.get_int_in_range("kname", 0, 1) == 1;
    o.warmup = p.get_int_at_least("warmup", 0);
    o.repeat = p.get_int_at_least("repeat", 1);
    o.prec   = p.get_str("prec");
    if(o.prec != "fp16" && o.prec != "bf16")
        throw ck_tile::arg_error("error: option -prec: '" + o.prec + "' is not supported (fp16 or bf16)");
    // the kernel addresses x with 32-bit byte offsets
    if(std::int64_t{o.m} * std::max(o.x_stride, o.y_stride) * 2 >= (std::int64_t{1} << 31))
        throw ck_tile::arg_error("error: m x stride is too large: x must be smaller than 2 GiB");
    return o;
}

template <typename XDataType>
bool run(const Options& o)
{
    using SmoothScaleDataType = float;
    using YScaleDataType      = float;
    using QYDataType          = ck_tile::int8_t;
    const auto m = static_cast<std::size_t>(o.m), n = static_cast<std::size_t>(o.n);

    ck_tile::HostTensor<XDataType> x_host({m, n}, {static_cast<std::size_t>(o.x_stride), std::size_t{1}});
    ck_tile::HostTensor<SmoothScaleDataType> smscale_host({n});
    ck_tile::HostTensor<YScaleDataType> yscale_host({m});
    ck_tile::HostTensor<QYDataType> qy_host({m, n}, {static_cast<std::size_t>(o.y_stride), std::size_t{1}});
    ck_tile::FillUniformDistribution<XDataType>{-.5f, .5f}(x_host);
    ck_tile::FillUniformDistribution<SmoothScaleDataType>{1e-3f, .5f, 4242}(smscale_host);

    ck_tile::DeviceMem x_dev(x_host.get_element_space_size_in_bytes());
    ck_tile::DeviceMem smscale_dev(smscale_host.get_element_space_size_in_bytes());
    ck_tile::DeviceMem yscale_dev(yscale_host.get_element_space_size_in_bytes());
    ck_tile::DeviceMem qy_dev(qy_host.get_element_space_size_in_bytes());
    x_dev.ToDevice(x_host.data());
    smscale_dev.ToDevice(smscale_host.data());
    yscale_dev.SetZero();
    qy_dev.SetZero(); // the gaps between strided rows stay 0, as in the reference

    const ck_tile::SmoothquantHostArgs args{x_dev.GetDeviceBuffer(),
                                            smscale_dev.GetDeviceBuffer(),
                                            yscale_dev.GetDeviceBuffer(),
                                            qy_dev.GetDeviceBuffer(),
                                            o.m,
                                            o.n,
                                            o.x_stride,
                                            o.y_stride};
    const ck_tile::stream_config cfg{nullptr, true, 0, o.warmup, o.repeat};
    const smoothquant_result r = smoothquant(smoothquant_traits{o.prec}, args, cfg);

    std::cout << "[" << o.prec << "] m:" << o.m << ", n:" << o.n << ", x_stride:" << o.x_stride
              << ", y_stride:" << o.y_stride;
    if(o.kname)
        std::cout << ", " << r.kernel_name;
    std::cout << std::endl;
    // the bytes moved: x and qy once each (the two-pass kernel reads x twice; counted once, as the
    // traffic a cache-resident second pass costs), smscale and yscale
    const double bytes = double(sizeof(XDataType) + sizeof(QYDataType)) * m * n +
                         double(sizeof(SmoothScaleDataType)) * n + double(sizeof(YScaleDataType)) * m;
    std::cout << "Perf: " << r.ms << " ms, " << bytes / 1e6 / r.ms << " GB/s" << std::endl;
    if(!o.verify)
        return true;

    yscale_dev.FromDevice(yscale_host.data());
    qy_dev.FromDevice(qy_host.data());
    ck_tile::HostTensor<float> y_ref({m, n});
    for(std::size_t i = 0; i < m; ++i)
        for(std::size_t j = 0; j < n; ++j)
            y_ref(i, j) = ck_tile::type_convert<float>(x_host(i, j)) * smscale_host(j);
    ck_tile::HostTensor<YScaleDataType> yscale_ref({m});
    ck_tile::HostTensor<QYDataType> qy_ref({m, n}, {static_cast<std::size_t>(o.y_stride), std::size_t{1}});
    ck_tile::reference_rowwise_dynamic_quant(y_ref, yscale_ref, qy_ref);

    // Both outputs must match: a wrong scale fails the run as a wrong value does.
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
    p.insert("m", "3328", "rows")
        .insert("n", "4096", "columns")
        .insert("x_stride", "-1", "row stride of x (-1: n)")
        .insert("y_stride", "-1", "row stride of qy (-1: n)")
        .insert("stride", "-1", "both row strides, for upstream's older scripts (-1: n)")
        .insert("e", "1e-5", "accepted for upstream's scripts and ignored: smoothquant has no epsilon")
        .insert("v", "1", "verification: 0 none, 1 CPU reference")
        .insert("kname", "1", "print the kernel name: 0 or 1")
        .insert("prec", "fp16", "data type of x: fp16 or bf16 (smscale and yscale fp32, qy int8)")
        .insert("warmup", warmup_default, "untimed launches before timing")
        .insert("repeat", repeat_default, "timed launches (the perf line is their average)");
    if(!p.parse(argc, argv))
        return p.help_requested() ? 0 : 1;

    try
    {
        const Options o = read_options(p);
        const bool pass = o.prec == "fp16" ? run<ck_tile::half_t>(o) : run<ck_tile::bf16_t>(o);
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
