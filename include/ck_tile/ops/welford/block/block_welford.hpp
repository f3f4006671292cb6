// SPDX-License-Identifier: MIT
// Block-level Welford mean / variance of a distributed tile along one X dimension, in the three
// steps of BlockReduce2d (upstream's names):
//
//   BlockWelford               each thread updates (mean, m2) of each kept element with its own
//                              registers along the reduced dimension, counting only the real
//                              (not padding) positions; one count per thread, since every kept
//                              element of a thread sees the same positions;
//   BlockWelfordSync           lanes holding parts of the same result merge them (warp_shuffle,
//                              xor butterfly), counts included;
//   BlockWelfordCrossWarpSync  warps holding parts merge them through LDS, in the same order on
//                              every replica.
//   block_tile_welford_post_scale_var(var, count)   m2 -> population variance (m2 / count).
//
// mean and var are tiles of MakeMeanVarBlockTile<XTile>() (the reduced distribution); the caller
// starts them at 0 and count at 0.
#pragma once
#include "ck_tile/core.hpp"
#include "ck_tile/ops/reduce/block/block_reduce2d_detail.hpp"
#include "ck_tile/ops/welford/block/block_welford_problem.hpp"
#include "ck_tile/ops/welford/thread/thread_welford.hpp"

namespace ck_tile {

template <typename Problem_, typename Policy_ = void>
struct BlockWelford
{
    using Problem                  = std::remove_cvref_t<Problem_>;
    using XDataType                = typename Problem::XDataType;
    using ComputeDataType          = typename Problem::ComputeDataType;
    using ReduceDims               = typename Problem::ReduceDims;
    static constexpr index_t kRdim = ReduceDims::at(0);

    template <typename XDistributedTensor_>
    CK_TILE_HOST_DEVICE static constexpr auto MakeMeanVarBlockTile()
    {
        using XDstr         = typename XDistributedTensor_::StaticTileDistribution;
        constexpr auto dstr = make_static_tile_distribution(
            detail::make_reduce_tile_distribution_encoding(typename XDstr::Encoding{}, ReduceDims{}));
        return make_static_distributed_tensor<ComputeDataType>(dstr);
    }

    // valid_length: positions [0, valid_length) of the tile's reduced dimension are data, the
    // rest is padding (pass the tensor's length minus the window's origin along it).
    template <typename XDistributedTensor_, typename MeanTensor, typename VarTensor>
    CK_TILE_DEVICE void operator()(const XDistributedTensor_& x_tensor, MeanTensor& mean_tensor, VarTensor& var_tensor,
                                   int& count, index_t valid_length) const
    {
        using XDstr = typename XDistributedTensor_::StaticTileDistribution;
        using Map   = detail::tile_reduce_map<XDstr, ReduceDims>;
        static_assert(Map::out_size == MeanTensor::thread_buffer_size,
                      "BlockWelford: mean/var are not the reduced tile of x (MakeMeanVarBlockTile)");
        const index_t x0 = XDstr::calculate_index()[kRdim];
        // one position of the reduced dimension at a time, all kept elements with the same count
        static_for<0, Map::num_red()>{}([&](auto r) {
            constexpr index_t d0 = Map::in_d(r, 0);
            constexpr index_t dx = XDstr::d_to_x_offset(d0)[kRdim];
            if(x0 + dx < valid_length)
            {
                ++count;
                static_for<0, Map::out_size>{}([&](auto k) {
                    constexpr index_t d = Map::in_d(r, k);
                    welford_update(mean_tensor[k], var_tensor[k], type_convert<ComputeDataType>(x_tensor[d]), count);
                });
            }
        });
    }
};

template <typename Problem_, typename Policy_ = void>
struct BlockWelfordSync
{
    using Problem = std::remove_cvref_t<Problem_>;

    template <typename MeanTensor, typename VarTensor>
    CK_TILE_DEVICE void operator()(MeanTensor& mean_tensor, VarTensor& var_tensor, int& count) const
    {
        using E              = typename MeanTensor::StaticTileDistribution::Encoding;
        using Lanes          = detail::p_replication<E, E::NDimP - 1>;
        using T              = typename MeanTensor::DataType;
        constexpr index_t kN = MeanTensor::thread_buffer_size;
        // a lane's whole state, exchanged in one piece (the same bpermutes per dword on hardware,
        // one wave collective for all steps on the emulator: warp_butterfly)
        struct packed_state
        {
            T mean[kN];
            T var[kN];
            int count;
            index_t lane;
        };
        // both lanes of a pair compute the same merge: the lower lane's state is side a
        const auto merge = [](packed_state a, const packed_state& b) {
            constexpr index_t n    = MeanTensor::thread_buffer_size;
            const packed_state& lo = a.lane < b.lane ? a : b;
            const packed_state& hi = a.lane < b.lane ? b : a;
            packed_state r;
            static_for<0, n>{}([&](auto i) {
                T mean  = lo.mean[i];
                T var   = lo.var[i];
                int n_a = lo.count;
                welford_merge(mean, var, n_a, hi.mean[i], hi.var[i], hi.count);
                r.mean[i] = mean;
                r.var[i]  = var;
            });
            r.count = a.count + b.count;
            r.lane  = a.lane;
            return r;
        };
        packed_state state;
        static_for<0, kN>{}([&](auto i) {
            state.mean[i] = mean_tensor[i];
            state.var[i]  = var_tensor[i];
        });
        state.count      = count;
        state.lane       = get_lane_id();
        constexpr auto t = Lanes::t;
        static_for<0, t.n>{}([&](auto c) {
            constexpr index_t len    = t.len[c];
            constexpr index_t stride = t.stride[c];
            static_assert(is_power_of_two_integer(len) && is_power_of_two_integer(stride),
                          "BlockWelfordSync: the lanes to combine must be a power-of-two group (xor butterfly)");
            state = warp_butterfly(state, stride, stride * len, merge);
        });
        static_for<0, kN>{}([&](auto i) {
            mean_tensor[i] = state.mean[i];
            var_tensor[i]  = state.var[i];
        });
        count = state.count;
    }
};

template <typename Problem_, typename Policy_ = void>
struct BlockWelfordCrossWarpSync
{
    using Problem = std::remove_cvref_t<Problem_>;

    template <typename MeanTensor>
    using warps_of = detail::p_replication<typename MeanTensor::StaticTileDistribution::Encoding,
                                           MeanTensor::StaticTileDistribution::NDimP == 2 ? 0 : -1>;

    template <typename MeanTensor>
    CK_TILE_HOST_DEVICE static constexpr index_t GetReduceWarps()
    {
        return warps_of<MeanTensor>::t.total;
    }

    // LDS bytes: mean, m2 and count of every lane of every warp (0 when nothing to combine)
    template <typename MeanTensor>
    CK_TILE_HOST_DEVICE static constexpr index_t GetSmemSize()
    {
        using Dstr = typename MeanTensor::StaticTileDistribution;
        if constexpr(GetReduceWarps<MeanTensor>() == 1)
            return 0;
        else
            return Dstr::Encoding::get_p_length(0) * get_warp_size() *
                   (2 * MeanTensor::thread_buffer_size * sizeof(typename MeanTensor::DataType) + sizeof(int));
    }

    template <typename MeanTensor, typename VarTensor>
    CK_TILE_DEVICE void operator()(MeanTensor& mean_tensor, VarTensor& var_tensor, int& count, void* p_smem) const
    {
        if constexpr(GetReduceWarps<MeanTensor>() > 1)
        {
            using T              = typename MeanTensor::DataType;
            using Warps          = warps_of<MeanTensor>;
            constexpr index_t n  = MeanTensor::thread_buffer_size;
            constexpr index_t ws = get_warp_size();
            constexpr index_t nt = Dstr_p0<MeanTensor>() * ws; // threads with a slot
            T* s_mean            = static_cast<T*>(p_smem);
            T* s_var             = s_mean + nt * n;
            int* s_count         = reinterpret_cast<int*>(s_var + nt * n);
            const index_t warp   = get_warp_id();
            const index_t lane   = get_lane_id();
            const auto slot      = [&](index_t w) { return w * ws + lane; };

            block_sync_lds();
            static_for<0, n>{}([&](auto i) {
                s_mean[slot(warp) * n + i] = mean_tensor[i];
                s_var[slot(warp) * n + i]  = var_tensor[i];
            });
            s_count[slot(warp)] = count;
            block_sync_lds();
            const index_t w0 = Warps::replica(warp, 0);
            count            = s_count[slot(w0)];
            static_for<0, n>{}([&](auto i) {
                mean_tensor[i] = s_mean[slot(w0) * n + i];
                var_tensor[i]  = s_var[slot(w0) * n + i];
            });
            for(index_t c = 1; c < Warps::t.total; ++c)
            {
                const index_t w   = Warps::replica(warp, c);
                const int count_b = s_count[slot(w)];
                static_for<0, n>{}([&](auto i) {
                    int n_a = count;
                    welford_merge(mean_tensor[i], var_tensor[i], n_a, s_mean[slot(w) * n + i], s_var[slot(w) * n + i],
                                  count_b);
                });
                count += count_b;
            }
            block_sync_lds();
        }
    }

private:
    template <typename MeanTensor>
    CK_TILE_HOST_DEVICE static constexpr index_t Dstr_p0()
    {
        return MeanTensor::StaticTileDistribution::Encoding::get_p_length(0);
    }
};

// m2 -> population variance, var = m2 / count (count 0 leaves 0)
template <typename VarTensor>
CK_TILE_DEVICE void block_tile_welford_post_scale_var(VarTensor& var_tensor, int count)
{
    using T         = typename VarTensor::DataType;
    const T inv_cnt = count == 0 ? T(0) : T(1) / type_convert<T>(count);
    tile_elementwise_inout([&](auto& v) { v = v * inv_cnt; }, var_tensor);
}

} // namespace ck_tile
