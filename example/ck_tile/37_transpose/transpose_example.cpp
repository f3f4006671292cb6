// SPDX-License-Identifier: MIT
// tile_example_transpose: NCHW <-> NHWC, taking the arch's best path: on archs with LDS transpose
// reads (gfx950) the LDS pipeline, elsewhere the register pipeline. The kernels and their
// instances are 35_batched_transpose's (the batched transpose op and its example API).
#include <iostream>
#include <string>

#include "../35_batched_transpose/batched_transpose_run.hpp"

namespace {

bool run_on(const transpose_options& o, const std::string& arch)
{
    return for_transpose_prec(o.prec, arch, [&](auto t) {
        return run_transpose<decltype(t)>(
                   o,
                   [&](int, int) {
                       std::cout << "[" << o.prec << "] N:" << o.n << ", C:" << o.c << ", H:" << o.h << ", W:" << o.w
                                 << ", layout_in:" << o.layout_in << ", layout_out:" << o.layout_out << std::endl;
                       std::cout << "path: "
                                 << (o.pipeline == 1 ? "lds (" + arch + " has LDS transpose reads)"
                                                     : "register (" + arch + " has no LDS transpose reads)")
                                 << std::endl;
                   })
            .pass;
    });
}

} // namespace

int main(int argc, char* argv[])
{
    ck_tile::ArgParser p;
    p.insert("v", "1", "verification: 0 none, 1 against the host reference")
        .insert("pr", "fp16", "data type: fp8, fp16 or bf16 (fp8 in the arch's encoding)")
        .insert("N", "2", "batch")
        .insert("C", "64", "channels")
        .insert("H", "1", "height")
        .insert("W", "64", "width")
        .insert("layout_in", "NCHW", "input layout: NCHW or NHWC")
        .insert("layout_out", "NHWC", "output layout: NHWC or NCHW (the other one)")
        .insert("seed", "-1", "seed of the random input (-1: a fixed default)")
        .insert("kname", "0", "print the kernel's name: 0 or 1")
        .insert("warmup", "3", "untimed launches before timing")
        .insert("repeat", "10", "timed launches (the perf line is their average)");
    if(!p.parse(argc, argv))
        return p.help_requested() ? 0 : 1;

    try
    {
        transpose_options o;
        read_transpose_options(p, o);

        // the LDS transpose-read path where the arch has it, the register path elsewhere
        const std::string arch       = ck_tile::get_device_name();
        const ck_tile::arch_info* ai = ck_tile::find_arch(arch.c_str());
        o.pipeline                   = ai != nullptr && ai->lds_transpose_read ? 1 : 0;

        const bool pass = run_on(o, arch);
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
