// SPDX-License-Identifier: MIT
// The check of tile_example_fmha_fwd's O (fp16, bf16, fp8 static quantization) and LSE against its
// host reference, derived per element from the arithmetic both sides do, instead of upstream's
// flat rtol/atol (fp16 1e-3, bf16 1e-2, fp8 atol 16), which on data of small |V| accepted wrong
// outputs.
//
//   FmhaFwdArith a{hdim_q, scale_p, scale_o, rp_undrop, &keep};
//   const auto mag = fmha_score_magnitude(q_ref, k_ref, scale_s); // + |bias| by the caller
//   HostTensor<double> e_lse({H, sq});
//   const auto e = fmha_o_bound<PDataType>(s_ref, mag, v_ref, a, &e_lse);
//   bool pass = check_fmha_bound(o_dev, o_ref, e, "OUT mismatch", &worst);
//   pass = pass && check_fmha_bound(lse_dev, lse_ref, e_lse, "LSE mismatch", &worst_lse, false);
//   const FmhaBwdBounds eb = fmha_bwd_bounds(q, k, v, o, dout, s_add, randval, p_undrop_u8, rp, scale, group);
//   pass = check_fmha_bound_of<T>(dq_dev, dq_ref, eb.dq, "dQ mismatch", &worst_dq, 1); // ... dK, dV
//
// Where the two sides round. O_id = scale_o rp sum_j P_ij V_jd, P the softmax of the scores
// s = scale_s Q K^T + bias (masked keys -inf), scaled by scale_p (fp8 only, else 1), rp = 1 / p_undrop
// on the keys dropout keeps (1 without dropout, dropped keys contribute 0 on both sides).
//   * kernel (block_fmha_pipeline_qr_ks_vs.hpp): online softmax in base 2; it rounds the
//     unnormalised P_u = exp2(t - m) scale_p (m the running row max, P_u <= scale_p) to P's type,
//     accumulates P V in fp32, rescales by exp2(m_old - m_new) (the same fp32 factor for O and for
//     the row sum l, so it cancels) and multiplies by rp / l at the end;
//   * reference: rounds the normalised P scale_p to P's type, and under dropout rounds the kept
//     values again after multiplying by rp (reference_batched_dropout), then P V in fp32.
// With u = 2^-24 (fp32), u_P the unit roundoff of P's type (2^-11 fp16, 2^-8 bf16, 2^-4 e4m3) and
// hs half its subnormal spacing, and to first order in these (each bound below is per side, against
// the exact arithmetic on the same rounded inputs; the check adds both sides):
//   1. scores. Products of 16-bit (or fp8) values are exact in fp32; a sum of d of them, in any order,
//      is off by at most (d - 1) u sum_k |q_ik k_jk|. The scale (scale_s log2e rounded, the product
//      rounded), the bias (times log2e, the add) and the subtraction of the row max add a few u of
//      |t| and |m|. With a_i = max_j (scale_s sum_k |q_ik k_jk| + |bias_ij|) (the caller's magnitude
//      tensor, its row maximum over the visible keys) every exponent is off by at most
//        e_i = (d + 6) u a_i.
//   2. softmax. exp / exp2 add 2 u; P_j / l is a ratio of such exponentials, so a shift common to a
//      row cancels and a per-key one counts twice; l is a sum of n_i positive terms (n_i the
//      visible keys) plus at most n_i rescales; 1 / l, rp and scale_p are multiplies. The normalised
//      fp32 P is then within a relative rho_i = 2 e_i + (2 n_i + 8) u of the exact softmax Phat.
//   3. P's rounding: the kernel's P_u is within u_P P_u or hs, so after the division by l >= 1 within
//      u_P P + hs / l; the reference's within u_P P + hs, twice under dropout (the second on rp P).
//   4. P V in fp32: n_i adds and at most n_i rescales and a few final multiplies of O, (2 n_i + 5) u
//      of W_id = sum_j Phat_ij |V_jd| each side.
// So before their last rounding kernel and reference are at most
//   E_id = scale_o [rp scale_p W_id ((1 + r) u_P + 2 rho_i + 2 (2 n_i + 5) u)
//                   + hs T_id (rp / l_i + rp + (r - 1))]
// apart, r the reference's roundings of P (1, or 2 with dropout), W and T_id = sum_j |V_jd| over the
// kept keys, l_i = sum_j exp(s_ij - max_j s_ij) >= 1. Each side then rounds O to its type, within
// half a step, so an element passes when |o - r| <= E + (step(|o|) + step(|r|)) / 2.
// For fp16 and bf16 this is about (2 u_P + 2 rho) of the weighted mean of |V| plus a step of O:
// 2^-10 (fp16) or 2^-7 (bf16) of it, where upstream allowed 1e-3 (1e-2) of max(1, max |V|) over the
// whole tensor plus as much of |ref|: it is much tighter on data of small |V|, on the small columns
// of V and on the small elements of a row.
// LSE_i = m_i + ln l_i, in fp32 on both sides (kernel: (m + log2 l) ln 2): m off by e_i, ln l by the
// relative error of l (2 e_i + (2 n_i + 2) u), log, adds and the ln 2 multiply a few u of |m| and
// |ln l|: per side 3 e_i + (2 n_i + 4) u + 4 u (|m_i| + ln l_i), twice that for the check.
// test/fmha_host/test_fmha_tolerance.cpp and test_fmha_fp8_tolerance.cpp plant bugs in a host model
// of the kernel (a skipped block of keys, a softmax scale off by ln 2, P rounded to bf16 in an fp16
// kernel) that the former checks accepted and this one rejects. The backward's bounds (dQ, dK, dV of
// tile_example_fmha_bwd) follow the same way: fmha_bwd_bounds below, test_fmha_bwd_tolerance.cpp.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <iostream>
#include <string>
#include <vector>
#include "ck_tile/core.hpp"
#include "ck_tile/host/host_tensor.hpp"
#include "ck_tile/host/ulp.hpp"

namespace ck_tile {

// what the kernel's arithmetic depends on beyond the scores and V (see above)
struct FmhaFwdArith
{
    std::size_t hdim_q;                        // d: the length of the score GEMM
    double scale_p                  = 1;       // fp8 static quantization's P scale
    double scale_o                  = 1;       // and its O scale
    double rp_undrop                = 1;       // 1 / p_undrop with dropout
    const HostTensor<uint8_t>* keep = nullptr; // [H, sq, sk], nonzero where dropout keeps the key;
                                               // null: no dropout (every key kept, r = 1)
};

// scale_s sum_k |q_ik k_jk| [H, sq, sk] from Q [H, sq, d] and K [H, sk, d]: the size the scores'
// fp32 rounding errors scale with (the caller adds |bias|)
namespace detail {
// slice h of a [H, rows, cols] tensor as doubles (|x| when Abs), row-major: the bound loops below
// read their operands from here, contiguous and converted once, in the order they always summed
template <bool Abs, typename T>
std::vector<double> fmha_slice(const HostTensor<T>& t, std::size_t h)
{
    const std::size_t rows = t.get_length(1), cols = t.get_length(2);
    std::vector<double> out(rows * cols);
    for(std::size_t r = 0; r < rows; ++r)
        for(std::size_t c = 0; c < cols; ++c)
        {
            const double x    = static_cast<double>(type_convert<float>(t(h, r, c)));
            out[r * cols + c] = Abs ? std::fabs(x) : x;
        }
    return out;
}
} // namespace detail

template <typename QDataType, typename KDataType>
HostTensor<float> fmha_score_magnitude(const HostTensor<QDataType>& q, const HostTensor<KDataType>& k, double scale_s)
{
    const std::size_t H = q.get_length(0), SQ = q.get_length(1), SK = k.get_length(1), D = q.get_length(2);
    HostTensor<float> a({H, SQ, SK});
    for(std::size_t h = 0; h < H; ++h)
    {
        const std::vector<double> qa = detail::fmha_slice<true>(q, h), ka = detail::fmha_slice<true>(k, h);
        for(std::size_t i = 0; i < SQ; ++i)
            for(std::size_t j = 0; j < SK; ++j)
            {
                const double* qi = &qa[i * D];
                const double* kj = &ka[j * D];
                double acc       = 0;
                for(std::size_t c = 0; c < D; ++c)
                    acc += qi[c] * kj[c];
                a(h, i, j) = static_cast<float>(std::fabs(scale_s) * acc);
            }
    }
    return a;
}

// see above: E [H, sq, dv] from the scores s [H, sq, sk] (-inf where masked), their magnitudes mag
// [H, sq, sk] and V [H, dv, sk]; lse_bound (optional, [H, sq]) gets the LSE bound
template <typename PDataType, typename VDataType>
HostTensor<double> fmha_o_bound(const HostTensor<float>& s, const HostTensor<float>& mag,
                                const HostTensor<VDataType>& v, const FmhaFwdArith& a,
                                HostTensor<double>* lse_bound = nullptr)
{
    constexpr double u  = 0x1p-24;                       // fp32's unit roundoff
    const double u_p    = ulp_at<PDataType>(1.0) / 2;    // P's, relative
    const double hs     = ulp_at<PDataType>(0.0) / 2;    // half P's subnormal spacing
    const double r      = a.keep != nullptr ? 2.0 : 1.0; // the reference's roundings of P
    const double rp     = a.keep != nullptr ? a.rp_undrop : 1.0;
    const std::size_t H = s.get_length(0), SQ = s.get_length(1), SK = s.get_length(2), DV = v.get_length(1);
    HostTensor<double> e({H, SQ, DV});
    std::vector<double> p(SK), w(SK), kept(SK);
    for(std::size_t h = 0; h < H; ++h)
    {
        const std::vector<double> av = detail::fmha_slice<true>(v, h); // |V| [dv, sk]
        for(std::size_t i = 0; i < SQ; ++i)
        {
            double m = -INFINITY, amax = 0, n = 0;
            for(std::size_t j = 0; j < SK; ++j)
                if(std::isfinite(s(h, i, j)))
                {
                    m    = std::max(m, static_cast<double>(s(h, i, j)));
                    amax = std::max(amax, static_cast<double>(mag(h, i, j)));
                    n += 1;
                }
            double l = 0;
            for(std::size_t j = 0; j < SK; ++j)
                l += (p[j] = std::isfinite(s(h, i, j)) ? std::exp(static_cast<double>(s(h, i, j)) - m) : 0.0);
            const double e_s = (static_cast<double>(a.hdim_q) + 6) * u * amax; // 1. an exponent
            const double rho = 2 * e_s + (2 * n + 8) * u;                      // 2. P / l
            if(lse_bound != nullptr)
                (*lse_bound)(h, i) =
                    l > 0 ? 2 * (3 * e_s + (2 * n + 4) * u + 4 * u * (std::fabs(m) + std::log(l))) : 0.0;
            const double rel = (1 + r) * u_p + 2 * rho + 2 * (2 * n + 5) * u;
            // masked or dropped keys: neither side adds them (their terms are +0, which leaves the sums
            // exactly as skipping them would)
            for(std::size_t j = 0; j < SK; ++j)
            {
                const bool in = std::isfinite(s(h, i, j)) && (a.keep == nullptr || (*a.keep)(h, i, j) != 0);
                w[j]          = in ? p[j] / l : 0.0;
                kept[j]       = in ? 1.0 : 0.0;
            }
            for(std::size_t d = 0; d < DV; ++d)
            {
                const double* vd = &av[d * SK];
                double weighted = 0, total = 0;
                for(std::size_t j = 0; j < SK; ++j)
                {
                    weighted += w[j] * vd[j];
                    total += kept[j] * vd[j];
                }
                e(h, i, d) =
                    l > 0 ? a.scale_o * (rp * a.scale_p * weighted * rel + hs * total * (rp / l + rp + (r - 1))) : 0.0;
            }
        }
    }
    return e;
}

// every element of o within e of r plus half a step of T for each final rounding (final_roundings:
// 2 when both sides round their result to T, as the forward's O; 1 when only o is T, as the
// backward's gradients against the fp32 reference: half a step at the larger of |o|, |r|; 0 for
// fp32 results such as LSE, whose roundings e already holds); equal infinities pass (LSE of rows
// with no visible key). Prints the first mismatches and returns false otherwise; worst (optional)
// gets the largest |o - r| / allowed.
template <typename T, typename U>
bool check_fmha_bound_of(const HostTensor<U>& o, const HostTensor<U>& r, const HostTensor<double>& e,
                         const std::string& msg, double* worst, int final_roundings)
{
    std::size_t n_err = 0;
    double w          = 0;
    for(std::size_t n = 0; n < r.mData.size(); ++n)
    {
        const double ov = type_convert<float>(o.mData[n]), rv = type_convert<float>(r.mData[n]);
        if(std::isinf(rv) && ov == rv)
            continue;
        const double steps   = final_roundings == 2   ? (ulp_at<T>(ov) + ulp_at<T>(rv)) / 2
                               : final_roundings == 1 ? ulp_at<T>(std::max(std::fabs(ov), std::fabs(rv))) / 2
                                                      : 0.0;
        const double allowed = e.mData[n] + steps;
        const double err     = std::fabs(ov - rv);
        if(!(err <= allowed)) // NaN fails too
        {
            if(n_err++ == 0)
                std::cerr << msg << "\n";
            if(n_err <= 5)
                std::cerr << "  [" << n << "] out " << ov << ", ref " << rv << ", allowed " << allowed << "\n";
        }
        if(allowed > 0)
            w = std::max(w, err / allowed);
        else if(err > 0)
            w = INFINITY;
    }
    if(n_err > 0)
        std::cerr << "check_fmha_bound: " << n_err << " of " << r.mData.size() << " elements differ\n";
    if(worst != nullptr)
        *worst = w;
    return n_err == 0;
}

// the forward's checks: O rounded to T on both sides (round_to_t), LSE in fp32 (not)
template <typename T>
bool check_fmha_bound(const HostTensor<T>& o, const HostTensor<T>& r, const HostTensor<double>& e,
                      const std::string& msg, double* worst = nullptr, bool round_to_t = true)
{
    return check_fmha_bound_of<T>(o, r, e, msg, worst, round_to_t ? 2 : 0);
}

// ---- backward ------------------------------------------------------------------------------------
// tile_example_fmha_bwd checks dQ, dK, dV (rounded to T) against reference_fmha_bwd, which works in
// fp32 and rounds nothing. The kernel (block_fmha_bwd_dq_dk_dv_pipeline_ks_kts_vr.hpp) recomputes
// P = exp2((s - LSE) log2e) from the forward's fp32 LSE, rounds Pd = P keep rp and
// dS = P (dP keep rp - D) to T before its GEMMs, accumulates in fp32 (dQ by atomic adds) and rounds
// each gradient to T once. Per element, to first order (u, u_T, hs as for the forward; e_i the
// score error (d + 6) u a_i of each side; the exact P, dP = dO V^T, D = rowsum(dO O) in double):
//   * P: relative eps_ij = (kernel) e_i + L_i + 3 u |s_ij - lse_i| + 2 u, L_i the forward LSE's own
//     error (3 e_i + (2 n_i + 4) u + 4 u (|m_i| + ln l_i)), plus (reference) rho_i of the forward;
//   * dP and D: fp32 sums of dv products, (dv + 1) u of sum |dO V| and of sum |dO O| each side;
//   * dS before the kernel rounds it: P (|dPd - D| (eps + 3 u) + 2 (dv + 1) u (rp keep B + C)),
//     and the rounding: u_T |dS| + hs;
//   * dV = sum_i Pd dO: sum_i |dO| (Pd (eps + u_T + u) + hs keep), dQ = scale sum_j dS K and
//     dK = scale sum_i dS Q: sum of E_dS |K| (|Q|), plus each side's fp32 sum, (n + 4) u of the sum of
//     the terms' magnitudes (n the terms: keys for dQ, rows times the GQA group for dK, dV);
//   * then the kernel's one rounding to T: half a step, added by check_fmha_bound_of(..., 1).
struct FmhaBwdBounds
{
    HostTensor<double> dq, dk, dv; // [H, sq, d], [H, sk, d], [H, sk, dv], per query head
};

template <typename T>
FmhaBwdBounds fmha_bwd_bounds(const HostTensor<T>& q, const HostTensor<T>& k, const HostTensor<T>& v,
                              const HostTensor<T>& o, const HostTensor<T>& dout, const HostTensor<float>& s_add,
                              const HostTensor<uint8_t>& randval, uint8_t p_undrop_in_uint8, double rp_undrop,
                              double scale, std::size_t group)
{
    constexpr double u = 0x1p-24;
    const double u_t = ulp_at<T>(1.0) / 2, hs = ulp_at<T>(0.0) / 2;
    const std::size_t H = q.get_length(0), SQ = q.get_length(1), D = q.get_length(2), SK = k.get_length(1),
                      DV = v.get_length(2);
    const bool dropout   = randval.get_element_space_size() > 0;
    FmhaBwdBounds b{HostTensor<double>({H, SQ, D}), HostTensor<double>({H, SK, D}), HostTensor<double>({H, SK, DV})};
    std::fill(b.dq.begin(), b.dq.end(), 0.0);
    std::fill(b.dk.begin(), b.dk.end(), 0.0);
    std::fill(b.dv.begin(), b.dv.end(), 0.0);
    // per row: the scores and their magnitudes, then per key the terms of dS
    std::vector<double> sc(SK), mag(SK), p(SK), e_ds(SK), ds_abs(SK), pd(SK), pd_err(SK);
    const double n_dkv = static_cast<double>(SQ * group); // terms of dK and dV per element
    for(std::size_t h = 0; h < H; ++h)
    {
        HostTensor<double> acc_dk({SK, D}), acc_dv({SK, DV}); // sums of the terms' magnitudes
        std::fill(acc_dk.begin(), acc_dk.end(), 0.0);
        std::fill(acc_dv.begin(), acc_dv.end(), 0.0);
        const std::vector<double> qs = detail::fmha_slice<false>(q, h), ks = detail::fmha_slice<false>(k, h),
                                  vs = detail::fmha_slice<false>(v, h), os = detail::fmha_slice<false>(o, h),
                                  dos = detail::fmha_slice<false>(dout, h);
        for(std::size_t i = 0; i < SQ; ++i)
        {
            const double* qi  = &qs[i * D];
            const double* doi = &dos[i * DV];
            const double* oi  = &os[i * DV];
            double m = -INFINITY, amax = 0, n = 0;
            for(std::size_t j = 0; j < SK; ++j)
            {
                double raw = 0, a = 0;
                for(std::size_t c = 0; c < D; ++c)
                {
                    raw += qi[c] * ks[j * D + c];
                    a += std::fabs(qi[c] * ks[j * D + c]);
                }
                const double add = s_add(h, i, j);
                sc[j]            = scale * raw + add;
                mag[j]           = std::fabs(scale) * a + (std::isfinite(add) ? std::fabs(add) : 0.0);
                if(std::isfinite(sc[j]))
                {
                    m    = std::max(m, sc[j]);
                    amax = std::max(amax, mag[j]);
                    n += 1;
                }
            }
            double l = 0;
            for(std::size_t j = 0; j < SK; ++j)
                l += (p[j] = std::isfinite(sc[j]) ? std::exp(sc[j] - m) : 0.0);
            if(!(l > 0))
                continue; // no visible key: P = 0 and every term 0 on both sides
            const double lse = m + std::log(l);
            const double e_s = (static_cast<double>(D) + 6) * u * amax;
            const double rho = 2 * e_s + (2 * n + 8) * u;
            const double L   = 3 * e_s + (2 * n + 4) * u + 4 * u * (std::fabs(m) + std::log(l));
            double dd = 0, c_abs = 0;
            for(std::size_t c = 0; c < DV; ++c)
            {
                dd += doi[c] * oi[c];
                c_abs += std::fabs(doi[c] * oi[c]);
            }
            for(std::size_t j = 0; j < SK; ++j)
            {
                p[j] /= l;
                if(p[j] == 0)
                {
                    e_ds[j] = ds_abs[j] = pd[j] = pd_err[j] = 0; // masked: exactly 0 on both sides
                    continue;
                }
                const bool keep = !dropout || randval(h, i, j) <= p_undrop_in_uint8;
                const double r  = dropout ? (keep ? rp_undrop : 0.0) : 1.0;
                double dp = 0, b_abs = 0;
                for(std::size_t c = 0; c < DV; ++c)
                {
                    dp += doi[c] * vs[j * DV + c];
                    b_abs += std::fabs(doi[c] * vs[j * DV + c]);
                }
                const double eps = e_s + L + 3 * u * std::fabs(sc[j] - lse) + 2 * u + rho;
                const double ds  = p[j] * (dp * r - dd);
                e_ds[j]   = p[j] * (std::fabs(dp * r - dd) * (eps + 3 * u) + 2 * (DV + 1) * u * (r * b_abs + c_abs)) +
                            u_t * std::fabs(ds) + hs;
                ds_abs[j] = std::fabs(ds);
                pd[j]     = p[j] * r;
                pd_err[j] = pd[j] * (eps + u_t + u) + (keep ? hs : 0.0);
            }
            for(std::size_t c = 0; c < D; ++c)
            {
                double eq = 0, tq = 0;
                for(std::size_t j = 0; j < SK; ++j)
                {
                    const double kk = std::fabs(ks[j * D + c]), qq = std::fabs(qi[c]);
                    eq += e_ds[j] * kk;
                    tq += ds_abs[j] * kk;
                    b.dk(h, j, c) += std::fabs(scale) * e_ds[j] * qq;
                    acc_dk(j, c) += ds_abs[j] * qq;
                }
                b.dq(h, i, c) = std::fabs(scale) * (eq + 2 * (n + 4) * u * tq);
            }
            for(std::size_t j = 0; j < SK; ++j)
                for(std::size_t c = 0; c < DV; ++c)
                {
                    const double g = std::fabs(doi[c]);
                    b.dv(h, j, c) += pd_err[j] * g;
                    acc_dv(j, c) += pd[j] * g;
                }
        }
        for(std::size_t j = 0; j < SK; ++j)
        {
            for(std::size_t c = 0; c < D; ++c)
                b.dk(h, j, c) += std::fabs(scale) * 2 * (n_dkv + 4) * u * acc_dk(j, c);
            for(std::size_t c = 0; c < DV; ++c)
                b.dv(h, j, c) += 2 * (n_dkv + 4) * u * acc_dv(j, c);
        }
    }
    return b;
}

} // namespace ck_tile
