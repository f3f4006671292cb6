// SPDX-License-Identifier: MIT
// tile_example_topk_softmax: the routing step of a mixture of experts. For each of t tokens, a
// softmax (or sigmoid) of its e expert logits, then the k largest weights (fp32) and their
// experts (int32), largest first; equal logits rank by the lower expert index. Checked against
// the host reference (reference_topk_softmax): the weights within 1e-3, the indices exactly.
// -? lists the options.
#include <cstdint>
#include <iostream>
#include <random>
#include <stdexcept>
#include <string>
#include <unordered_set>

#include "ck_tile/host/reference/reference_topk_softmax.hpp"
#include "topk_softmax_api.hpp"

namespace {

// -seed=-1: this seed, printed with the problem (a time-based seed would make a failure
// impossible to reproduce)
constexpr unsigned default_seed = 11939;

struct Options
{
    int t, e, k, st_i, st_o, ties, warmup, repeat;
    bool verify, kname;
    unsigned seed;
    std::string pr_i, pr_w, activation;
};

// a row stride: -1 is the row length, anything else must be >= it
int read_stride(const ck_tile::ArgParser& p, const std::string& key, const std::string& len_key, int len)
{
    const int v = p.get_int(key);
    if(v == -1)
        return len;
    if(v < len)
        throw ck_tile::arg_error("error: option -" + key + ": must be -1 (" + len_key + ") or >= " + len_key + " (" +
                                 std::to_string(len) + "), got " + std::to_string(v));
    return v;
}

Options read_options(const ck_tile::ArgParser& p)
{
    Options o{};
    o.t         = p.get_int_at_least("t", 1);
    o.e         = p.get_int_in_range("e", 1, topk_softmax_max_experts);
    o.k         = p.get_int_in_range("k", 1, o.e);
    o.st_i      = read_stride(p, "st_i", "e", o.e);
    o.st_o      = read_stride(p, "st_o", "k", o.k);
    o.verify    = p.get_int_in_range("v", 0, 1) == 1;
    o.kname     = p.get_int_in_range("kname", 0, 1) == 1;
    o.warmup    = p.get_int_at_least("warmup", 0);
    o.repeat    = p.get_int_at_least("repeat", 1);
    o.ties      = p.get_int_in_range("ties", 0, 1000);
    const int s = p.get_int("seed");
    if(s < -1)
        throw ck_tile::arg_error("error: option -seed: must be -1 (" + std::to_string(default_seed) +
                                 ") or >= 0, got " + std::to_string(s));
    o.seed       = s == -1 ? default_seed : static_cast<unsigned>(s);
    o.pr_i       = p.get_str("pr_i");
    o.pr_w       = p.get_str("pr_w");
    o.activation = p.get_str("activation");
    if(o.pr_i != "fp16" && o.pr_i != "bf16")
        throw ck_tile::arg_error("error: option -pr_i: '" + o.pr_i + "' is not supported (fp16 or bf16)");
    if(o.pr_w != "fp32")
        throw ck_tile::arg_error("error: option -pr_w: '" + o.pr_w + "' is not supported (fp32 only)");
    if(o.activation != "softmax" && o.activation != "sigmoid")
        throw ck_tile::arg_error("error: option -activation: '" + o.activation +
                                 "' is not supported (softmax or sigmoid)");
    // the kernel addresses its buffers with 32-bit byte offsets
    if(std::int64_t{o.t} * o.st_i * 2 >= (std::int64_t{1} << 31) ||
       std::int64_t{o.t} * o.st_o * 4 >= (std::int64_t{1} << 31))
        throw ck_tile::arg_error("error: t x stride is too large: each buffer must be smaller than 2 GiB");
    return o;
}

// Upstream's input: each row's logits uniform in [-5, 5] and all different (a value drawn again
// is redrawn; -0 counts as 0). With -ties=n > 0, each logit is one of n evenly spaced levels in
// [-5, 5] instead, so rows are full of equal logits.
template <typename InputType>
void fill_logits(ck_tile::HostTensor<InputType>& x, const Options& o)
{
    std::mt19937 gen(o.seed);
    std::uniform_real_distribution<float> uniform(-5.f, 5.f);
    std::uniform_int_distribution<int> level(0, o.ties > 0 ? o.ties - 1 : 0);
    std::unordered_set<float> seen;
    for(int r = 0; r < o.t; ++r)
    {
        seen.clear();
        for(int c = 0; c < o.e; ++c)
        {
            if(o.ties > 0)
            {
                x(r, c) = ck_tile::type_convert<InputType>(o.ties == 1 ? 0.f : -5.f + 10.f * level(gen) / (o.ties - 1));
                continue;
            }
            InputType v;
            do
                v = ck_tile::type_convert<InputType>(uniform(gen));
            while(!seen.insert(ck_tile::type_convert<float>(v) + 0.f).second);
            x(r, c) = v;
        }
    }
}

template <typename InputType>
bool run(const Options& o)
{
    using WeightType = float;
    using IndexType  = ck_tile::int32_t;
    const auto t = static_cast<std::size_t>(o.t), e = static_cast<std::size_t>(o.e), k = static_cast<std::size_t>(o.k);

    ck_tile::HostTensor<InputType> x_host({t, e}, {static_cast<std::size_t>(o.st_i), std::size_t{1}});
    ck_tile::HostTensor<WeightType> w_host({t, k}, {static_cast<std::size_t>(o.st_o), std::size_t{1}});
    ck_tile::HostTensor<IndexType> i_host({t, k}, {static_cast<std::size_t>(o.st_o), std::size_t{1}});
    fill_logits(x_host, o);

    ck_tile::DeviceMem x_dev(x_host.get_element_space_size_in_bytes());
    ck_tile::DeviceMem w_dev(w_host.get_element_space_size_in_bytes());
    ck_tile::DeviceMem i_dev(i_host.get_element_space_size_in_bytes());
    x_dev.ToDevice(x_host.data());
    w_dev.SetZero(); // the gaps between strided rows stay 0, as in the reference
    i_dev.SetZero();

    const ck_tile::TopkSoftmaxHostArgs args{
        x_dev.GetDeviceBuffer(), w_dev.GetDeviceBuffer(), i_dev.GetDeviceBuffer(), o.t, o.e, o.k, o.st_i, o.st_o};
    const ck_tile::stream_config cfg{nullptr, true, 0, o.warmup, o.repeat};
    const topk_softmax_result r = topk_softmax(topk_softmax_trait{o.pr_i, o.pr_w, o.activation}, args, cfg);

    std::cout << "[" << o.pr_i << "|" << o.pr_w << "] tokens:" << o.t << ", experts:" << o.e << ", topk:" << o.k
              << ", st_i:" << o.st_i << ", st_o:" << o.st_o << ", activation:" << o.activation << ", seed:" << o.seed;
    if(o.ties > 0)
        std::cout << ", ties:" << o.ties;
    if(o.kname)
        std::cout << ", " << r.kernel_name;
    std::cout << std::endl;
    // the bytes moved: the logits once, the weights and indices once
    const double bytes = double(sizeof(InputType)) * t * e + double(sizeof(WeightType) + sizeof(IndexType)) * t * k;
    std::cout << "Perf: " << r.ms << " ms, " << bytes / 1e6 / r.ms << " GB/s" << std::endl;
    if(!o.verify)
        return true;

    w_dev.FromDevice(w_host.data());
    i_dev.FromDevice(i_host.data());
    ck_tile::HostTensor<WeightType> w_ref({t, k}, {static_cast<std::size_t>(o.st_o), std::size_t{1}});
    ck_tile::HostTensor<IndexType> i_ref({t, k}, {static_cast<std::size_t>(o.st_o), std::size_t{1}});
    ck_tile::reference_topk_softmax(x_host, w_ref, i_ref, o.activation);

    // Both outputs must match: the kernel ranks the logits as the reference does (equal logits:
    // lower index first), so the indices agree exactly on any backend; the weights within the
    // fp32 arithmetic's error (reference_topk_softmax_tolerance: about 2e-5 relative at 64 experts).
    const ck_tile::tolerance tol = ck_tile::reference_topk_softmax_tolerance(e);
    const bool w_ok = ck_tile::check_err(w_host.mData, w_ref.mData, "Error: weights are wrong!", tol.rtol, tol.atol);
    const bool i_ok = ck_tile::check_err(i_host.mData, i_ref.mData, "Error: indices are wrong!", 0, 0);
    const bool pass = w_ok && i_ok;
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
    p.insert("v", "1", "verification: 0 none, 1 CPU reference")
        .insert("pr_i", "fp16", "type of the logits: fp16 or bf16")
        .insert("pr_w", "fp32", "type of the weights: fp32")
        .insert("t", "32", "tokens (rows)")
        .insert("e", "8", "experts (columns), 1 to 512")
        .insert("k", "2", "experts chosen per token (topk), 1 to e")
        .insert("st_i", "-1", "row stride of the logits (-1: e)")
        .insert("st_o", "-1", "row stride of the weights and the indices (-1: k)")
        .insert("seed", "-1", "random seed (-1: the fixed seed 11939, printed)")
        .insert("ties", "0", "0: unique logits in each row (upstream); n > 0: each logit one of n levels in [-5, 5]")
        .insert("activation", "softmax", "softmax (over the row, then top-k) or sigmoid (top-k, then sigmoid)")
        .insert("kname", "0", "print the kernel name: 0 or 1")
        .insert("warmup", warmup_default, "untimed launches before timing")
        .insert("repeat", repeat_default, "timed launches (the perf line is their average)");
    if(!p.parse(argc, argv))
        return p.help_requested() ? 0 : 1;

    try
    {
        const Options o = read_options(p);
        const bool pass = o.pr_i == "fp16" ? run<ck_tile::half_t>(o) : run<ck_tile::bf16_t>(o);
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
