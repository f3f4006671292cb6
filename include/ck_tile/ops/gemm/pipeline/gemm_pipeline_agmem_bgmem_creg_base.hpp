// SPDX-License-Identifier: MIT
// What both GEMM pipelines share: the problem's constants, the DRAM copy windows (with their
// distributions and their step along K, which depends on the layout) and the LDS windows of one
// buffer (where the DRAM tiles are stored, and where the block GEMM reads them).
#pragma once
#include "ck_tile/core.hpp"

namespace ck_tile {

template <typename Problem_, typename Policy_>
struct GemmPipelineAGmemBGmemCRegBase
{
    using Problem        = Problem_;
    using Policy         = Policy_;
    using ADataType      = typename Problem::ADataType;
    using BDataType      = typename Problem::BDataType;
    using AccDataType    = typename Problem::AccDataType;
    using CDataType      = AccDataType;
    using BlockGemmShape = typename Problem::BlockGemmShape;
    using ALayout        = typename Problem::ALayout;
    using BLayout        = typename Problem::BLayout;
    using CLayout        = typename Problem::CLayout;

    static constexpr index_t BlockSize = Problem::kBlockSize;
    static constexpr index_t MPerBlock = BlockGemmShape::kM;
    static constexpr index_t NPerBlock = BlockGemmShape::kN;
    static constexpr index_t KPerBlock = BlockGemmShape::kK;

    static constexpr bool kPadM = Problem::kPadM;
    static constexpr bool kPadN = Problem::kPadN;
    static constexpr bool kPadK = Problem::kPadK;

    static constexpr bool kAKContiguous = Policy::template IsAKContiguous<Problem>();
    static constexpr bool kBKContiguous = Policy::template IsBKContiguous<Problem>();

    using BlockGemm = decltype(Policy::template GetBlockGemm<Problem>());

    // bytes of LDS the pipeline needs (one or two buffers: the policy knows)
    CK_TILE_HOST_DEVICE static constexpr index_t GetSmemSize() { return Policy::template GetSmemSize<Problem>(); }

    CK_TILE_HOST_DEVICE static constexpr index_t GetVectorSizeA() { return Problem::VectorSizeA; }
    CK_TILE_HOST_DEVICE static constexpr index_t GetVectorSizeB() { return Problem::VectorSizeB; }

    // The window lengths the kernel must give the DRAM windows: along the operand's layout.
    CK_TILE_HOST_DEVICE static constexpr auto GetADramWindowLengths()
    {
        if constexpr(kAKContiguous)
            return make_tuple(number<MPerBlock>{}, number<KPerBlock>{});
        else
            return make_tuple(number<KPerBlock>{}, number<MPerBlock>{});
    }
    CK_TILE_HOST_DEVICE static constexpr auto GetBDramWindowLengths()
    {
        if constexpr(kBKContiguous)
            return make_tuple(number<NPerBlock>{}, number<KPerBlock>{});
        else
            return make_tuple(number<KPerBlock>{}, number<NPerBlock>{});
    }

protected:
    // one K step of a DRAM window
    template <bool kKContiguous>
    CK_TILE_HOST_DEVICE static constexpr multi_index<2> k_step()
    {
        return kKContiguous ? make_multi_index(0, KPerBlock) : make_multi_index(KPerBlock, 0);
    }

    // The LDS windows of one buffer of A and B starting at p_lds: where the DRAM tiles are
    // stored (in their DRAM orientation) and where the block GEMM reads them (rows x kK).
    CK_TILE_DEVICE static auto make_lds_windows(void* p_lds)
    {
        auto* p_a = static_cast<ADataType*>(p_lds);
        auto* p_b = reinterpret_cast<BDataType*>(static_cast<char*>(p_lds) + Policy::template GetSmemSizeA<Problem>());
        const auto a_lds =
            make_tensor_view<address_space_enum::lds>(p_a, Policy::template MakeALdsBlockDescriptor<Problem>());
        const auto b_lds =
            make_tensor_view<address_space_enum::lds>(p_b, Policy::template MakeBLdsBlockDescriptor<Problem>());
        const auto a_store = make_tile_window(Policy::template MakeLdsStoreView<kAKContiguous>(a_lds),
                                              GetADramWindowLengths(), make_multi_index(0, 0));
        const auto b_store = make_tile_window(Policy::template MakeLdsStoreView<kBKContiguous>(b_lds),
                                              GetBDramWindowLengths(), make_multi_index(0, 0));
        const auto a_gemm =
            make_tile_window(a_lds, make_tuple(number<MPerBlock>{}, number<KPerBlock>{}), make_multi_index(0, 0));
        const auto b_gemm =
            make_tile_window(b_lds, make_tuple(number<NPerBlock>{}, number<KPerBlock>{}), make_multi_index(0, 0));
        return make_tuple(a_store, b_store, a_gemm, b_gemm);
    }
};

} // namespace ck_tile
