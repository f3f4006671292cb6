// SPDX-License-Identifier: MIT
// The options tile_example_fmha_fwd and tile_example_fmha_bwd share (upstream's names and
// defaults), read and checked once for both, and the main both run:
//
//   add_fmha_problem_options   -v -mode -b -h -h_k -s -s_k -d -d_v
//   add_fmha_layout_options    -iperm -operm -bias -mask
//   add_fmha_run_options       -kname -seed -p_drop -drop_seed -drop_offset -timer -warmup -repeat
//   read_fmha_common_options   all of them into fmha_common_options, bad values refused with one
//                              line (ck_tile::arg_error)
//   fmha_main                  parse, read the target's options, run, and turn an error into one
//                              line on stderr and exit status 1
//
// Each target adds its own options between these groups and reads them itself.
#pragma once
#include <cstdint>
#include <exception>
#include <iostream>
#include <stdexcept>
#include <string>

#include "ck_tile/host.hpp"
#include "bias.hpp"
#include "utils.hpp"

struct fmha_common_options
{
    bool verify, kname;
    mode_enum mode;
    ck_tile::index_t b, h, h_k, d, d_v, warmup, repeat;
    bool iperm, operm;
    float p_drop;
    uint64_t drop_seed, drop_offset;
    uint32_t seed;
    std::string mask_str, s_str, s_k_str;
    bias_info bias;
};

// where the kernels run on the CPU (the emulator, hip-cpu): a smaller problem, one timed launch
#if defined(CK_TILE_RUNS_ON_CPU)
inline constexpr const char *fmha_s_default = "256", *fmha_warmup_default = "0", *fmha_repeat_default = "1";
#else
inline constexpr const char *fmha_s_default = "3328", *fmha_warmup_default = "5", *fmha_repeat_default = "20";
#endif

// d_help: the head dims the target's instances serve
inline void add_fmha_problem_options(ck_tile::ArgParser& p, const char* d_help)
{
    p.insert("v", "1", "0: no validation, 1: CPU reference")
        .insert("mode", "0", "0: batch mode, 1: group (varlen) mode")
        .insert("b", "2", "batch size")
        .insert("h", "8", "query heads")
        .insert("h_k", "-1", "key/value heads (-1: h); h must be a multiple (MQA/GQA)")
        .insert("s", fmha_s_default, "seqlen_q; group mode: per-batch list s0,s1,... (missing entries generated)")
        .insert("s_k", "-1", "seqlen_k (-1: s); group mode: a list like -s")
        .insert("d", "128", d_help)
        .insert("d_v", "-1", "head dim of V (-1: d)");
}

// iperm_help / operm_help: the tensors each layout option covers
inline void add_fmha_layout_options(ck_tile::ArgParser& p, const char* iperm_help, const char* operm_help)
{
    p.insert("iperm", "1", iperm_help)
        .insert("operm", "1", operm_help)
        .insert("bias", "n",
                "n/0 none; e/1/elementwise[:k] bias (k 0: 1x1xsxs, 1: 1xhxsxs, 2: bxhxsxs); "
                "a/2/alibi[:k] ALiBi (k 0: 1xh slopes, 1: bxh)")
        .insert("mask", "0",
                "0 none; t/1 causal top-left; b/2 causal bottom-right; t:l,r / b:l,r sliding window; "
                "xt:w / xb:w xformers window; g:y,x generic (top-left)");
}

inline void add_fmha_run_options(ck_tile::ArgParser& p)
{
    p.insert("kname", "0", "1: print the kernel name")
        .insert("seed", "11939", "random seed of the inputs")
        .insert("p_drop", "0", "dropout probability in [0, 1)")
        .insert("drop_seed", "1", "dropout seed")
        .insert("drop_offset", "0", "dropout offset")
        .insert("timer", "gpu", "gpu or cpu (the emulator times the host)")
        .insert("warmup", fmha_warmup_default, "untimed launches")
        .insert("repeat", fmha_repeat_default, "timed launches");
}

// max_d: the largest head dim of the target's instances; vector: what every head dim is a multiple of
inline fmha_common_options read_fmha_common_options(const ck_tile::ArgParser& p, int max_d, int vector)
{
    using ck_tile::arg_error;
    fmha_common_options o{};
    o.verify = p.get_int_in_range("v", 0, 1) == 1;
    o.mode   = p.get_int_in_range("mode", 0, 1) == 1 ? mode_enum::group : mode_enum::batch;
    o.b      = p.get_int_at_least("b", 1);
    o.h      = p.get_int_at_least("h", 1);
    o.h_k    = p.get_int("h_k");
    if(o.h_k == -1)
        o.h_k = o.h;
    if(o.h_k < 1 || o.h % o.h_k != 0)
        throw arg_error("error: option -h_k: nhead_q (" + std::to_string(o.h) + ") must be a multiple of nhead_k (" +
                        p.get_str("h_k") + ")");
    o.s_str   = p.get_str("s");
    o.s_k_str = p.get_str("s_k");
    o.d       = p.get_int_at_least("d", 1);
    o.d_v     = p.get_int("d_v");
    if(o.d_v == -1)
        o.d_v = o.d;
    if(o.d_v < 1)
        throw arg_error("error: option -d_v: must be >= 1 or -1, got " + p.get_str("d_v"));
    if(o.d % vector != 0 || o.d_v % vector != 0)
        throw arg_error("error: options -d/-d_v: head dims must be multiples of " + std::to_string(vector) + ", got " +
                        std::to_string(o.d) + "/" + std::to_string(o.d_v));
    if(std::max(o.d, o.d_v) > max_d)
        throw arg_error("error: options -d/-d_v: no instance for head dim " + std::to_string(std::max(o.d, o.d_v)) +
                        " (at most " + std::to_string(max_d) + ")");
    o.iperm = p.get_int_in_range("iperm", 0, 1) == 1;
    o.operm = p.get_int_in_range("operm", 0, 1) == 1;
    try
    {
        o.bias = bias_info::decode(p.get_str("bias"));
    }
    catch(const std::invalid_argument& e)
    {
        throw arg_error(std::string("error: option -bias: ") + e.what());
    }
    o.mask_str = p.get_str("mask");
    o.kname    = p.get_int_in_range("kname", 0, 1) == 1;
    o.seed     = p.get_uint32("seed");
    o.p_drop   = p.get_float("p_drop");
    if(!(o.p_drop >= 0.f && o.p_drop < 1.f))
        throw arg_error("error: option -p_drop: must be in [0, 1), got " + p.get_str("p_drop"));
    o.drop_seed      = p.get_uint64("drop_seed");
    o.drop_offset    = p.get_uint64("drop_offset");
    o.warmup         = p.get_int_at_least("warmup", 0);
    o.repeat         = p.get_int_at_least("repeat", 1);
    const auto timer = p.get_str("timer");
    if(timer != "gpu" && timer != "cpu")
        throw arg_error("error: option -timer: '" + timer + "' is not gpu or cpu");
    return o;
}

// run(p) reads the target's options and runs; it returns whether the check passed
template <typename Run>
int fmha_main(ck_tile::ArgParser& p, int argc, char* argv[], Run&& run)
{
    if(!p.parse(argc, argv))
        return p.help_requested() ? 0 : 1;
    try
    {
        return run(p) ? 0 : 1;
    }
    catch(const ck_tile::arg_error& e)
    {
        std::cerr << e.what() << std::endl;
        return 1;
    }
    catch(const std::exception& e)
    {
        std::cout << std::endl;
        std::cerr << "error: " << e.what() << std::endl;
        return 1;
    }
}
