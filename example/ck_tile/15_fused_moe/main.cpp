// SPDX-License-Identifier: MIT
// tile_example_fused_moe: a MoE layer's expert GEMMs over a random routing. Each token goes to k of
// e experts with a weight; per (token, expert) Y = act(A G^T) (gate only) or act(A G_gate^T) *
// A G_up^T (gate + up), and O[token] += weight * Y D^T. -api=0 runs MoE sorting (which also zeroes
// O) then FusedMoeGemmKernel; -api=1 runs the GEMM kernel over a host sorting. Checked against
// reference_moe_sorting + reference_fused_moe. -? lists the options.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <iostream>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "ck_tile/host/fused_moe_tolerance.hpp"
#include "ck_tile/host/reference/reference_fused_moe.hpp"
#include "ck_tile/host/reference/reference_moe_sorting.hpp"
#include "ck_tile/host/shuffle_moe_weight.hpp"
#include "fused_moe.hpp"

namespace {

struct Options
{
    int t, e, k, h, i, interm, tp, stride, bm, api, act, init, warmup, repeat, dispatch;
    bool verify, kname, gate_only, balance;
    long long seed;
    std::string prec_i, prec_w, prec_o, prec_kw;
};

std::string read_prec(const ck_tile::ArgParser& p, const std::string& key, const std::string& fallback)
{
    std::string v = p.get_str(key);
    if(v == "auto")
        v = fallback;
    return v;
}

Options read_options(const ck_tile::ArgParser& p)
{
    using ck_tile::arg_error;
    const auto s = [](long long v) { return std::to_string(v); };
    Options o{};
    o.verify = p.get_int_in_range("v", 0, 1) == 1;
    o.prec_i = p.get_str("prec_i");
    if(o.prec_i != "bf16" && o.prec_i != "fp16")
        throw arg_error("error: option -prec_i: '" + o.prec_i + "' is not supported (bf16 or fp16)");
    o.prec_w = read_prec(p, "prec_w", o.prec_i);
    if(o.prec_w != o.prec_i)
        throw arg_error("error: option -prec_w: '" + o.prec_w + "' is not supported (the same as -prec_i, " + o.prec_i +
                        ")");
    o.prec_o = read_prec(p, "prec_o", o.prec_i);
    if(o.prec_o != o.prec_i)
        throw arg_error("error: option -prec_o: '" + o.prec_o + "' is not supported (the same as -prec_i, " + o.prec_i +
                        ")");
    for(const char* key : {"prec_st", "prec_sw", "prec_sq"})
        if(p.get_str(key) != "auto" && p.get_str(key) != "fp32")
            throw arg_error(std::string("error: option -") + key + ": '" + p.get_str(key) +
                            "' is not supported (auto or fp32)");
    o.prec_kw = read_prec(p, "prec_kw", "fp32");
    if(o.prec_kw != "fp32")
        throw arg_error("error: option -prec_kw: '" + o.prec_kw + "' is not supported (auto or fp32)");
    if(p.get_int("fquant") != 0)
        throw arg_error("error: option -fquant: " + p.get_str("fquant") + " is not supported (0: no quantization)");

    o.t = p.get_int_in_range("t", 1, (1 << 24) - 1); // a token index has 24 bits
    o.e = p.get_int_at_least("e", 1);
    o.k = p.get_int_in_range("k", 1, 255); // a topk slot has 8 bits
    if(o.k > o.e)
        throw arg_error("error: option -k: must be <= -e (" + s(o.e) + "), got " + s(o.k));
    constexpr int kVec = 8; // 16 bytes of a 16-bit type
    o.h                = p.get_int_at_least("h", 1);
    if(o.h % kVec != 0)
        throw arg_error("error: option -h: must be a multiple of " + s(kVec) + " (16 bytes), got " + s(o.h));
    o.i  = p.get_int_at_least("i", 1);
    o.tp = p.get_int_at_least("tp", 1);
    if(o.i % o.tp != 0)
        throw arg_error("error: option -tp: must divide -i (" + s(o.i) + "), got " + s(o.tp));
    o.interm = o.i / o.tp;
    if(o.interm % kVec != 0)
        throw arg_error("error: option -i: the per-rank intermediate size i / tp must be a multiple of " + s(kVec) +
                        " (16 bytes), got " + s(o.interm));
    o.stride = p.get_int("stride");
    if(o.stride == -1)
        o.stride = o.h;
    else if(o.stride < o.h || o.stride % kVec != 0)
        throw arg_error("error: option -stride: must be -1 (h) or a multiple of " + s(kVec) + " >= h (" + s(o.h) +
                        "), got " + s(o.stride));
    o.bm = p.get_int("bm");
    if(o.bm != 32)
        throw arg_error("error: option -bm: only 32 is supported, got " + s(o.bm));
    o.gate_only = p.get_int_in_range("gate_only", 0, 1) == 1;
    o.api       = p.get_int_in_range("api", 0, 1);
    o.act       = p.get_int_in_range("act", 0, 1);
    o.balance   = p.get_int_in_range("balance", 0, 1) == 1;
    o.init      = p.get_int_in_range("init", 0, 2);
    o.dispatch  = p.get_int_in_range("dispatch", 0, 2);
    o.seed      = p.get_int64("seed");
    o.kname     = p.get_int_in_range("kname", 0, 1) == 1;
    o.warmup    = p.get_int_at_least("warmup", 0);
    o.repeat    = p.get_int_at_least("repeat", 1);

    const long long ids = static_cast<long long>(o.t) * o.k + static_cast<long long>(o.e) * o.bm;
    if(ids >= (1LL << 31))
        throw arg_error("error: t x k + e x bm is too large: the sorted ids must have fewer than 2^31 entries");
    const long long g_elems =
        static_cast<long long>(o.gate_only ? 1 : 2) * o.e * ck_tile::moe_weight_layout::matrix_size(o.interm, o.h);
    const long long d_elems = static_cast<long long>(o.e) * ck_tile::moe_weight_layout::matrix_size(o.h, o.interm);
    if(2 * std::max({g_elems, d_elems, static_cast<long long>(o.t) * o.stride}) > (1LL << 31) - 1)
        throw arg_error("error: a tensor of these sizes spans more than 2^31 - 1 bytes (32-bit buffer offsets)");
    return o;
}

// k distinct experts per token: uniformly (balance 0) or round robin (balance 1)
void fill_topk(ck_tile::HostTensor<ck_tile::index_t>& ids, ck_tile::HostTensor<float>& w, const Options& o,
               std::mt19937& rng)
{
    std::vector<int> perm(o.e);
    for(int x = 0; x < o.e; ++x)
        perm[x] = x;
    std::uniform_real_distribution<float> wd(0.f, 1.f);
    for(int t = 0; t < o.t; ++t)
    {
        for(int s = 0; s < o.k; ++s)
        {
            if(o.balance)
                ids(t, s) = static_cast<int>((static_cast<long long>(t) * o.k + s) % o.e);
            else
            {
                std::uniform_int_distribution<int> d(s, o.e - 1);
                std::swap(perm[s], perm[d(rng)]);
                ids(t, s) = perm[s];
            }
        }
        float sum = 0.f;
        for(int s = 0; s < o.k; ++s)
            sum += (w(t, s) = wd(rng) + 1e-3f);
        for(int s = 0; s < o.k; ++s)
            w(t, s) /= sum; // a softmax-like routing: the weights of a token sum to 1
    }
}

// init 0: a stepped pattern (multiples of 1/16 in [-0.5, 0.5]); 1: uniform in [-0.5, 0.5); 2: normal(0, 0.5)
template <typename T>
void fill_values(ck_tile::HostTensor<T>& x, int init, std::mt19937& rng, int salt)
{
    if(init == 0)
    {
        for(std::size_t n = 0; n < x.mData.size(); ++n)
            x.mData[n] = ck_tile::type_convert<T>(static_cast<float>(static_cast<int>((n * 7 + salt) % 17) - 8) / 16.f);
    }
    else if(init == 1)
    {
        std::uniform_real_distribution<float> d(-0.5f, 0.5f);
        for(auto& v : x.mData)
            v = ck_tile::type_convert<T>(d(rng));
    }
    else
    {
        std::normal_distribution<float> d(0.f, 0.5f);
        for(auto& v : x.mData)
            v = ck_tile::type_convert<T>(d(rng));
    }
}

template <typename T>
bool run_typed(const Options& o)
{
    using index_t            = ck_tile::index_t;
    const std::uint64_t seed = o.seed < 0 ? std::random_device{}() : static_cast<std::uint64_t>(o.seed);
    std::mt19937 rng(static_cast<std::mt19937::result_type>(seed));
    const auto t = static_cast<std::size_t>(o.t), e = static_cast<std::size_t>(o.e), k = static_cast<std::size_t>(o.k),
               h = static_cast<std::size_t>(o.h), in = static_cast<std::size_t>(o.interm);

    ck_tile::HostTensor<index_t> topk_ids({t, k});
    ck_tile::HostTensor<float> topk_w({t, k});
    fill_topk(topk_ids, topk_w, o, rng);
    ck_tile::HostTensor<T> a({t, static_cast<std::size_t>(o.stride)});
    ck_tile::HostTensor<T> g({e, o.gate_only ? in : 2 * in, h}); // gate rows, then up rows
    ck_tile::HostTensor<T> d({e, h, in});
    fill_values(a, o.init, rng, 1);
    fill_values(g, o.init, rng, 5);
    fill_values(d, o.init, rng, 11);
    // G as matrices [experts (x2 with up), interm, hidden], D as [experts, hidden, interm], shuffled
    ck_tile::HostTensor<T> g_mats({o.gate_only ? e : 2 * e, in, h});
    g_mats.mData                        = g.mData;
    const ck_tile::HostTensor<T> g_shuf = ck_tile::shuffle_moe_weight(g_mats);
    const ck_tile::HostTensor<T> d_shuf = ck_tile::shuffle_moe_weight(d);

    // the host sorting: api 1 runs on it, api 0 is checked against it
    const index_t max_ids   = ck_tile::moe_sorting_max_output_ids(o.t, o.e, o.k, o.bm);
    const index_t max_tiles = max_ids / o.bm;
    ck_tile::HostTensor<index_t> ids_ref({static_cast<std::size_t>(max_ids)});
    ck_tile::HostTensor<float> w_ref({static_cast<std::size_t>(max_ids)});
    ck_tile::HostTensor<index_t> eid_ref({static_cast<std::size_t>(max_tiles)});
    index_t tiles_ref = 0;
    ck_tile::reference_moe_sorting<float, index_t>(topk_ids, topk_w, ck_tile::HostTensor<index_t>{}, ids_ref, w_ref,
                                                   eid_ref, tiles_ref, o.e, o.bm);
    const index_t rows_ref = tiles_ref * o.bm;

    ck_tile::DeviceMem a_dev(a.get_element_space_size_in_bytes());
    ck_tile::DeviceMem g_dev(g_shuf.get_element_space_size_in_bytes());
    ck_tile::DeviceMem d_dev(d_shuf.get_element_space_size_in_bytes());
    ck_tile::DeviceMem o_dev(t * o.stride * sizeof(T));
    ck_tile::DeviceMem ids_dev(topk_ids.get_element_space_size_in_bytes());
    ck_tile::DeviceMem tw_dev(topk_w.get_element_space_size_in_bytes());
    ck_tile::DeviceMem sorted_ids_dev(max_ids * sizeof(index_t));
    ck_tile::DeviceMem sorted_w_dev(max_ids * sizeof(float));
    ck_tile::DeviceMem sorted_eid_dev(max_tiles * sizeof(index_t));
    ck_tile::DeviceMem total_dev(2 * sizeof(index_t));
    a_dev.ToDevice(a.data());
    g_dev.ToDevice(g_shuf.data());
    d_dev.ToDevice(d_shuf.data());
    ids_dev.ToDevice(topk_ids.data());
    tw_dev.ToDevice(topk_w.data());
    {
        // garbage where the launches write (api 0) so that a missing write fails the check
        std::vector<unsigned char> junk(std::max<std::size_t>(t * o.stride * sizeof(T), max_ids * 4ul), 0x5a);
        o_dev.ToDevice(junk.data());
        if(o.api == 0)
        {
            sorted_ids_dev.ToDevice(junk.data());
            sorted_w_dev.ToDevice(junk.data());
            sorted_eid_dev.ToDevice(junk.data());
            total_dev.ToDevice(junk.data());
        }
        else
        {
            sorted_ids_dev.ToDevice(ids_ref.data());
            sorted_w_dev.ToDevice(w_ref.data());
            sorted_eid_dev.ToDevice(eid_ref.data());
            const index_t total[2] = {rows_ref, o.t};
            total_dev.ToDevice(total);
        }
    }

    fused_moe_traits tr{};
    tr.prec_i           = o.prec_i;
    tr.prec_w           = o.prec_w;
    tr.prec_o           = o.prec_o;
    tr.prec_kw          = o.prec_kw;
    tr.block_m          = o.bm;
    tr.activation       = o.act;
    tr.gate_only        = o.gate_only;
    tr.sorting_dispatch = o.dispatch;
    fused_moe_args ar{};
    ar.a_ptr                 = a_dev.GetDeviceBuffer();
    ar.g_ptr                 = g_dev.GetDeviceBuffer();
    ar.d_ptr                 = d_dev.GetDeviceBuffer();
    ar.o_ptr                 = o_dev.GetDeviceBuffer();
    ar.sorted_token_ids_ptr  = sorted_ids_dev.GetDeviceBuffer();
    ar.sorted_weight_ptr     = sorted_w_dev.GetDeviceBuffer();
    ar.sorted_expert_ids_ptr = sorted_eid_dev.GetDeviceBuffer();
    ar.num_sorted_tiles_ptr  = total_dev.GetDeviceBuffer();
    ar.hidden_size           = o.h;
    ar.intermediate_size     = o.interm;
    ar.num_tokens            = o.t;
    ar.num_experts           = o.e;
    ar.topk                  = o.k;
    ar.stride_token          = o.stride;
    ar.topk_ids_ptr          = ids_dev.GetDeviceBuffer();
    ar.topk_weight_ptr       = tw_dev.GetDeviceBuffer();
    const index_t ws_bytes   = fused_moe_get_workspace_size(tr, ar);
    ck_tile::DeviceMem ws_dev(std::max<index_t>(ws_bytes, 4));
    ar.ws_ptr = ws_bytes > 0 ? ws_dev.GetDeviceBuffer() : nullptr;

    const ck_tile::stream_config cfg{nullptr, true, 0, o.warmup, o.repeat};
    fused_moe_result r;
    if(o.api == 0)
        r = fused_moe(tr, ar, cfg);
    else
    {
        // the GEMM adds into O: zero it before every launch (a memset, timed with the kernel)
        fused_moe_launch g_launch = fused_moegemm_launch(tr, ar);
        auto zero_o               = [&](const ck_tile::stream_config&) { o_dev.SetZero(); };
        r                         = {g_launch.name, ck_tile::launch_kernel(cfg, zero_o, g_launch.run)};
    }

    // FLOPs and bytes of the real (token, expert) pairs and the experts that got any
    std::set<int> used(topk_ids.mData.begin(), topk_ids.mData.end());
    const double pairs = static_cast<double>(o.t) * o.k;
    const double flop  = pairs * 2.0 * o.h * o.interm * (o.gate_only ? 2.0 : 3.0);
    const double bytes = sizeof(T) * (static_cast<double>(o.t) * o.h * 2.0 +
                                      static_cast<double>(used.size()) * o.h * o.interm * (o.gate_only ? 2.0 : 3.0)) +
                         pairs * (4.0 + 4.0);
    static const char* act_names[] = {"gelu", "silu"};
    std::cout << "[fmoe|" << o.prec_i << "|api" << o.api << "] t:" << o.t << ", e:" << o.e << ", k:" << o.k
              << ", hidden:" << o.h << ", interm:" << o.i << ", tp:" << o.tp << ", stride:" << o.stride
              << ", act:" << act_names[o.act] << ", " << (o.gate_only ? "g1u0" : "g1u1") << ", q:0, bm:" << o.bm
              << ", balance:" << (o.balance ? 1 : 0) << ", init:" << o.init << ", seed:" << seed
              << ", experts with tokens:" << used.size() << "/" << o.e << ", padded rows:" << rows_ref;
    if(o.kname)
        std::cout << ", " << r.kernel_name;
    std::cout << std::endl;
    std::cout << "Perf: " << r.ms << " ms, " << flop / 1e9 / r.ms << " TFlops, " << bytes / 1e6 / r.ms << " GB/s"
              << std::endl;
    if(!o.verify)
        return true;

    bool pass = true;
    if(o.api == 0)
    {
        // the device sorting must be the host's, exactly
        index_t total[2];
        total_dev.FromDevice(total);
        if(total[0] != rows_ref || total[1] != o.t)
        {
            std::cout << "Error: total_tokens_post_pad is " << total[0] << "/" << total[1] << ", expected " << rows_ref
                      << "/" << o.t << std::endl;
            pass = false;
        }
        else
        {
            std::vector<index_t> ids_out(max_ids), eid_out(max_tiles);
            std::vector<float> w_out(max_ids);
            sorted_ids_dev.FromDevice(ids_out.data());
            sorted_w_dev.FromDevice(w_out.data());
            sorted_eid_dev.FromDevice(eid_out.data());
            if(std::memcmp(ids_out.data(), ids_ref.data(), rows_ref * sizeof(index_t)) != 0 ||
               std::memcmp(w_out.data(), w_ref.data(), rows_ref * sizeof(float)) != 0 ||
               std::memcmp(eid_out.data(), eid_ref.data(), tiles_ref * sizeof(index_t)) != 0)
            {
                std::cout << "Error: the device sorting differs from reference_moe_sorting" << std::endl;
                pass = false;
            }
        }
    }

    ck_tile::HostTensor<T> a_rows({t, h});
    for(std::size_t r_ = 0; r_ < t; ++r_)
        for(std::size_t c = 0; c < h; ++c)
            a_rows(r_, c) = a(r_, c);
    ck_tile::HostTensor<T> o_ref({t, h});
    const auto ref = [&](const auto& act) {
        ck_tile::reference_fused_moe<float>(a_rows, g, d, o_ref, ids_ref, w_ref, eid_ref, rows_ref, o.bm, o.gate_only,
                                            act);
    };
    if(o.act == 0)
        ref(ck_tile::element_wise::FastGelu{});
    else
        ref(ck_tile::element_wise::Silu{});

    ck_tile::HostTensor<T> o_full({t, static_cast<std::size_t>(o.stride)});
    o_dev.FromDevice(o_full.data());
    ck_tile::HostTensor<T> o_out({t, h});
    for(std::size_t r_ = 0; r_ < t; ++r_)
        for(std::size_t c = 0; c < h; ++c)
            o_out(r_, c) = o_full(r_, c);
    // tolerance (README, "Checking"; fused_moe_tolerance.hpp): the kernel rounds each of the n_adds
    // partial results of an element to O's type and every atomic add rounds the running sum, where
    // the reference rounds once; the partial sums are not bounded by the element, so the bound is in
    // ulps of the largest output
    const int n_adds             = ck_tile::fused_moe_adds_per_element(o.k, o.interm, fused_moegemm_block_n0);
    const double max_ref         = ck_tile::max_abs_value(o_ref.mData);
    const ck_tile::tolerance tol = ck_tile::fused_moe_tolerance<T>(n_adds, max_ref);
    const double rtol = tol.rtol, atol = tol.atol;
    double max_err = 0;
    for(std::size_t n = 0; n < o_out.mData.size(); ++n)
        max_err = std::max(max_err, static_cast<double>(std::abs(ck_tile::type_convert<float>(o_out.mData[n]) -
                                                                 ck_tile::type_convert<float>(o_ref.mData[n]))));
    pass = ck_tile::check_err(o_out, o_ref, "Error: O differs from reference_fused_moe", rtol, atol) && pass;
    std::cout << "max|O_ref|:" << max_ref << ", max error:" << max_err << ", atomic adds per element:" << n_adds
              << ", rtol:" << rtol << ", atol:" << atol << std::endl;
    return pass;
}

bool run(const Options& o)
{
    return o.prec_i == "bf16" ? run_typed<ck_tile::bf16_t>(o) : run_typed<ck_tile::half_t>(o);
}

} // namespace

int main(int argc, char* argv[])
{
    // upstream's defaults on a GPU; the emulator's are sized to run in seconds
#if defined(CK_TILE_RUNS_ON_CPU)
    const char *t_default = "128", *e_default = "8", *k_default = "2", *h_default = "512", *i_default = "512",
               *tp_default = "1", *warmup_default = "0", *repeat_default = "1";
#else
    const char *t_default = "128", *e_default = "32", *k_default = "5", *h_default = "8192", *i_default = "8192",
               *tp_default = "8", *warmup_default = "5", *repeat_default = "20";
#endif
    ck_tile::ArgParser p;
    p.insert("t", t_default, "number of tokens")
        .insert("e", e_default, "number of experts")
        .insert("k", k_default, "topk: experts per token (<= e)")
        .insert("h", h_default, "hidden size (a multiple of 8)")
        .insert("i", i_default, "intermediate size, all ranks (i / tp per rank, a multiple of 8)")
        .insert("tp", tp_default, "tensor-parallel ranks: the kernel runs one rank's i / tp")
        .insert("stride", "-1", "token stride of A and O in elements (-1: h)")
        .insert("bm", "32", "block_m: the sorting unit and the GEMM's M tile (32 only)")
        .insert("v", "1", "verification: 0 none, 1 CPU reference")
        .insert("kname", "0", "print the kernel names: 0 or 1")
        .insert("prec_i", "bf16", "A type: bf16 or fp16")
        .insert("prec_w", "auto", "G and D type: auto (prec_i) or prec_i")
        .insert("prec_o", "auto", "O type: auto (prec_i) or prec_i")
        .insert("prec_st", "auto", "token scale type (quantization only): auto or fp32")
        .insert("prec_sw", "auto", "weight scale type (quantization only): auto or fp32")
        .insert("prec_sq", "auto", "smooth quant scale type (quantization only): auto or fp32")
        .insert("prec_kw", "auto", "topk weight type: auto (fp32) or fp32")
        .insert("fquant", "0", "fused quantization: 0 none (the only one)")
        .insert("gate_only", "1", "1: Y = act(A G^T); 0: gate and up, Y = act(A G_gate^T) * A G_up^T")
        .insert("api", "0", "0: fused MoE sorting + GEMMs, 1: the GEMMs only (host sorting)")
        .insert("act", "0", "activation: 0 gelu (tanh form), 1 silu")
        .insert("balance", "0", "1: route token t's slot s to expert (t * k + s) mod e; 0: random distinct experts")
        .insert("init", "1", "0 stepped, 1 uniform in [-0.5, 0.5), 2 normal(0, 0.5)")
        .insert("seed", "11939", "random seed (-1: a random one, printed)")
        .insert("dispatch", "0", "sorting kernel of api 0: 0 auto, 1 single workgroup, 2 multi-phase")
        .insert("warmup", warmup_default, "untimed launches before timing")
        .insert("repeat", repeat_default, "timed launches (the perf line is their average)");
    if(!p.parse(argc, argv))
        return p.help_requested() ? 0 : 1;

    try
    {
        const Options o = read_options(p);
        const bool pass = run(o);
        if(o.verify)
            std::cout << "valid:" << (pass ? "y" : "n") << std::endl;
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
