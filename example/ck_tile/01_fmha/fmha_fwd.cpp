// SPDX-License-Identifier: MIT
// tile_example_fmha_fwd: fused multi-head attention forward, O = softmax(scale_s Q K^T + bias,
// masked, with dropout) V, in batch or group (varlen) mode, checked against a CPU reference built
// from upstream's reference_* steps. -? lists the options; README.md explains them.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <iostream>
#include <numeric>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "ck_tile/host/fmha_tolerance.hpp"
#include "ck_tile/host/reference/reference_batched_dropout.hpp"
#include "ck_tile/host/reference/reference_batched_gemm.hpp"
#include "ck_tile/host/reference/reference_batched_masking.hpp"
#include "ck_tile/host/reference/reference_batched_softmax.hpp"
#include "ck_tile/host/reference/reference_fmha_dropout_randval.hpp"
#include "bias.hpp"
#include "fmha_fwd.hpp"
#include "fmha_fwd_head_grouping.hpp"
#include "fmha_options.hpp"
#include "fmha_runner_utils.hpp"
#include "mask.hpp"
#include "utils.hpp"

namespace {

using ck_tile::index_t;

struct Options : fmha_common_options
{
    bool lse, squant, vrow;
    float scale_s, range_q, range_k, range_v, range_p, range_o;
    std::string prec, init;
};

template <typename T>
bool run(const Options& o)
{
    using TC            = FmhaFwdTypeConfig<T>;
    using QT            = typename TC::QDataType;
    using KT            = typename TC::KDataType;
    using VT            = typename TC::VDataType;
    using BT            = typename TC::BiasDataType;
    using PT            = typename TC::PDataType;
    using OT            = typename TC::ODataType;
    using LSE_T         = typename TC::LSEDataType;
    const bool is_group = o.mode == mode_enum::group;

    // ---- sizes -----------------------------------------------------------------------------------
    const auto [seqlen_qs, seqlen_ks, kpads] = decode_seqlen(o.mode, o.b, o.s_str, o.s_k_str, "-1", o.seed);
    (void)kpads;
    const mask_info mask  = mask_info::decode(o.mask_str, seqlen_qs[0], seqlen_ks[0]);
    const auto seqstart_q = to_seqstarts(seqlen_qs);
    const auto seqstart_k = to_seqstarts(seqlen_ks);
    const index_t max_sq  = *std::max_element(seqlen_qs.begin(), seqlen_qs.end());
    const index_t max_sk  = *std::max_element(seqlen_ks.begin(), seqlen_ks.end());
    const std::size_t B   = is_group ? 1 : o.b;
    const std::size_t SQ  = is_group ? seqstart_q.back() : max_sq;
    const std::size_t SK  = is_group ? seqstart_k.back() : max_sk;

    // fp8 static quantization: the data spans the type, the scales bring it back (upstream's)
    const float qmax = ck_tile::type_convert<float>(ck_tile::numeric<QT>::max());
    float scale_s    = o.scale_s == 0.f ? 1.f / std::sqrt(static_cast<float>(o.d)) : o.scale_s;
    float scale_p = 1.f, scale_o = 1.f;
    if(o.squant)
    {
        scale_s = scale_s * (o.range_q / qmax) * (o.range_k / qmax);
        scale_p = qmax / o.range_p;
        scale_o = o.range_p * o.range_v / (o.range_o * qmax);
    }

    // ---- host tensors ----------------------------------------------------------------------------
    const std::size_t vec = 16 / sizeof(VT);
    ck_tile::HostTensor<QT> q(std::vector<std::size_t>{B, std::size_t(o.h), SQ, std::size_t(o.d)},
                              fmha_strides(o.iperm, o.h, SQ, o.d));
    ck_tile::HostTensor<KT> k(std::vector<std::size_t>{B, std::size_t(o.h_k), SK, std::size_t(o.d)},
                              fmha_strides(o.iperm, o.h_k, SK, o.d));
    ck_tile::HostTensor<VT> v(
        std::vector<std::size_t>{B, std::size_t(o.h_k), SK, std::size_t(o.d_v)},
        fmha_v_strides(o.iperm, o.vrow, o.h_k, SK, o.d_v, is_group ? SK : (SK + vec - 1) / vec * vec));
    ck_tile::HostTensor<OT> out(std::vector<std::size_t>{B, std::size_t(o.h), SQ, std::size_t(o.d_v)},
                                fmha_strides(o.operm, o.h, SQ, o.d_v));
    const bool e_bias = o.bias.type == ck_tile::BlockAttentionBiasEnum::ELEMENTWISE_BIAS;
    const bool alibi  = o.bias.type == ck_tile::BlockAttentionBiasEnum::ALIBI;
    // element-wise bias [b or 1, h or 1, max_sq, max_sk] by its rank (-bias=e:k); ALiBi slopes
    // [b or 1, h]
    const std::size_t bias_b = e_bias && o.bias.rank_info == 2 ? o.b : 1;
    const std::size_t bias_h = e_bias && o.bias.rank_info >= 1 ? o.h : 1;
    ck_tile::HostTensor<BT> bias({bias_b, bias_h, std::size_t(e_bias ? max_sq : 1), std::size_t(e_bias ? max_sk : 1)});
    ck_tile::HostTensor<float> slopes({std::size_t(alibi && o.bias.rank_info == 1 ? o.b : 1), std::size_t(o.h)});
    ck_tile::HostTensor<LSE_T> lse({B, std::size_t(o.h), SQ});

    std::mt19937 seeds(o.seed);
    fmha_fill(q, o.init, seeds(), qmax);
    fmha_fill(k, o.init, seeds(), qmax);
    fmha_fill(v, o.init, seeds(), qmax);
    if(e_bias)
        fmha_fill(bias, o.init == "ufq" || o.init == "uf:q" || o.init == "3" ? std::string("uf") : o.init, seeds(),
                  1.f);
    if(alibi)
    {
        const auto s = ck_tile::get_alibi_slopes<float>(o.h);
        for(std::size_t bb = 0; bb < slopes.get_length(0); ++bb)
            for(index_t hh = 0; hh < o.h; ++hh)
                slopes(bb, hh) = s[hh];
    }
    // garbage where the kernel must write (rows that see no key included)
    std::fill(out.begin(), out.end(), ck_tile::type_convert<OT>(7.f));
    std::fill(lse.begin(), lse.end(), LSE_T(7));

    // (at least one byte each: an empty K/V (-s_k=0) is still a tensor)
    const auto nbytes = [](std::size_t n) { return std::max<std::size_t>(n, 16); };
    // a column-major V in batch mode is read in whole 16-byte vectors along each row's keys, the
    // last row's too: its padding to a multiple of the vector lies past the tensor's last element
    const std::size_t v_tail = o.vrow || is_group ? 0 : ((SK + vec - 1) / vec * vec - SK) * sizeof(VT);
    ck_tile::DeviceMem q_buf(nbytes(q.get_element_space_size_in_bytes())),
        k_buf(nbytes(k.get_element_space_size_in_bytes())), v_buf(nbytes(v.get_element_space_size_in_bytes() + v_tail)),
        o_buf(out.get_element_space_size_in_bytes()),
        bias_buf(nbytes(e_bias ? bias.get_element_space_size_in_bytes() : slopes.get_element_space_size_in_bytes())),
        lse_buf(nbytes(lse.get_element_space_size_in_bytes())), sq_buf(seqstart_q.size() * sizeof(int32_t)),
        sk_buf(seqstart_k.size() * sizeof(int32_t));
    q_buf.ToDevice(q.data());
    if(SK > 0)
    {
        k_buf.ToDevice(k.data());
        v_buf.ToDevice(v.data());
    }
    o_buf.ToDevice(out.data());
    lse_buf.ToDevice(lse.data());
    if(e_bias && bias.get_element_space_size() > 0)
        bias_buf.ToDevice(bias.data());
    else if(alibi)
        bias_buf.ToDevice(slopes.data());
    sq_buf.ToDevice(seqstart_q.data());
    sk_buf.ToDevice(seqstart_k.data());

    // ---- arguments -------------------------------------------------------------------------------
    fmha_fwd_traits traits{
        o.d,         o.d_v, o.prec,         is_group, o.vrow, static_cast<ck_tile::GenericAttentionMaskEnum>(mask.type),
        o.bias.type, o.lse, o.p_drop > 0.f, o.squant};
    fmha_fwd_args a{};
    a.q_ptr            = q_buf.GetDeviceBuffer();
    a.k_ptr            = k_buf.GetDeviceBuffer();
    a.v_ptr            = v_buf.GetDeviceBuffer();
    a.bias_ptr         = o.bias.type == ck_tile::BlockAttentionBiasEnum::NO_BIAS ? nullptr : bias_buf.GetDeviceBuffer();
    a.lse_ptr          = o.lse ? lse_buf.GetDeviceBuffer() : nullptr;
    a.o_ptr            = o_buf.GetDeviceBuffer();
    a.seqstart_q_ptr   = is_group ? sq_buf.GetDeviceBuffer() : nullptr;
    a.seqstart_k_ptr   = is_group ? sk_buf.GetDeviceBuffer() : nullptr;
    a.seqlen_k_ptr     = nullptr;
    a.seqlen_q         = is_group ? 0 : max_sq;
    a.seqlen_k         = is_group ? 0 : max_sk;
    a.batch            = o.b;
    a.max_seqlen_q     = max_sq;
    a.hdim_q           = o.d;
    a.hdim_v           = o.d_v;
    a.nhead_q          = o.h;
    a.nhead_k          = o.h_k;
    a.scale_s          = scale_s;
    a.scale_p          = scale_p;
    a.scale_o          = scale_o;
    a.stride_q         = q.get_stride(2);
    a.stride_k         = k.get_stride(2);
    a.stride_v         = o.vrow ? v.get_stride(2) : v.get_stride(3);
    a.stride_o         = out.get_stride(2);
    a.nhead_stride_q   = q.get_stride(1);
    a.nhead_stride_k   = k.get_stride(1);
    a.nhead_stride_v   = v.get_stride(1);
    a.nhead_stride_o   = out.get_stride(1);
    a.nhead_stride_lse = lse.get_stride(1);
    a.batch_stride_q   = q.get_stride(0);
    a.batch_stride_k   = k.get_stride(0);
    a.batch_stride_v   = v.get_stride(0);
    a.batch_stride_o   = out.get_stride(0);
    a.batch_stride_lse = lse.get_stride(0);
    if(e_bias)
    {
        a.stride_bias       = bias.get_stride(2);
        a.nhead_stride_bias = bias_h > 1 ? bias.get_stride(1) : 0;
        a.batch_stride_bias = bias_b > 1 ? bias.get_stride(0) : 0;
    }
    else
        a.stride_bias = slopes.get_length(0) > 1 ? o.h : 0; // ALiBi: slopes of batch b at b * stride_bias
    a.bias_type         = o.bias.type;
    a.window_size_left  = mask.left;
    a.window_size_right = mask.right;
    a.mask_type         = static_cast<ck_tile::GenericAttentionMaskEnum>(mask.type);
    a.p_drop            = o.p_drop;
    a.drop_seed         = o.drop_seed;
    a.drop_offset       = o.drop_offset;
    a.num_head_q_total  = o.h;
    a.head_start        = 0;
    a.head_major        = false;

    const std::string kernel_name = fmha_fwd_get_name(traits);
    if(kernel_name.empty())
        throw std::invalid_argument("no instance for prec " + o.prec + ", hdim " + std::to_string(o.d) + "/" +
                                    std::to_string(o.d_v) + ", " + (is_group ? "group" : "batch") + " mode, vlayout " +
                                    (o.vrow ? "r" : "c") + " (this build's instances: see the README)");

    // ---- LLC-aware head grouping ---------------------------------------------------------------
    const auto group = fmha_fwd_head_grouping::get_head_group_size(ck_tile::get_device_name(), o.h, o.h_k, o.b, max_sk,
                                                                   o.d, o.d_v, sizeof(KT), sizeof(VT));
    // bhsd: one launch, blocks in head-major order; bshd: one launch per head group
    const bool explicit_groups = group && !o.iperm;
    a.head_major               = group && o.iperm;

    std::ostringstream head;
    head << "[" << o.prec << "|" << o.mode << "|" << (o.iperm == o.operm ? (o.iperm ? "bhsd" : "bshd") : "in-out")
         << "] b:" << o.b << ", h:" << o.h << "/" << o.h_k << ", s:" << seqlen_qs[0] << "/" << seqlen_ks[0]
         << ", d:" << o.d << "/" << o.d_v
         << ", scale_s:" << (o.scale_s == 0.f ? 1.f / std::sqrt(static_cast<float>(o.d)) : o.scale_s)
         << ", bias:" << o.bias << ", p_drop:" << o.p_drop << ", lse:" << o.lse << ", squant:" << o.squant
         << ", mask:" << mask << ", v:" << (o.vrow ? "r" : "c");
    if(o.kname)
        head << ", " << kernel_name;

    const ck_tile::stream_config sc{nullptr, true, 0, o.warmup, o.repeat};
    const float ave_ms = explicit_groups ? fmha_fwd_by_head_groups<TC>(traits, a, *group, sc) : fmha_fwd(traits, a, sc);
    if(ave_ms < 0)
        throw std::runtime_error("fmha_fwd: no instance");

    // ---- performance: only the visible (unmasked) scores count -----------------------------------
    auto [flop, bytes] = fmha_fwd_flop_bytes<TC>(mask, seqlen_qs, seqlen_ks, o.h, o.h_k, o.d, o.d_v, o.lse);
    if(e_bias)
        bytes += static_cast<double>(bias.get_element_space_size()) * sizeof(BT);
    const double tflops = flop / 1e9 / ave_ms, gbps = bytes / 1e6 / ave_ms;
    head << ", " << ave_ms << " ms, " << tflops << " TFlops, " << gbps << " GB/s";

    if(!o.verify)
    {
        std::cout << head.str() << std::endl
                  << "Perf: " << ave_ms << " ms, " << tflops << " TFlops, " << gbps << " GB/s" << std::endl;
        return true;
    }

    // ---- reference, batch by batch ---------------------------------------------------------------
    o_buf.FromDevice(out.data());
    lse_buf.FromDevice(lse.data());
    bool pass = true;
    std::string why;

    if(group)
    {
        const bool same = fmha_fwd_same_as_ungrouped(traits, a, out, o_buf, lse, lse_buf);
        std::cout << "head grouping: " << (o.h + *group - 1) / *group << " groups of " << *group << " heads ("
                  << (explicit_groups ? "bshd: one launch per group" : "bhsd: one launch, head-major blocks")
                  << "), bit-identical to one ungrouped launch: " << (same ? "y" : "n") << std::endl;
        if(!same)
        {
            pass = false;
            why  = "head-grouped output differs from the ungrouped launch";
        }
    }
    const index_t ratio = o.h / o.h_k;
    // O and LSE are checked per element within bounds derived from where kernel and reference
    // round (fmha_tolerance.hpp; README, "Checking"); worst_*: the largest error / allowed
    double worst_o = 0, worst_lse = 0;
    for(index_t bb = 0; bb < o.b && pass; ++bb)
    {
        const std::size_t sq = seqlen_qs[bb], sk = seqlen_ks[bb];
        const std::size_t qb = is_group ? 0 : bb, q0 = is_group ? seqstart_q[bb] : 0,
                          k0 = is_group ? seqstart_k[bb] : 0;
        const std::size_t H  = o.h;
        const auto q_ref     = fmha_batch_rows(q, qb, q0, sq, H);
        const auto k_ref     = fmha_batch_rows(k, qb, k0, sk, H, ratio);
        const auto v_ref     = fmha_batch_rows(v, qb, k0, sk, H, ratio, true); // [H, Dv, sk]
        ck_tile::HostTensor<float> s_ref({H, sq, sk});
        ck_tile::reference_batched_gemm<QT, KT, float, float>(q_ref, k_ref, s_ref);
        // the size the scores' fp32 rounding errors scale with: scale_s sum |q k| + |bias|
        ck_tile::HostTensor<float> s_mag = ck_tile::fmha_score_magnitude(q_ref, k_ref, scale_s);
        for(std::size_t hh = 0; hh < H; ++hh)
        {
            const float slope = alibi ? slopes(slopes.get_length(0) > 1 ? bb : 0, hh) : 0.f;
            const auto pos    = ck_tile::make_alibi_from_lr_mask<float>(
                slope, mask.left, mask.right, sq, sk, static_cast<ck_tile::GenericAttentionMaskEnum>(mask.type));
            for(std::size_t i = 0; i < sq; ++i)
                for(std::size_t j = 0; j < sk; ++j)
                {
                    float x = s_ref(hh, i, j) * scale_s;
                    if(e_bias)
                        x += ck_tile::type_convert<float>(bias(bias_b > 1 ? bb : 0, bias_h > 1 ? hh : 0, i, j));
                    if(alibi)
                        pos.update(x, i, j);
                    s_mag(hh, i, j) += std::fabs(x - s_ref(hh, i, j) * scale_s);
                    s_ref(hh, i, j) = x;
                }
        }
        if(mask.type != mask_enum::no_mask)
            ck_tile::reference_batched_masking(
                s_ref, ck_tile::make_generic_attention_mask_from_lr_window<FmhaMasks::GenericMask>(
                           mask.left, mask.right, sq, sk, mask.type != mask_enum::mask_bottom_right));
        ck_tile::HostTensor<PT> p_ref({H, sq, sk});
        ck_tile::HostTensor<float> lse_ref({H, sq});
        const auto p_op = [&](float x) { return o.squant ? x * scale_p : x; };
        ck_tile::reference_batched_softmax<float, float, PT>(s_ref, p_ref, p_op, std::ref(lse_ref));
        ck_tile::HostTensor<uint8_t> keep({H, sq, sk});
        ck_tile::FmhaFwdArith arith{static_cast<std::size_t>(o.d), scale_p, scale_o};
        if(o.p_drop > 0.f)
        {
            ck_tile::HostTensor<uint8_t> rv({H, sq, sk});
            for(std::size_t hh = 0; hh < H; ++hh)
            {
                ck_tile::HostTensor<uint8_t> rv_h({sq, sk});
                ck_tile::fmha_dropout_fill_randval(rv_h, o.drop_seed, o.drop_offset, bb, hh, o.h);
                for(std::size_t i = 0; i < sq; ++i)
                    for(std::size_t j = 0; j < sk; ++j)
                        rv(hh, i, j) = rv_h(i, j);
            }
            const auto drop = ck_tile::BlockDropout::make(o.p_drop, o.drop_seed, o.drop_offset, 0, 0, 1);
            ck_tile::reference_batched_dropout(p_ref, rv, drop.p_undrop_in_uint8_t, drop.rp_undrop);
            std::transform(rv.begin(), rv.end(), keep.begin(), [&](uint8_t x) { return drop.keep(x) ? 1 : 0; });
            arith.rp_undrop = drop.rp_undrop;
            arith.keep      = &keep;
        }
        ck_tile::HostTensor<OT> o_ref({H, sq, std::size_t(o.d_v)});
        const auto o_op = [&](float x) { return o.squant ? x * scale_o : x; };
        ck_tile::reference_batched_gemm<PT, VT, float, OT>(p_ref, v_ref, o_ref, ck_tile::identity{},
                                                           ck_tile::identity{}, o_op);

        ck_tile::HostTensor<OT> o_dev({H, sq, std::size_t(o.d_v)});
        for(std::size_t hh = 0; hh < H; ++hh)
            for(std::size_t i = 0; i < sq; ++i)
                for(index_t dd = 0; dd < o.d_v; ++dd)
                    o_dev(hh, i, dd) = out(qb, hh, q0 + i, dd);
        ck_tile::HostTensor<double> e_lse({H, sq});
        const ck_tile::HostTensor<double> e_o = ck_tile::fmha_o_bound<PT>(s_ref, s_mag, v_ref, arith, &e_lse);
        double worst                          = 0;
        pass                                  = ck_tile::check_fmha_bound(o_dev, o_ref, e_o, "OUT mismatch", &worst);
        worst_o                               = std::max(worst_o, worst);
        if(!pass)
            why = "OUT mismatch found at batch: " + std::to_string(bb);
        if(pass && o.lse)
        {
            ck_tile::HostTensor<float> lse_dev({H, sq});
            for(std::size_t hh = 0; hh < H; ++hh)
                for(std::size_t i = 0; i < sq; ++i)
                    lse_dev(hh, i) = lse(qb, hh, q0 + i);
            // LSE is fp32 on both sides: no final rounding to add
            pass      = ck_tile::check_fmha_bound(lse_dev, lse_ref, e_lse, "LSE mismatch", &worst, false);
            worst_lse = std::max(worst_lse, worst);
            if(!pass)
                why = "LSE mismatch found at batch: " + std::to_string(bb);
        }
        if(!pass)
            why += ", seqlen_q: " + std::to_string(sq) + ", seqlen_k: " + std::to_string(sk);
    }
    if(!pass)
        std::cerr << why << std::endl;
    std::cout << "O: largest error / allowed " << worst_o;
    if(o.lse)
        std::cout << ", LSE: " << worst_lse;
    std::cout << std::endl;
    std::cout << head.str() << ", valid:" << (pass ? "y" : "n") << std::endl;
    std::cout << "Perf: " << ave_ms << " ms, " << tflops << " TFlops, " << gbps << " GB/s" << std::endl;
    std::cout << "valid:" << (pass ? "y" : "n") << std::endl;
    return pass;
}

Options read_options(const ck_tile::ArgParser& p)
{
    using ck_tile::arg_error;
    Options o{};
    o.prec = p.get_str("prec");
    if(o.prec != "fp16" && o.prec != "bf16" && o.prec != "fp8")
        throw arg_error("error: option -prec: '" + o.prec + "' is not supported (fp16, bf16 or fp8)");
    static_cast<fmha_common_options&>(o) = read_fmha_common_options(p, 256, o.prec == "fp8" ? 16 : 8);
    o.scale_s                            = p.get_float("scale_s");
    const auto vlayout                   = p.get_str("vlayout");
    if(vlayout != "r" && vlayout != "c")
        throw arg_error("error: option -vlayout: '" + vlayout + "' is not r or c");
    o.vrow = vlayout == "r";
    o.lse  = p.get_int_in_range("lse", 0, 1) == 1;
    o.init = p.get_str("init");
    if(o.init == "uf:q")
        o.init = "ufq";
    for(const char* ok : {"0", "1", "2", "3", "ui", "ni", "uf", "nf", "tf", "ufq"})
        if(o.init == ok)
            goto init_ok;
    throw arg_error("error: option -init: '" + o.init + "' is not one of ui, ni, uf, nf, tf, ufq (0-3)");
init_ok:
    if(o.init == "3")
        o.init = "ufq";
    const auto squant = p.get_str("squant");
    if(squant == "auto")
        o.squant = o.prec == "fp8";
    else if(squant == "0" || squant == "1")
        o.squant = squant == "1";
    else
        throw arg_error("error: option -squant: '" + squant + "' is not auto, 0 or 1");
    if(o.squant != (o.prec == "fp8"))
        throw arg_error("error: option -squant: static quantization is for fp8 only (and fp8 needs it)");
    if(o.prec == "fp8" && o.p_drop > 0.f)
        throw arg_error("error: option -p_drop: no dropout with fp8");
    if(o.prec == "fp8")
    {
        // fp8_t has one encoding per build (FNUZ for gfx942, OCP for gfx950): refuse a device that
        // computes with the other one rather than give a wrong answer
        const std::string arch = ck_tile::get_device_name();
        if(!ck_tile::fp8_native_on(arch.c_str()))
            throw arg_error("error: option -prec: this binary's fp8 encoding is not " + arch + "'s; build for " + arch +
                            " alone (-DGPU_TARGETS=" + arch + ")");
    }
    o.range_q = p.get_float("range_q");
    o.range_k = p.get_float("range_k");
    o.range_v = p.get_float("range_v");
    o.range_p = p.get_float("range_p");
    o.range_o = p.get_float("range_o");
    return o;
}

} // namespace

int main(int argc, char* argv[])
{
    ck_tile::ArgParser p;
    add_fmha_problem_options(p, "head dim of Q and K (a multiple of 8; 16 for fp8; <= 256)");
    p.insert("scale_s", "0", "softmax scale (0: 1/sqrt(d))")
        .insert("range_q", "16", "fp8 static quant: range of Q")
        .insert("range_k", "16", "fp8 static quant: range of K")
        .insert("range_v", "16", "fp8 static quant: range of V")
        .insert("range_p", "1", "fp8 static quant: range of P")
        .insert("range_o", "16", "fp8 static quant: range of O")
        .insert("squant", "auto", "fp8 static quantization: auto (on for fp8), 0, 1");
    add_fmha_layout_options(p, "Q/K/V layout: 1 bhsd, 0 bshd", "O layout: 1 bhsd, 0 bshd");
    p.insert("prec", "fp16", "data type: fp16, bf16, fp8")
        .insert("vlayout", "r", "V layout: r row-major (seqlen x hdim), c column-major")
        .insert("lse", "0", "1: also write the log-sum-exp")
        .insert("init", "uf",
                "ui/0 uniform int, ni normal int, uf/1 uniform [0,1), nf normal, tf/2 trig, ufq/3 fp8 range");
    add_fmha_run_options(p);
    return fmha_main(p, argc, argv, [](const ck_tile::ArgParser& args) {
        const Options o = read_options(args);
        if(o.prec == "fp16")
            return run<ck_tile::half_t>(o);
        if(o.prec == "bf16")
            return run<ck_tile::bf16_t>(o);
        return run<ck_tile::fp8_t>(o);
    });
}
