// SPDX-License-Identifier: MIT
// ReduceOp and the block reduction steps (on the emulator; test/hip_cpu runs them on hip-cpu). A kernel loads an M x N
// matrix (padded up to the tile) with a given distribution, reduces one dimension with BlockReduce2d (thread),
// BlockReduce2dSync (warp) and BlockReduce2dCrossWarpSync (block), and every thread writes every
// register of its reduced tile with the index it belongs to: every replica must hold the CPU's
// result, and each index must have exactly one first replica.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include "ck_tile/ops/reduce.hpp"
#include "reduce_test_common.hpp"

using namespace ck_tile;
using namespace reduce_test;

namespace {

template <typename Encoding, index_t RDim, typename Op>
struct ReduceTileKernel
{
    using Dstr                     = decltype(make_static_tile_distribution(Encoding{}));
    using Problem                  = BlockReduce2dProblem<float, float, void, sequence<RDim>>;
    static constexpr auto lens     = Encoding::get_x_lengths();
    using XTile                    = static_distributed_tensor<float, Dstr>;
    using YTile                    = decltype(BlockReduce2d<Problem>::template MakeYBlockTile<XTile>());
    static constexpr index_t kSmem = BlockReduce2dCrossWarpSync<Problem>::template GetSmemSize<YTile>();

    CK_TILE_DEVICE void operator()(const float* p_x, index_t M, index_t N, float* p_out, index_t* p_idx,
                                   index_t* p_first) const
    {
        const auto tile = make_tuple(number<lens.at(number<0>{})>{}, number<lens.at(number<1>{})>{});
        const auto view =
            pad_tensor_view(make_naive_tensor_view<address_space_enum::global>(p_x, make_tuple(M, N), make_tuple(N, 1)),
                            tile, sequence<true, true>{});
        const auto x = load_tile(make_tile_window(view, tile, make_multi_index(0, 0), Dstr{}));

        const Op op{};
        auto y = BlockReduce2d<Problem>{}(x, op.template GetIdentityValue<float>(), op);
        // partial results combine with the op itself, except sums of squares, which add
        using Combine = std::conditional_t<std::is_same_v<Op, ReduceOp::SquareAdd>, ReduceOp::Add, Op>;
        BlockReduce2dSync<Problem>{}(y, Combine{});
        __shared__ char smem[kSmem > 0 ? kSmem : 4];
        BlockReduce2dCrossWarpSync<Problem>{}(y, smem, Combine{});

        using YDstr        = typename YTile::StaticTileDistribution;
        const index_t tid  = get_thread_id();
        const index_t base = YDstr::calculate_index()[0];
        static_for<0, YTile::thread_buffer_size>{}([&](auto k) {
            p_out[tid * YTile::thread_buffer_size + k] = y[k];
            p_idx[tid * YTile::thread_buffer_size + k] = base + YDstr::d_to_x_offset(k)[0];
        });
        p_first[tid] = detail::is_first_replica<YDstr>() ? 1 : 0;
    }
};

template <typename Encoding, index_t BlockSize, index_t RDim, typename Op, typename CpuOp>
void check_reduce(int M, int N, CpuOp cpu_op, double init, double rtol)
{
    using K                = ReduceTileKernel<Encoding, RDim, Op>;
    constexpr index_t nbuf = K::YTile::thread_buffer_size;
    const auto x           = random_matrix(M, N, 7 + M * 31 + N);
    DeviceMem x_dev(x.size() * sizeof(float)), out_dev(BlockSize * nbuf * sizeof(float)),
        idx_dev(BlockSize * nbuf * sizeof(index_t)), first_dev(BlockSize * sizeof(index_t));
    x_dev.ToDevice(x.data());
    launch_kernel(stream_config{}, make_kernel<BlockSize>(K{}, dim3(1), dim3(BlockSize), 0,
                                                          static_cast<const float*>(x_dev.GetDeviceBuffer()), M, N,
                                                          static_cast<float*>(out_dev.GetDeviceBuffer()),
                                                          static_cast<index_t*>(idx_dev.GetDeviceBuffer()),
                                                          static_cast<index_t*>(first_dev.GetDeviceBuffer())));
    std::vector<float> out(BlockSize * nbuf);
    std::vector<index_t> idx(BlockSize * nbuf), first(BlockSize);
    out_dev.FromDevice(out.data());
    idx_dev.FromDevice(idx.data());
    first_dev.FromDevice(first.data());

    const auto ref = cpu_reduce(x, M, N, RDim, cpu_op, init);
    const int kept = RDim == 1 ? M : N;
    std::vector<int> owners(kept, 0);
    int wrong = 0;
    for(index_t t = 0; t < BlockSize; ++t)
        for(index_t k = 0; k < nbuf; ++k)
        {
            const index_t i = idx[t * nbuf + k];
            if(i >= kept) // a padding row / column
                continue;
            const double r = ref[i], o = out[t * nbuf + k];
            if(std::fabs(o - r) > rtol * std::max(1.0, std::fabs(r)))
                ++wrong;
            owners[i] += first[t];
        }
    INFO("M=" << M << " N=" << N << " rdim=" << RDim);
    CHECK(wrong == 0);
    CHECK(std::all_of(owners.begin(), owners.end(), [](int n) { return n == 1; }));
}

const auto add    = [](double a, double b) { return a + b; };
const auto sqadd  = [](double a, double b) { return a + b * b; };
const auto mx     = [](double a, double b) { return std::max(a, b); };
const auto absmax = [](double a, double b) { return std::max(a, std::fabs(b)); };

} // namespace

TEST_CASE("ReduceOp: operators and identities")
{
    CHECK(ReduceOp::Add{}(2.f, 3.f) == 5.f);
    CHECK(ReduceOp::SquareAdd{}(2.f, 3.f) == 11.f);
    CHECK(ReduceOp::Max{}(-2.f, -3.f) == -2.f);
    CHECK(ReduceOp::AbsMax{}(2.f, -3.f) == 3.f);
    CHECK(ReduceOp::Add::GetIdentityValue<float>() == 0.f);
    CHECK(ReduceOp::AbsMax::GetIdentityValue<float>() == 0.f);
    // the identity of Max is below every finite value, also negative ones
    CHECK(ReduceOp::Max{}(ReduceOp::Max::GetIdentityValue<float>(), -1e30f) == -1e30f);
    CHECK(type_convert<float>(ReduceOp::Max{}(ReduceOp::Max::GetIdentityValue<half_t>(), half_t(-60000.f))) ==
          -60000.f);
    CHECK(type_convert<float>(ReduceOp::Add{}(bf16_t(1.f), bf16_t(2.f))) == 3.f);
}

TEST_CASE("thread level: each thread folds its own 37 registers")
{
    // 37 columns, no padding: Max sees only data; 50 of 64 rows (padded rows are ignored)
    check_reduce<ThreadOnly, kThreadOnlyBlock, 1, ReduceOp::Max>(50, 37, mx, -1e300, 0);
    check_reduce<ThreadOnly, kThreadOnlyBlock, 1, ReduceOp::Add>(64, 37, add, 0, 1e-5);
    check_reduce<ThreadOnly, kThreadOnlyBlock, 1, ReduceOp::AbsMax>(1, 37, absmax, 0, 0);
    check_reduce<ThreadOnly, kThreadOnlyBlock, 1, ReduceOp::SquareAdd>(33, 37, sqadd, 0, 1e-5);
}

TEST_CASE("warp level: lanes combine through warp_shuffle")
{
    check_reduce<WarpLanes, kWarpLanesBlock, 1, ReduceOp::Max>(16, 40, mx, -1e300, 0);
    check_reduce<WarpLanes, kWarpLanesBlock, 1, ReduceOp::Add>(13, 37, add, 0, 1e-5);
    check_reduce<WarpLanes, kWarpLanesBlock, 1, ReduceOp::AbsMax>(7, 1, absmax, 0, 0);
    check_reduce<WarpLanes, kWarpLanesBlock, 1, ReduceOp::SquareAdd>(16, 29, sqadd, 0, 1e-5);
    // the other dimension: rows fold in registers and across lanes 8 apart
    check_reduce<WarpLanes, kWarpLanesBlock, 0, ReduceOp::Add>(11, 37, add, 0, 1e-5);
    check_reduce<WarpLanes, kWarpLanesBlock, 0, ReduceOp::Max>(16, 40, mx, -1e300, 0);
}

TEST_CASE("block level: warps combine through LDS")
{
    check_reduce<BlockWarps, kBlockWarpsBlock, 1, ReduceOp::Max>(32, 24, mx, -1e300, 0);
    check_reduce<BlockWarps, kBlockWarpsBlock, 1, ReduceOp::Add>(29, 23, add, 0, 1e-5);
    check_reduce<BlockWarps, kBlockWarpsBlock, 1, ReduceOp::AbsMax>(3, 5, absmax, 0, 0);
    check_reduce<BlockWarps, kBlockWarpsBlock, 1, ReduceOp::SquareAdd>(17, 19, sqadd, 0, 1e-5);
    check_reduce<BlockWarps, kBlockWarpsBlock, 0, ReduceOp::Add>(31, 21, add, 0, 1e-5);
    check_reduce<BlockWarps, kBlockWarpsBlock, 0, ReduceOp::Max>(32, 24, mx, -1e300, 0);
}
