// SPDX-License-Identifier: MIT
// tile_tutorial_copy_kernel: copies an M x N tensor through tensor views, tile windows and a tile
// distribution, checks the copy on the host and reports the bandwidth.
#include <cstdio>
#include <iostream>
#include <string>

#include "ck_tile/core.hpp"
#include "ck_tile/host.hpp"
#include "copy_kernel.hpp"

namespace {

template <typename DataType>
bool run(int M, int N, int warmup, int repeat, bool verify)
{
    using Shape = ck_tile::CopyShape<DataType>;

    ck_tile::HostTensor<DataType> x_host({M, N});
    ck_tile::HostTensor<DataType> y_host({M, N});
    ck_tile::FillUniformDistribution<DataType>{-5.f, 5.f, 11939}(x_host);

    ck_tile::DeviceMem x_dev(x_host.get_element_space_size_in_bytes());
    ck_tile::DeviceMem y_dev(y_host.get_element_space_size_in_bytes());
    x_dev.ToDevice(x_host.data());
    y_dev.SetZero();

    const dim3 grid(ck_tile::integer_divide_ceil(M, Shape::kMPerBlock));
    const dim3 block(Shape::kBlockSize);
    const auto* p_x = static_cast<const DataType*>(x_dev.GetDeviceBuffer());
    auto* p_y       = static_cast<DataType*>(y_dev.GetDeviceBuffer());
    const ck_tile::stream_config s{nullptr, true, 0, warmup, repeat};

    std::cout << "copy " << M << "x" << N << " " << (sizeof(DataType) == 2 ? "fp16" : "fp32") << ", block tile "
              << Shape::kMPerBlock << "x" << Shape::kNPerBlock << ", grid " << grid.x << ", "
              << (N % Shape::kVector == 0 ? "vectorized" : "scalar") << " access" << std::endl;

    float ms;
    if(N % Shape::kVector == 0)
        ms = ck_tile::launch_kernel(s, ck_tile::make_kernel<Shape::kBlockSize>(ck_tile::TileCopyKernel<Shape, true>{},
                                                                               grid, block, 0, p_x, p_y, M, N));
    else
        ms = ck_tile::launch_kernel(s, ck_tile::make_kernel<Shape::kBlockSize>(ck_tile::TileCopyKernel<Shape, false>{},
                                                                               grid, block, 0, p_x, p_y, M, N));

    const double bytes = 2.0 * M * N * sizeof(DataType);
    std::cout << "Perf: " << ms << " ms, " << bytes / 1e6 / ms << " GB/s" << std::endl;

    bool pass = true;
    if(verify)
    {
        y_dev.FromDevice(y_host.data());
        pass = ck_tile::check_err(y_host.mData, x_host.mData, "Error: the copy differs from its input", 0, 0);
        std::cout << "valid:" << (pass ? "y" : "n") << std::endl;
    }
    return pass;
}

} // namespace

int main(int argc, char* argv[])
{
    ck_tile::ArgParser arg_parser;
    arg_parser.insert("m", "1024", "rows (M)")
        .insert("n", "1024", "columns (N)")
        .insert("prec", "fp16", "data type: fp16 or fp32")
        .insert("warmup", "5", "untimed warm-up launches")
        .insert("repeat", "20", "timed launches (the perf line is their average)")
        .insert("v", "1", "verify the copy on the host: 0 no, 1 yes");
    if(!arg_parser.parse(argc, argv))
        return arg_parser.help_requested() ? 0 : 1;

    try
    {
        const int M            = arg_parser.get_int_at_least("m", 1);
        const int N            = arg_parser.get_int_at_least("n", 1);
        const int warmup       = arg_parser.get_int_at_least("warmup", 0);
        const int repeat       = arg_parser.get_int_at_least("repeat", 1);
        const bool verify      = arg_parser.get_bool("v");
        const std::string prec = arg_parser.get_str("prec");
        if(static_cast<long long>(M) * N * 4 > (1ll << 31) - 1)
            throw ck_tile::arg_error("error: -m x -n is too large for 32-bit offsets");

        bool pass;
        if(prec == "fp16")
            pass = run<ck_tile::half_t>(M, N, warmup, repeat, verify);
        else if(prec == "fp32")
            pass = run<float>(M, N, warmup, repeat, verify);
        else
            throw ck_tile::arg_error("error: option -prec: '" + prec + "' is not supported (fp16 or fp32)");
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
