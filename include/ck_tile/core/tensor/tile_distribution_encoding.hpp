// SPDX-License-Identifier: MIT
// tile_distribution_encoding: how a tile is spread over the threads of a block, in CK Tile's
// R/H/P/Y notation.
//
//   Each tile dimension X_i is split into components H_i = <h_i0, h_i1, ...> (first slowest), so
//   X_i = sum_k h_ik * (product of the later lengths of H_i).
//   R components replicate: threads that differ only in an R component hold the same data.
//   Each P dimension (P0 = warp id, P1 = lane id when there are two; lane id when one) is a merge
//   of listed components (last fastest); each Y dimension (a register index inside one thread)
//   is exactly one component.
//   A component is named by (major, minor): major 0 = R, major i+1 = H of X_i; minor = position.
//
// Example, the A tile of a 256x32 block with 4 warps (Hs=<4,4,16>,<4,8>, Ps=(<1>,<1,2>) /
// (<1>,<2,0>), Ys=<1,2>/<0,1>): P0 (warp) = h_01, P1 (lane) = merge(h_02, h_10), Y0 = h_00, Y1 = h_11.
// Thread 0 holds rows 0, 64, 128, 192 and columns 0..7.
#pragma once
#include "ck_tile/core/config.hpp"
#include "ck_tile/core/container/sequence.hpp"
#include "ck_tile/core/container/tuple.hpp"
#include "ck_tile/core/utility/functional.hpp"

namespace ck_tile {

template <typename RsLengths_,    // sequence<...>
          typename HsLengthss_,   // tuple<sequence<...>, ...>, one per X dimension
          typename Ps2RHssMajor_, // tuple<sequence<...>, ...>, one per P dimension
          typename Ps2RHssMinor_,
          typename Ys2RHsMajor_, // sequence<...>, one per Y dimension
          typename Ys2RHsMinor_>
struct tile_distribution_encoding
{
    using RsLengths    = RsLengths_;
    using HsLengthss   = HsLengthss_;
    using Ps2RHssMajor = Ps2RHssMajor_;
    using Ps2RHssMinor = Ps2RHssMinor_;
    using Ys2RHsMajor  = Ys2RHsMajor_;
    using Ys2RHsMinor  = Ys2RHsMinor_;

    static constexpr index_t NDimR = RsLengths::size();
    static constexpr index_t NDimX = HsLengthss::size();
    static constexpr index_t NDimP = Ps2RHssMajor::size();
    static constexpr index_t NDimY = Ys2RHsMajor::size();

    static_assert(Ps2RHssMinor::size() == NDimP, "encoding: Ps major and minor differ in size");
    static_assert(Ys2RHsMinor::size() == NDimY, "encoding: Ys major and minor differ in size");
    static_assert(NDimP >= 1 && NDimP <= 2, "encoding: one P (lane) or two (warp, lane)");

    static constexpr index_t max_components = 16;

    // lengths[major][minor] of every R/H component
    struct component_table
    {
        index_t ndim[NDimX + 1]                   = {};
        index_t length[NDimX + 1][max_components] = {};
    };
    static constexpr component_table make_component_table()
    {
        component_table t{};
        t.ndim[0] = NDimR;
        for(index_t k = 0; k < NDimR; ++k)
            t.length[0][k] = RsLengths::at(k);
        static_for<0, NDimX>{}([&](auto i) {
            using H       = std::decay_t<decltype(HsLengthss{}.at(i))>;
            t.ndim[i + 1] = H::size();
            for(index_t k = 0; k < H::size(); ++k)
                t.length[i + 1][k] = H::at(k);
        });
        return t;
    }
    static constexpr component_table components = make_component_table();

    CK_TILE_HOST_DEVICE static constexpr index_t component_length(index_t major, index_t minor)
    {
        return components.length[major][minor];
    }
    // how far X_(major-1) moves when this component grows by one; 0 for R components
    CK_TILE_HOST_DEVICE static constexpr index_t component_x_stride(index_t major, index_t minor)
    {
        if(major == 0)
            return 0;
        index_t s = 1;
        for(index_t k = minor + 1; k < components.ndim[major]; ++k)
            s *= components.length[major][k];
        return s;
    }
    CK_TILE_HOST_DEVICE static constexpr bool component_is_last_of_x(index_t major, index_t minor)
    {
        return major > 0 && minor == components.ndim[major] - 1;
    }

    CK_TILE_HOST_DEVICE static constexpr auto get_x_lengths()
    {
        return generate_tuple([](auto i) { return number<sequence_product(HsLengthss{}.at(i))>{}; }, number<NDimX>{});
    }
    CK_TILE_HOST_DEVICE static constexpr index_t get_y_length(index_t y)
    {
        return component_length(Ys2RHsMajor::at(y), Ys2RHsMinor::at(y));
    }
    CK_TILE_HOST_DEVICE static constexpr auto get_y_lengths()
    {
        return []<index_t... Ks>(sequence<Ks...>) {
            return sequence<get_y_length(Ks)...>{};
        }(make_index_sequence<NDimY>{});
    }
    CK_TILE_HOST_DEVICE static constexpr index_t get_p_length(index_t p)
    {
        index_t n = 1;
        static_for<0, NDimP>{}([&](auto i) {
            if(i == p)
            {
                constexpr auto maj = Ps2RHssMajor{}.at(i);
                constexpr auto mnr = Ps2RHssMinor{}.at(i);
                for(index_t k = 0; k < maj.size(); ++k)
                    n *= component_length(maj.at(k), mnr.at(k));
            }
        });
        return n;
    }
};

} // namespace ck_tile

namespace ck_tile {

namespace detail {
// minor index of an inner component after the outer components of the same R or H were put in
// front of it
template <typename Outer, index_t Major>
CK_TILE_HOST_DEVICE constexpr index_t embed_minor_shift()
{
    if constexpr(Major == 0)
        return Outer::NDimR;
    else
        return std::decay_t<decltype(typename Outer::HsLengthss{}.at(number<Major - 1>{}))>::size();
}

template <typename Outer, index_t... Majors, index_t... Minors>
CK_TILE_HOST_DEVICE constexpr auto embed_shift_minors(sequence<Majors...>, sequence<Minors...>)
{
    return sequence<(Minors + embed_minor_shift<Outer, Majors>())...>{};
}
} // namespace detail

// Puts an inner encoding (e.g. one warp's share of a tile, P = lane) inside an outer one (e.g. how
// the warps and repeats of a block tile are arranged, P = warp). Each H of the result is the outer
// H followed by the inner H; the P dimensions are the outer ones followed by the inner ones; the Y
// dimensions likewise. So a block's C tile is make_embed_tile_distribution_encoding(
// <MRepeat, MWarp> x <NRepeat, NWarp>, the MFMA's C layout).
template <typename Outer, typename Inner>
CK_TILE_HOST_DEVICE constexpr auto make_embed_tile_distribution_encoding(Outer, Inner)
{
    static_assert(Outer::NDimX == Inner::NDimX, "embed: the encodings must have the same X dimensions");
    using Rs           = decltype(typename Outer::RsLengths{} | typename Inner::RsLengths{});
    using Hs           = decltype(generate_tuple(
        [](auto i) { return typename Outer::HsLengthss{}.at(i) | typename Inner::HsLengthss{}.at(i); },
        number<Outer::NDimX>{}));
    using InnerPsMinor = decltype(generate_tuple(
        [](auto p) {
            return detail::embed_shift_minors<Outer>(typename Inner::Ps2RHssMajor{}.at(p),
                                                     typename Inner::Ps2RHssMinor{}.at(p));
        },
        number<Inner::NDimP>{}));
    using PsMajor      = decltype(tuple_cat(typename Outer::Ps2RHssMajor{}, typename Inner::Ps2RHssMajor{}));
    using PsMinor      = decltype(tuple_cat(typename Outer::Ps2RHssMinor{}, InnerPsMinor{}));
    using YsMajor      = decltype(typename Outer::Ys2RHsMajor{} | typename Inner::Ys2RHsMajor{});
    using YsMinor =
        decltype(typename Outer::Ys2RHsMinor{} |
                 detail::embed_shift_minors<Outer>(typename Inner::Ys2RHsMajor{}, typename Inner::Ys2RHsMinor{}));
    return tile_distribution_encoding<Rs, Hs, PsMajor, PsMinor, YsMajor, YsMinor>{};
}

} // namespace ck_tile
