// SPDX-License-Identifier: MIT
// The FMHA backward's global memory accesses: a (batch, head)'s tensor as a buffer with its shape
// and row stride (FmhaBwdTensor), and tile loads, stores and atomic adds through it whose
// validity checks are arithmetic on vector registers.
//
// Why not pad_tensor_view's tile windows: their per-access checks are compares (lane masks in
// scalar register pairs, loop-invariant ones hoisted and kept live) and their offsets add uniform
// row-times-stride products that the compiler hoists into scalar registers; in the dQ/dK/dV
// kernel's loop that was more than the 102 SGPRs there are. Here every condition is a bit mask
// (all ones or zero) in a vector register and an access outside the tensor gets an offset past any
// buffer, which the checked buffer access drops (reads give 0), like a padded view's padding.
#pragma once
#include "ck_tile/core.hpp"

namespace ck_tile {

// a lane's condition as a bit mask (all ones where v < 0 as a signed value) in a vector register:
// through opaque_vgpr_copy so that the compiler cannot turn it back into a compare, whose lane
// mask would sit in a scalar register pair (a tile's worth of them, live together, spill)
CK_TILE_DEVICE uint32_t fmha_bwd_neg_mask(uint32_t v)
{
    return opaque_vgpr_copy(static_cast<uint32_t>(static_cast<int32_t>(v) >> 31));
}

// A (batch, head)'s row-major [rows, cols] global tensor, rows `stride` elements apart. The
// backward reaches it through fmha_bwd_for_each_access, not through pad_tensor_view's windows:
// their per-access checks (compares, lane masks, offsets of uniform rows times the stride) are
// what filled the scalar registers of the loop.
template <typename T>
struct FmhaBwdTensor
{
    buffer_view<address_space_enum::global, T> buf;
    index_t rows, cols, stride;
};

template <typename T>
CK_TILE_DEVICE FmhaBwdTensor<T> make_fmha_bwd_tensor(T* p, index_t rows, index_t cols, index_t stride)
{
    const long_index_t size = rows > 0 && cols > 0 ? static_cast<long_index_t>(rows - 1) * stride + cols : 0;
    return FmhaBwdTensor<T>{make_buffer_view<address_space_enum::global>(p, size), rows, cols, stride};
}

// The calling lane's accesses of the tile of distribution Dstr at (row0, col0) of a tensor with
// `rows` rows and `cols` columns, rows `stride` apart: f(d, dstride, vec, i) for registers d, d +
// dstride, ... (vec of them, kVec at most: what the tensor guarantees contiguous) and elements i,
// i + 1, .... Outside the tensor, i lies past any buffer (its checked access drops it): the check
// is arithmetic on vector registers. rows, cols and stride should be vector register values.
template <typename Dstr, index_t kVec, typename F>
CK_TILE_DEVICE void fmha_bwd_for_each_access(index_t row0, index_t col0, uint32_t rows, uint32_t cols, uint32_t stride,
                                             F&& f)
{
    constexpr index_t vy  = Dstr::get_vector_y_dim();
    constexpr index_t vec = [] {
        if constexpr(vy < 0 || kVec <= 1)
            return index_t{1};
        else
            return gcd(Dstr::ys_lengths::at(vy), kVec);
    }();
    constexpr index_t dstride = [] {
        index_t st = 1;
        for(index_t i = vy + 1; i < Dstr::NDimY; ++i)
            st *= Dstr::ys_lengths::at(i);
        return vy < 0 ? index_t{1} : st;
    }();
    const auto x0 = Dstr::calculate_index();
    static_for<0, Dstr::thread_buffer_size>{}([&](auto d) {
        constexpr auto y = Dstr::d_to_y(d);
        if constexpr(vec == 1 || y[vy < 0 ? 0 : vy] % vec == 0)
        {
            constexpr auto dx  = Dstr::y_to_x_offset(y);
            const uint32_t row = static_cast<uint32_t>(row0 + x0[0] + dx[0]);
            const uint32_t col = static_cast<uint32_t>(col0 + x0[1] + dx[1]);
            const uint32_t ok  = fmha_bwd_neg_mask(row - rows) & fmha_bwd_neg_mask(col - cols);
            f(d, number<dstride>{}, number<vec>{}, (row * stride + col) | (~ok & 0x7fffffffu));
        }
    });
}

// load / store / atomic add of a tile through fmha_bwd_for_each_access
template <index_t kVec, typename T, typename Dstr>
CK_TILE_DEVICE void fmha_bwd_load(static_distributed_tensor<T, Dstr>& t, const FmhaBwdTensor<const T>& g, index_t row0,
                                  index_t col0, uint32_t rows, uint32_t cols, uint32_t stride)
{
    fmha_bwd_for_each_access<Dstr, kVec>(
        row0, col0, rows, cols, stride, [&](auto d, auto dstride, auto vec, uint32_t i) {
            const auto v = g.buf.template get<vec>(i, true);
            static_for<0, vec>{}([&](auto k) { t.get_thread_buffer()[d + k * dstride] = v[k]; });
        });
}
template <index_t kVec, typename T, typename Dstr>
CK_TILE_DEVICE void fmha_bwd_store(const static_distributed_tensor<T, Dstr>& t, const FmhaBwdTensor<T>& g, index_t row0,
                                   index_t col0, uint32_t rows, uint32_t cols, uint32_t stride)
{
    fmha_bwd_for_each_access<Dstr, kVec>(
        row0, col0, rows, cols, stride, [&](auto d, auto dstride, auto vec, uint32_t i) {
            thread_buffer<T, vec> v;
            static_for<0, vec>{}([&](auto k) { v[k] = t.get_thread_buffer()[d + k * dstride]; });
            g.buf.template set<vec>(i, true, v);
        });
}
template <typename T, typename Dstr>
CK_TILE_DEVICE void fmha_bwd_atomic_add(const static_distributed_tensor<T, Dstr>& t, const FmhaBwdTensor<T>& g,
                                        index_t row0, index_t col0, uint32_t rows, uint32_t cols, uint32_t stride)
{
    fmha_bwd_for_each_access<Dstr, 1>(row0, col0, rows, cols, stride, [&](auto d, auto, auto, uint32_t i) {
        thread_buffer<T, 1> v;
        v[0] = t.get_thread_buffer()[d];
        g.buf.template atomic_add<1>(i, true, v);
    });
}

} // namespace ck_tile
