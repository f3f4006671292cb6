// SPDX-License-Identifier: MIT
// tile_example_fmha_bwd: fused multi-head attention backward. The forward (fmha_fwd, with LSE)
// gives O and LSE; fmha_bwd then computes dQ, dK, dV from Q, K, V, O, LSE and a random dO, in
// batch or group (varlen) mode, checked against reference_fmha_bwd. -? lists the options;
// README_bwd.md explains them.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iostream>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "ck_tile/host/fmha_tolerance.hpp"
#include "ck_tile/host/reference/reference_batched_masking.hpp"
#include "ck_tile/host/reference/reference_fmha_bwd.hpp"
#include "ck_tile/host/reference/reference_fmha_dropout_randval.hpp"
#include "bias.hpp"
#include "fmha_bwd.hpp"
#include "fmha_fwd.hpp"
#include "fmha_options.hpp"
#include "fmha_runner_utils.hpp"
#include "mask.hpp"
#include "utils.hpp"

namespace {

using ck_tile::index_t;

struct Options : fmha_common_options
{
    float scale;
    std::string prec, init;
};

template <typename T>
bool run(const Options& o)
{
    using TC            = FmhaBwdTypeConfig<T>;
    using GT            = typename TC::OGradDataType;
    using BT            = typename TC::BiasDataType;
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
    const std::size_t H = o.h, HK = o.h_k, D = o.d, DV = o.d_v;
    const float scale = o.scale == 0.f ? 1.f / std::sqrt(static_cast<float>(o.d)) : o.scale;

    // ---- host tensors: Q, K, V, dQ, dK, dV in -iperm's layout, O and dO in -operm's ---------------
    using HT = ck_tile::HostTensor<T>;
    using L  = std::vector<std::size_t>;
    HT q(L{B, H, SQ, D}, fmha_strides(o.iperm, H, SQ, D)), k(L{B, HK, SK, D}, fmha_strides(o.iperm, HK, SK, D)),
        v(L{B, HK, SK, DV}, fmha_strides(o.iperm, HK, SK, DV)), out(L{B, H, SQ, DV}, fmha_strides(o.operm, H, SQ, DV)),
        dout(L{B, H, SQ, DV}, fmha_strides(o.operm, H, SQ, DV)), dq(L{B, H, SQ, D}, fmha_strides(o.iperm, H, SQ, D)),
        dk(L{B, HK, SK, D}, fmha_strides(o.iperm, HK, SK, D)), dv(L{B, HK, SK, DV}, fmha_strides(o.iperm, HK, SK, DV));
    const bool e_bias        = o.bias.type == ck_tile::BlockAttentionBiasEnum::ELEMENTWISE_BIAS;
    const bool alibi         = o.bias.type == ck_tile::BlockAttentionBiasEnum::ALIBI;
    const std::size_t bias_b = e_bias && o.bias.rank_info == 2 ? o.b : 1;
    const std::size_t bias_h = e_bias && o.bias.rank_info >= 1 ? H : 1;
    ck_tile::HostTensor<BT> bias({bias_b, bias_h, std::size_t(e_bias ? max_sq : 1), std::size_t(e_bias ? max_sk : 1)});
    ck_tile::HostTensor<float> slopes({std::size_t(alibi && o.bias.rank_info == 1 ? o.b : 1), H});
    ck_tile::HostTensor<float> lse({B, H, SQ});

    std::mt19937 seeds(o.seed);
    fmha_fill(q, o.init, seeds());
    fmha_fill(k, o.init, seeds());
    fmha_fill(v, o.init, seeds());
    fmha_fill(dout, o.init, seeds());
    if(e_bias)
        fmha_fill(bias, o.init, seeds());
    if(alibi)
    {
        const auto s = ck_tile::get_alibi_slopes<float>(o.h);
        for(std::size_t bb = 0; bb < slopes.get_length(0); ++bb)
            for(std::size_t hh = 0; hh < H; ++hh)
                slopes(bb, hh) = s[hh];
    }
    // garbage where the kernels must write
    std::fill(dq.begin(), dq.end(), ck_tile::type_convert<T>(7.f));
    std::fill(dk.begin(), dk.end(), ck_tile::type_convert<T>(7.f));
    std::fill(dv.begin(), dv.end(), ck_tile::type_convert<T>(7.f));

    const auto nbytes = [](std::size_t n) { return std::max<std::size_t>(n, 16); };
    const auto dev    = [&](const auto& t) { return ck_tile::DeviceMem(nbytes(t.get_element_space_size_in_bytes())); };
    ck_tile::DeviceMem q_buf = dev(q), k_buf = dev(k), v_buf = dev(v), o_buf = dev(out), do_buf = dev(dout),
                       dq_buf = dev(dq), dk_buf = dev(dk), dv_buf = dev(dv), lse_buf = dev(lse),
                       bias_buf(nbytes(e_bias ? bias.get_element_space_size_in_bytes()
                                              : slopes.get_element_space_size_in_bytes())),
                       sq_buf(seqstart_q.size() * sizeof(int32_t)), sk_buf(seqstart_k.size() * sizeof(int32_t));
    // fp32 workspaces: D like LSE, dQ packed bhsd, dK / dV packed bhsd with nhead_k heads
    ck_tile::DeviceMem d_buf(nbytes(B * H * SQ * sizeof(float))), dq_acc_buf(nbytes(B * H * SQ * D * sizeof(float))),
        dk_acc_buf(nbytes(B * HK * SK * D * sizeof(float))), dv_acc_buf(nbytes(B * HK * SK * DV * sizeof(float)));
    q_buf.ToDevice(q.data());
    do_buf.ToDevice(dout.data());
    if(SK > 0)
    {
        k_buf.ToDevice(k.data());
        v_buf.ToDevice(v.data());
        dk_buf.ToDevice(dk.data());
        dv_buf.ToDevice(dv.data());
    }
    dq_buf.ToDevice(dq.data());
    if(e_bias && bias.get_element_space_size() > 0)
        bias_buf.ToDevice(bias.data());
    else if(alibi)
        bias_buf.ToDevice(slopes.data());
    sq_buf.ToDevice(seqstart_q.data());
    sk_buf.ToDevice(seqstart_k.data());

    // ---- the forward: O and LSE ------------------------------------------------------------------
    const auto mask_type = static_cast<ck_tile::GenericAttentionMaskEnum>(mask.type);
    fmha_fwd_traits ft{o.d, o.d_v, o.prec, is_group, true, mask_type, o.bias.type, true, o.p_drop > 0.f, false};
    fmha_fwd_args fa{};
    fa.q_ptr          = q_buf.GetDeviceBuffer();
    fa.k_ptr          = k_buf.GetDeviceBuffer();
    fa.v_ptr          = v_buf.GetDeviceBuffer();
    fa.bias_ptr       = o.bias.type == ck_tile::BlockAttentionBiasEnum::NO_BIAS ? nullptr : bias_buf.GetDeviceBuffer();
    fa.lse_ptr        = lse_buf.GetDeviceBuffer();
    fa.o_ptr          = o_buf.GetDeviceBuffer();
    fa.seqstart_q_ptr = is_group ? sq_buf.GetDeviceBuffer() : nullptr;
    fa.seqstart_k_ptr = is_group ? sk_buf.GetDeviceBuffer() : nullptr;
    fa.seqlen_q       = is_group ? 0 : max_sq;
    fa.seqlen_k       = is_group ? 0 : max_sk;
    fa.batch          = o.b;
    fa.max_seqlen_q   = max_sq;
    fa.hdim_q         = o.d;
    fa.hdim_v         = o.d_v;
    fa.nhead_q        = o.h;
    fa.nhead_k        = o.h_k;
    fa.scale_s        = scale;
    fa.scale_p = fa.scale_o = 1.f;
    fa.stride_q = q.get_stride(2), fa.stride_k = k.get_stride(2), fa.stride_v = v.get_stride(2);
    fa.stride_o       = out.get_stride(2);
    fa.nhead_stride_q = q.get_stride(1), fa.nhead_stride_k = k.get_stride(1), fa.nhead_stride_v = v.get_stride(1);
    fa.nhead_stride_o = out.get_stride(1), fa.nhead_stride_lse = lse.get_stride(1);
    fa.batch_stride_q = q.get_stride(0), fa.batch_stride_k = k.get_stride(0), fa.batch_stride_v = v.get_stride(0);
    fa.batch_stride_o = out.get_stride(0), fa.batch_stride_lse = lse.get_stride(0);
    if(e_bias)
    {
        fa.stride_bias       = bias.get_stride(2);
        fa.nhead_stride_bias = bias_h > 1 ? bias.get_stride(1) : 0;
        fa.batch_stride_bias = bias_b > 1 ? bias.get_stride(0) : 0;
    }
    else
        fa.stride_bias = slopes.get_length(0) > 1 ? o.h : 0; // ALiBi: slopes of batch b at b * stride_bias
    fa.bias_type         = o.bias.type;
    fa.window_size_left  = mask.left;
    fa.window_size_right = mask.right;
    fa.mask_type         = mask_type;
    fa.p_drop            = o.p_drop;
    fa.drop_seed         = o.drop_seed;
    fa.drop_offset       = o.drop_offset;
    fa.num_head_q_total  = o.h;
    fa.head_start        = 0;
    fa.head_major        = false;
    if(fmha_fwd_get_name(ft).empty())
        throw std::invalid_argument("no forward instance for prec " + o.prec + ", hdim " + std::to_string(o.d) + "/" +
                                    std::to_string(o.d_v));
    if(fmha_fwd(ft, fa, ck_tile::stream_config{nullptr, false, 0, 0, 1}) < 0)
        throw std::runtime_error("fmha_fwd: no instance");

    // ---- the backward ------------------------------------------------------------------------------
    fmha_bwd_traits bt{o.d, o.d_v, o.prec, is_group, mask_type, o.bias.type, false, o.p_drop > 0.f, false};
    fmha_bwd_args a{};
    a.q_ptr = fa.q_ptr, a.k_ptr = fa.k_ptr, a.v_ptr = fa.v_ptr, a.bias_ptr = fa.bias_ptr, a.o_ptr = fa.o_ptr;
    a.lse_ptr = fa.lse_ptr, a.do_ptr = do_buf.GetDeviceBuffer(), a.d_ptr = d_buf.GetDeviceBuffer();
    a.dq_acc_ptr = dq_acc_buf.GetDeviceBuffer(), a.dq_ptr = dq_buf.GetDeviceBuffer();
    a.dk_ptr = dk_buf.GetDeviceBuffer(), a.dv_ptr = dv_buf.GetDeviceBuffer();
    a.dk_acc_ptr = dk_acc_buf.GetDeviceBuffer(), a.dv_acc_ptr = dv_acc_buf.GetDeviceBuffer();
    a.seqstart_q_ptr = fa.seqstart_q_ptr, a.seqstart_k_ptr = fa.seqstart_k_ptr;
    a.seqlen_q = fa.seqlen_q, a.seqlen_k = fa.seqlen_k, a.batch = o.b, a.max_seqlen_q = max_sq;
    a.max_seqlen_k = max_sk, a.hdim_q = o.d, a.hdim_v = o.d_v, a.nhead_q = o.h, a.nhead_k = o.h_k, a.scale = scale;
    a.stride_q = fa.stride_q, a.stride_k = fa.stride_k, a.stride_v = fa.stride_v, a.stride_bias = fa.stride_bias;
    a.stride_o = fa.stride_o, a.stride_do = dout.get_stride(2), a.stride_dq_acc = o.d, a.stride_dq = dq.get_stride(2);
    a.stride_dk = dk.get_stride(2), a.stride_dv = dv.get_stride(2), a.stride_dk_acc = o.d, a.stride_dv_acc = o.d_v;
    a.nhead_stride_q = fa.nhead_stride_q, a.nhead_stride_k = fa.nhead_stride_k, a.nhead_stride_v = fa.nhead_stride_v;
    a.nhead_stride_bias = fa.nhead_stride_bias, a.nhead_stride_o = fa.nhead_stride_o;
    a.nhead_stride_do = dout.get_stride(1), a.nhead_stride_lsed = lse.get_stride(1);
    a.nhead_stride_dq_acc = SQ * D, a.nhead_stride_dq = dq.get_stride(1), a.nhead_stride_dk = dk.get_stride(1);
    a.nhead_stride_dv = dv.get_stride(1), a.nhead_stride_dk_acc = SK * D, a.nhead_stride_dv_acc = SK * DV;
    a.batch_stride_q = fa.batch_stride_q, a.batch_stride_k = fa.batch_stride_k, a.batch_stride_v = fa.batch_stride_v;
    a.batch_stride_bias = fa.batch_stride_bias, a.batch_stride_o = fa.batch_stride_o;
    a.batch_stride_do = dout.get_stride(0), a.batch_stride_lsed = lse.get_stride(0);
    a.batch_stride_dq_acc = H * SQ * D, a.batch_stride_dq = dq.get_stride(0), a.batch_stride_dk = dk.get_stride(0);
    a.batch_stride_dv = dv.get_stride(0), a.batch_stride_dk_acc = HK * SK * D, a.batch_stride_dv_acc = HK * SK * DV;
    a.bias_type = o.bias.type, a.window_size_left = mask.left, a.window_size_right = mask.right;
    a.mask_type = mask_type, a.p_drop = o.p_drop, a.drop_seed = o.drop_seed, a.drop_offset = o.drop_offset;

    const std::string kernel_name = fmha_bwd_get_name(bt);
    if(kernel_name.empty())
        throw std::invalid_argument("no backward instance for prec " + o.prec + ", hdim " + std::to_string(o.d) + "/" +
                                    std::to_string(o.d_v) + " (at most 128)");

    std::ostringstream head;
    head << "[" << o.prec << "|" << o.mode << "|" << (o.iperm == o.operm ? (o.iperm ? "bhsd" : "bshd") : "in-out")
         << "] b:" << o.b << ", h:" << o.h << "/" << o.h_k << ", s:" << seqlen_qs[0] << "/" << seqlen_ks[0]
         << ", d:" << o.d << "/" << o.d_v << ", scale:" << scale << ", bias:" << o.bias << ", dbias:0"
         << ", p_drop:" << o.p_drop << ", mask:" << mask;
    if(o.kname)
        head << ", " << kernel_name;

    const float ave_ms = fmha_bwd(bt, a, ck_tile::stream_config{nullptr, true, 0, o.warmup, o.repeat});
    if(ave_ms < 0)
        throw std::runtime_error("fmha_bwd: no instance");

    // ---- performance: the visible scores; S recomputed, then dP, dV, dK, dQ ------------------------
    double flop = 0, bytes = 0;
    for(index_t bb = 0; bb < o.b; ++bb)
    {
        const double vis = fmha_visible_area(mask, seqlen_qs[bb], seqlen_ks[bb]);
        flop += static_cast<double>(o.h) * 2.0 * vis * (3.0 * o.d + 2.0 * o.d_v);
        // read Q, O, dO, LSE; write dQ; read K, V and write dK, dV per K/V head
        bytes += static_cast<double>(o.h) * seqlen_qs[bb] * ((2.0 * o.d + 2.0 * o.d_v) * sizeof(T) + sizeof(float)) +
                 static_cast<double>(o.h_k) * seqlen_ks[bb] * (2.0 * o.d + 2.0 * o.d_v) * sizeof(T);
    }
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
    dq_buf.FromDevice(dq.data());
    if(SK > 0)
    {
        dk_buf.FromDevice(dk.data());
        dv_buf.FromDevice(dv.data());
    }
    bool pass = true;
    std::string why;
    const std::size_t ratio = H / HK;
    const auto drop         = ck_tile::BlockDropout::make(o.p_drop, o.drop_seed, o.drop_offset, 0, 0, 1);
    double worst[3]         = {0, 0, 0}; // dQ, dK, dV: the largest error / allowed over the batches
    for(index_t bb = 0; bb < o.b && pass; ++bb)
    {
        const std::size_t sq = seqlen_qs[bb], sk = seqlen_ks[bb];
        const std::size_t qb = is_group ? 0 : bb, q0 = is_group ? seqstart_q[bb] : 0,
                          k0 = is_group ? seqstart_k[bb] : 0;
        const HT q_ref = fmha_batch_rows(q, qb, q0, sq, H), o_ref = fmha_batch_rows(out, qb, q0, sq, H),
                 do_ref = fmha_batch_rows(dout, qb, q0, sq, H), k_ref = fmha_batch_rows(k, qb, k0, sk, H, ratio),
                 v_ref = fmha_batch_rows(v, qb, k0, sk, H, ratio);
        // what the forward adds to the scaled scores: bias or ALiBi, and -inf where masked
        ck_tile::HostTensor<float> s_add({H, sq, sk});
        for(std::size_t hh = 0; hh < H; ++hh)
        {
            const float slope = alibi ? slopes(slopes.get_length(0) > 1 ? bb : 0, hh) : 0.f;
            const auto pos = ck_tile::make_alibi_from_lr_mask<float>(slope, mask.left, mask.right, sq, sk, mask_type);
            for(std::size_t i = 0; i < sq; ++i)
                for(std::size_t j = 0; j < sk; ++j)
                {
                    float x = 0.f;
                    if(e_bias)
                        x += ck_tile::type_convert<float>(bias(bias_b > 1 ? bb : 0, bias_h > 1 ? hh : 0, i, j));
                    if(alibi)
                        pos.update(x, i, j);
                    s_add(hh, i, j) = x;
                }
        }
        if(mask.type != mask_enum::no_mask)
            ck_tile::reference_batched_masking(
                s_add, ck_tile::make_generic_attention_mask_from_lr_window<FmhaMasks::GenericMask>(
                           mask.left, mask.right, sq, sk, mask.type != mask_enum::mask_bottom_right));
        ck_tile::HostTensor<uint8_t> rv(o.p_drop > 0.f ? std::vector<std::size_t>{H, sq, sk}
                                                       : std::vector<std::size_t>{0, 0, 0});
        if(o.p_drop > 0.f)
            for(std::size_t hh = 0; hh < H; ++hh)
            {
                ck_tile::HostTensor<uint8_t> rv_h({sq, sk});
                ck_tile::fmha_dropout_fill_randval(rv_h, o.drop_seed, o.drop_offset, bb, hh, o.h);
                for(std::size_t i = 0; i < sq; ++i)
                    for(std::size_t j = 0; j < sk; ++j)
                        rv(hh, i, j) = rv_h(i, j);
            }
        ck_tile::HostTensor<float> dq_ref({H, sq, D}), dk_ref({H, sk, D}), dv_ref({H, sk, DV});
        ck_tile::reference_fmha_bwd(q_ref, k_ref, v_ref, o_ref, do_ref, s_add, rv, drop.p_undrop_in_uint8_t,
                                    drop.rp_undrop, scale, dq_ref, dk_ref, dv_ref);
        // per-element bounds from where the kernel rounds (fmha_tolerance.hpp, README_bwd)
        const ck_tile::FmhaBwdBounds e = ck_tile::fmha_bwd_bounds(
            q_ref, k_ref, v_ref, o_ref, do_ref, s_add, rv, drop.p_undrop_in_uint8_t, drop.rp_undrop, scale, ratio);
        ck_tile::HostTensor<double> e_dk({HK, sk, D}), e_dv({HK, sk, DV});
        std::fill(e_dk.begin(), e_dk.end(), 0.0);
        std::fill(e_dv.begin(), e_dv.end(), 0.0);

        // the device's results, dK / dV of each K/V head against the sum over its query heads
        ck_tile::HostTensor<float> dq_dev({H, sq, D}), dk_dev({HK, sk, D}), dv_dev({HK, sk, DV}), dk_sum({HK, sk, D}),
            dv_sum({HK, sk, DV});
        std::fill(dk_sum.begin(), dk_sum.end(), 0.f);
        std::fill(dv_sum.begin(), dv_sum.end(), 0.f);
        for(std::size_t hh = 0; hh < H; ++hh)
            for(std::size_t i = 0; i < sq; ++i)
                for(std::size_t c = 0; c < D; ++c)
                    dq_dev(hh, i, c) = ck_tile::type_convert<float>(dq(qb, hh, q0 + i, c));
        for(std::size_t hh = 0; hh < H; ++hh)
            for(std::size_t j = 0; j < sk; ++j)
            {
                for(std::size_t c = 0; c < D; ++c)
                {
                    dk_sum(hh / ratio, j, c) += dk_ref(hh, j, c);
                    e_dk(hh / ratio, j, c) += e.dk(hh, j, c);
                }
                for(std::size_t c = 0; c < DV; ++c)
                {
                    dv_sum(hh / ratio, j, c) += dv_ref(hh, j, c);
                    e_dv(hh / ratio, j, c) += e.dv(hh, j, c);
                }
            }
        for(std::size_t hh = 0; hh < HK; ++hh)
            for(std::size_t j = 0; j < sk; ++j)
            {
                for(std::size_t c = 0; c < D; ++c)
                    dk_dev(hh, j, c) = ck_tile::type_convert<float>(dk(qb, hh, k0 + j, c));
                for(std::size_t c = 0; c < DV; ++c)
                    dv_dev(hh, j, c) = ck_tile::type_convert<float>(dv(qb, hh, k0 + j, c));
            }
        // the device's gradients are T, rounded once from fp32; the reference's are fp32
        const auto check = [&](const ck_tile::HostTensor<float>& dev_t, const ck_tile::HostTensor<float>& ref_t,
                               const ck_tile::HostTensor<double>& e_t, const char* what, double& worst_t) {
            double w = 0;
            const bool good =
                ck_tile::check_fmha_bound_of<T>(dev_t, ref_t, e_t, std::string(what) + " mismatch", &w, 1);
            worst_t = std::max(worst_t, w);
            return good;
        };
        const char* bad = !check(dq_dev, dq_ref, e.dq, "dQ", worst[0])   ? "dQ"
                          : !check(dk_dev, dk_sum, e_dk, "dK", worst[1]) ? "dK"
                          : !check(dv_dev, dv_sum, e_dv, "dV", worst[2]) ? "dV"
                                                                         : nullptr;
        if(bad)
        {
            pass = false;
            why  = std::string(bad) + " mismatch found at batch: " + std::to_string(bb) +
                   ", seqlen_q: " + std::to_string(sq) + ", seqlen_k: " + std::to_string(sk);
        }
    }
    if(!pass)
        std::cerr << why << std::endl;
    std::cout << "dQ, dK, dV: largest error / allowed " << worst[0] << ", " << worst[1] << ", " << worst[2]
              << std::endl;
    std::cout << head.str() << ", valid:" << (pass ? "y" : "n") << std::endl;
    std::cout << "Perf: " << ave_ms << " ms, " << tflops << " TFlops, " << gbps << " GB/s" << std::endl;
    std::cout << "valid:" << (pass ? "y" : "n") << std::endl;
    return pass;
}

Options read_options(const ck_tile::ArgParser& p)
{
    using ck_tile::arg_error;
    Options o{};
    static_cast<fmha_common_options&>(o) = read_fmha_common_options(p, 128, 8);
    o.scale                              = p.get_float("scale");
    if(p.get_int_in_range("dbias", 0, 1) != 0)
        throw arg_error("error: option -dbias: the bias gradient is not supported (only -dbias=0)");
    o.prec = p.get_str("prec");
    if(o.prec != "fp16" && o.prec != "bf16")
        throw arg_error("error: option -prec: '" + o.prec + "' is not supported (fp16 or bf16)");
    o.init = p.get_str("init");
    if(o.init != "0" && o.init != "1" && o.init != "2")
        throw arg_error("error: option -init: '" + o.init + "' is not 0 (int), 1 (float) or 2 (trig)");
    if(p.get_int_in_range("drop_prefs", 0, 1) != 0)
        throw arg_error("error: option -drop_prefs: seed and offset from device memory are not supported (only 0)");
    if(p.get_int_in_range("deterministic", 0, 1) != 0)
        throw arg_error("error: option -deterministic: not supported (only 0: dQ is added atomically)");
    return o;
}

} // namespace

int main(int argc, char* argv[])
{
    ck_tile::ArgParser p;
    add_fmha_problem_options(p, "head dim of Q and K (a multiple of 8; <= 128)");
    p.insert("scale", "0", "softmax scale (0: 1/sqrt(d))");
    add_fmha_layout_options(p, "Q/K/V/dQ/dK/dV layout: 1 bhsd, 0 bshd", "O/dO layout: 1 bhsd, 0 bshd");
    p.insert("dbias", "0", "bias gradient (not supported: 0 only)")
        .insert("prec", "fp16", "data type: fp16, bf16")
        .insert("init", "1", "0 uniform int [-3,3], 1 uniform float [0,1), 2 trig")
        .insert("drop_prefs", "0", "seed and offset from device memory (not supported: 0 only)")
        .insert("deterministic", "0", "1: deterministic dQ (not supported: 0 only)");
    add_fmha_run_options(p);
    return fmha_main(p, argc, argv, [](const ck_tile::ArgParser& args) {
        const Options o = read_options(args);
        return o.prec == "fp16" ? run<ck_tile::half_t>(o) : run<ck_tile::bf16_t>(o);
    });
}
