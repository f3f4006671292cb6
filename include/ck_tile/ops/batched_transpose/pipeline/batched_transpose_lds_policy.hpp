// SPDX-License-Identifier: MIT
// BatchedTransposeLdsPolicy: the LDS pipeline's block tile in LDS, written as the input tile
// ([M x N] row-major, 16-byte rows pieces) and read back as its transpose ([N x M] over the same
// bytes: element (n, m) at m * N + n).
#pragma once
#include "ck_tile/ops/batched_transpose/pipeline/batched_transpose_common_policy.hpp"

namespace ck_tile {

struct BatchedTransposeLdsPolicy : BatchedTransposeCommonPolicy
{
    template <typename Problem>
    CK_TILE_HOST_DEVICE static constexpr auto MakeLdsStoreDescriptor()
    {
        return make_naive_tensor_descriptor_packed(
            make_tuple(number<Problem::kMPerBlock>{}, number<Problem::kNPerBlock>{}), number<Problem::kVector>{});
    }

    template <typename Problem>
    CK_TILE_HOST_DEVICE static constexpr auto MakeLdsTransposedDescriptor()
    {
        return make_naive_tensor_descriptor(make_tuple(number<Problem::kNPerBlock>{}, number<Problem::kMPerBlock>{}),
                                            make_tuple(number<1>{}, number<Problem::kNPerBlock>{}));
    }

    template <typename Problem>
    CK_TILE_HOST_DEVICE static constexpr index_t GetSmemSize()
    {
        return Problem::kMPerBlock * Problem::kNPerBlock * index_t(sizeof(typename Problem::InputType));
    }
};

} // namespace ck_tile
