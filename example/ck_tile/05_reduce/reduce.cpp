// SPDX-License-Identifier: MIT
// tile_example_reduce: Y[h, w, c] = sum over n of X[n, h, w, c] for a packed NHWC fp16 or bf16
// tensor, accumulated in fp32 by the Reduce kernel and checked against reference_reduce.
// -? lists the options.
#include <iostream>
#include <string>

#include "ck_tile/host/reference/reference_reduce.hpp"
#include "reduce.hpp"

namespace reduce_example {
namespace {

// One block: 4 warps side by side along H*W*C, each lane 2 x 8 contiguous elements (two 16-byte
// vectors, 512 elements apart) of two rows of N per step: 4096 columns x 2 rows, four loads in
// flight per thread.
using Shape = ck_tile::Reduce2dShape<ck_tile::sequence<4, 1>, ck_tile::sequence<4096, 2>, ck_tile::sequence<512, 1>,
                                     ck_tile::sequence<8, 1>>;

template <typename DataType, bool kVectorized>
using Kernel =
    ck_tile::Reduce<ck_tile::Reduce2dProblem<DataType, float, DataType, Shape, ck_tile::ReduceOp::Add, kVectorized>>;

template <typename DataType>
bool run(const Nhwc& s, bool verify, int warmup, int repeat)
{
    using XDataType = DataType;
    using YDataType = DataType;
    const int kept  = s.h * s.w * s.c; // the contiguous kept dimensions, merged

    ck_tile::HostTensor<XDataType> x_host({s.n, s.h, s.w, s.c});
    ck_tile::HostTensor<YDataType> y_host({s.h, s.w, s.c});
    ck_tile::FillUniformDistribution<XDataType>{-5.f, 5.f, 11939}(x_host);

    ck_tile::DeviceMem x_dev(x_host.get_element_space_size_in_bytes());
    ck_tile::DeviceMem y_dev(y_host.get_element_space_size_in_bytes());
    x_dev.ToDevice(x_host.data());
    y_dev.SetZero();

    const bool vectorized = Kernel<DataType, true>::IsSupportedArgument(kept);
    const auto grid       = Kernel<DataType, true>::GridSize(1, kept);
    std::cout << "reduce NHWC " << s.n << "x" << s.h << "x" << s.w << "x" << s.c << " -> HWC " << s.h << "x" << s.w
              << "x" << s.c << " (sum over N), prec " << DataTypeTraits<DataType>::name << ", "
              << (vectorized ? "vector" : "scalar") << " access" << std::endl;
    std::cout << "grid size " << grid << std::endl;

    const auto* p_x = static_cast<const XDataType*>(x_dev.GetDeviceBuffer());
    auto* p_y       = static_cast<YDataType*>(y_dev.GetDeviceBuffer());
    const ck_tile::stream_config cfg{nullptr, true, 0, warmup, repeat};
    const auto launch = [&](auto kernel) {
        using K = decltype(kernel);
        return ck_tile::launch_kernel(
            cfg, ck_tile::make_kernel<K::kBlockSize>(K{}, dim3(grid), dim3(K::BlockSize()), 0, p_x, p_y, 1, s.n, kept));
    };
    const float ms = vectorized ? launch(Kernel<DataType, true>{}) : launch(Kernel<DataType, false>{});

    const double bytes = double(sizeof(XDataType)) * s.elements() + double(sizeof(YDataType)) * kept;
    std::cout << "Perf: " << ms << " ms, " << bytes / 1e6 / ms << " GB/s" << std::endl;

    if(!verify)
        return true;
    y_dev.FromDevice(y_host.data());
    ck_tile::HostTensor<YDataType> y_ref({s.h, s.w, s.c});
    ck_tile::reference_reduce<XDataType, float, YDataType>(x_host, y_ref, ck_tile::ReduceOp::Add{},
                                                           ck_tile::sequence<1, 2, 3>{}, ck_tile::sequence<0>{});
    const auto tol  = make_sum_tolerance<YDataType>(y_ref.mData, s.n);
    const bool pass = ck_tile::check_err(y_host.mData, y_ref.mData, "Error: incorrect results!", tol.rtol, tol.atol);
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
    const char* warmup_default = "20";
    const char* repeat_default = "100";
#endif
    ck_tile::ArgParser p;
    p.insert("n", "16", "N: the dimension summed over")
        .insert("h", "64", "H dimension")
        .insert("w", "32", "W dimension")
        .insert("c", "960", "C dimension (contiguous)")
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
