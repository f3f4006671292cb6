// SPDX-License-Identifier: MIT
// BlockwisGemmXdlTraits (upstream's spelling): the MFMA (XDL) tiling of blockwise_gemm_xdl: the
// M x N of one MFMA, how many MFMAs each wave computes along M and N, and K1, the K elements each
// lane reads as one vector. With a block tile of MPerBlock x NPerBlock the block has
// (MPerBlock / (MPerXDL MXdlPerWave)) x (NPerBlock / (NPerXDL NXdlPerWave)) waves.
#pragma once
#include "ck/ck.hpp"

namespace ck::wrapper {

template <index_t MPerXDLValue, index_t NPerXDLValue, index_t MXdlPerWaveValue, index_t NXdlPerWaveValue,
          index_t K1Value>
struct BlockwisGemmXdlTraits
{
    static constexpr index_t MPerXDL     = MPerXDLValue;
    static constexpr index_t NPerXDL     = NPerXDLValue;
    static constexpr index_t MXdlPerWave = MXdlPerWaveValue;
    static constexpr index_t NXdlPerWave = NXdlPerWaveValue;
    static constexpr index_t K1          = K1Value;
};

// clang-format off
struct BlockwisGemmXdlTraits_32x32Xdl_4x2XdlPerWave_4K1  : BlockwisGemmXdlTraits<32, 32, 4, 2, 4> {};
struct BlockwisGemmXdlTraits_32x32Xdl_2x4XdlPerWave_4K1  : BlockwisGemmXdlTraits<32, 32, 2, 4, 4> {};
struct BlockwisGemmXdlTraits_32x32Xdl_2x2XdlPerWave_4K1  : BlockwisGemmXdlTraits<32, 32, 2, 2, 4> {};
struct BlockwisGemmXdlTraits_32x32Xdl_4x2XdlPerWave_8K1  : BlockwisGemmXdlTraits<32, 32, 4, 2, 8> {};
struct BlockwisGemmXdlTraits_32x32Xdl_2x4XdlPerWave_8K1  : BlockwisGemmXdlTraits<32, 32, 2, 4, 8> {};
struct BlockwisGemmXdlTraits_32x32Xdl_2x2XdlPerWave_8K1  : BlockwisGemmXdlTraits<32, 32, 2, 2, 8> {};
struct BlockwisGemmXdlTraits_32x32Xdl_4x2XdlPerWave_16K1 : BlockwisGemmXdlTraits<32, 32, 4, 2, 16> {};
struct BlockwisGemmXdlTraits_32x32Xdl_2x4XdlPerWave_16K1 : BlockwisGemmXdlTraits<32, 32, 2, 4, 16> {};
struct BlockwisGemmXdlTraits_32x32Xdl_2x2XdlPerWave_16K1 : BlockwisGemmXdlTraits<32, 32, 2, 2, 16> {};
// clang-format on

} // namespace ck::wrapper
