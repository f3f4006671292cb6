// SPDX-License-Identifier: MIT
// What tile_example_fmha_fwd and tile_example_fmha_bwd need on the host: the strides of a
// [B, H, S, D] tensor in either layout, the number of scores a mask leaves visible (the FLOP count
// of both examples), column-major V's strides, the inputs' initialisation, a batch's rows for the
// references, and the forward's launches by head groups (fmha_fwd_head_grouping.hpp decides
// the group size) with their check against one ungrouped launch.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <stdexcept>
#include <vector>
#include "ck_tile/core.hpp"
#include "ck_tile/host.hpp"
#include "fmha_fwd.hpp"
#include "mask.hpp"

// a [B, H, S, D] tensor (logical order) in bhsd (perm) or bshd layout
inline std::vector<std::size_t> fmha_strides(bool perm, std::size_t H, std::size_t S, std::size_t D)
{
    if(perm)
        return {H * S * D, S * D, D, 1};
    return {S * H * D, D, H * D, 1};
}

// the scores of a sq x sk matrix the mask keeps
inline ck_tile::index_t fmha_visible_area(const mask_info& m, ck_tile::index_t sq, ck_tile::index_t sk)
{
    if(m.type == mask_enum::no_mask)
        return sq * sk;
    const auto mask = ck_tile::make_generic_attention_mask_from_lr_window<FmhaMasks::GenericMask>(
        m.left, m.right, sq, sk, m.type != mask_enum::mask_bottom_right);
    ck_tile::index_t n = 0;
    for(ck_tile::index_t i = 0; i < sq; ++i)
        for(ck_tile::index_t j = 0; j < sk; ++j)
            n += mask.IsOutOfBound(i, j) ? 0 : 1;
    return n;
}

// V as [B, Hk, Sk, Dv] logical; column-major V stores Dv before Sk, its rows of keys S_row >= S
// apart (the kernel reads them in 16-byte vectors: batch mode pads them to a whole vector)
inline std::vector<std::size_t> fmha_v_strides(bool perm, bool vrow, std::size_t H, std::size_t S, std::size_t D,
                                               std::size_t S_row)
{
    if(vrow)
        return fmha_strides(perm, H, S, D);
    if(perm) // [B, Hk, Dv, Sk]
        return {H * D * S_row, D * S_row, 1, S_row};
    return {D * H * S_row, S_row, 1, H * S_row}; // [B, Dv, Hk, Sk]
}

// The inputs' initialisation (-init): ui/0 uniform integers in [-3, 3], ni normal integers, uf/1
// uniform in [0, 1), nf normal, tf/2 trigonometric, ufq uniform over [-qmax, qmax] (the static
// quantization's range)
template <typename T>
void fmha_fill(ck_tile::HostTensor<T>& t, const std::string& init, uint32_t seed, float qmax = 1.f)
{
    if(init == "uf" || init == "1")
        ck_tile::FillUniformDistribution<T>{0.f, 1.f, seed}(t);
    else if(init == "ui" || init == "0")
        ck_tile::FillUniformDistributionIntegerValue<T>{-3.f, 3.f, seed}(t);
    else if(init == "nf")
        ck_tile::FillNormalDistribution<T>{0.f, 3.f, seed}(t);
    else if(init == "ni")
    {
        ck_tile::HostTensor<float> f(t.get_lengths(), t.get_strides());
        ck_tile::FillNormalDistribution<float>{0.f, 3.f, seed}(f);
        std::transform(f.begin(), f.end(), t.begin(), [](float x) { return ck_tile::type_convert<T>(std::round(x)); });
    }
    else if(init == "tf" || init == "2")
    {
        std::size_t i = 0;
        for(auto& x : t)
            x = ck_tile::type_convert<T>(std::sin(0.1f * static_cast<float>(i++ % 997)));
    }
    else // ufq
        ck_tile::FillUniformDistribution<T>{-qmax, qmax, seed}(t);
}

// Rows [s0, s0 + s) of batch b of a [B, Ht, S, D] tensor, for `heads` heads, as [heads, s, D]
// ([heads, D, s] when transposed): head h reads head h / ratio (the query heads of a K/V head)
template <typename T>
ck_tile::HostTensor<T> fmha_batch_rows(const ck_tile::HostTensor<T>& t, std::size_t b, std::size_t s0, std::size_t s,
                                       std::size_t heads, std::size_t ratio = 1, bool transposed = false)
{
    const std::size_t D = t.get_length(3);
    ck_tile::HostTensor<T> r(transposed ? std::vector<std::size_t>{heads, D, s}
                                        : std::vector<std::size_t>{heads, s, D});
    for(std::size_t h = 0; h < heads; ++h)
        for(std::size_t i = 0; i < s; ++i)
            for(std::size_t c = 0; c < D; ++c)
                (transposed ? r(h, c, i) : r(h, i, c)) = t(b, h / ratio, s0 + i, c);
    return r;
}

// The forward's work over the batches: the FLOPs of the visible scores (Q K^T and P V), and the
// bytes of Q, K, V, O and, with lse, the LSE (a bias's bytes are the caller's to add)
template <typename TC>
std::pair<double, double> fmha_fwd_flop_bytes(const mask_info& mask, const std::vector<ck_tile::index_t>& seqlen_qs,
                                              const std::vector<ck_tile::index_t>& seqlen_ks, ck_tile::index_t h,
                                              ck_tile::index_t h_k, ck_tile::index_t d, ck_tile::index_t d_v, bool lse)
{
    double flop = 0, bytes = 0;
    for(std::size_t b = 0; b < seqlen_qs.size(); ++b)
    {
        const double vis = fmha_visible_area(mask, seqlen_qs[b], seqlen_ks[b]), sq = seqlen_qs[b], sk = seqlen_ks[b];
        flop += static_cast<double>(h) * (2.0 * vis * d + 2.0 * vis * d_v);
        bytes += h * sq * (d * sizeof(typename TC::QDataType) + d_v * sizeof(typename TC::ODataType)) +
                 h_k * sk * (d * sizeof(typename TC::KDataType) + d_v * sizeof(typename TC::VDataType));
        if(lse)
            bytes += h * sq * sizeof(typename TC::LSEDataType);
    }
    return {flop, bytes};
}

// fmha_fwd over the heads in groups of g, one launch per group (bshd): each launch's Q, K, V, O and
// LSE start at the group's first head; the bias, its ALiBi slopes and the dropout stream stay
// indexed by the global head (head_start + h), so bias_ptr stays the whole tensor's. The summed
// time, or -1 when a group has no instance.
template <typename TC>
float fmha_fwd_by_head_groups(const fmha_fwd_traits& traits, const fmha_fwd_args& a, ck_tile::index_t g,
                              const ck_tile::stream_config& sc)
{
    const auto at              = [](auto* p, std::ptrdiff_t elements) { return p + elements; };
    const ck_tile::index_t gqa = a.nhead_q / a.nhead_k;
    float ms                   = 0.f;
    for(ck_tile::index_t h0 = 0; h0 < a.nhead_q; h0 += g)
    {
        fmha_fwd_args ga = a;
        ga.nhead_q       = std::min(g, a.nhead_q - h0);
        ga.nhead_k       = ga.nhead_q / gqa;
        ga.head_start    = h0;
        ga.q_ptr = at(static_cast<const typename TC::QDataType*>(a.q_ptr), std::ptrdiff_t{h0} * a.nhead_stride_q);
        ga.o_ptr = at(static_cast<typename TC::ODataType*>(a.o_ptr), std::ptrdiff_t{h0} * a.nhead_stride_o);
        ga.k_ptr = at(static_cast<const typename TC::KDataType*>(a.k_ptr), std::ptrdiff_t{h0 / gqa} * a.nhead_stride_k);
        ga.v_ptr = at(static_cast<const typename TC::VDataType*>(a.v_ptr), std::ptrdiff_t{h0 / gqa} * a.nhead_stride_v);
        if(a.lse_ptr)
            ga.lse_ptr = at(static_cast<typename TC::LSEDataType*>(a.lse_ptr), std::ptrdiff_t{h0} * a.nhead_stride_lse);
        const float t = fmha_fwd(traits, ga, sc);
        if(t < 0)
            return -1.f;
        ms += t;
    }
    return ms;
}

// Head grouping changes only the order (bhsd: head-major blocks) or the number (bshd) of the
// launches: whether one ungrouped launch writes O (and the LSE, when a has it) bit for bit as the
// grouped launches did. out and lse: their results, already read back from o_buf and lse_buf.
template <typename OT, typename LseT>
bool fmha_fwd_same_as_ungrouped(const fmha_fwd_traits& traits, const fmha_fwd_args& a,
                                const ck_tile::HostTensor<OT>& out, ck_tile::DeviceMem& o_buf,
                                const ck_tile::HostTensor<LseT>& lse, ck_tile::DeviceMem& lse_buf)
{
    fmha_fwd_args one = a;
    one.head_major    = false;
    ck_tile::DeviceMem o1_buf(o_buf.GetBufferSize()), lse1_buf(lse_buf.GetBufferSize());
    o1_buf.SetZero();
    lse1_buf.SetZero();
    one.o_ptr   = o1_buf.GetDeviceBuffer();
    one.lse_ptr = a.lse_ptr ? lse1_buf.GetDeviceBuffer() : nullptr;
    fmha_fwd(traits, one, ck_tile::stream_config{nullptr, false, 0, 0, 1});
    const auto same = [](ck_tile::DeviceMem& ungrouped, const auto& grouped) {
        std::vector<char> bytes(ungrouped.GetBufferSize());
        ungrouped.FromDevice(bytes.data());
        return std::memcmp(bytes.data(), grouped.data(), grouped.get_element_space_size_in_bytes()) == 0;
    };
    return same(o1_buf, out) && (!a.lse_ptr || same(lse1_buf, lse));
}
