// SPDX-License-Identifier: MIT
// tile_example_img2col: the im2col of a grouped 2-D convolution's NHWGC input image into
// [G, N*Ho*Wo, Y*X*C] (fp16), checked against the host reference.
//
//   tile_example_img2col [verify init time [NDim G N K C Y X Hi Wi Sy Sx Dy Dx LPy LPx RPy RPx]]
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include "ck_tile/host/convolution_parameter.hpp"
#include "ck_tile/host/reference/reference_im2col.hpp"
#include "image_to_column.hpp"

template <ck_tile::index_t NDimSpatial>
float image_to_column(const image_to_column_traits& t, const image_to_column_args<NDimSpatial>& a,
                      const ck_tile::stream_config& s)
{
    if(t.data_type != "fp16")
        throw ck_tile::arg_error("error: data type '" + t.data_type + "' is not supported (fp16)");
    using Kernel = ImageToColumnKernel<ck_tile::half_t, NDimSpatial>;
    const auto kargs =
        Kernel::MakeKargs(a.p_in, a.p_out, a.G, a.N, a.C, a.input_spatial_lengths, a.filter_spatial_lengths,
                          a.output_spatial_lengths, a.image_g_n_c_wis_strides, a.gemm_g_m_k_strides,
                          a.conv_filter_strides, a.conv_filter_dilations, a.input_left_pads, a.input_right_pads);
    if(!Kernel::IsSupportedArgument(kargs))
        throw ck_tile::arg_error("error: image_to_column: " + Kernel::GetUnsupportedReason(kargs));
    return ck_tile::launch_kernel(
        s, ck_tile::make_kernel<Kernel::kBlockSize>(Kernel{}, Kernel::GridSize(kargs.gemm_m, kargs.gemm_k, a.G),
                                                    Kernel::BlockSize(), 0, kargs));
}

namespace {

constexpr const char* kUsage = "verify init time [NDim G N K C Y X Hi Wi Sy Sx Dy Dx LPy LPx RPy RPx]";

struct ExecutionConfig
{
    bool do_verification = true;
    int init_method      = 1;
    bool time_kernel     = false;
};

// one positional argument: a whole integer >= min_value
int parse_arg(const char* text, const char* name, long min_value)
{
    const std::string s(text);
    std::size_t used = 0;
    long v           = 0;
    try
    {
        v = std::stol(s, &used);
    }
    catch(const std::exception&)
    {
        used = 0;
    }
    if(s.empty() || used != s.size() || v > 0x7fffffffl || v < -0x7fffffffl)
        throw ck_tile::arg_error(std::string("error: argument ") + name + ": '" + s + "' is not an integer");
    if(v < min_value)
        throw ck_tile::arg_error(std::string("error: argument ") + name + ": must be >= " + std::to_string(min_value) +
                                 ", got " + s);
    return static_cast<int>(v);
}

// upstream's default problem: G=2, N=32, K=32, C=32, 4x4 filter, 64x64 image, stride 1, dilation 1, no pads
ck_tile::conv::ConvParam default_params()
{
    return {2, 2, 32, 32, 32, {4, 4}, {64, 64}, {1, 1}, {1, 1}, {0, 0}, {0, 0}};
}

// The arguments in their documented order (upstream starts its parser one slot late, at NDim, so
// that every field after it is shifted by one; fixed here).
void parse_cmd_args(int argc, char* argv[], ExecutionConfig& cfg, ck_tile::conv::ConvParam& p)
{
    p = default_params();
    if(argc == 1)
        return;
    if(argc != 4 && argc != 21)
    {
        if(argc > 4) // the dimension count decides how many arguments follow; only 2 is supported
        {
            const int ndim = parse_arg(argv[4], "NDim", 1);
            if(ndim != 2)
                throw ck_tile::arg_error("error: argument NDim: " + std::to_string(ndim) +
                                         " spatial dimensions are not supported (only 2)");
        }
        throw ck_tile::arg_error("error: expected 0, 3 or 20 arguments (" + std::string(kUsage) + "), got " +
                                 std::to_string(argc - 1));
    }
    cfg.do_verification = parse_arg(argv[1], "verify", 0) != 0;
    cfg.init_method     = parse_arg(argv[2], "init", 0);
    cfg.time_kernel     = parse_arg(argv[3], "time", 0) != 0;
    if(argc == 4)
        return;
    const int ndim = parse_arg(argv[4], "NDim", 1);
    if(ndim != 2)
        throw ck_tile::arg_error("error: argument NDim: " + std::to_string(ndim) +
                                 " spatial dimensions are not supported (only 2)");
    const int G = parse_arg(argv[5], "G", 1), N = parse_arg(argv[6], "N", 1), K = parse_arg(argv[7], "K", 1);
    const int C = parse_arg(argv[8], "C", 1);
    const int Y = parse_arg(argv[9], "Y", 1), X = parse_arg(argv[10], "X", 1);
    const int Hi = parse_arg(argv[11], "Hi", 1), Wi = parse_arg(argv[12], "Wi", 1);
    const int Sy = parse_arg(argv[13], "Sy", 1), Sx = parse_arg(argv[14], "Sx", 1);
    const int Dy = parse_arg(argv[15], "Dy", 1), Dx = parse_arg(argv[16], "Dx", 1);
    const int LPy = parse_arg(argv[17], "LPy", 0), LPx = parse_arg(argv[18], "LPx", 0);
    const int RPy = parse_arg(argv[19], "RPy", 0), RPx = parse_arg(argv[20], "RPx", 0);
    p = ck_tile::conv::ConvParam{ndim, G, N, K, C, {Y, X}, {Hi, Wi}, {Sy, Sx}, {Dy, Dx}, {LPy, LPx}, {RPy, RPx}};
}

bool run(const ExecutionConfig& cfg, const ck_tile::conv::ConvParam& p)
{
    using T       = ck_tile::half_t;
    const auto& o = p.GetOutputSpatialLengths();
    const long G = p.G_, N = p.N_, C = p.C_, Hi = p.input_spatial_lengths_[0], Wi = p.input_spatial_lengths_[1];
    const long Y = p.filter_spatial_lengths_[0], X = p.filter_spatial_lengths_[1], Ho = o[0], Wo = o[1];
    if(Ho <= 0 || Wo <= 0)
        throw ck_tile::arg_error("error: output size Ho=" + std::to_string(Ho) + " Wo=" + std::to_string(Wo) +
                                 " is not positive: the dilated filter does not fit the padded input");
    if(C % 8 != 0)
        throw ck_tile::arg_error("error: argument C: " + std::to_string(C) +
                                 " is not a multiple of 8 (the kernel moves 8 channels per 16-byte vector)");
    const long M = N * Ho * Wo, K = Y * X * C;
    if(G * M * K * static_cast<long>(sizeof(T)) > 0x7fffffffl ||
       G * N * Hi * Wi * C * static_cast<long>(sizeof(T)) > 0x7fffffffl)
        throw ck_tile::arg_error("error: the output of " + std::to_string(G * M * K) +
                                 " elements exceeds 2^31 - 1 bytes; the kernel uses 32-bit offsets");

    // the image: (G, N, C, Hi, Wi) indexed, NHWGC in memory
    ck_tile::HostTensor<T> in({G, N, C, Hi, Wi}, {C, Hi * Wi * G * C, 1l, Wi * G * C, G * C});
    ck_tile::HostTensor<T> out({G, M, K});
    if(cfg.init_method == 1)
        ck_tile::FillUniformDistributionIntegerValue<T>{-5.f, 5.f}(in);
    else if(cfg.init_method != 0)
        ck_tile::FillUniformDistribution<T>{-0.5f, 0.5f}(in);

    ck_tile::DeviceMem in_dev(in.get_element_space_size_in_bytes());
    ck_tile::DeviceMem out_dev(out.get_element_space_size_in_bytes());
    in_dev.ToDevice(in.data());
    out_dev.SetZero();

    using ck_tile::index_t;
    const auto i = [](long v) { return static_cast<index_t>(v); };
    const image_to_column_args<2> args{in_dev.GetDeviceBuffer(),
                                       out_dev.GetDeviceBuffer(),
                                       i(G),
                                       i(N),
                                       i(C),
                                       {i(Hi), i(Wi)},
                                       {i(Y), i(X)},
                                       {i(Ho), i(Wo)},
                                       {i(C), i(Hi * Wi * G * C), 1, i(Wi * G * C), i(G * C)},
                                       {i(M * K), i(K), 1},
                                       {i(p.conv_filter_strides_[0]), i(p.conv_filter_strides_[1])},
                                       {i(p.conv_filter_dilations_[0]), i(p.conv_filter_dilations_[1])},
                                       {i(p.input_left_pads_[0]), i(p.input_left_pads_[1])},
                                       {i(p.input_right_pads_[0]), i(p.input_right_pads_[1])}};

    std::cout << "image_to_column fp16: G=" << G << " N=" << N << " K=" << p.K_ << " C=" << C << " Y=" << Y
              << " X=" << X << " Hi=" << Hi << " Wi=" << Wi << " S=(" << p.conv_filter_strides_[0] << ","
              << p.conv_filter_strides_[1] << ") D=(" << p.conv_filter_dilations_[0] << ","
              << p.conv_filter_dilations_[1] << ") LP=(" << p.input_left_pads_[0] << "," << p.input_left_pads_[1]
              << ") RP=(" << p.input_right_pads_[0] << "," << p.input_right_pads_[1] << ") -> Ho=" << Ho << " Wo=" << Wo
              << ", GemmM=" << M << " GemmK=" << K << ", " << ImageToColumnKernel<T, 2>::GetName() << std::endl;

    const ck_tile::stream_config s{nullptr, cfg.time_kernel, 0, 3, 10};
    const float ms = image_to_column(image_to_column_traits{"fp16"}, args, s);
    if(cfg.time_kernel)
    {
        // bytes read: every gathered element inside the image (padding is not read); written: all
        long rows_h = 0, rows_w = 0; // (ho, y) and (wo, x) pairs that land inside the image
        for(long a = 0; a < Ho; ++a)
            for(long f = 0; f < Y; ++f)
            {
                const long h = a * p.conv_filter_strides_[0] + f * p.conv_filter_dilations_[0] - p.input_left_pads_[0];
                rows_h += h >= 0 && h < Hi;
            }
        for(long a = 0; a < Wo; ++a)
            for(long f = 0; f < X; ++f)
            {
                const long w = a * p.conv_filter_strides_[1] + f * p.conv_filter_dilations_[1] - p.input_left_pads_[1];
                rows_w += w >= 0 && w < Wi;
            }
        const double bytes = (double(G) * N * C * rows_h * rows_w + double(G) * M * K) * sizeof(T);
        std::cout << "Perf: " << ms << " ms, " << bytes / 1e6 / ms << " GB/s" << std::endl;
    }
    else
        std::cout << "image_to_column: not timed (time=0)" << std::endl;

    if(!cfg.do_verification)
        return true;
    out_dev.FromDevice(out.data());
    ck_tile::HostTensor<T> ref({G, M, K});
    ck_tile::reference_im2col<T, T, 2>(in, ref, p);
    // a copy: exact. Identical bytes pass at once; otherwise check_err decides (+0 equals -0) and
    // prints the first mismatches.
    const bool pass =
        std::memcmp(out.data(), ref.data(), out.get_element_space_size_in_bytes()) == 0 ||
        ck_tile::check_err(out.mData, ref.mData, "Error: image_to_column differs from the reference", 0, 0);
    std::cout << "valid:" << (pass ? "y" : "n") << std::endl;
    return pass;
}

} // namespace

int main(int argc, char* argv[])
{
    try
    {
        if(argc == 2 && (std::string(argv[1]) == "-?" || std::string(argv[1]) == "-h"))
        {
            std::cout << "usage: tile_example_img2col " << kUsage << "\n"
                      << "  verify: 0 no, 1 yes (default 1)\n"
                      << "  init: 0 none, 1 integers in [-5, 5], other: reals in [-0.5, 0.5] (default 1)\n"
                      << "  time: 0 no, 1 yes (default 0)\n"
                      << "  NDim: 2; G groups, N images, K output channels (unused), C input channels (multiple of 8)\n"
                      << "  Y X filter, Hi Wi image, Sy Sx strides, Dy Dx dilations, LPy LPx RPy RPx left/right pads\n"
                      << "  defaults: 2 2 32 32 32 4 4 64 64 1 1 1 1 0 0 0 0" << std::endl;
            return 0;
        }
        ExecutionConfig cfg;
        ck_tile::conv::ConvParam p;
        parse_cmd_args(argc, argv, cfg, p);
        return run(cfg, p) ? 0 : 1;
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
