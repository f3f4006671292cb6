// SPDX-License-Identifier: MIT
// The body of every backward instance: an fmha_bwd_traits_ turned into the three kernels' types
// and one launch sequence. 4 warps of 32 keys (kN0 = 128), 32 query rows per step, 32x32x16 warp
// GEMMs; every instance serves any mask, bias kind (none, element-wise, ALiBi) and dropout at
// run time, and any seqlen (padded views), like the forward's instances.
#pragma once
#include <stdexcept>
#include "fmha_bwd.hpp"

template <typename Traits_>
struct fmha_bwd_kernels_of
{
    using T       = typename Traits_::DataType;
    using TC      = FmhaBwdTypeConfig<T>;
    using Shape   = ck_tile::TileFmhaBwdShape<ck_tile::sequence<32, 128, Traits_::HDim, Traits_::HDim>,
                                              ck_tile::sequence<4, 1, 1>, ck_tile::sequence<32, 32, 16>>;
    using FTraits = ck_tile::TileFmhaTraits<true, true, true, true, true, false, false, true, false>;
    using Problem = ck_tile::BlockFmhaBwdPipelineProblem<
        typename TC::QDataType, typename TC::KDataType, typename TC::VDataType, typename TC::GemmDataType,
        typename TC::LSEDataType, typename TC::AccDataType, typename TC::DDataType, typename TC::BiasDataType,
        typename TC::ODataType, typename TC::OGradDataType, typename TC::QGradDataType, typename TC::KGradDataType,
        typename TC::VGradDataType, Shape, Traits_::kIsGroupMode, FmhaMasks::GenericMask, FTraits>;
    using Pipeline = ck_tile::BlockFmhaBwdDQDKDVPipelineKSKTSVR<Problem>;
    using Dot      = ck_tile::FmhaBwdOGradDotOKernel<typename TC::ODataType, typename TC::OGradDataType,
                                                     typename TC::DDataType, Traits_::kIsGroupMode>;
    using DQDKDV   = ck_tile::FmhaBwdDQDKDVKernel<Pipeline>;
    using Convert  = ck_tile::FmhaBwdConvertQGradKernel<typename TC::AccDataType, T, Traits_::kIsGroupMode>;
};

template <typename Traits_>
float fmha_bwd_(const ck_tile::stream_config& s, fmha_bwd_args a)
{
    using K               = fmha_bwd_kernels_of<Traits_>;
    const std::string why = K::DQDKDV::GetUnsupportedReason(a);
    if(!why.empty())
        throw std::invalid_argument(K::DQDKDV::GetName() + ": " + why);
    if(s.log_level_ > 0)
        std::cout << ", " << K::DQDKDV::GetName() << std::flush;

    const bool gqa          = a.nhead_q != a.nhead_k;
    const auto convert_args = [&](const void* acc, void* out, bool keys, ck_tile::index_t nhead, ck_tile::index_t hdim,
                                  ck_tile::index_t sa, ck_tile::index_t nsa, ck_tile::index_t bsa, ck_tile::index_t so,
                                  ck_tile::index_t nso, ck_tile::index_t bso) {
        return typename K::Convert::Kargs{acc,
                                          out,
                                          keys ? a.seqstart_k_ptr : a.seqstart_q_ptr,
                                          keys ? a.seqlen_k : a.seqlen_q,
                                          hdim,
                                          a.batch,
                                          nhead,
                                          keys ? a.max_seqlen_k : a.max_seqlen_q,
                                          sa,
                                          nsa,
                                          bsa,
                                          so,
                                          nso,
                                          bso};
    };
    const auto cq =
        convert_args(a.dq_acc_ptr, a.dq_ptr, false, a.nhead_q, a.hdim_q, a.stride_dq_acc, a.nhead_stride_dq_acc,
                     a.batch_stride_dq_acc, a.stride_dq, a.nhead_stride_dq, a.batch_stride_dq);
    const auto ck_ =
        convert_args(a.dk_acc_ptr, a.dk_ptr, true, a.nhead_k, a.hdim_q, a.stride_dk_acc, a.nhead_stride_dk_acc,
                     a.batch_stride_dk_acc, a.stride_dk, a.nhead_stride_dk, a.batch_stride_dk);
    const auto cv =
        convert_args(a.dv_acc_ptr, a.dv_ptr, true, a.nhead_k, a.hdim_v, a.stride_dv_acc, a.nhead_stride_dv_acc,
                     a.batch_stride_dv_acc, a.stride_dv, a.nhead_stride_dv, a.batch_stride_dv);
    // the dK/dV workspaces are packed: batch mode batch x batch stride, group mode nhead_k x head stride
    const auto ws_bytes = [&](ck_tile::index_t nhead_stride, ck_tile::index_t batch_stride) {
        return sizeof(float) * static_cast<std::size_t>(a.seqstart_q_ptr ? static_cast<long>(a.nhead_k) * nhead_stride
                                                                         : static_cast<long>(a.batch) * batch_stride);
    };
    const std::size_t dk_ws = gqa ? ws_bytes(a.nhead_stride_dk_acc, a.batch_stride_dk_acc) : 0;
    const std::size_t dv_ws = gqa ? ws_bytes(a.nhead_stride_dv_acc, a.batch_stride_dv_acc) : 0;

    const auto clear_ws = [=](const ck_tile::stream_config&) {
        if(dk_ws > 0)
        {
            HIP_CHECK_ERROR(hipMemset(a.dk_acc_ptr, 0, dk_ws));
            HIP_CHECK_ERROR(hipMemset(a.dv_acc_ptr, 0, dv_ws));
        }
    };
    const auto dot = ck_tile::make_kernel<K::Dot::kBlockSize, K::Dot::kBlockPerCu>(
        typename K::Dot{}, K::Dot::GridSize(a), K::Dot::BlockSize(), 0, a);
    const auto dqdkdv = ck_tile::make_kernel<K::DQDKDV::kBlockSize, K::DQDKDV::kBlockPerCu>(
        typename K::DQDKDV{}, K::DQDKDV::GridSize(a), K::DQDKDV::BlockSize(), 0, a);
    const auto conv_q = ck_tile::make_kernel<K::Convert::kBlockSize, K::Convert::kBlockPerCu>(
        typename K::Convert{}, K::Convert::GridSize(cq), K::Convert::BlockSize(), 0, cq);
    const auto conv_k = ck_tile::make_kernel<K::Convert::kBlockSize, K::Convert::kBlockPerCu>(
        typename K::Convert{}, K::Convert::GridSize(ck_), K::Convert::BlockSize(), 0, ck_);
    const auto conv_v = ck_tile::make_kernel<K::Convert::kBlockSize, K::Convert::kBlockPerCu>(
        typename K::Convert{}, K::Convert::GridSize(cv), K::Convert::BlockSize(), 0, cv);
    const auto conv_kv = [=](const ck_tile::stream_config& sc) {
        if(gqa)
        {
            auto k_ = conv_k;
            auto v_ = conv_v;
            k_(sc);
            v_(sc);
        }
    };
    return ck_tile::launch_kernel(s, clear_ws, dot, dqdkdv, conv_q, conv_kv);
}

template <typename Traits_>
std::string fmha_bwd_get_name_()
{
    return fmha_bwd_kernels_of<Traits_>::DQDKDV::GetName();
}

// one file's instances: batch and group mode of a data type and head dim
#define FMHA_BWD_INSTANCES(DTYPE, HDIM)                                                                                \
    template float fmha_bwd_<fmha_bwd_traits_<DTYPE, HDIM, false>>(const ck_tile::stream_config&, fmha_bwd_args);      \
    template float fmha_bwd_<fmha_bwd_traits_<DTYPE, HDIM, true>>(const ck_tile::stream_config&, fmha_bwd_args);       \
    template std::string fmha_bwd_get_name_<fmha_bwd_traits_<DTYPE, HDIM, false>>();                                   \
    template std::string fmha_bwd_get_name_<fmha_bwd_traits_<DTYPE, HDIM, true>>();
