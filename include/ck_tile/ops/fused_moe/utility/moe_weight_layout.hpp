// SPDX-License-Identifier: MIT
// moe_weight_layout: the fused-MoE weight layout ("16x16 MFMA mode", the one upstream's
// shuffle_moe_weight produces; ck_tile/host/shuffle_moe_weight.hpp has the host functions).
//
// A weight is a batch of row-major N x K matrices (gate/up G: [experts, interm, hidden], or
// [2 * experts, interm, hidden] with gate and up; down D: [experts, hidden, interm]). Shuffled, each
// matrix is cut into blocks of 16 rows x 32 columns, stored block after block (the blocks of a row
// band side by side), and inside a block as [4][16][8]: K group (8 columns), row, the 8 columns.
// That is upstream's view [b, n/16, 16, k/32, 4, 8] permuted to (0, 1, 3, 4, 2, 5):
//
//   offset(b, n, k) = b * Np * Kp + (n / 16) * (Kp / 32) * 512 + (k / 32) * 512
//                     + ((k % 32) / 8) * 128 + (n % 16) * 8 + k % 8
//
// One block is 512 elements, and lane l of a wave reading 8 consecutive elements at l * 8 holds
// row l % 16, columns (l / 16) * 8 .. + 7: the operand of a 16x16x32 MFMA (or of two 16x16x16 ones,
// WarpGemmAttributeMfmaIterateK), read in one contiguous 1 KiB (16-bit types) per wave.
//
// Np and Kp are N and K rounded up to 16 and 32; the rows and columns added are zero. Where N is a
// multiple of 16 and K of 32 (every upstream case) the layout and its size are upstream's; the
// rounding lets the kernel take any N and K that are multiples of 8.
#pragma once
#include "ck_tile/core.hpp"

namespace ck_tile {

struct moe_weight_layout
{
    static constexpr index_t kBlockN = 16;
    static constexpr index_t kBlockK = 32;
    static constexpr index_t kKPack  = 8;                 // consecutive K values of a row
    static constexpr index_t kBlock  = kBlockN * kBlockK; // elements per block

    CK_TILE_HOST_DEVICE static constexpr index_t padded_n(index_t n) { return (n + kBlockN - 1) / kBlockN * kBlockN; }
    CK_TILE_HOST_DEVICE static constexpr index_t padded_k(index_t k) { return (k + kBlockK - 1) / kBlockK * kBlockK; }

    // elements of one shuffled N x K matrix
    CK_TILE_HOST_DEVICE static constexpr long_index_t matrix_size(index_t n, index_t k)
    {
        return static_cast<long_index_t>(padded_n(n)) * padded_k(k);
    }

    // offset of element (n, k) inside its shuffled matrix (K of the original matrix: k_len)
    CK_TILE_HOST_DEVICE static constexpr long_index_t offset(index_t n, index_t k, index_t k_len)
    {
        const index_t kb = padded_k(k_len) / kBlockK;
        return (static_cast<long_index_t>(n / kBlockN) * kb + k / kBlockK) * kBlock +
               ((k % kBlockK) / kKPack) * (kBlockN * kKPack) + (n % kBlockN) * kKPack + k % kKPack;
    }
};

} // namespace ck_tile
