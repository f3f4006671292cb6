// SPDX-License-Identifier: MIT
// tile_example_moe_sorting: sort the (token, topk slot) pairs of a random [t, k] routing by expert,
// padded per expert to multiples of -unit, with optional local-expert masking (-local_eid), a local
// token count (-local_t) and a zeroed moe buffer; checked exactly against reference_moe_sorting.
// -? lists the options.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <iostream>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "ck_tile/host/reference/reference_moe_sorting.hpp"
#include "moe_sorting_api.hpp"

namespace {

struct Options
{
    int t, e, k, unit, interm_dim, elem_bytes, dispatch, local_t, warmup, repeat;
    bool verify, ci, kname;
    long long seed;
    std::string pr_i, pr_w, local_eid_str;
    std::vector<int> local_eid; // empty: all experts are local
};

std::vector<int> parse_local_eid(const std::string& s, int e)
{
    std::vector<int> v;
    if(s == "-1")
        return v;
    const std::string prefix = "error: option -local_eid: ";
    std::stringstream ss(s);
    std::string item;
    while(std::getline(ss, item, ','))
    {
        std::size_t used = 0;
        int x            = -1;
        try
        {
            x = std::stoi(item, &used);
        }
        catch(const std::exception&)
        {
            used = 0;
        }
        if(item.empty() || used != item.size())
            throw ck_tile::arg_error(prefix + "'" + s + "' is not -1 or a comma list of expert ids");
        if(x < 0 || x >= e)
            throw ck_tile::arg_error(prefix + "expert " + item + " is outside [0, " + std::to_string(e - 1) + "]");
        if(!v.empty() && x <= v.back())
            throw ck_tile::arg_error(prefix + "the expert ids must be ascending, got " + std::to_string(x) + " after " +
                                     std::to_string(v.back()));
        v.push_back(x);
    }
    if(v.empty() || s.back() == ',')
        throw ck_tile::arg_error(prefix + "'" + s + "' is not -1 or a comma list of expert ids");
    return v;
}

Options read_options(const ck_tile::ArgParser& p)
{
    Options o{};
    o.verify = p.get_int_in_range("v", 0, 1) == 1;
    o.pr_i   = p.get_str("pr_i");
    if(o.pr_i != "int32")
        throw ck_tile::arg_error("error: option -pr_i: '" + o.pr_i + "' is not supported (int32)");
    o.pr_w = p.get_str("pr_w");
    if(o.pr_w != "fp32")
        throw ck_tile::arg_error("error: option -pr_w: '" + o.pr_w + "' is not supported (fp32)");
    o.t = p.get_int_in_range("t", 1, (1 << 24) - 1); // a token index has 24 bits
    o.e = p.get_int_at_least("e", 1);
    o.k = p.get_int_in_range("k", 1, 255); // a topk slot has 8 bits
    if(o.k > o.e)
        throw ck_tile::arg_error("error: option -k: must be <= -e (" + std::to_string(o.e) + "), got " +
                                 std::to_string(o.k));
    o.unit = p.get_int_at_least("unit", 1);
    if((o.unit & (o.unit - 1)) != 0)
        throw ck_tile::arg_error("error: option -unit: must be a power of two, got " + std::to_string(o.unit));
    o.interm_dim = p.get_int_at_least("moe_buf_interm_dim", 0);
    o.elem_bytes = p.get_int_at_least("moe_buf_elem_bytes", 1);
    o.ci         = p.get_int_in_range("ci", 0, 1) == 1;
    o.dispatch   = p.get_int_in_range("dispatch", 0, 2);
    if(o.dispatch == 1 && 4 * o.e + 1 > ck_tile::MoeSortingKernel<ck_tile::MoeSortingProblem<int, float>>::kSmemWords)
        throw ck_tile::arg_error(
            "error: option -dispatch: the single-workgroup kernel takes at most 2047 experts, got " +
            std::to_string(o.e) + " (use 0 or 2)");
    o.local_t = p.get_int("local_t");
    if(o.local_t != -1 && (o.local_t < 0 || o.local_t > o.t))
        throw ck_tile::arg_error("error: option -local_t: must be -1 or in [0, " + std::to_string(o.t) + "], got " +
                                 std::to_string(o.local_t));
    o.local_eid_str     = p.get_str("local_eid");
    o.local_eid         = parse_local_eid(o.local_eid_str, o.e);
    o.seed              = p.get_int64("seed");
    o.kname             = p.get_int_in_range("kname", 0, 1) == 1;
    o.warmup            = p.get_int_at_least("warmup", 0);
    o.repeat            = p.get_int_at_least("repeat", 1);
    const long long ids = static_cast<long long>(o.t) * o.k + static_cast<long long>(o.e) * o.unit;
    if(ids >= (1LL << 31))
        throw ck_tile::arg_error(
            "error: t x k + e x unit is too large: the sorted ids must have fewer than 2^31 entries");
    if(static_cast<long long>(o.t) * o.interm_dim * o.elem_bytes >= (1LL << 34))
        throw ck_tile::arg_error(
            "error: the moe buffer (t x moe_buf_interm_dim x moe_buf_elem_bytes) must be below 16 GiB");
    return o;
}

// k distinct experts per token, uniformly
void fill_topk_ids(ck_tile::HostTensor<ck_tile::index_t>& ids, int t, int e, int k, std::mt19937& rng)
{
    std::vector<int> perm(e);
    for(int i = 0; i < e; ++i)
        perm[i] = i;
    for(int i = 0; i < t; ++i)
    {
        if(2 * k <= e)
        {
            std::uniform_int_distribution<int> d(0, e - 1);
            for(int s = 0; s < k;)
            {
                const int x = d(rng);
                bool dup    = false;
                for(int r = 0; r < s && !dup; ++r)
                    dup = ids(i, r) == x;
                if(!dup)
                    ids(i, s++) = x;
            }
        }
        else
        {
            for(int s = 0; s < k; ++s)
            {
                std::uniform_int_distribution<int> d(s, e - 1);
                std::swap(perm[s], perm[d(rng)]);
                ids(i, s) = perm[s];
            }
        }
    }
}

bool run(const Options& o)
{
    using index_t            = ck_tile::index_t;
    const int n_tok          = o.local_t < 0 ? o.t : o.local_t;
    const std::uint64_t seed = o.seed < 0 ? std::random_device{}() : static_cast<std::uint64_t>(o.seed);
    std::mt19937 rng(static_cast<std::mt19937::result_type>(seed));

    const auto t = static_cast<std::size_t>(o.t), k = static_cast<std::size_t>(o.k);
    ck_tile::HostTensor<index_t> topk_ids({t, k});
    ck_tile::HostTensor<float> weights({t, k});
    fill_topk_ids(topk_ids, o.t, o.e, o.k, rng);
    {
        std::uniform_real_distribution<float> d(0.f, 1.f);
        for(auto& w : weights.mData)
            w = d(rng);
    }
    ck_tile::HostTensor<index_t> mask; // empty: every expert is local
    if(!o.local_eid.empty())
    {
        mask = ck_tile::HostTensor<index_t>({static_cast<std::size_t>(o.e)});
        std::fill(mask.mData.begin(), mask.mData.end(), 0);
        for(int x : o.local_eid)
            mask(x) = 1;
    }

    const index_t max_ids           = ck_tile::moe_sorting_max_output_ids(o.t, o.e, o.k, o.unit);
    const index_t max_units         = max_ids / o.unit;
    const std::size_t moe_buf_bytes = t * static_cast<std::size_t>(o.interm_dim) * o.elem_bytes;
    const index_t ws_bytes          = ck_tile::moe_sorting_get_workspace_size(o.t, o.e, o.k, o.dispatch);

    ck_tile::DeviceMem ids_dev(topk_ids.get_element_space_size_in_bytes());
    ck_tile::DeviceMem w_dev(weights.get_element_space_size_in_bytes());
    ck_tile::DeviceMem mask_dev(std::max<std::size_t>(mask.mData.size() * sizeof(index_t), 4));
    ck_tile::DeviceMem local_t_dev(sizeof(index_t));
    ck_tile::DeviceMem sorted_ids_dev(max_ids * sizeof(index_t));
    ck_tile::DeviceMem sorted_w_dev(max_ids * sizeof(float));
    ck_tile::DeviceMem sorted_eid_dev(max_units * sizeof(index_t));
    ck_tile::DeviceMem total_dev(2 * sizeof(index_t));
    ck_tile::DeviceMem moe_buf_dev(std::max<std::size_t>(moe_buf_bytes, 16));
    ck_tile::DeviceMem ws_dev(std::max<index_t>(ws_bytes, 4));
    ids_dev.ToDevice(topk_ids.data());
    w_dev.ToDevice(weights.data());
    if(!mask.mData.empty())
        mask_dev.ToDevice(mask.data());
    local_t_dev.ToDevice(&n_tok);
    // garbage everywhere the launch writes, so that a missing write fails the check
    {
        std::vector<unsigned char> junk(
            std::max<std::size_t>({moe_buf_bytes, max_ids * 4ul, 16ul, std::size_t(ws_bytes)}), 0xa5);
        sorted_ids_dev.ToDevice(junk.data());
        sorted_w_dev.ToDevice(junk.data());
        sorted_eid_dev.ToDevice(junk.data());
        total_dev.ToDevice(junk.data());
        moe_buf_dev.ToDevice(junk.data());
        if(ws_bytes > 0)
            ws_dev.ToDevice(junk.data());
    }

    moe_sorting_args a{};
    a.p_topk_ids              = ids_dev.GetDeviceBuffer();
    a.p_weights               = w_dev.GetDeviceBuffer();
    a.p_local_expert_mask     = mask.mData.empty() ? nullptr : mask_dev.GetDeviceBuffer();
    a.p_local_tokens          = o.local_t < 0 ? nullptr : local_t_dev.GetDeviceBuffer();
    a.p_sorted_token_ids      = sorted_ids_dev.GetDeviceBuffer();
    a.p_sorted_weights        = sorted_w_dev.GetDeviceBuffer();
    a.p_sorted_expert_ids     = sorted_eid_dev.GetDeviceBuffer();
    a.p_total_tokens_post_pad = total_dev.GetDeviceBuffer();
    a.p_moe_buf               = moe_buf_bytes > 0 ? moe_buf_dev.GetDeviceBuffer() : nullptr;
    a.p_ws                    = ws_bytes > 0 ? ws_dev.GetDeviceBuffer() : nullptr;
    a.tokens                  = o.t;
    a.unit_size               = o.unit;
    a.num_experts             = o.e;
    a.topk                    = o.k;
    a.moe_buf_interm_dim      = o.interm_dim;
    a.moe_buf_elem_bytes      = o.elem_bytes;

    const moe_sorting_trait trait{o.pr_i, o.pr_w, !o.local_eid.empty(), o.ci, o.dispatch};
    const ck_tile::stream_config cfg{nullptr, true, 0, o.warmup, o.repeat};
    const moe_sorting_result r = moe_sorting(trait, a, cfg);

    static const char* dispatch_names[] = {"auto", "single", "mp"};
    std::cout << "[" << o.pr_i << "|" << o.pr_w << "|" << (o.ci ? "ci" : "co") << "|" << dispatch_names[o.dispatch]
              << "]tokens:" << o.t;
    if(o.local_t >= 0)
        std::cout << "(" << o.local_t << ")";
    std::cout << ", num_experts:" << o.e << ", topk:" << o.k << ", unit:" << o.unit << ", mp:" << (r.mp ? 1 : 0);
    if(!o.local_eid.empty())
        std::cout << ", local_eid:" << o.local_eid_str;
    if(moe_buf_bytes > 0)
        std::cout << ", moe_buf:" << o.interm_dim << "x" << o.elem_bytes;
    if(o.kname)
        std::cout << ", " << r.kernel_name;
    std::cout << ", seed:" << seed << std::endl;

    ck_tile::HostTensor<index_t> total({2});
    total_dev.FromDevice(total.data());
    const index_t padded = total(0);
    // the bytes moved: topk ids read twice (count and scatter), weights once, the sorted outputs
    // written once over the padded length, the moe buffer; the small per-chunk tables not counted
    const double bytes = 8.0 * n_tok * o.k + 4.0 * n_tok * o.k + 8.0 * std::clamp(padded, 0, max_ids) +
                         4.0 * (std::clamp(padded, 0, max_ids) / o.unit) + 8.0 + double(moe_buf_bytes);
    std::cout << "Perf: " << r.ms << " ms, " << bytes / 1e6 / r.ms << " GB/s" << std::endl;
    if(!o.verify)
        return true;

    ck_tile::HostTensor<index_t> ids_ref({static_cast<std::size_t>(max_ids)});
    ck_tile::HostTensor<float> w_ref({static_cast<std::size_t>(max_ids)});
    ck_tile::HostTensor<index_t> eid_ref({static_cast<std::size_t>(max_units)});
    index_t units_ref = 0;
    ck_tile::reference_moe_sorting<float, index_t>(topk_ids, weights, mask, ids_ref, w_ref, eid_ref, units_ref, o.e,
                                                   o.unit, o.local_t);
    const index_t padded_ref = units_ref * o.unit;
    std::cout << "total_tokens_post_pad:" << padded_ref << "(" << padded << ")" << std::endl;

    bool pass = true;
    if(padded != padded_ref)
    {
        std::cout << "Error: total_tokens_post_pad[0] is " << padded << ", expected " << padded_ref << std::endl;
        pass = false;
    }
    if(total(1) != n_tok)
    {
        std::cout << "Error: total_tokens_post_pad[1] is " << total(1) << ", expected " << n_tok << std::endl;
        pass = false;
    }
    if(pass)
    {
        ck_tile::HostTensor<index_t> ids_out({static_cast<std::size_t>(max_ids)});
        ck_tile::HostTensor<float> w_out({static_cast<std::size_t>(max_ids)});
        ck_tile::HostTensor<index_t> eid_out({static_cast<std::size_t>(max_units)});
        sorted_ids_dev.FromDevice(ids_out.data());
        sorted_w_dev.FromDevice(w_out.data());
        sorted_eid_dev.FromDevice(eid_out.data());
        const auto first_diff = [&](const auto& got, const auto& ref, index_t n, const char* what) {
            for(index_t i = 0; i < n; ++i)
                if(std::memcmp(&got.mData[i], &ref.mData[i], sizeof(got.mData[i])) != 0)
                {
                    std::cout << "Error: " << what << "[" << i << "] is " << got.mData[i] << ", expected "
                              << ref.mData[i] << std::endl;
                    return false;
                }
            return true;
        };
        pass = first_diff(ids_out, ids_ref, padded_ref, "sorted_token_ids") && pass;
        pass = first_diff(w_out, w_ref, padded_ref, "sorted_weights") && pass;
        pass = first_diff(eid_out, eid_ref, units_ref, "sorted_expert_ids") && pass;
    }
    if(moe_buf_bytes > 0)
    {
        std::vector<unsigned char> buf(moe_buf_bytes);
        moe_buf_dev.FromDevice(buf.data());
        const auto it = std::find_if(buf.begin(), buf.end(), [](unsigned char c) { return c != 0; });
        if(it != buf.end())
        {
            std::cout << "Error: moe_buf byte " << (it - buf.begin()) << " is not zero" << std::endl;
            pass = false;
        }
    }
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
        .insert("pr_i", "int32", "index data type: int32 only")
        .insert("pr_w", "fp32", "weight data type: fp32 only")
        .insert("t", "128", "tokens (the global count when -local_t is given)")
        .insert("e", "8", "experts")
        .insert("k", "4", "topk: experts per token (<= e, <= 255)")
        .insert("unit", "32", "unit_size: each expert's rows are padded to a multiple of it (a power of two)")
        .insert("moe_buf_interm_dim", "0", "columns of the [t, interm_dim] moe buffer the launch zeroes (0: none)")
        .insert("moe_buf_elem_bytes", "2", "bytes per moe buffer element")
        .insert("ci", "1", "clear the workspace inside the API: 0 or 1 (the workspace needs no clearing)")
        .insert("dispatch", "0", "0 auto, 1 single-workgroup kernel, 2 multi-phase kernels")
        .insert("local_eid", "-1", "local experts, an ascending comma list (e.g. 0,3,9); -1: all experts")
        .insert("local_t", "-1", "local tokens in [0, t]: only the first local_t tokens are sorted; -1: all")
        .insert("seed", "-1", "random seed (-1: a random one, printed)")
        .insert("kname", "0", "print the kernel name: 0 or 1")
        .insert("warmup", warmup_default, "untimed launches before timing")
        .insert("repeat", repeat_default, "timed launches (the perf line is their average)");
    if(!p.parse(argc, argv))
        return p.help_requested() ? 0 : 1;

    try
    {
        const Options o = read_options(p);
        return run(o) ? 0 : 1;
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
