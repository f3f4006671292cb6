// SPDX-License-Identifier: MIT
// What the block reductions (BlockReduce2d*, BlockWelford*) read off a tile distribution:
//   tile_reduce_map<XDstr, ReduceDims>  which registers of an input tile fold into which register
//                                       of the reduced tile;
//   p_replication<Encoding, P>          the R components a P dimension (lanes or warps) spans:
//                                       the threads that must combine their partial results;
//   is_first_replica<Dstr>()            whether the calling thread is the first of its replicas
//                                       (the one that stores a reduced tile).
#pragma once
#include "ck_tile/core.hpp"

namespace ck_tile {
namespace detail {

template <typename XDstr, typename ReduceDims>
struct tile_reduce_map
{
    using E                          = typename XDstr::Encoding;
    static constexpr index_t NDimY   = E::NDimY;
    static constexpr index_t in_size = XDstr::thread_buffer_size;
    using table                      = reduce_encoding_table<E, ReduceDims>;

    CK_TILE_HOST_DEVICE static constexpr bool y_is_reduced(index_t y)
    {
        const index_t major = E::Ys2RHsMajor::at(y);
        return major > 0 && table::is_reduced_x(major - 1);
    }
    // register of the reduced tile that input register d folds into
    CK_TILE_HOST_DEVICE static constexpr index_t out_d(index_t d)
    {
        const auto y = XDstr::d_to_y(d);
        index_t o    = 0;
        for(index_t i = 0; i < NDimY; ++i)
            if(!y_is_reduced(i))
                o = o * E::get_y_length(i) + y[i];
        return o;
    }
    // position of input register d among the thread's registers that fold together
    CK_TILE_HOST_DEVICE static constexpr index_t red_r(index_t d)
    {
        const auto y = XDstr::d_to_y(d);
        index_t r    = 0;
        for(index_t i = 0; i < NDimY; ++i)
            if(y_is_reduced(i))
                r = r * E::get_y_length(i) + y[i];
        return r;
    }
    CK_TILE_HOST_DEVICE static constexpr index_t num_red()
    {
        index_t n = 1;
        for(index_t i = 0; i < NDimY; ++i)
            n *= y_is_reduced(i) ? E::get_y_length(i) : 1;
        return n;
    }
    static constexpr index_t out_size = in_size / num_red();
    // the input register with reduced position r and output register k
    CK_TILE_HOST_DEVICE static constexpr index_t in_d(index_t r, index_t k)
    {
        for(index_t d = 0; d < in_size; ++d)
            if(red_r(d) == r && out_d(d) == k)
                return d;
        return -1;
    }
};

template <typename Encoding, index_t P>
struct p_replication
{
    struct table
    {
        index_t n = 0;
        index_t len[16]{};
        index_t stride[16]{}; // how far the P index moves when the component grows by one
        index_t total = 1;
    };
    CK_TILE_HOST_DEVICE static constexpr table make()
    {
        table t{};
        if constexpr(P >= 0 && P < Encoding::NDimP)
        {
            constexpr auto maj = typename Encoding::Ps2RHssMajor{}.at(number<P>{});
            constexpr auto mnr = typename Encoding::Ps2RHssMinor{}.at(number<P>{});
            index_t stride     = 1;
            for(index_t k = maj.size() - 1; k >= 0; --k)
            {
                const index_t len = Encoding::component_length(maj.at(k), mnr.at(k));
                if(maj.at(k) == 0 && len > 1)
                {
                    t.len[t.n]    = len;
                    t.stride[t.n] = stride;
                    t.total *= len;
                    ++t.n;
                }
                stride *= len;
            }
        }
        return t;
    }
    static constexpr table t = make();

    // the P index of replica number c (0 <= c < total) of the thread with P index p
    CK_TILE_HOST_DEVICE static constexpr index_t replica(index_t p, index_t c)
    {
        for(index_t i = 0; i < t.n; ++i)
        {
            const index_t digit = (p / t.stride[i]) % t.len[i];
            p += ((c % t.len[i]) - digit) * t.stride[i];
            c /= t.len[i];
        }
        return p;
    }
    CK_TILE_HOST_DEVICE static constexpr bool is_first(index_t p) { return replica(p, 0) == p; }
};

template <typename Dstr>
CK_TILE_DEVICE bool is_first_replica()
{
    using E = typename Dstr::Encoding;
    if constexpr(E::NDimP == 1)
        return p_replication<E, 0>::is_first(get_lane_id());
    else
        return p_replication<E, 0>::is_first(get_warp_id()) && p_replication<E, 1>::is_first(get_lane_id());
}

} // namespace detail
} // namespace ck_tile
