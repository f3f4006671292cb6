// SPDX-License-Identifier: MIT
// make_reduce_tile_distribution_encoding(encoding, reduce_dims): the distribution of a tile after
// the X dimensions in reduce_dims were reduced away (upstream keeps it in ck_tile::detail).
//
// What happens to each component of a reduced X dimension:
//   - a Y component (registers of one thread) disappears: the thread folds those registers;
//   - a P component (lanes or warps) becomes an R component: after the lanes / warps that differ
//     only in it have combined their partial results, they all hold the same values.
// The kept X dimensions, their components and their Y dimensions keep their order; the R
// components of the input come first, then the new ones in order of P and of position in P.
#pragma once
#include "ck_tile/core/config.hpp"
#include "ck_tile/core/container/sequence.hpp"
#include "ck_tile/core/container/tuple.hpp"
#include "ck_tile/core/tensor/tile_distribution_encoding.hpp"

namespace ck_tile {
namespace detail {

template <typename Encoding, typename ReduceDims>
struct reduce_encoding_table
{
    using E                        = Encoding;
    static constexpr index_t NDimX = E::NDimX;
    static constexpr index_t NDimP = E::NDimP;
    static constexpr index_t NDimY = E::NDimY;
    static constexpr index_t max_n = 32;

    CK_TILE_HOST_DEVICE static constexpr bool is_reduced_x(index_t x)
    {
        for(index_t i = 0; i < ReduceDims::size(); ++i)
            if(ReduceDims::at(i) == x)
                return true;
        return false;
    }
    // the new major of an old major (0 = R), or -1 when that X is reduced
    CK_TILE_HOST_DEVICE static constexpr index_t new_major(index_t major)
    {
        if(major == 0)
            return 0;
        if(is_reduced_x(major - 1))
            return -1;
        index_t m = 1;
        for(index_t x = 0; x < major - 1; ++x)
            m += is_reduced_x(x) ? 0 : 1;
        return m;
    }

    struct table
    {
        index_t nr = 0;
        index_t r_len[max_n]{};
        index_t nx = 0;
        index_t kept_x[max_n]{};
        index_t p_n[2]{};
        index_t p_major[2][max_n]{};
        index_t p_minor[2][max_n]{};
        index_t ny = 0;
        index_t y_major[max_n]{};
        index_t y_minor[max_n]{};
    };

    CK_TILE_HOST_DEVICE static constexpr table make()
    {
        static_assert(ReduceDims::size() >= 1, "reduce: name at least one X dimension to reduce");
        table t{};
        for(index_t r = 0; r < E::NDimR; ++r)
            t.r_len[t.nr++] = E::RsLengths::at(r);
        for(index_t x = 0; x < NDimX; ++x)
            if(!is_reduced_x(x))
                t.kept_x[t.nx++] = x;
        static_for<0, NDimP>{}([&](auto p) {
            constexpr auto maj = typename E::Ps2RHssMajor{}.at(p);
            constexpr auto mnr = typename E::Ps2RHssMinor{}.at(p);
            for(index_t k = 0; k < maj.size(); ++k)
            {
                const index_t nm = new_major(maj.at(k));
                if(nm < 0) // a lane / warp component of a reduced X: now a replication
                {
                    t.p_major[p][t.p_n[p]] = 0;
                    t.p_minor[p][t.p_n[p]] = t.nr;
                    t.r_len[t.nr++]        = E::component_length(maj.at(k), mnr.at(k));
                }
                else
                {
                    t.p_major[p][t.p_n[p]] = nm;
                    t.p_minor[p][t.p_n[p]] = mnr.at(k);
                }
                ++t.p_n[p];
            }
        });
        for(index_t y = 0; y < NDimY; ++y)
        {
            const index_t nm = new_major(E::Ys2RHsMajor::at(y));
            if(nm >= 0)
            {
                t.y_major[t.ny] = nm;
                t.y_minor[t.ny] = E::Ys2RHsMinor::at(y);
                ++t.ny;
            }
        }
        return t;
    }
    static constexpr table t = make();

    template <index_t N, typename F>
    CK_TILE_HOST_DEVICE static constexpr auto seq(F)
    {
        return []<index_t... Is>(sequence<Is...>) { return sequence<F{}(Is)...>{}; }(make_index_sequence<N>{});
    }
    CK_TILE_HOST_DEVICE static constexpr auto make_encoding()
    {
        using Rs   = decltype(seq<t.nr>([](index_t i) { return t.r_len[i]; }));
        using Hs   = decltype(generate_tuple(
            [](auto i) { return typename E::HsLengthss{}.at(number<t.kept_x[decltype(i)::value]>{}); },
            number<t.nx>{}));
        using PMaj = decltype(generate_tuple(
            [](auto p) {
                return seq<t.p_n[decltype(p)::value]>([](index_t k) { return t.p_major[decltype(p)::value][k]; });
            },
            number<NDimP>{}));
        using PMin = decltype(generate_tuple(
            [](auto p) {
                return seq<t.p_n[decltype(p)::value]>([](index_t k) { return t.p_minor[decltype(p)::value][k]; });
            },
            number<NDimP>{}));
        using YMaj = decltype(seq<t.ny>([](index_t i) { return t.y_major[i]; }));
        using YMin = decltype(seq<t.ny>([](index_t i) { return t.y_minor[i]; }));
        return tile_distribution_encoding<Rs, Hs, PMaj, PMin, YMaj, YMin>{};
    }
};

template <typename Encoding, index_t... Rs>
CK_TILE_HOST_DEVICE constexpr auto make_reduce_tile_distribution_encoding(Encoding, sequence<Rs...>)
{
    return reduce_encoding_table<Encoding, sequence<Rs...>>::make_encoding();
}

} // namespace detail
} // namespace ck_tile
