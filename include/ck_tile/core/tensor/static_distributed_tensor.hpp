// SPDX-License-Identifier: MIT
// static_distributed_tensor: one tile held in registers across a block. Each thread owns
// thread_buffer_size elements, those its tile distribution assigns to it, ordered row-major over
// the Y lengths.
#pragma once
#include "ck_tile/core/config.hpp"
#include "ck_tile/core/container/thread_buffer.hpp"
#include "ck_tile/core/tensor/tile_distribution.hpp"

namespace ck_tile {

template <typename DataType_, typename StaticTileDistribution_>
struct static_distributed_tensor
{
    using DataType                              = DataType_;
    using StaticTileDistribution                = StaticTileDistribution_;
    static constexpr index_t thread_buffer_size = StaticTileDistribution::thread_buffer_size;

    thread_buffer<DataType, thread_buffer_size> thread_buf_;

    CK_TILE_HOST_DEVICE static constexpr auto get_tile_distribution() { return StaticTileDistribution{}; }
    CK_TILE_HOST_DEVICE static constexpr index_t get_num_of_dimension() { return StaticTileDistribution::NDimX; }
    CK_TILE_HOST_DEVICE static constexpr auto get_lengths() { return StaticTileDistribution::get_lengths(); }
    CK_TILE_HOST_DEVICE static constexpr index_t get_thread_buffer_size() { return thread_buffer_size; }

    CK_TILE_HOST_DEVICE constexpr auto& get_thread_buffer() { return thread_buf_; }
    CK_TILE_HOST_DEVICE constexpr const auto& get_thread_buffer() const { return thread_buf_; }

    // element by register index, or by Y index
    CK_TILE_HOST_DEVICE constexpr DataType& operator[](index_t d) { return thread_buf_[d]; }
    CK_TILE_HOST_DEVICE constexpr const DataType& operator[](index_t d) const { return thread_buf_[d]; }
    CK_TILE_HOST_DEVICE constexpr DataType& operator()(const multi_index<StaticTileDistribution::NDimY>& y)
    {
        return thread_buf_[StaticTileDistribution::y_to_d(y)];
    }
    CK_TILE_HOST_DEVICE constexpr const DataType& operator()(const multi_index<StaticTileDistribution::NDimY>& y) const
    {
        return thread_buf_[StaticTileDistribution::y_to_d(y)];
    }

    CK_TILE_HOST_DEVICE constexpr void clear()
    {
        for(index_t i = 0; i < thread_buffer_size; ++i)
            thread_buf_[i] = DataType{};
    }
};

template <typename DataType, typename Dstr>
CK_TILE_HOST_DEVICE constexpr auto make_static_distributed_tensor(const Dstr&)
{
    return static_distributed_tensor<DataType, Dstr>{};
}

template <typename T>
struct is_static_distributed_tensor : false_type
{};
template <typename T, typename D>
struct is_static_distributed_tensor<static_distributed_tensor<T, D>> : true_type
{};

} // namespace ck_tile
