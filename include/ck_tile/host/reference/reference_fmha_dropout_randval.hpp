// SPDX-License-Identifier: MIT
// fmha_dropout_fill_randval: the host's copy of the FMHA dropout bytes of one (batch, head) slice,
// to check a kernel's stored randval tensor and to apply dropout in the reference attention.
//
//   HostTensor<uint8_t> rv({seqlen_q, seqlen_k});
//   ck_tile::fmha_dropout_fill_randval(rv, seed, offset, i_batch, i_head, nhead_total);
//
// randval_m_n is 2-D [row, col]; element (row, col) receives the byte that block_dropout.hpp
// defines for that element, with i_head the GLOBAL query head. Filled the way upstream's host
// reference fills it: tile by tile, each draw's 16 bytes to the elements they define.
#pragma once
#include <cstddef>
#include <stdexcept>
#include "ck_tile/host/host_tensor.hpp"
#include "ck_tile/ops/fmha/block/block_dropout.hpp"

namespace ck_tile {

template <typename T>
void fmha_dropout_fill_randval(HostTensor<T>& randval_m_n, uint64_t seed, uint64_t offset, index_t i_batch,
                               index_t i_head, index_t nhead_total)
{
    if(randval_m_n.get_num_of_dimension() != 2)
        throw std::invalid_argument("fmha_dropout_fill_randval: randval_m_n must be 2-D [row, col]");
    const index_t rows = static_cast<index_t>(randval_m_n.get_lengths()[0]);
    const index_t cols = static_cast<index_t>(randval_m_n.get_lengths()[1]);
    for(index_t tr = 0; tr * 32 < rows; ++tr)
        for(index_t tc = 0; tc * 32 < cols; ++tc)
            for(index_t lane = 0; lane < 64; ++lane)
            {
                const array<uint32_t, 4> w =
                    fmha_dropout_draw(seed, offset, i_batch, i_head, nhead_total, tr, tc, lane);
                for(index_t k = 0; k < 16; ++k)
                {
                    const index_t row = 32 * tr + 16 * (k / 8) + 8 * (lane / 32) + k % 8;
                    const index_t col = 32 * tc + lane % 32;
                    if(row < rows && col < cols)
                        randval_m_n(row, col) = static_cast<T>(static_cast<uint8_t>(w[k / 4] >> (8 * (k % 4))));
                }
            }
}

} // namespace ck_tile
