// SPDX-License-Identifier: MIT
// tile_example_multi_reduce: two reductions of a packed NHWC fp16 or bf16 tensor over H and W in
// one pass, keeping N and C (upstream's pair): Y_sum[n, c] = sum and Y_max[n, c] = max of
// X[n, :, :, c], accumulated in fp32 by the MultiReduce kernel and checked against
// reference_multiple_reduce. -? lists the options.
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include "ck_tile/host/reference/reference_reduce.hpp"
#include "reduce.hpp"

namespace reduce_example {
namespace {

// One block: 512 columns of C (64 lanes x 8 contiguous elements), its 4 warps each taking every
// 4th row of H*W; the warps' partial results meet in LDS (BlockReduce2dCrossWarpSync).
using Shape     = ck_tile::Reduce2dShape<ck_tile::sequence<1, 4>, ck_tile::sequence<512, 4>, ck_tile::sequence<512, 1>,
                                         ck_tile::sequence<8, 1>>;
using ReduceOps = ck_tile::tuple<ck_tile::ReduceOp::Add, ck_tile::ReduceOp::Max>;

template <typename DataType, bool kVectorized>
using Kernel = ck_tile::MultiReduce<ck_tile::Reduce2dProblem<DataType, float, DataType, Shape, ReduceOps, kVectorized>>;

template <typename DataType>
bool run(const Nhwc& s, bool verify, int warmup, int repeat)
{
    using XDataType         = DataType;
    using YDataType         = DataType;
    const int length        = s.h * s.w; // values per result
    const long long outputs = 1ll * s.n * s.c;

    ck_tile::HostTensor<XDataType> x_host({s.n, s.h, s.w, s.c});
    ck_tile::FillUniformDistribution<XDataType>{-5.f, 5.f, 11939}(x_host);
    ck_tile::DeviceMem x_dev(x_host.get_element_space_size_in_bytes());
    ck_tile::DeviceMem y_dev(2 * outputs * sizeof(YDataType));
    x_dev.ToDevice(x_host.data());
    y_dev.SetZero();

    const bool vectorized = Kernel<DataType, true>::IsSupportedArgument(s.c);
    const auto grid       = Kernel<DataType, true>::GridSize(s.n, s.c);
    std::cout << "multi_reduce NHWC " << s.n << "x" << s.h << "x" << s.w << "x" << s.c << " -> NC " << s.n << "x" << s.c
              << " (sum and max over H, W), prec " << DataTypeTraits<DataType>::name << ", "
              << (vectorized ? "vector" : "scalar") << " access" << std::endl;
    std::cout << "grid size " << grid << std::endl;

    const auto* p_x = static_cast<const XDataType*>(x_dev.GetDeviceBuffer());
    auto* p_y       = static_cast<YDataType*>(y_dev.GetDeviceBuffer());
    const ck_tile::stream_config cfg{nullptr, true, 0, warmup, repeat};
    const auto launch = [&](auto kernel) {
        using K = decltype(kernel);
        return ck_tile::launch_kernel(cfg, ck_tile::make_kernel<K::kBlockSize>(K{}, dim3(grid), dim3(K::BlockSize()), 0,
                                                                               p_x, p_y, s.n, length, s.c,
                                                                               static_cast<long long>(outputs)));
    };
    const float ms = vectorized ? launch(Kernel<DataType, true>{}) : launch(Kernel<DataType, false>{});

    // x read once, two outputs written
    const double bytes = double(sizeof(XDataType)) * s.elements() + 2.0 * sizeof(YDataType) * outputs;
    std::cout << "Perf: " << ms << " ms, " << bytes / 1e6 / ms << " GB/s" << std::endl;

    if(!verify)
        return true;
    std::vector<YDataType> y(2 * outputs);
    y_dev.FromDevice(y.data());
    ck_tile::HostTensor<YDataType> sum_dev({s.n, s.c}), max_dev({s.n, s.c});
    std::memcpy(sum_dev.data(), y.data(), outputs * sizeof(YDataType));
    std::memcpy(max_dev.data(), y.data() + outputs, outputs * sizeof(YDataType));

    auto refs =
        ck_tile::make_tuple(ck_tile::HostTensor<YDataType>({s.n, s.c}), ck_tile::HostTensor<YDataType>({s.n, s.c}));
    ck_tile::reference_multiple_reduce<XDataType, float, YDataType>(
        x_host, refs, ReduceOps{}, ck_tile::sequence<0, 3>{}, ck_tile::sequence<1, 2>{});
    const auto& sum_ref = refs.at(ck_tile::number<0>{});
    const auto& max_ref = refs.at(ck_tile::number<1>{});
    const auto tol      = make_sum_tolerance<YDataType>(sum_ref.mData, length);
    bool pass = ck_tile::check_err(sum_dev.mData, sum_ref.mData, "Error: incorrect sums!", tol.rtol, tol.atol);
    // a maximum is one of the inputs, exactly representable in Y: it must match bit for bit
    pass = ck_tile::check_err(max_dev.mData, max_ref.mData, "Error: incorrect maxima!", 0, 0) && pass;
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
        .insert("h", "7", "H dimension (reduced)")
        .insert("w", "7", "W dimension (reduced)")
        .insert("c", "512", "C dimension (kept, contiguous)")
        .insert("v", "1", "verification: 0 none, 1 CPU reference")
        .insert("prec", "fp16", "data type of X and Y: fp16 or bf16 (accumulation is fp32)")
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
