// SPDX-License-Identifier: MIT
// tile_example_batched_transpose: NCHW <-> NHWC as N batched 2-D transposes, with the register
// pipeline (0) or the LDS pipeline (1, gfx950); checked against the host reference.
#include <fstream>
#include <iostream>
#include <string>

#include "batched_transpose_example.hpp"
#include "ck_tile/host/reference/reference_batched_transpose.hpp"

namespace {

struct Options
{
    int n, c, h, w, warmup, repeat, pipeline, seed;
    bool verify, kname, json;
    std::string prec, layout_in, layout_out, jsonfile;
};

std::string parse_layout(const ck_tile::ArgParser& p, const std::string& key)
{
    const std::string l = p.get_str(key);
    if(l != "NCHW" && l != "NHWC")
        throw ck_tile::arg_error("error: option -" + key + ": '" + l + "' is not a layout (NCHW or NHWC)");
    return l;
}

template <typename T>
bool run(const Options& o)
{
    const bool to_nhwc = o.layout_in == "NCHW";
    ck_tile::HostTensor<T> x(to_nhwc ? ck_tile::HostTensor<T>({o.n, o.c, o.h, o.w})
                                     : ck_tile::HostTensor<T>({o.n, o.h, o.w, o.c}));
    ck_tile::HostTensor<T> y(to_nhwc ? ck_tile::HostTensor<T>({o.n, o.h, o.w, o.c})
                                     : ck_tile::HostTensor<T>({o.n, o.c, o.h, o.w}));
    ck_tile::FillUniformDistribution<T>{-0.5f, 0.5f, static_cast<std::uint32_t>(o.seed < 0 ? 11939 : o.seed)}(x);

    ck_tile::DeviceMem x_dev(x.get_element_space_size_in_bytes());
    ck_tile::DeviceMem y_dev(y.get_element_space_size_in_bytes());
    x_dev.ToDevice(x.data());
    y_dev.SetZero();

    // NCHW -> NHWC: N transposes of [C x HW]; NHWC -> NCHW: of [HW x C]
    const int hw     = o.h * o.w;
    const int height = to_nhwc ? o.c : hw;
    const int width  = to_nhwc ? hw : o.c;
    const ck_tile::BatchedTransposeHostArgs args{
        x_dev.GetDeviceBuffer(), y_dev.GetDeviceBuffer(), o.n, height, width, height * width, 0, 0};

    std::cout << "[" << o.prec << "] N:" << o.n << ", C:" << o.c << ", H:" << o.h << ", W:" << o.w
              << ", layout_in:" << o.layout_in << ", layout_out:" << o.layout_out << ", pipeline:" << o.pipeline << " ("
              << (o.pipeline == 0 ? "register" : "lds") << "), " << o.n << " transposes of " << height << "x" << width
              << std::endl;

    const ck_tile::stream_config s{nullptr, true, o.kname ? 1 : 0, o.warmup, o.repeat};
    const auto r = batched_transpose({o.prec, o.layout_in, o.pipeline}, args, s);
    if(o.kname)
        std::cout << "kernel: " << r.kernel_name << std::endl;

    // bytes read + bytes written
    const double bytes = 2.0 * o.n * o.c * o.h * o.w * sizeof(T);
    std::cout << "Perf: " << r.ms << " ms, " << bytes / 1e6 / r.ms << " GB/s" << std::endl;

    bool pass = true;
    if(o.verify)
    {
        ck_tile::HostTensor<T> y_ref(y.get_lengths());
        ck_tile::reference_batched_transpose(x, y_ref, o.layout_in, o.layout_out);
        y_dev.FromDevice(y.data());
        // a transpose moves values: the result must be exact
        pass = ck_tile::check_err(y, y_ref, "Error: the transpose differs from the reference", 0, 0);
        std::cout << "valid:" << (pass ? "y" : "n") << std::endl;
    }
    if(o.json)
    {
        std::ofstream f(o.jsonfile);
        f << "{\"name\": \"batched_transpose\", \"prec\": \"" << o.prec << "\", \"N\": " << o.n << ", \"C\": " << o.c
          << ", \"H\": " << o.h << ", \"W\": " << o.w << ", \"layout_in\": \"" << o.layout_in
          << "\", \"layout_out\": \"" << o.layout_out << "\", \"pipeline\": " << o.pipeline << ", \"kernel\": \""
          << r.kernel_name << "\", \"ms\": " << r.ms << ", \"GB/s\": " << bytes / 1e6 / r.ms
          << ", \"valid\": " << (o.verify ? (pass ? "true" : "false") : "null") << "}\n";
        if(!f)
            throw std::runtime_error("cannot write -jsonfile " + o.jsonfile);
    }
    return pass;
}

} // namespace

int main(int argc, char* argv[])
{
    ck_tile::ArgParser p;
    p.insert("v", "1", "verification: 0 none, 1 against the host reference")
        .insert("pr", "fp16", "data type: fp8, fp16 or bf16 (fp8 in the arch's encoding)")
        .insert("N", "1", "batch")
        .insert("C", "64", "channels")
        .insert("H", "18", "height")
        .insert("W", "64", "width")
        .insert("layout_in", "NCHW", "input layout: NCHW or NHWC")
        .insert("layout_out", "NHWC", "output layout: NHWC or NCHW (the other one)")
        .insert("warmup", "50", "untimed launches before timing")
        .insert("repeat", "100", "timed launches (the perf line is their average)")
        .insert("seed", "-1", "seed of the random input (-1: a fixed default)")
        .insert("kname", "0", "print the kernel's name: 0 or 1")
        .insert("json", "0", "write the result as JSON to -jsonfile: 0 or 1")
        .insert("jsonfile", "batched_transpose.json", "the JSON file")
        .insert("pipeline", "0", "0: transpose in registers; 1: through LDS (gfx950 only)");
    if(!p.parse(argc, argv))
        return p.help_requested() ? 0 : 1;

    try
    {
        Options o;
        o.verify     = p.get_int_in_range("v", 0, 1) == 1;
        o.prec       = p.get_str("pr");
        o.n          = p.get_int_at_least("N", 1);
        o.c          = p.get_int_at_least("C", 1);
        o.h          = p.get_int_at_least("H", 1);
        o.w          = p.get_int_at_least("W", 1);
        o.layout_in  = parse_layout(p, "layout_in");
        o.layout_out = parse_layout(p, "layout_out");
        o.warmup     = p.get_int_at_least("warmup", 0);
        o.repeat     = p.get_int_at_least("repeat", 1);
        o.seed       = p.get_int("seed");
        o.kname      = p.get_bool("kname");
        o.json       = p.get_bool("json");
        o.jsonfile   = p.get_str("jsonfile");
        o.pipeline   = p.get_int_in_range("pipeline", 0, 1);
        if(o.layout_in == o.layout_out)
            throw ck_tile::arg_error("error: -layout_in and -layout_out are both " + o.layout_in +
                                     " (NCHW -> NHWC or NHWC -> NCHW)");
        if(static_cast<long long>(o.n) * o.c * o.h * o.w * 2 > (1ll << 31) - 1)
            throw ck_tile::arg_error("error: N x C x H x W is too large for 32-bit offsets");

        const std::string arch       = ck_tile::get_device_name();
        const ck_tile::arch_info* ai = ck_tile::find_arch(arch.c_str());
        if(o.pipeline == 1 && (ai == nullptr || !ai->lds_transpose_read))
            throw ck_tile::arg_error("error: option -pipeline: 1 (LDS transpose read) needs gfx950, the device is " +
                                     arch);

        bool pass;
        if(o.prec == "fp16")
            pass = run<ck_tile::half_t>(o);
        else if(o.prec == "bf16")
            pass = run<ck_tile::bf16_t>(o);
        else if(o.prec == "fp8")
        {
            // fp8_t is one encoding per build (FNUZ for gfx942, OCP for gfx950)
            if(!ck_tile::fp8_native_on(arch.c_str()))
                throw ck_tile::arg_error("error: option -pr: this binary's fp8 encoding is not " + arch +
                                         "'s; build for " + arch + " alone (-DGPU_TARGETS=" + arch + ")");
            pass = run<ck_tile::fp8_t>(o);
        }
        else
            throw ck_tile::arg_error("error: option -pr: '" + o.prec + "' is not supported (fp8, fp16 or bf16)");
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
