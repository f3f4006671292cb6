// SPDX-License-Identifier: MIT
// tile_example_layernorm2d_fwd: layernorm of the rows of an m x n fp16 / bf16 matrix with upstream's
// fusions (per-column bias, pre-add of a residual with or without storing it, saved mean and
// inverse std, smooth-dynamic or dynamic quantization to int8 / fp8), checked output by output
// against reference_layernorm2d_fwd and reference_rowwise_dynamic_quant. -? lists the options.
#include <algorithm>
#include <cmath>
#include <iostream>
#include <optional>
#include <string>

#include "ck_tile/host/normalization_tolerance.hpp"
#include "ck_tile/host/reference/reference_layernorm2d_fwd.hpp"
#include "ck_tile/host/reference/reference_rowwise_quantization2d.hpp"
#include "layernorm2d_fwd.hpp"

namespace {

struct Problem
{
    int m, n, x_stride, xr_stride, y_stride, yr_stride;
    float epsilon;
    bool save_mv, verify, kname;
    std::string prec_i, prec_o, prec_sm, prec_sy;
    int xbias, fadd, fquant, warmup, repeat;
};

// a compact m x n copy of a tensor with row stride
template <typename T>
ck_tile::HostTensor<T> compact(const ck_tile::HostTensor<T>& t, int m, int n)
{
    ck_tile::HostTensor<T> c({m, n});
    for(int i = 0; i < m; ++i)
        for(int j = 0; j < n; ++j)
            c(i, j) = t(i, j);
    return c;
}

template <typename InType, typename OutType>
bool run(const Problem& p)
{
    using XDataType       = InType;
    using YDataType       = OutType;
    using Types           = LayerNormTypeConfig<InType, OutType>;
    using MeanDataType    = typename Types::MeanDataType;
    using InvStdDataType  = typename Types::InvStdDataType;
    constexpr bool kQuant = !std::is_same_v<InType, OutType>;
    const int m = p.m, n = p.n;

    ck_tile::HostTensor<XDataType> x({m, n}, {p.x_stride, 1});
    ck_tile::HostTensor<XDataType> x_residual({m, n}, {p.xr_stride, 1});
    ck_tile::HostTensor<XDataType> x_bias({n}), gamma({n}), beta({n});
    ck_tile::HostTensor<float> sm_scale({n});
    ck_tile::HostTensor<YDataType> y({m, n}, {p.y_stride, 1});
    ck_tile::HostTensor<XDataType> y_residual({m, n}, {p.yr_stride, 1});
    ck_tile::HostTensor<float> y_scale({m});
    ck_tile::HostTensor<MeanDataType> mean({m});
    ck_tile::HostTensor<InvStdDataType> inv_std({m});

    ck_tile::FillUniformDistribution<XDataType>{-.5f, .5f, 11939}(x);
    ck_tile::FillUniformDistribution<XDataType>{-.5f, .5f, 11940}(x_residual);
    ck_tile::FillUniformDistribution<XDataType>{-.5f, .5f, 11941}(x_bias);
    ck_tile::FillUniformDistribution<XDataType>{-.5f, .5f, 11942}(gamma);
    ck_tile::FillUniformDistribution<XDataType>{-.5f, .5f, 11943}(beta);
    ck_tile::FillUniformDistribution<float>{-1.f, 1.f, 11944}(sm_scale);

    const auto dev = [](const auto& t) {
        auto d = std::make_unique<ck_tile::DeviceMem>(t.get_element_space_size_in_bytes());
        d->ToDevice(t.data());
        return d;
    };
    auto x_dev = dev(x), xr_dev = dev(x_residual), bias_dev = dev(x_bias), gamma_dev = dev(gamma), beta_dev = dev(beta),
         sm_dev = dev(sm_scale), y_dev = dev(y), yr_dev = dev(y_residual), ys_dev = dev(y_scale), mean_dev = dev(mean),
         inv_dev = dev(inv_std);

    const bool fadd = p.fadd != 0;
    layernorm2d_fwd_args a{};
    a.p_x          = x_dev->GetDeviceBuffer();
    a.p_x_residual = fadd ? xr_dev->GetDeviceBuffer() : nullptr;
    a.p_sm_scale   = p.fquant == 1 ? sm_dev->GetDeviceBuffer() : nullptr;
    a.p_x_bias     = p.xbias ? bias_dev->GetDeviceBuffer() : nullptr;
    a.p_gamma      = gamma_dev->GetDeviceBuffer();
    a.p_beta       = beta_dev->GetDeviceBuffer();
    a.p_y          = y_dev->GetDeviceBuffer();
    a.p_y_residual = p.fadd == 1 ? yr_dev->GetDeviceBuffer() : nullptr;
    a.p_y_scale    = p.fquant != 0 ? ys_dev->GetDeviceBuffer() : nullptr;
    a.p_mean       = p.save_mv ? mean_dev->GetDeviceBuffer() : nullptr;
    a.p_invStd     = p.save_mv ? inv_dev->GetDeviceBuffer() : nullptr;
    a.epsilon      = p.epsilon;
    a.m            = m;
    a.n            = n;
    a.x_stride     = p.x_stride;
    a.xr_stride    = p.xr_stride;
    a.y_stride     = p.y_stride;
    a.yr_stride    = p.yr_stride;

    const layernorm2d_fwd_traits t{p.prec_i, p.prec_o, p.prec_sm, p.prec_sy, p.save_mv, p.xbias, p.fadd, p.fquant};
    std::string kernel_name;
    const ck_tile::stream_config cfg{nullptr, true, p.kname ? 1 : 0, p.warmup, p.repeat};
    const float ms = layernorm2d_fwd(t, a, cfg, &kernel_name);

    std::cout << "[" << p.prec_i << (p.prec_o != p.prec_i ? "|" + p.prec_o : "")
              << (p.fquant != 0 ? "(" + p.prec_sy + ")" : "") << "] m:" << m << ", n:" << n
              << ", x_stride:" << p.x_stride << ", xr_stride:" << p.xr_stride << ", y_stride:" << p.y_stride
              << ", yr_stride:" << p.yr_stride;
    if(p.kname)
        std::cout << ", " << kernel_name;
    std::cout << std::endl;
    if(ms < 0)
        throw std::runtime_error("no layernorm2d_fwd instance for this combination");

    // bytes each launch moves: every tensor it reads or writes, once
    const double mn = double(m) * n, xs = sizeof(XDataType);
    double bytes = mn * xs + mn * sizeof(YDataType) + 2.0 * n * xs;
    if(fadd)
        bytes += mn * xs;
    if(p.fadd == 1)
        bytes += mn * xs;
    if(p.xbias)
        bytes += n * xs;
    if(p.fquant == 1)
        bytes += n * sizeof(float);
    if(p.fquant != 0)
        bytes += m * sizeof(float);
    if(p.save_mv)
        bytes += m * (sizeof(MeanDataType) + sizeof(InvStdDataType));
    std::cout << "Perf: " << ms << " ms, " << bytes / 1e6 / ms << " GB/s" << std::endl;

    if(!p.verify)
        return true;

    // x' = x (+ bias) (+ residual), rounded to X as the kernel does when anything is added
    ck_tile::HostTensor<XDataType> xp({m, n});
    for(int i = 0; i < m; ++i)
        for(int j = 0; j < n; ++j)
        {
            float v = ck_tile::type_convert<float>(x(i, j));
            if(p.xbias)
                v += ck_tile::type_convert<float>(x_bias(j));
            if(fadd)
                v += ck_tile::type_convert<float>(x_residual(i, j));
            xp(i, j) = ck_tile::type_convert<XDataType>(v);
        }
    ck_tile::HostTensor<float> y_ref_f({m, n});
    ck_tile::HostTensor<MeanDataType> mean_ref({m});
    ck_tile::HostTensor<InvStdDataType> inv_std_ref({m});
    ck_tile::reference_layernorm2d_fwd<XDataType, XDataType, XDataType, float, float, MeanDataType, InvStdDataType>(
        xp, gamma, beta, y_ref_f, mean_ref, inv_std_ref, p.epsilon);

    y_dev->FromDevice(y.data());
    bool pass = true;
    if constexpr(kQuant)
    {
        if(p.fquant == 1)
            for(int i = 0; i < m; ++i)
                for(int j = 0; j < n; ++j)
                    y_ref_f(i, j) *= sm_scale(j);
        ck_tile::HostTensor<float> y_scale_ref({m});
        ck_tile::HostTensor<YDataType> q_ref({m, n});
        ck_tile::reference_rowwise_dynamic_quant(y_ref_f, y_scale_ref, q_ref);
        ys_dev->FromDevice(y_scale.data());
        pass &= ck_tile::check_err(y_scale, y_scale_ref, "Error: y_scale is wrong!", 1e-4, 1e-8);
        const auto q = compact(y, m, n);
        pass &= ck_tile::check_quantized_err(q, q_ref, "Error: the quantized y is wrong!");
    }
    else
    {
        ck_tile::HostTensor<YDataType> y_ref({m, n});
        for(int i = 0; i < m; ++i)
            for(int j = 0; j < n; ++j)
                y_ref(i, j) = ck_tile::type_convert<YDataType>(y_ref_f(i, j));
        // one rounding of the fp32 y plus the reordered row reduction (normalization_tolerance.hpp)
        const ck_tile::tolerance t = ck_tile::normalization_tolerance<YDataType>(
            n, ck_tile::normalization_scale(xp, gamma, &beta, p.epsilon, true));
        pass &= ck_tile::check_err(compact(y, m, n), y_ref, "Error: y is wrong!", t.rtol, t.atol);
    }
    if(p.fadd == 1)
    {
        yr_dev->FromDevice(y_residual.data());
        pass &= ck_tile::check_err(compact(y_residual, m, n), xp, "Error: y_residual is wrong!", 0, 0);
    }
    if(p.save_mv)
    {
        mean_dev->FromDevice(mean.data());
        inv_dev->FromDevice(inv_std.data());
        // mean: one rounding to its type plus the reordered sum, whose terms are at most max |x|;
        // inv_std: one rounding plus the variance's error (the terms' size, max |x|^2, over the
        // variance) halved by the square root; both relative, as inv_std can be large
        const double r              = ck_tile::normalized_magnitude(xp, p.epsilon, true);
        const ck_tile::tolerance tm = ck_tile::normalization_tolerance<MeanDataType>(n, ck_tile::max_abs_value(xp));
        const ck_tile::tolerance ti = ck_tile::normalization_tolerance<InvStdDataType>(n, r * r);
        pass &= ck_tile::check_err(mean, mean_ref, "Error: mean is wrong!", tm.rtol, tm.atol);
        pass &= ck_tile::check_err(inv_std, inv_std_ref, "Error: inv_std is wrong!", ti.rtol + ti.atol, 0);
    }
    std::cout << "valid:" << (pass ? "y" : "n") << std::endl;
    return pass;
}

Problem read_problem(const ck_tile::ArgParser& a)
{
    Problem p{};
    p.m = a.get_int_at_least("m", 1);
    p.n = a.get_int_at_least("n", 1);
    // -stride (upstream's older scripts) stands for every stride left at -1
    const int stride = a.get_row_stride("stride", p.n);
    p.x_stride       = a.get_row_stride("x_stride", p.n, stride);
    p.xr_stride      = a.get_row_stride("xr_stride", p.n, stride);
    p.y_stride       = a.get_row_stride("y_stride", p.n, stride);
    p.yr_stride      = a.get_row_stride("yr_stride", p.n, stride);
    p.epsilon        = a.get_float("e");
    if(!(p.epsilon >= 0) || !std::isfinite(p.epsilon))
        throw ck_tile::arg_error("error: option -e: must be a finite number >= 0, got " + a.get_str("e"));
    p.save_mv = a.get_int_in_range("save_mv", 0, 1) == 1;
    p.verify  = a.get_int_in_range("v", 0, 1) == 1;
    p.kname   = a.get_int_in_range("kname", 0, 1) == 1;
    p.xbias   = a.get_int_in_range("xbias", 0, 1);
    p.fadd    = a.get_int_in_range("fadd", 0, 2);
    p.fquant  = a.get_int_in_range("fquant", 0, 2);
    p.warmup  = a.get_int_at_least("warmup", 0);
    p.repeat  = a.get_int_at_least("repeat", 1);
    if(a.get_int_in_range("json", 0, 1) != 0)
        throw ck_tile::arg_error("error: option -json: JSON output is not supported by this example");

    const std::string prec_key = a.get_str("prec").empty() ? "prec_i" : "prec";
    p.prec_i                   = a.get_str(prec_key);
    if(p.prec_i != "fp16" && p.prec_i != "bf16")
        throw ck_tile::arg_error("error: option -" + prec_key + ": '" + p.prec_i + "' is not supported (fp16 or bf16)");
    p.prec_o = a.get_str("prec_o") == "auto" ? p.prec_i : a.get_str("prec_o");
    if(p.prec_o != p.prec_i && p.prec_o != "int8" && p.prec_o != "fp8")
        throw ck_tile::arg_error("error: option -prec_o: '" + p.prec_o + "' is not supported with -prec_i=" + p.prec_i +
                                 " (auto, " + p.prec_i + ", int8 or fp8)");
    if(p.fquant != 0 && p.prec_o == p.prec_i)
        throw ck_tile::arg_error("error: option -fquant=" + std::to_string(p.fquant) +
                                 " needs -prec_o=int8 or -prec_o=fp8");
    if(p.fquant == 0 && p.prec_o != p.prec_i)
        throw ck_tile::arg_error("error: option -prec_o=" + p.prec_o + " needs -fquant=1 or -fquant=2");
    p.prec_sm = a.get_str("prec_sm") == "auto" ? "fp32" : a.get_str("prec_sm");
    p.prec_sy = a.get_str("prec_sy") == "auto" ? "fp32" : a.get_str("prec_sy");
    if(p.prec_sm != "fp32")
        throw ck_tile::arg_error("error: option -prec_sm: '" + p.prec_sm + "' is not supported (auto or fp32)");
    if(p.prec_sy != "fp32")
        throw ck_tile::arg_error("error: option -prec_sy: '" + p.prec_sy + "' is not supported (auto or fp32)");

    // buffer addressing: every tensor within 2^31 - 1 bytes
    const long long max_stride = std::max({p.x_stride, p.xr_stride, p.y_stride, p.yr_stride});
    if((static_cast<long long>(p.m) - 1) * max_stride * 2 + 2ll * p.n > 0x7fffffffll)
        throw ck_tile::arg_error("error: the matrices need more than 2^31 - 1 bytes (-m x stride x 2); the kernel "
                                 "addresses at most that");
    return p;
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
    ck_tile::ArgParser a;
    a.insert("m", "3328", "m dimension (rows)")
        .insert("n", "4096", "n dimension (the row length normalized over)")
        .insert("x_stride", "-1", "row stride of x, -1: n")
        .insert("xr_stride", "-1", "row stride of x_residual, -1: n")
        .insert("y_stride", "-1", "row stride of y, -1: n")
        .insert("yr_stride", "-1", "row stride of y_residual, -1: n")
        .insert("stride", "-1", "older key: the stride of all four where theirs is -1")
        .insert("e", "1e-5", "epsilon")
        .insert("save_mv", "0", "save the mean and inverse std ([m] each, in prec_i): 0 or 1")
        .insert("v", "1", "validate: 0 no, 1 against the CPU reference")
        .insert("kname", "1", "print the kernel name: 0 or 1")
        .insert("prec_i", "fp16", "input type: fp16 or bf16")
        .insert("prec", "", "older key for -prec_i")
        .insert("prec_o", "auto", "output type: auto (= prec_i), or int8 / fp8 with -fquant")
        .insert("prec_sm", "auto", "smooth-scale type: auto (= fp32) or fp32")
        .insert("prec_sy", "auto", "y-scale type: auto (= fp32) or fp32")
        .insert("xbias", "0", "add a per-column bias to x first: 0 or 1")
        .insert("fadd", "0", "fused add of x_residual: 0 none, 1 add and store x' to y_residual, 2 add only")
        .insert("fquant", "0", "fused quantization: 0 none, 1 smooth dynamic (times sm_scale[n]), 2 dynamic")
        .insert("warmup", warmup_default, "untimed launches before timing")
        .insert("repeat", repeat_default, "timed launches (the perf line is their average)")
        .insert("json", "0", "upstream's JSON dump: only 0 (not supported)")
        .insert("jsonfile", "layernorm2d_fwd.json", "upstream's JSON file name (unused)");
    if(!a.parse(argc, argv))
        return a.help_requested() ? 0 : 1;

    try
    {
        const Problem p = read_problem(a);
        bool pass;
        const auto by_out = [&](auto in) {
            using In = decltype(in);
            if(p.prec_o == "int8")
                return run<In, ck_tile::int8_t>(p);
            if(p.prec_o == "fp8")
                return run<In, ck_tile::fp8_t>(p);
            return run<In, In>(p);
        };
        if(p.prec_i == "fp16")
            pass = by_out(ck_tile::half_t{});
        else
            pass = by_out(ck_tile::bf16_t{});
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
