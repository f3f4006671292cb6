// SPDX-License-Identifier: MIT
// BatchedTransposePolicy: the register pipeline needs only the common distributions (no LDS).
#pragma once
#include "ck_tile/ops/batched_transpose/pipeline/batched_transpose_common_policy.hpp"

namespace ck_tile {

struct BatchedTransposePolicy : BatchedTransposeCommonPolicy
{
    template <typename Problem>
    CK_TILE_HOST_DEVICE static constexpr index_t GetSmemSize()
    {
        return 0;
    }
};

} // namespace ck_tile
