// SPDX-License-Identifier: MIT
// tile_example_rmsnorm2d_fwd: y = x' * invrms * gamma, row-wise over an m x n matrix, with
// upstream's fusions (tile_rmsnorm2d_fwd's options): fused add of a residual (stored or not), the
// T5-like rounding, saved invrms, smooth or plain dynamic quantization to int8 / fp8 with the
// pre-quant y saved on request. Every output is checked against reference_rmsnorm2d_fwd.
// -? lists the options.
#include <cmath>
#include <iostream>
#include <string>

#include "ck_tile/host/normalization_tolerance.hpp"
#include "ck_tile/host/reference/reference_rmsnorm2d_fwd.hpp"
#include "rmsnorm2d_fwd.hpp"

namespace rmsnorm2d_example {
namespace {

using ck_tile::arg_error;

struct Options
{
    int m, n, x_stride, xr_stride, y_stride, yr_stride;
    float epsilon;
    bool save_rms, save_unquant, verify, kname;
    std::string prec_i, prec_o;
    int fadd, fquant, s, warmup, repeat;
};

Options read_options(const ck_tile::ArgParser& p)
{
    Options o{};
    o.m = p.get_int_at_least("m", 1);
    o.n = p.get_int_at_least("n", 1);
    // -stride (upstream's older scripts) stands for every stride left at -1
    const int stride = p.get_row_stride("stride", o.n);
    o.x_stride       = p.get_row_stride("x_stride", o.n, stride);
    o.xr_stride      = p.get_row_stride("xr_stride", o.n, stride);
    o.y_stride       = p.get_row_stride("y_stride", o.n, stride);
    o.yr_stride      = p.get_row_stride("yr_stride", o.n, stride);
    o.epsilon        = p.get_float("e");
    if(!(o.epsilon >= 0.f) || !std::isfinite(o.epsilon))
        throw arg_error("error: option -e: must be a finite number >= 0, got " + p.get_str("e"));
    o.save_rms     = p.get_int_in_range("save_rms", 0, 1) == 1;
    o.save_unquant = p.get_int_in_range("save_unquant", 0, 1) == 1;
    o.verify       = p.get_int_in_range("v", 0, 1) == 1;
    o.kname        = p.get_int_in_range("kname", 0, 1) == 1;
    o.fadd         = p.get_int_in_range("fadd", 0, 2);
    o.fquant       = p.get_int_in_range("fquant", 0, 2);
    o.s            = p.get_int_in_range("s", 0, 1);
    o.warmup       = p.get_int_at_least("warmup", 0);
    o.repeat       = p.get_int_at_least("repeat", 1);

    o.prec_i = p.get_str("prec").empty() ? p.get_str("prec_i") : p.get_str("prec");
    if(o.prec_i != "fp16" && o.prec_i != "bf16")
        throw arg_error("error: option -prec_i: '" + o.prec_i + "' is not supported (fp16 or bf16)");
    o.prec_o = p.get_str("prec_o");
    if(o.prec_o == "auto")
        o.prec_o = o.prec_i;
    const bool quant_o = o.prec_o == "int8" || o.prec_o == "fp8";
    if(!quant_o && o.prec_o != o.prec_i)
        throw arg_error("error: option -prec_o: '" + o.prec_o + "' is not supported with -prec_i=" + o.prec_i +
                        " (auto, " + o.prec_i + ", int8 or fp8)");
    for(const char* key : {"prec_sm", "prec_sy"})
        if(p.get_str(key) != "auto" && p.get_str(key) != "fp32")
            throw arg_error(std::string("error: option -") + key + ": '" + p.get_str(key) +
                            "' is not supported (auto or fp32)");
    if(o.fquant != 0 && !quant_o)
        throw arg_error("error: option -fquant=" + std::to_string(o.fquant) +
                        " needs an 8-bit output: -prec_o=int8 or -prec_o=fp8");
    if(o.fquant == 0 && quant_o)
        throw arg_error("error: option -prec_o=" + o.prec_o + " needs a quant fusion: -fquant=1 or -fquant=2");
    if(o.save_unquant && o.fquant == 0)
        throw arg_error("error: option -save_unquant=1 needs a quant fusion: -fquant=1 or -fquant=2");

    // the kernels address each buffer with 32-bit byte offsets
    const long long span = 1ll * (o.m - 1) * std::max({o.x_stride, o.xr_stride, o.y_stride, o.yr_stride}) + o.n;
    if(span * 2 > 0x7fffffffll)
        throw arg_error("error: the buffers span " + std::to_string(span) +
                        " elements; the kernels address at most 2^31 - 1 bytes (-m x stride x 2)");
    return o;
}

template <typename T>
constexpr const char* type_name()
{
    return ck_tile::detail::rmsnorm2d_type_name<T>();
}

// tolerances of an output compared with the reference: int8 one step; fp8 one rounding step;
// y_scale (fp32) 1e-4 relative; a 16-bit float the tolerance `t` the caller derives from the
// arithmetic (normalization_tolerance.hpp: a rounding of nearly equal fp32 values, plus the
// reordered sum of squares)
template <typename T>
bool check(const ck_tile::HostTensor<T>& out, const ck_tile::HostTensor<T>& ref, const std::string& what,
           const ck_tile::tolerance& t = {})
{
    const std::string msg = "Error: " + what + " mismatch!";
    if constexpr(std::is_same_v<T, ck_tile::fp8_t> || std::is_same_v<T, int8_t>)
        return ck_tile::check_quantized_err(out, ref, msg);
    else if constexpr(std::is_same_v<T, float>)
        return ck_tile::check_err(out, ref, msg, 1e-4, 1e-6);
    else
        return ck_tile::check_err(out, ref, msg, t.rtol, t.atol);
}

template <typename XDataType, typename YDataType>
int run(const Options& o)
{
    using namespace ck_tile;
    using X               = XDataType;
    using Y               = YDataType;
    constexpr bool kQuant = !std::is_same_v<X, Y>;
    const std::size_t M = o.m, N = o.n;
    const bool add         = o.fadd != 0;
    const bool store_res   = o.fadd == 1;
    const bool smooth      = o.fquant == 1;
    const auto strided     = [&](int stride) { return HostTensor<X>({M, N}, {std::size_t(stride), std::size_t(1)}); };
    const auto strided_y   = [&]() { return HostTensor<Y>({M, N}, {std::size_t(o.y_stride), std::size_t(1)}); };
    const auto maybe_empty = [](bool used, std::size_t len) { return used ? len : std::size_t(0); };

    HostTensor<X> x = strided(o.x_stride), xr = strided(o.xr_stride);
    HostTensor<X> gamma({N});
    HostTensor<float> sm_scale({N});
    FillUniformDistribution<X>{-.5f, .5f, 11939}(x);
    FillUniformDistribution<X>{-.5f, .5f, 11940}(xr);
    FillUniformDistribution<X>{-.5f, .5f, 11941}(gamma);
    FillUniformDistribution<float>{-1.f, 1.f, 11942}(sm_scale);

    HostTensor<Y> y  = strided_y();
    HostTensor<X> yr = strided(o.yr_stride), y_unquant({M, N}, {std::size_t(o.y_stride), std::size_t(1)});
    HostTensor<X> invrms({M});
    HostTensor<float> y_scale({M});

    DeviceMem x_dev(x.get_element_space_size_in_bytes()), gamma_dev(gamma.get_element_space_size_in_bytes());
    DeviceMem xr_dev(maybe_empty(add, xr.get_element_space_size_in_bytes()));
    DeviceMem sm_dev(maybe_empty(smooth, sm_scale.get_element_space_size_in_bytes()));
    DeviceMem y_dev(y.get_element_space_size_in_bytes());
    DeviceMem yr_dev(maybe_empty(store_res, yr.get_element_space_size_in_bytes()));
    DeviceMem ys_dev(maybe_empty(kQuant, y_scale.get_element_space_size_in_bytes()));
    DeviceMem ir_dev(maybe_empty(o.save_rms, invrms.get_element_space_size_in_bytes()));
    DeviceMem uq_dev(maybe_empty(o.save_unquant, y_unquant.get_element_space_size_in_bytes()));
    x_dev.ToDevice(x.data());
    gamma_dev.ToDevice(gamma.data());
    if(add)
        xr_dev.ToDevice(xr.data());
    if(smooth)
        sm_dev.ToDevice(sm_scale.data());
    // outputs start as zeros: the gaps between rows (stride > n) must stay so
    for(auto* d : {&y_dev, &yr_dev, &ys_dev, &ir_dev, &uq_dev})
        d->SetZero();

    Rmsnorm2dFwdHostArgs args{x_dev.GetDeviceBuffer(),
                              xr_dev.GetDeviceBuffer(),
                              sm_dev.GetDeviceBuffer(),
                              gamma_dev.GetDeviceBuffer(),
                              y_dev.GetDeviceBuffer(),
                              yr_dev.GetDeviceBuffer(),
                              ys_dev.GetDeviceBuffer(),
                              ir_dev.GetDeviceBuffer(),
                              uq_dev.GetDeviceBuffer(),
                              o.epsilon,
                              o.m,
                              o.n,
                              o.x_stride,
                              o.xr_stride,
                              o.y_stride,
                              o.yr_stride,
                              o.s == 1 ? Rmsnorm2dSensitiveEnum::T5_MODEL_LIKE
                                       : Rmsnorm2dSensitiveEnum::NO_SPECIFIC_MODEL};

    std::cout << "[" << o.prec_i;
    if(o.prec_o != o.prec_i)
        std::cout << "|" << o.prec_o;
    if(kQuant)
        std::cout << "(fp32)";
    std::cout << "] m:" << o.m << ", n:" << o.n << ", x_stride:" << o.x_stride << ", xr_stride:" << o.xr_stride
              << ", y_stride:" << o.y_stride << ", yr_stride:" << o.yr_stride << ", s:" << o.s << std::flush;

    // vector 8 when n and every stride allow 16-byte accesses, then one pass when a row fits the
    // tile; vector 1 (any n, any stride) takes the two-pass pipeline
    const bool vec8 = o.n % 8 == 0 && o.x_stride % 8 == 0 && o.y_stride % 8 == 0 && (!add || o.xr_stride % 8 == 0) &&
                      (!store_res || o.yr_stride % 8 == 0);
    const stream_config cfg{nullptr, true, 0, o.warmup, o.repeat};
    run_result r;
    if(!vec8) // any n: the two-pass pipeline (one chunk when the row fits)
        r = rmsnorm2d_fwd_run<X, Y, true, 1>(args, cfg);
    else if(o.n > kOnePassMaxN)
        r = rmsnorm2d_fwd_run<X, Y, true, 8>(args, cfg);
    else
        r = rmsnorm2d_fwd_run<X, Y, false, 8>(args, cfg);
    if(o.kname)
        std::cout << ", " << r.name;
    std::cout << std::endl;
    if(!r.supported)
        throw std::runtime_error("the instance " + r.name + " does not support these arguments");

    // the bytes each launch moves: every input read once, every output written once
    double bytes = double(sizeof(X)) * M * N + double(sizeof(X)) * N + double(sizeof(Y)) * M * N;
    if(add)
        bytes += double(sizeof(X)) * M * N;
    if(store_res)
        bytes += double(sizeof(X)) * M * N;
    if(o.save_rms)
        bytes += double(sizeof(X)) * M;
    if(o.save_unquant)
        bytes += double(sizeof(X)) * M * N;
    if(kQuant)
        bytes += double(sizeof(float)) * M;
    if(smooth)
        bytes += double(sizeof(float)) * N;
    std::cout << "Perf: " << r.ms << " ms, " << bytes / 1e6 / r.ms << " GB/s" << std::endl;

    if(!o.verify)
        return 0;

    y_dev.FromDevice(y.data());
    // x' = x (+ x_residual), rounded to the input type as the kernel stores it
    HostTensor<X> xp = x;
    if(add)
        for(std::size_t i = 0; i < M; ++i)
            for(std::size_t j = 0; j < N; ++j)
                xp(i, j) = type_convert<X>(type_convert<float>(x(i, j)) + type_convert<float>(xr(i, j)));

    HostTensor<Y> y_ref = strided_y();
    HostTensor<X> invrms_ref({maybe_empty(o.save_rms, M)});
    HostTensor<X> y_unquant_ref({maybe_empty(o.save_unquant, M), N}, {std::size_t(o.y_stride), std::size_t(1)});
    HostTensor<float> y_scale_ref({M});
    // y and y_unquant: the T5-like mode rounds x * invrms to X before gamma, a second rounding;
    // invrms: its rounding plus the sum of squares' error relative to its terms, halved by the root
    const double z_max   = normalized_magnitude(xp, o.epsilon, false);
    const tolerance t_y  = normalization_tolerance<X>(N, z_max * max_abs_value(gamma), o.s == 1 ? 2 : 1);
    const tolerance t_ir = normalization_tolerance<X>(N, z_max * z_max);
    bool pass            = true;
    if constexpr(kQuant)
    {
        const reference_rmsnorm2d_dynamic_quant_epilogue<float, float> ep{smooth ? &sm_scale : nullptr, &y_scale_ref};
        reference_rmsnorm2d_fwd<X, X, float, Y, X, X>(xp, gamma, y_ref, invrms_ref, y_unquant_ref, o.epsilon, ep, o.s);
        ys_dev.FromDevice(y_scale.data());
        pass = check(y_scale, y_scale_ref, "y_scale") && pass;
    }
    else
        reference_rmsnorm2d_fwd<X, X, float, Y, X, X>(xp, gamma, y_ref, invrms_ref, y_unquant_ref, o.epsilon, {}, o.s);
    pass = check(y, y_ref, "y", t_y) && pass;
    // a statistic off by ~1/n scales y by less than an ulp: caught by its one-sided rounding
    if constexpr(!kQuant)
        pass = check_unbiased_rounding(y, y_ref, N, "Error: y is scaled!") && pass;
    if(o.save_rms)
    {
        ir_dev.FromDevice(invrms.data());
        pass = check(invrms, invrms_ref, "invrms", {t_ir.rtol + t_ir.atol, 0}) && pass;
    }
    if(o.save_unquant)
    {
        uq_dev.FromDevice(y_unquant.data());
        pass = check(y_unquant, y_unquant_ref, "y_unquant", t_y) && pass;
    }
    if(store_res)
    {
        HostTensor<X> yr_ref = strided(o.yr_stride);
        for(auto& v : yr_ref.mData)
            v = type_convert<X>(0.f);
        for(std::size_t i = 0; i < M; ++i)
            for(std::size_t j = 0; j < N; ++j)
                yr_ref(i, j) = xp(i, j);
        yr_dev.FromDevice(yr.data());
        pass = ck_tile::check_err(yr, yr_ref, "Error: y_residual mismatch!", 0, 0) && pass;
    }
    std::cout << "valid:" << (pass ? "y" : "n") << std::endl;
    return pass ? 0 : 1;
}

} // namespace
} // namespace rmsnorm2d_example

int main(int argc, char* argv[])
{
    using namespace rmsnorm2d_example;
#if defined(CK_TILE_RUNS_ON_CPU)
    const char* warmup_default = "1";
    const char* repeat_default = "3";
#else
    const char* warmup_default = "5";
    const char* repeat_default = "20";
#endif
    ck_tile::ArgParser p;
    p.insert("m", "3328", "rows")
        .insert("n", "4096", "columns (the normalized dimension)")
        .insert("x_stride", "-1", "row stride of x, -1: n")
        .insert("xr_stride", "-1", "row stride of x_residual, -1: n")
        .insert("y_stride", "-1", "row stride of y (and y_unquant), -1: n")
        .insert("yr_stride", "-1", "row stride of y_residual, -1: n")
        .insert("stride", "-1", "older key: sets every stride left at -1")
        .insert("e", "1e-5", "epsilon")
        .insert("save_rms", "0", "1: save invrms [m] (in the input type)")
        .insert("save_unquant", "0", "1: also save y before quantization (in the input type); needs -fquant")
        .insert("v", "1", "verification: 0 none, 1 CPU reference (every output)")
        .insert("kname", "1", "1: print the kernel's name")
        .insert("prec_i", "fp16", "input type: fp16 or bf16 (gamma, invrms, residuals too)")
        .insert("prec", "", "older key for -prec_i")
        .insert("prec_o", "auto", "output type: auto (= prec_i), or int8 / fp8 with -fquant")
        .insert("prec_sm", "auto", "smooth-scale type: auto (fp32) or fp32")
        .insert("prec_sy", "auto", "y-scale type: auto (fp32) or fp32")
        .insert("fadd", "0", "fused add: 0 none, 1 x += x_residual stored to y_residual, 2 add only")
        .insert("fquant", "0", "fused quant: 0 none, 1 smooth dynamic (x sm_scale[n]), 2 dynamic")
        .insert("s", "0", "0 generic, 1 T5-like (x * invrms rounded to prec_i before gamma)")
        .insert("warmup", warmup_default, "untimed launches before timing")
        .insert("repeat", repeat_default, "timed launches (the perf line is their average)");
    if(!p.parse(argc, argv))
        return p.help_requested() ? 0 : 1;

    try
    {
        const Options o = read_options(p);
        using ck_tile::bf16_t;
        using ck_tile::fp8_t;
        using ck_tile::half_t;
        if(o.prec_i == "fp16")
        {
            if(o.prec_o == "int8")
                return run<half_t, int8_t>(o);
            if(o.prec_o == "fp8")
                return run<half_t, fp8_t>(o);
            return run<half_t, half_t>(o);
        }
        if(o.prec_o == "int8")
            return run<bf16_t, int8_t>(o);
        if(o.prec_o == "fp8")
            return run<bf16_t, fp8_t>(o);
        return run<bf16_t, bf16_t>(o);
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
