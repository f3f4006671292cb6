// SPDX-License-Identifier: MIT
// Welford: the update and the count-weighted merge against a two-pass mean / variance on the
// host, then BlockWelford (thread), BlockWelfordSync (warp) and BlockWelfordCrossWarpSync
// (block) on the emulator (and on hip-cpu: test/hip_cpu), with row lengths that leave padding in the tile (only real
// values are counted), each replica checked against the two-pass result of its row.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include "ck_tile/ops/welford.hpp"
#include "reduce_test_common.hpp"

using namespace ck_tile;
using namespace reduce_test;

namespace {

struct two_pass
{
    double mean = 0, var = 0; // population variance
};
two_pass cpu_two_pass(const float* x, int n)
{
    two_pass r;
    if(n == 0)
        return r;
    for(int i = 0; i < n; ++i)
        r.mean += x[i];
    r.mean /= n;
    for(int i = 0; i < n; ++i)
        r.var += (x[i] - r.mean) * (x[i] - r.mean);
    r.var /= n;
    return r;
}

struct state
{
    float mean = 0, m2 = 0;
    int count = 0;
};
state run_updates(const float* x, int n)
{
    state s;
    for(int i = 0; i < n; ++i)
        welford_update(s.mean, s.m2, x[i], ++s.count);
    return s;
}

bool close(double o, double r, double tol) { return std::fabs(o - r) <= tol * std::max(1.0, std::fabs(r)); }

template <typename Encoding>
struct WelfordTileKernel
{
    using Dstr                     = decltype(make_static_tile_distribution(Encoding{}));
    using Problem                  = BlockWelfordProblem<float, float, void>;
    static constexpr auto lens     = Encoding::get_x_lengths();
    using XTile                    = static_distributed_tensor<float, Dstr>;
    using YTile                    = decltype(BlockWelford<Problem>::template MakeMeanVarBlockTile<XTile>());
    static constexpr index_t kSmem = BlockWelfordCrossWarpSync<Problem>::template GetSmemSize<YTile>();

    CK_TILE_DEVICE void operator()(const float* p_x, index_t M, index_t N, float* p_mean, float* p_var,
                                   index_t* p_idx) const
    {
        const auto tile = make_tuple(number<lens.at(number<0>{})>{}, number<lens.at(number<1>{})>{});
        const auto view =
            pad_tensor_view(make_naive_tensor_view<address_space_enum::global>(p_x, make_tuple(M, N), make_tuple(N, 1)),
                            tile, sequence<true, true>{});
        const auto x = load_tile(make_tile_window(view, tile, make_multi_index(0, 0), Dstr{}));

        auto mean = BlockWelford<Problem>::template MakeMeanVarBlockTile<XTile>();
        auto var  = BlockWelford<Problem>::template MakeMeanVarBlockTile<XTile>();
        clear_tile(mean);
        clear_tile(var);
        int count = 0;
        BlockWelford<Problem>{}(x, mean, var, count, N);
        BlockWelfordSync<Problem>{}(mean, var, count);
        __shared__ char smem[kSmem > 0 ? kSmem : 4];
        BlockWelfordCrossWarpSync<Problem>{}(mean, var, count, smem);
        block_tile_welford_post_scale_var(var, count);

        using YDstr        = typename YTile::StaticTileDistribution;
        const index_t tid  = get_thread_id();
        const index_t base = YDstr::calculate_index()[0];
        static_for<0, YTile::thread_buffer_size>{}([&](auto k) {
            p_mean[tid * YTile::thread_buffer_size + k] = mean[k];
            p_var[tid * YTile::thread_buffer_size + k]  = var[k];
            p_idx[tid * YTile::thread_buffer_size + k]  = base + YDstr::d_to_x_offset(k)[0];
        });
    }
};

template <typename Encoding, index_t BlockSize>
void check_block_welford(int M, int N)
{
    using K                = WelfordTileKernel<Encoding>;
    constexpr index_t nbuf = K::YTile::thread_buffer_size;
    // an offset mean makes the one-pass formula E[x^2] - E[x]^2 lose digits; Welford must not
    const auto x = random_matrix(M, N, 3 + M * 17 + N, 95.f, 105.f);
    DeviceMem x_dev(x.size() * sizeof(float)), mean_dev(BlockSize * nbuf * sizeof(float)),
        var_dev(BlockSize * nbuf * sizeof(float)), idx_dev(BlockSize * nbuf * sizeof(index_t));
    x_dev.ToDevice(x.data());
    launch_kernel(stream_config{}, make_kernel<BlockSize>(K{}, dim3(1), dim3(BlockSize), 0,
                                                          static_cast<const float*>(x_dev.GetDeviceBuffer()), M, N,
                                                          static_cast<float*>(mean_dev.GetDeviceBuffer()),
                                                          static_cast<float*>(var_dev.GetDeviceBuffer()),
                                                          static_cast<index_t*>(idx_dev.GetDeviceBuffer())));
    std::vector<float> mean(BlockSize * nbuf), var(BlockSize * nbuf);
    std::vector<index_t> idx(BlockSize * nbuf);
    mean_dev.FromDevice(mean.data());
    var_dev.FromDevice(var.data());
    idx_dev.FromDevice(idx.data());
    int wrong = 0, seen = 0;
    for(std::size_t j = 0; j < idx.size(); ++j)
    {
        if(idx[j] >= M)
            continue;
        ++seen;
        const auto r = cpu_two_pass(x.data() + std::size_t(idx[j]) * N, N);
        wrong += !close(mean[j], r.mean, 1e-5) || !close(var[j], r.var, 1e-3);
    }
    INFO("M=" << M << " N=" << N);
    CHECK(seen > 0);
    CHECK(wrong == 0);
}

} // namespace

TEST_CASE("welford_update matches a two-pass mean and variance")
{
    for(int n : {1, 2, 7, 64, 1001})
    {
        const auto x = random_matrix(1, n, n, 95.f, 105.f);
        const auto s = run_updates(x.data(), n);
        const auto r = cpu_two_pass(x.data(), n);
        CHECK(s.count == n);
        CHECK(close(s.mean, r.mean, 1e-6));
        CHECK(close(s.m2 / n, r.var, 1e-3));
    }
}

TEST_CASE("welford_merge of two partial states equals the whole (count-weighted)")
{
    const int n  = 333;
    const auto x = random_matrix(1, n, 5, -3.f, 7.f);
    const auto r = cpu_two_pass(x.data(), n);
    for(int split : {0, 1, 100, 166, 332, 333}) // includes an empty side and very uneven sides
    {
        auto a       = run_updates(x.data(), split);
        const auto b = run_updates(x.data() + split, n - split);
        welford_merge(a.mean, a.m2, a.count, b.mean, b.m2, b.count);
        INFO("split=" << split);
        CHECK(a.count == n);
        CHECK(close(a.mean, r.mean, 1e-5));
        CHECK(close(a.m2 / n, r.var, 1e-4));
    }
    state e1, e2; // two empty states stay empty (no division by zero)
    welford_merge(e1.mean, e1.m2, e1.count, e2.mean, e2.m2, e2.count);
    CHECK(e1.count == 0);
    CHECK(e1.mean == 0.f);
    CHECK(e1.m2 == 0.f);
}

TEST_CASE("BlockWelford per thread (37 registers, 31 real)")
{
    check_block_welford<ThreadOnly, kThreadOnlyBlock>(50, 31);
    check_block_welford<ThreadOnly, kThreadOnlyBlock>(64, 37);
}

TEST_CASE("BlockWelfordSync across lanes (rows of 37 in a 40-wide tile, and of 1)")
{
    check_block_welford<WarpLanes, kWarpLanesBlock>(13, 37);
    check_block_welford<WarpLanes, kWarpLanesBlock>(16, 40);
    check_block_welford<WarpLanes, kWarpLanesBlock>(5, 1);
}

TEST_CASE("BlockWelfordCrossWarpSync across warps (rows of 23 and 7 in a 24-wide tile)")
{
    check_block_welford<BlockWarps, kBlockWarpsBlock>(29, 23);
    check_block_welford<BlockWarps, kBlockWarpsBlock>(32, 7);
    check_block_welford<BlockWarps, kBlockWarpsBlock>(1, 24);
}
