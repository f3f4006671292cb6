// SPDX-License-Identifier: MIT
// Picks the matrix-core swizzle instance for a permutation and shape (upstream's conditions) and
// launches it; see ck_tile/ops/permute/kernel/matrix_core_swizzle_kernel.hpp for the layouts.
#include "../permute.hpp"
#include "ck_tile/ops/permute.hpp"

namespace {

using ck_tile::matrix_core_inst_enum;
using ck_tile::matrix_core_permute_style;
using ck_tile::matrix_core_swizzle_host_args;
using ck_tile::matrix_core_swizzle_kernel;

template <matrix_core_permute_style Style, matrix_core_inst_enum Inst>
permute_result run_swizzle(const matrix_core_swizzle_host_args& h, const ck_tile::stream_config& s)
{
    using Kernel     = matrix_core_swizzle_kernel<256, 256, 128, Style, Inst>;
    const auto kargs = Kernel::MakeKargs(h);
    const float ms   = ck_tile::launch_kernel(
        s, ck_tile::make_kernel<Kernel::kBlockSize>(Kernel{}, Kernel::GridSize(kargs), Kernel::BlockSize(), 0, kargs));
    return {ms, Kernel::GetName()};
}

bool perm_is(const permute_args& a, std::initializer_list<int> p)
{
    if(a.rank != static_cast<int>(p.size()))
        return false;
    int i = 0;
    for(int v : p)
        if(a.perm[i++] != v)
            return false;
    return true;
}

} // namespace

bool matrix_core_swizzle(const permute_args& a, const ck_tile::stream_config& s, permute_result& r)
{
    using style       = matrix_core_permute_style;
    using inst        = matrix_core_inst_enum;
    const auto* d     = a.shape;
    const bool style0 = perm_is(a, {0, 1, 4, 2, 5, 3, 6});
    const bool style1 = perm_is(a, {0, 1, 2, 4, 5, 3, 6});
    if(style0 || style1)
    {
        // x: (b, n0, n1, n2, k0, k1, k2)
        const matrix_core_swizzle_host_args h{a.p_src, a.p_dst, d[0], d[1] * d[2] * d[3], d[4] * d[5] * d[6]};
        const bool i32 = d[6] == 8 && d[3] == 32 && d[5] == 2 && d[2] == 4 && d[4] % 8 == 0 && d[1] % 2 == 0;
        const bool i16 = d[6] == 8 && d[3] == 16 && d[5] == 4 && d[2] == 4 && d[4] % 4 == 0 && d[1] % 4 == 0;
        if(i32)
            r = style0 ? run_swizzle<style::permute_b_n0_k0_n1_k1_n2_k2, inst::MFMA_32x32x8_F16>(h, s)
                       : run_swizzle<style::permute_b_n0_n1_k0_k1_n2_k2, inst::MFMA_32x32x8_F16>(h, s);
        else if(i16)
            r = style0 ? run_swizzle<style::permute_b_n0_k0_n1_k1_n2_k2, inst::MFMA_16x16x16_F16>(h, s)
                       : run_swizzle<style::permute_b_n0_n1_k0_k1_n2_k2, inst::MFMA_16x16x16_F16>(h, s);
        return i32 || i16;
    }
    if(perm_is(a, {0, 1, 3, 4, 2, 5}))
    {
        // x: (b, nr, nw, kr, kw, kv)
        const matrix_core_swizzle_host_args h{a.p_src, a.p_dst, d[0], d[1] * d[2], d[3] * d[4] * d[5]};
        const bool i16 = d[5] == 8 && d[4] == 4 && d[2] == 16 && d[1] % 4 == 0 && d[3] % 8 == 0;
        const bool i32 = d[5] == 8 && d[4] == 2 && d[2] == 32 && d[1] % 4 == 0 && d[3] % 8 == 0;
        if(i16)
            r = run_swizzle<style::permute_b_nr_kr_kw_nw_kv, inst::MFMA_16x16x16_F16>(h, s);
        else if(i32)
            r = run_swizzle<style::permute_b_nr_kr_kw_nw_kv, inst::MFMA_32x32x8_F16>(h, s);
        return i16 || i32;
    }
    return false;
}
