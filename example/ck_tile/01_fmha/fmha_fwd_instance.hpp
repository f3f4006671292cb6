// SPDX-License-Identifier: MIT
// The body of every generated instance: an fmha_fwd_traits_ turned into the kernel's types
// (problem, shape, traits, pipeline, epilogue, kernel) and a launch. Each generated file includes
// this and explicitly instantiates fmha_fwd_<its traits>.
//
// Warps and warp tiles: 4 warps, each kM0 / 4 = 32 query rows; 32x32 warp GEMMs, 16 deep for
// 16-bit types (one gfx950 MFMA, two gfx942 ones) and 32 / 16 deep for fp8's two GEMMs.
#pragma once
#include <stdexcept>
#include "fmha_fwd.hpp"

template <typename Traits_>
struct fmha_fwd_kernel_of
{
    using T                       = typename Traits_::DataType;
    using TC                      = FmhaFwdTypeConfig<T>;
    static constexpr bool kIs8Bit = sizeof(T) == 1;
    using Shape =
        ck_tile::TileFmhaShape<ck_tile::sequence<Traits_::kM0, Traits_::kN0, Traits_::kK0, Traits_::kN1, Traits_::kK1,
                                                 Traits_::kK0BlockLength>,
                               ck_tile::sequence<4, 1, 1>, ck_tile::sequence<32, 32, kIs8Bit ? 32 : 16>,
                               ck_tile::sequence<4, 1, 1>, ck_tile::sequence<32, 32, 16>, Traits_::kIsVLayoutRowMajor>;
    using FTraits =
        ck_tile::TileFmhaTraits<Traits_::kPadS, Traits_::kPadSK, Traits_::kPadD, Traits_::kPadDv, Traits_::kHasBias,
                                false, Traits_::kStoreLse, Traits_::kHasDropout, Traits_::kDoFp8StaticQuant>;
    using Problem = ck_tile::BlockFmhaPipelineProblem<
        typename TC::QDataType, typename TC::KDataType, typename TC::VDataType, typename TC::SaccDataType,
        typename TC::SMPLComputeDataType, typename TC::BiasDataType, typename TC::RandValOutputDataType,
        typename TC::LSEDataType, typename TC::PDataType, typename TC::OaccDataType, typename TC::ODataType, Shape,
        Traits_::kIsGroupMode, typename Traits_::FmhaMask, FTraits>;
    using Pipeline = ck_tile::BlockFmhaPipelineQRKSVS<Problem>;
    using Epilogue = ck_tile::Default2DEpilogue<
        ck_tile::Default2DEpilogueProblem<typename TC::OaccDataType, typename TC::ODataType, true, true>>;
    using Kernel = ck_tile::FmhaFwdKernel<ck_tile::FmhaFwdTilePartitioner<Shape>, Pipeline, Epilogue>;
};

template <typename Traits_>
float fmha_fwd_(const ck_tile::stream_config& s, fmha_fwd_args a)
{
    using Kernel          = typename fmha_fwd_kernel_of<Traits_>::Kernel;
    const std::string why = Kernel::GetUnsupportedReason(a);
    if(!why.empty())
        throw std::invalid_argument(Kernel::GetName() + ": " + why);
    const auto kargs = Kernel::MakeKargs(a);
    if(s.log_level_ > 0)
        std::cout << ", " << Kernel::GetName() << std::flush;
    return ck_tile::launch_kernel(s, ck_tile::make_kernel<Kernel::kBlockSize, Kernel::kBlockPerCu>(
                                         Kernel{}, Kernel::GridSize(a), Kernel::BlockSize(), 0, kargs));
}

template <typename Traits_>
std::string fmha_fwd_get_name_()
{
    return fmha_fwd_kernel_of<Traits_>::Kernel::GetName();
}
