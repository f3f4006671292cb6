// SPDX-License-Identifier: MIT
// tile_example_batched_transpose: NCHW <-> NHWC as N batched 2-D transposes, with the register
// pipeline (0) or the LDS pipeline (1, gfx950); checked against the host reference.
#include <fstream>
#include <stdexcept>
#include <iostream>
#include <string>

#include "batched_transpose_run.hpp"

namespace {

struct Options : transpose_options
{
    bool json;
    std::string jsonfile;
};

template <typename T>
bool run(const Options& o)
{
    const transpose_outcome out = run_transpose<T>(o, [&](int height, int width) {
        std::cout << "[" << o.prec << "] N:" << o.n << ", C:" << o.c << ", H:" << o.h << ", W:" << o.w
                  << ", layout_in:" << o.layout_in << ", layout_out:" << o.layout_out << ", pipeline:" << o.pipeline
                  << " (" << (o.pipeline == 0 ? "register" : "lds") << "), " << o.n << " transposes of " << height
                  << "x" << width << std::endl;
    });
    if(o.json)
    {
        std::ofstream f(o.jsonfile);
        f << "{\"name\": \"batched_transpose\", \"prec\": \"" << o.prec << "\", \"N\": " << o.n << ", \"C\": " << o.c
          << ", \"H\": " << o.h << ", \"W\": " << o.w << ", \"layout_in\": \"" << o.layout_in
          << "\", \"layout_out\": \"" << o.layout_out << "\", \"pipeline\": " << o.pipeline << ", \"kernel\": \""
          << out.result.kernel_name << "\", \"ms\": " << out.result.ms << ", \"GB/s\": " << out.gbs
          << ", \"valid\": " << (o.verify ? (out.pass ? "true" : "false") : "null") << "}\n";
        if(!f)
            throw std::runtime_error("cannot write -jsonfile " + o.jsonfile);
    }
    return out.pass;
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
        read_transpose_options(p, o);
        o.json     = p.get_bool("json");
        o.jsonfile = p.get_str("jsonfile");
        o.pipeline = p.get_int_in_range("pipeline", 0, 1);

        const std::string arch       = ck_tile::get_device_name();
        const ck_tile::arch_info* ai = ck_tile::find_arch(arch.c_str());
        if(o.pipeline == 1 && (ai == nullptr || !ai->lds_transpose_read))
            throw ck_tile::arg_error("error: option -pipeline: 1 (LDS transpose read) needs gfx950, the device is " +
                                     arch);

        const bool pass = for_transpose_prec(o.prec, arch, [&](auto t) { return run<decltype(t)>(o); });
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
