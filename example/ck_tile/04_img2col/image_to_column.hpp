// SPDX-License-Identifier: MIT
// The img2col example's host API (upstream's shape): image_to_column(traits, args, stream) runs
// the ImageToColumn instance for the data type and returns the average milliseconds.
#pragma once
#include <string>
#include "ck_tile/core.hpp"
#include "ck_tile/host.hpp"
#include "ck_tile/ops/image_to_column.hpp"

struct image_to_column_traits
{
    std::string data_type; // fp16
};

template <ck_tile::index_t NDimSpatial>
struct image_to_column_args
{
    const void* p_in;
    void* p_out;
    ck_tile::index_t G, N, C;
    ck_tile::array<ck_tile::index_t, NDimSpatial> input_spatial_lengths;
    ck_tile::array<ck_tile::index_t, NDimSpatial> filter_spatial_lengths;
    ck_tile::array<ck_tile::index_t, NDimSpatial> output_spatial_lengths;
    ck_tile::array<ck_tile::index_t, NDimSpatial + 3> image_g_n_c_wis_strides;
    ck_tile::array<ck_tile::index_t, 3> gemm_g_m_k_strides;
    ck_tile::array<ck_tile::index_t, NDimSpatial> conv_filter_strides;
    ck_tile::array<ck_tile::index_t, NDimSpatial> conv_filter_dilations;
    ck_tile::array<ck_tile::index_t, NDimSpatial> input_left_pads;
    ck_tile::array<ck_tile::index_t, NDimSpatial> input_right_pads;
};

// upstream's example configuration: thread tile 8x8, warp tile 64x64, block tile 128x128, 8-element
// (16-byte) vectors in and out
using ImageToColumnShape =
    ck_tile::TileImageToColumnShape<ck_tile::sequence<8, 8>, ck_tile::sequence<64, 64>, ck_tile::sequence<128, 128>>;
template <typename DataType, ck_tile::index_t NDimSpatial>
using ImageToColumnKernel = ck_tile::ImageToColumn<
    ck_tile::BlockImageToColumnProblem<DataType, DataType, ImageToColumnShape, NDimSpatial, 8, 8>>;

// throws ck_tile::arg_error for an unsupported data type or arguments the kernel cannot take
template <ck_tile::index_t NDimSpatial>
float image_to_column(const image_to_column_traits& t, const image_to_column_args<NDimSpatial>& a,
                      const ck_tile::stream_config& s);
