// SPDX-License-Identifier: MIT
// tile_example_multi_reduce_blockwise: two reductions of a packed NHWC fp16 or bf16 tensor over H
// and W in one pass, keeping N and C, into fp32 outputs (upstream's pair): Y_sum[n, c] = sum and
// Y_msq[n, c] = mean of the squares of X[n, :, :, c]. The MultiReduceMultiblock kernel splits H*W
// over a group of blocks per output tile, which combine with fp32 atomic adds; checked against
// reference_multiple_reduce_multiblock. -? lists the options.
#include <cstring>
#include <array>
#include <iostream>
#include <string>
#include <vector>

#include "ck_tile/host/reference/reference_reduce.hpp"
#include "ck_tile/ops/epilogue/element_wise.hpp"
#include "reduce.hpp"

namespace reduce_example {
namespace {

// One block is one wave: 512 columns of C (64 lanes x 8 contiguous elements) by 16 rows of H*W per
// step (Repeat_N = 16: sixteen 16-byte loads in flight per lane). Parallelism along H*W comes from
// the group of blocks, so a block needs no cross-warp step (no LDS, no barrier). The scalar-access
// instance (C not a multiple of 8) takes 4 rows per step: 16 rows of one-element loads, each with
// its own offset, need more scalar registers than the hardware has.
template <bool kVectorized>
using Shape = ck_tile::Reduce2dShape<ck_tile::sequence<1, 1>, ck_tile::sequence<512, kVectorized ? 16 : 4>,
                                     ck_tile::sequence<512, 1>, ck_tile::sequence<8, 1>>;
// the sum, and the sum of squares (x squared, then added); each block's second partial is then
// divided by H*W (UnaryDivide), so the blocks' atomic adds give the mean of the squares
using ReduceOps = ck_tile::tuple<ck_tile::ReduceOp::Add, ck_tile::ReduceOp::SquareAdd>;

template <typename DataType, bool kVectorized>
using Kernel = ck_tile::MultiReduceMultiblock<
    ck_tile::Reduce2dProblem<DataType, float, float, Shape<kVectorized>, ReduceOps, kVectorized>>;

template <typename DataType>
bool run(const Nhwc& s, bool verify, int warmup, int repeat)
{
    using XDataType         = DataType;
    using YDataType         = float;
    const int length        = s.h * s.w; // values per result
    const long long outputs = 1ll * s.n * s.c;

    ck_tile::HostTensor<XDataType> x_host({s.n, s.h, s.w, s.c});
    ck_tile::FillUniformDistribution<XDataType>{-5.f, 5.f, 11939}(x_host);
    ck_tile::DeviceMem x_dev(x_host.get_element_space_size_in_bytes());
    ck_tile::DeviceMem y_dev(2 * outputs * sizeof(YDataType));
    x_dev.ToDevice(x_host.data());

    const bool vectorized = Kernel<DataType, true>::IsSupportedArgument(s.c);
    // the group of each output tile, and the grid, of the instance that runs
    const auto plan = [&](auto kernel) {
        using K          = decltype(kernel);
        const auto group = typename K::TilePartitioner{length}.GetBlockGroupParams();
        return std::array<int, 4>{group.at(ck_tile::number<0>{}), group.at(ck_tile::number<1>{}), K::S::Block_N,
                                  K::GridSize(s.n, length, s.c)};
    };
    const auto [iters, group_size, rows_per_step, grid] =
        vectorized ? plan(Kernel<DataType, true>{}) : plan(Kernel<DataType, false>{});
    std::cout << "multi_reduce_blockwise NHWC " << s.n << "x" << s.h << "x" << s.w << "x" << s.c << " -> NC " << s.n
              << "x" << s.c << " (sum and mean of squares over H, W), prec " << DataTypeTraits<DataType>::name << ", "
              << (vectorized ? "vector" : "scalar") << " access" << std::endl;
    std::cout << "block group size " << group_size << " (" << iters << " x " << rows_per_step
              << " rows of H*W per block)" << std::endl;
    std::cout << "grid size " << grid << std::endl;

    const auto* p_x = static_cast<const XDataType*>(x_dev.GetDeviceBuffer());
    auto* p_y       = static_cast<YDataType*>(y_dev.GetDeviceBuffer());
    const auto acc_ops =
        ck_tile::make_tuple(ck_tile::element_wise::PassThrough{}, ck_tile::element_wise::UnaryDivide{length});
    const ck_tile::stream_config cfg{nullptr, true, 0, warmup, repeat};
    // the blocks add into Y: it starts at 0 (Add's identity) on every launch, timed launches included
    const auto clear_y = [&](const ck_tile::stream_config&) { y_dev.SetZero(); };
    const auto launch  = [&](auto kernel) {
        using K = decltype(kernel);
        return ck_tile::launch_kernel(cfg, clear_y,
                                      ck_tile::make_kernel<K::kBlockSize>(K{}, dim3(grid), dim3(K::BlockSize()), 0, p_x,
                                                                          p_y, s.n, length, s.c,
                                                                          static_cast<long long>(outputs), acc_ops));
    };
    const float ms = vectorized ? launch(Kernel<DataType, true>{}) : launch(Kernel<DataType, false>{});

    // x read once, two fp32 outputs written
    const double bytes = double(sizeof(XDataType)) * s.elements() + 2.0 * sizeof(YDataType) * outputs;
    std::cout << "Perf: " << ms << " ms, " << bytes / 1e6 / ms << " GB/s" << std::endl;

    if(!verify)
        return true;
    std::vector<YDataType> y(2 * outputs);
    y_dev.FromDevice(y.data());
    ck_tile::HostTensor<YDataType> sum_dev({s.n, s.c}), msq_dev({s.n, s.c});
    std::memcpy(sum_dev.data(), y.data(), outputs * sizeof(YDataType));
    std::memcpy(msq_dev.data(), y.data() + outputs, outputs * sizeof(YDataType));

    auto refs =
        ck_tile::make_tuple(ck_tile::HostTensor<YDataType>({s.n, s.c}), ck_tile::HostTensor<YDataType>({s.n, s.c}));
    ck_tile::reference_multiple_reduce_multiblock<XDataType, float, YDataType>(
        x_host, refs, ReduceOps{}, ck_tile::sequence<0, 3>{}, ck_tile::sequence<1, 2>{},
        ck_tile::make_tuple(ck_tile::element_wise::PassThrough{}, ck_tile::element_wise::PassThrough{}), acc_ops,
        ck_tile::make_tuple(ck_tile::ReduceOp::Add{}, ck_tile::ReduceOp::Add{}), group_size);
    const auto& sum_ref = refs.at(ck_tile::number<0>{});
    const auto& msq_ref = refs.at(ck_tile::number<1>{});
    // fp32 sums of `length` values in different orders (and chunks): the fp32 bounds for that length
    const auto sum_tol = make_sum_tolerance<YDataType>(sum_ref.mData, length);
    const auto msq_tol = make_sum_tolerance<YDataType>(msq_ref.mData, length);
    bool pass = ck_tile::check_err(sum_dev.mData, sum_ref.mData, "Error: incorrect sums!", sum_tol.rtol, sum_tol.atol);
    pass      = ck_tile::check_err(msq_dev.mData, msq_ref.mData, "Error: incorrect means of squares!", msq_tol.rtol,
                                   msq_tol.atol) &&
                pass;
    std::cout << "valid:" << (pass ? "y" : "n") << std::endl;
    return pass;
}

} // namespace
} // namespace reduce_example

int main(int argc, char* argv[])
{
    using namespace reduce_example;
#if defined(CK_TILE_RUNS_ON_CPU)
    const char* warmup_default = "1";
    const char* repeat_default = "3";
#else
    const char* warmup_default = "5";
    const char* repeat_default = "20";
#endif
    ck_tile::ArgParser p;
    p.insert("n", "32", "N dimension (kept)")
        .insert("h", "19", "H dimension (reduced)")
        .insert("w", "7", "W dimension (reduced)")
        .insert("c", "512", "C dimension (kept, contiguous)")
        .insert("v", "1", "verification: 0 none, 1 CPU reference")
        .insert("prec", "fp16", "data type of X: fp16 or bf16 (accumulation and outputs are fp32)")
        .insert("warmup", warmup_default, "untimed launches before timing")
        .insert("repeat", repeat_default, "timed launches (the perf line is their average)");
    if(!p.parse(argc, argv))
        return p.help_requested() ? 0 : 1;

    try
    {
        const Nhwc s           = read_nhwc(p);
        const bool verify      = p.get_int_in_range("v", 0, 1) == 1;
        const int warmup       = p.get_int_at_least("warmup", 0);
        const int repeat       = p.get_int_at_least("repeat", 1);
        const std::string prec = p.get_str("prec");
        bool pass;
        if(prec == "fp16")
            pass = run<ck_tile::half_t>(s, verify, warmup, repeat);
        else if(prec == "bf16")
            pass = run<ck_tile::bf16_t>(s, verify, warmup, repeat);
        else
            throw ck_tile::arg_error("error: option -prec: '" + prec + "' is not supported (fp16 or bf16)");
        return pass ? 0 : 1;
    }
    catch(const ck_tile::arg_error& e)
    {
        std::cerr << e.what() << std::endl;
        return 1;
    }
    catch(const std::exception& e)
    {
        std::cerr << "error: " << e.what() << std::endl;
        return 1;
    }
}
