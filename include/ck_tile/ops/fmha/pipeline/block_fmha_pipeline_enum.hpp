// SPDX-License-Identifier: MIT
// BlockFmhaPipelineEnum: the forward pipelines by the names their kernels carry (upstream's).
// QRKSVS ("qr"): Q kept in registers for the whole K loop, K and V staged through LDS.
#pragma once

namespace ck_tile {

enum struct BlockFmhaPipelineEnum
{
    QRKSVS = 0,
};

template <BlockFmhaPipelineEnum>
struct BlockFmhaPipelineEnumToStr;
template <>
struct BlockFmhaPipelineEnumToStr<BlockFmhaPipelineEnum::QRKSVS>
{
    static constexpr const char* name = "qr";
};

} // namespace ck_tile
