// SPDX-License-Identifier: MIT
// BatchedTransposeLdsPolicy: the LDS pipeline's block tile in LDS ([M x N] row-major, written in
// 16-byte row pieces, rows kLdsRowStride elements apart) and the distribution of the output tile
// the LDS transpose reads produce.
//
// Row padding: one transpose read of a group of 16 lanes takes 16 elements from each of kElems
// consecutive rows. With unpadded rows (a multiple of 128 bytes) those rows start on the same LDS
// bank and the read is a kElems-way bank conflict; 16 more elements per row shift consecutive rows
// by 32 (16-bit) or 16 (8-bit) bytes, so the group's 64 / 128 bytes fall on distinct banks.
//
// BatchedTransposeLdsReadShape: one LDS transpose read gives each lane kElems = 8 bytes of
// elements of one output row; the 16 lanes of a group hold 16 consecutive output rows (N), the 4
// groups of a wave 4 consecutive runs of kVector output columns (M), kReads = 2 reads per run.
//
// Output tile [N x M]:  N = <RepeatN, WarpsN, 16 lanes>, M = <RepeatM, WarpsM, 4 groups, kVector>
//   P0 (warp id) -> merge(WarpsM, WarpsN), P1 (lane id) -> merge(groups, lanes)
//   Y = (RepeatN, RepeatM, kVector): kVector, contiguous in the output, last (16-byte stores)
#pragma once
#include "ck_tile/ops/batched_transpose/pipeline/batched_transpose_common_policy.hpp"

namespace ck_tile {

template <typename Problem>
struct BatchedTransposeLdsReadShape
{
    static constexpr index_t kElems        = 8 / index_t(sizeof(typename Problem::InputType));
    static constexpr index_t kLanesPerRow  = 16 / kElems; // lanes that read one row of the E x 16 matrix
    static constexpr index_t kReads        = Problem::kVector / kElems;
    static constexpr index_t kGroups       = get_warp_size() / 16;
    static constexpr index_t kRepeatN      = Problem::kNPerBlock / (Problem::kWarpsN * 16);
    static constexpr index_t kRepeatM      = Problem::kMPerBlock / (Problem::kWarpsM * kGroups * Problem::kVector);
    static constexpr index_t kLdsRowStride = Problem::kNPerBlock + 16; // elements; see the row padding above

    static_assert(kRepeatN * Problem::kWarpsN * 16 == Problem::kNPerBlock &&
                      kRepeatM * Problem::kWarpsM * kGroups * Problem::kVector == Problem::kMPerBlock,
                  "BatchedTransposeLdsReadShape: the block tile must be whole waves of transpose reads");
};

struct BatchedTransposeLdsPolicy : BatchedTransposeCommonPolicy
{
    template <typename Problem>
    CK_TILE_HOST_DEVICE static constexpr auto MakeLdsStoreDescriptor()
    {
        return make_naive_tensor_descriptor(
            make_tuple(number<Problem::kMPerBlock>{}, number<Problem::kNPerBlock>{}),
            make_tuple(number<BatchedTransposeLdsReadShape<Problem>::kLdsRowStride>{}, number<1>{}),
            number<Problem::kVector>{});
    }

    template <typename Problem>
    CK_TILE_HOST_DEVICE static constexpr auto MakeTransposedReadDistribution()
    {
        using P = Problem;
        using R = BatchedTransposeLdsReadShape<Problem>;
        return make_static_tile_distribution(
            tile_distribution_encoding<
                sequence<>,
                tuple<sequence<R::kRepeatN, P::kWarpsN, 16>, sequence<R::kRepeatM, P::kWarpsM, R::kGroups, P::kVector>>,
                tuple<sequence<2, 1>, sequence<2, 1>>, tuple<sequence<1, 1>, sequence<2, 2>>, sequence<1, 2, 2>,
                sequence<0, 0, 3>>{});
    }

    template <typename Problem>
    CK_TILE_HOST_DEVICE static constexpr index_t GetSmemSize()
    {
        return Problem::kMPerBlock * BatchedTransposeLdsReadShape<Problem>::kLdsRowStride *
               index_t(sizeof(typename Problem::InputType));
    }
};

} // namespace ck_tile
