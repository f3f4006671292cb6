// SPDX-License-Identifier: MIT
// transpose_tile2d(out, in): a 2-D tile in registers, transposed without leaving the thread.
//
// `out`'s distribution must be `in`'s with the two X dimensions swapped: the same H components
// (X0's become X1's and back), the same P merges (each P still names the same components), and
// Ys over the same components, in any order. Every thread then already holds the elements it must
// hold after the transpose; only their order in its registers changes: out's Y dimension j walks
// the component that in's Y dimension i walks, and register y_in moves to register y_out with
// y_out[j] = y_in[i]. Choosing out's Ys so that its vector dimension comes last makes the moved
// registers contiguous for the store that follows (16-byte accesses on both sides).
#pragma once
#include "ck_tile/core/config.hpp"
#include "ck_tile/core/tensor/static_distributed_tensor.hpp"
#include "ck_tile/core/utility/functional.hpp"

namespace ck_tile {
namespace detail {

// For each Y dimension of Out, the Y dimension of In that walks the same component (swapped X).
template <typename InEnc, typename OutEnc>
CK_TILE_HOST_DEVICE constexpr multi_index<OutEnc::NDimY> transpose_y_map()
{
    multi_index<OutEnc::NDimY> map{};
    for(index_t j = 0; j < OutEnc::NDimY; ++j)
    {
        const index_t major = OutEnc::Ys2RHsMajor::at(j);
        const index_t want  = major == 1 ? 2 : major == 2 ? 1 : major; // R (0) stays R
        map[j]              = -1;
        for(index_t i = 0; i < InEnc::NDimY; ++i)
            if(InEnc::Ys2RHsMajor::at(i) == want && InEnc::Ys2RHsMinor::at(i) == OutEnc::Ys2RHsMinor::at(j))
                map[j] = i;
    }
    return map;
}

template <typename InEnc, typename OutEnc>
CK_TILE_HOST_DEVICE constexpr bool is_transposed_encoding()
{
    if(InEnc::NDimX != 2 || OutEnc::NDimX != 2 || InEnc::NDimY != OutEnc::NDimY || InEnc::NDimP != OutEnc::NDimP)
        return false;
    const auto map = transpose_y_map<InEnc, OutEnc>();
    for(index_t j = 0; j < OutEnc::NDimY; ++j)
        if(map[j] < 0 || InEnc::get_y_length(map[j]) != OutEnc::get_y_length(j))
            return false;
    constexpr auto in_x  = InEnc::get_x_lengths();
    constexpr auto out_x = OutEnc::get_x_lengths();
    return in_x.at(number<0>{}) == out_x.at(number<1>{}) && in_x.at(number<1>{}) == out_x.at(number<0>{});
}

// The register of In that register d of Out receives.
template <typename InDstr, typename OutDstr>
CK_TILE_HOST_DEVICE constexpr index_t transpose_source_register(index_t d)
{
    constexpr auto map = transpose_y_map<typename InDstr::Encoding, typename OutDstr::Encoding>();
    const auto y_out   = OutDstr::d_to_y(d);
    multi_index<InDstr::NDimY> y_in{};
    for(index_t j = 0; j < OutDstr::NDimY; ++j)
        y_in[map[j]] = y_out[j];
    return InDstr::y_to_d(y_in);
}

} // namespace detail

template <typename T, typename OutDstr, typename InDstr>
CK_TILE_HOST_DEVICE constexpr void transpose_tile2d(static_distributed_tensor<T, OutDstr>& out,
                                                    const static_distributed_tensor<T, InDstr>& in)
{
    using InEnc  = typename InDstr::Encoding;
    using OutEnc = typename OutDstr::Encoding;
    static_assert(detail::is_transposed_encoding<InEnc, OutEnc>(),
                  "transpose_tile2d: out's distribution must be in's with X0 and X1 swapped");
    static_for<0, OutDstr::thread_buffer_size>{}([&](auto d) {
        constexpr index_t d_in     = detail::transpose_source_register<InDstr, OutDstr>(d);
        out.get_thread_buffer()[d] = in.get_thread_buffer()[d_in];
    });
}

} // namespace ck_tile
