// SPDX-License-Identifier: MIT
// fmha_dropout_fill_randval: the host's copy of the FMHA dropout bytes of one (batch, head) slice,
// to check a kernel's stored randval tensor and to apply dropout in the reference attention.
//
//   HostTensor<uint8_t> rv({seqlen_q, seqlen_k});
//   ck_tile::fmha_dropout_fill_randval(rv, seed, offset, i_batch, i_head, nhead_total);
//
// randval_m_n is 2-D [row, col]; element (row, col) receives the byte that block_dropout.hpp
// defines for that element, with i_head the GLOBAL query head. The elements are filled 16 columns
// per Philox call, the same calls a kernel makes.
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
    const std::size_t rows = randval_m_n.get_lengths()[0];
    const std::size_t cols = randval_m_n.get_lengths()[1];
    for(std::size_t row = 0; row < rows; ++row)
        for(std::size_t col16 = 0; col16 * 16 < cols; ++col16)
        {
            const array<uint8_t, 16> bytes = fmha_dropout_randval16(
                seed, offset, i_batch, i_head, nhead_total, static_cast<index_t>(row), static_cast<index_t>(col16));
            for(std::size_t j = 0; j < 16 && col16 * 16 + j < cols; ++j)
                randval_m_n(row, col16 * 16 + j) = static_cast<T>(bytes[static_cast<index_t>(j)]);
        }
}

} // namespace ck_tile
