// SPDX-License-Identifier: MIT
// The host side that tile_example_batched_transpose and tile_example_transpose share: their common
// options, one NCHW <-> NHWC run through batched_transpose() with its Perf line and verdict, and
// the choice of the element type.
#pragma once
#include <iostream>
#include <string>

#include "batched_transpose_example.hpp"
#include "ck_tile/host/reference/reference_batched_transpose.hpp"

struct transpose_options
{
    int n, c, h, w, warmup, repeat, pipeline, seed;
    bool verify, kname;
    std::string prec, layout_in, layout_out;
};

inline std::string parse_transpose_layout(const ck_tile::ArgParser& p, const std::string& key)
{
    const std::string l = p.get_str(key);
    if(l != "NCHW" && l != "NHWC")
        throw ck_tile::arg_error("error: option -" + key + ": '" + l + "' is not a layout (NCHW or NHWC)");
    return l;
}

// The options both examples have (v, pr, N, C, H, W, layout_in, layout_out, warmup, repeat, seed,
// kname), checked; throws arg_error with the one line to print.
inline void read_transpose_options(const ck_tile::ArgParser& p, transpose_options& o)
{
    o.verify     = p.get_int_in_range("v", 0, 1) == 1;
    o.prec       = p.get_str("pr");
    o.n          = p.get_int_at_least("N", 1);
    o.c          = p.get_int_at_least("C", 1);
    o.h          = p.get_int_at_least("H", 1);
    o.w          = p.get_int_at_least("W", 1);
    o.layout_in  = parse_transpose_layout(p, "layout_in");
    o.layout_out = parse_transpose_layout(p, "layout_out");
    o.warmup     = p.get_int_at_least("warmup", 0);
    o.repeat     = p.get_int_at_least("repeat", 1);
    o.seed       = p.get_int("seed");
    o.kname      = p.get_bool("kname");
    if(o.layout_in == o.layout_out)
        throw ck_tile::arg_error("error: -layout_in and -layout_out are both " + o.layout_in +
                                 " (NCHW -> NHWC or NHWC -> NCHW)");
    if(static_cast<long long>(o.n) * o.c * o.h * o.w * 2 > (1ll << 31) - 1)
        throw ck_tile::arg_error("error: N x C x H x W is too large for 32-bit offsets");
}

struct transpose_outcome
{
    bool pass;
    batched_transpose_result result;
    double gbs;
};

// One run: random input, the transpose through batched_transpose(), `Perf:` and, when verifying,
// `valid:y|n` against the host reference (exact: a transpose moves values). `describe(height,
// width)` prints the problem before the launch.
template <typename T, typename Describe>
transpose_outcome run_transpose(const transpose_options& o, Describe describe)
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
    describe(height, width);

    const ck_tile::stream_config s{nullptr, true, o.kname ? 1 : 0, o.warmup, o.repeat};
    transpose_outcome out{true, batched_transpose({o.prec, o.layout_in, o.pipeline}, args, s), 0.0};
    if(o.kname)
        std::cout << "kernel: " << out.result.kernel_name << std::endl;

    // bytes read + bytes written
    const double bytes = 2.0 * o.n * o.c * o.h * o.w * sizeof(T);
    out.gbs            = bytes / 1e6 / out.result.ms;
    std::cout << "Perf: " << out.result.ms << " ms, " << out.gbs << " GB/s" << std::endl;

    if(o.verify)
    {
        ck_tile::HostTensor<T> y_ref(y.get_lengths());
        ck_tile::reference_batched_transpose(x, y_ref, o.layout_in, o.layout_out);
        y_dev.FromDevice(y.data());
        out.pass = ck_tile::check_err(y, y_ref, "Error: the transpose differs from the reference", 0, 0);
        std::cout << "valid:" << (out.pass ? "y" : "n") << std::endl;
    }
    return out;
}

// Calls run(T{}) with the element type -pr names; fp8_t is one encoding per build (FNUZ for
// gfx942, OCP for gfx950), so fp8 is refused when this binary's is not `arch`'s.
template <typename Run>
bool for_transpose_prec(const std::string& prec, const std::string& arch, Run run)
{
    if(prec == "fp16")
        return run(ck_tile::half_t{});
    if(prec == "bf16")
        return run(ck_tile::bf16_t{});
    if(prec == "fp8")
    {
        if(!ck_tile::fp8_native_on(arch.c_str()))
            throw ck_tile::arg_error("error: option -pr: this binary's fp8 encoding is not " + arch + "'s; build for " +
                                     arch + " alone (-DGPU_TARGETS=" + arch + ")");
        return run(ck_tile::fp8_t{});
    }
    throw ck_tile::arg_error("error: option -pr: '" + prec + "' is not supported (fp8, fp16 or bf16)");
}
