// SPDX-License-Identifier: MIT
// client_wrapper_img2col: 3-D image to column (no padding) with the ck::wrapper API, fp32. The
// NDHWGC input and the [G, N Do Ho Wo, Z Y X C] output are the same nested shape
// ((G, (Wo, Ho, Do, N)), (C, X, Y, Z)) with two sets of strides, so the kernel is a copy:
// each 128-thread block takes a 32 x 64 tile of both (make_local_tile), each thread of an 8 x 16
// thread layout a packed 4 x 4 share of it (make_local_partition), and copies it in vectors of 4
// along the columns (C innermost in both layouts: contiguous when C is a multiple of 4; otherwise
// one element at a time, where upstream's fixed vector of 4 would be wrong). The output is
// checked against the host's image-to-column of the same input.
//
//   client_wrapper_img2col [G N C]   (default 4 32 64; 4 2 64 on the emulator; filter 3 x 3 x 3,
//                                     input 9 x 9 x 7, output 7 x 7 x 5, strides and dilations 1)
#include <numeric>
#include <cstdlib>
#include <iomanip>
#include <iostream>
#include <array>
#include <initializer_list>
#include <vector>

#include "ck/tensor_operation/gpu/device/tensor_layout.hpp"

#include "ck/host_utility/kernel_launch.hpp"
#include "ck/utility/common_header.hpp"
#include "ck/wrapper/layout.hpp"
#include "ck/wrapper/tensor.hpp"
#include "ck/wrapper/operations/copy.hpp"

#include "wrapper_gemm_check.hpp" // parse_dim

static constexpr ck::index_t NumDimSpatial = 3;
using DataType                             = float;
using InputLayout                          = ck::tensor_layout::convolution::NDHWGC;

struct SimpleDeviceMem
{
    SimpleDeviceMem() = delete;

    SimpleDeviceMem(std::size_t mem_size) : p_mem_{}
    {
        HIP_CHECK_ERROR(hipMalloc(static_cast<void**>(&p_mem_), mem_size));
    }

    void* GetDeviceBuffer() { return p_mem_; }

    ~SimpleDeviceMem() { (void)hipFree(p_mem_); }

    void* p_mem_;
};

// the kernel as upstream writes it (its formatting kept)
// clang-format off
// Test copy from Global to Global through LDS and VGPR
template <typename InputTensor,
          typename OutputTensor,
          typename BlockShape,
          typename ThreadLayoutShape,
          ck::index_t ScalarPerVector>
__global__ void DeviceImageToColumnPad0(InputTensor input_tensor,
                                        OutputTensor output_tensor,
                                        const BlockShape tile_shape,
                                        const ThreadLayoutShape thread_layout)
{
    const ck::index_t block_idx = static_cast<ck::index_t>(blockIdx.x);

    // Get local tiles for global memory
    auto input_local_tile  = ck::wrapper::make_local_tile(input_tensor, tile_shape, block_idx);
    auto output_local_tile = ck::wrapper::make_local_tile(output_tensor, tile_shape, block_idx);

    // Get partition per thread
    const auto input_local_partition =
        ck::wrapper::make_local_partition(input_local_tile, thread_layout, threadIdx.x);
    auto output_local_partition =
        ck::wrapper::make_local_partition(output_local_tile, thread_layout, threadIdx.x);

    // Perform copy
    using DimAccessOrder                    = ck::Tuple<ck::Number<0>, ck::Number<1>>;
    constexpr ck::index_t vector_dim        = 1;
    constexpr ck::index_t scalar_per_vector = ScalarPerVector; // upstream: 4
    ck::wrapper::copy<DimAccessOrder, vector_dim, scalar_per_vector>(input_local_partition,
                                                                     output_local_partition);
}
// clang-format on

bool PerformImageToColumnPad0(const ck::index_t G, const ck::index_t N, const ck::index_t Di, const ck::index_t Hi,
                              const ck::index_t Wi, const ck::index_t Do, const ck::index_t Ho, const ck::index_t Wo,
                              const ck::index_t C, const ck::index_t Z, const ck::index_t Y, const ck::index_t X,
                              std::array<ck::index_t, NumDimSpatial> filter_strides,
                              std::array<ck::index_t, NumDimSpatial> filter_dilations)
{
    const ck::index_t ZYXC = Z * Y * X * C;
    const ck::index_t GC   = G * C;

    // shape: (G, (Wo, Ho, Do, N)), (C, X, Y, Z))
    const auto shape = ck::make_tuple(ck::make_tuple(G, ck::make_tuple(Wo, Ho, Do, N)), ck::make_tuple(C, X, Y, Z));
    const auto in_strides = ck::make_tuple(
        ck::make_tuple(C, ck::make_tuple(filter_strides[2] * GC, filter_strides[1] * Wi * GC,
                                         filter_strides[0] * Hi * Wi * GC, Di * Hi * Wi * GC)),
        ck::make_tuple(1, filter_dilations[2] * GC, filter_dilations[1] * Wi * GC, filter_dilations[0] * Hi * Wi * GC));
    const auto in_layout = ck::wrapper::make_layout(shape, in_strides);

    const auto out_strides = ck::make_tuple(
        ck::make_tuple(ZYXC, ck::make_tuple(ZYXC * G, Wo * ZYXC * G, Ho * Wo * ZYXC * G, Do * Ho * Wo * ZYXC * G)),
        ck::make_tuple(1, C, X * C, Y * X * C));
    const auto out_layout = ck::wrapper::make_layout(shape, out_strides);

    // 0,1,2...size(shape) - 1
    std::vector<DataType> input_data(N * Di * Hi * Wi * GC);
    std::iota(input_data.begin(), input_data.end(), 0);

    // Global memory buffers
    SimpleDeviceMem in_buf(input_data.size() * sizeof(DataType));
    SimpleDeviceMem out_buf(ck::wrapper::size(out_layout) * sizeof(DataType));
    HIP_CHECK_ERROR(hipMemcpy(in_buf.GetDeviceBuffer(), input_data.data(), input_data.size() * sizeof(DataType),
                              hipMemcpyHostToDevice));

    const auto thread_layout = ck::make_tuple(ck::Number<8>{}, ck::Number<16>{});
    const auto tile_shape    = ck::make_tuple(ck::Number<32>{}, ck::Number<64>{});

    // Create tensors for global memory
    auto input_tensor_global = ck::wrapper::make_tensor<ck::wrapper::MemoryTypeEnum::Global>(
        static_cast<const DataType*>(in_buf.GetDeviceBuffer()), in_layout);
    auto output_tensor_global = ck::wrapper::make_tensor<ck::wrapper::MemoryTypeEnum::Global>(
        static_cast<DataType*>(out_buf.GetDeviceBuffer()), out_layout);

    const ck::index_t grid_size =
        ck::math::integer_divide_ceil(ck::wrapper::size<0>(in_layout), ck::wrapper::size<0>(tile_shape)) *
        ck::math::integer_divide_ceil(ck::wrapper::size<1>(in_layout), ck::wrapper::size<1>(tile_shape));

    // vectors of 4 along the columns need C, the innermost length, to be a multiple of 4
    const auto launch = [&](auto scalar_per_vector) {
        const auto kernel =
            DeviceImageToColumnPad0<decltype(input_tensor_global), decltype(output_tensor_global), decltype(tile_shape),
                                    decltype(thread_layout), decltype(scalar_per_vector)::value>;
        return launch_and_time_kernel(StreamConfig{nullptr, true, 0, 1, 3}, kernel, dim3(grid_size),
                                      dim3(ck::wrapper::size(thread_layout)), 0, input_tensor_global,
                                      output_tensor_global, tile_shape, thread_layout);
    };
    const ck::index_t scalar_per_vector = C % 4 == 0 ? 4 : 1;
    const float avg_time                = scalar_per_vector == 4 ? launch(ck::Number<4>{}) : launch(ck::Number<1>{});

    std::size_t num_btype = static_cast<std::size_t>(G) * N * Do * Ho * Wo * ZYXC * 2 * sizeof(DataType);
    float gb_per_sec      = num_btype / 1.E6 / avg_time;
    std::cout << "G " << G << ", N " << N << ", C " << C << ", input " << Di << "x" << Hi << "x" << Wi << ", filter "
              << Z << "x" << Y << "x" << X << ", output " << Do << "x" << Ho << "x" << Wo << " (" << InputLayout::name
              << "), vectors of " << scalar_per_vector << std::endl;
    std::cout << "Perf: " << std::setw(10) << avg_time << " ms, " << gb_per_sec << " GB/s, " << std::endl;

    // check: row (g, n, do, ho, wo), column (z, y, x, c) of the output holds input element
    // (n, do s + z d, ho s + y d, wo s + x d, g, c), whose value is its offset
    std::vector<DataType> out(static_cast<std::size_t>(ck::wrapper::size(out_layout)));
    HIP_CHECK_ERROR(
        hipMemcpy(out.data(), out_buf.GetDeviceBuffer(), out.size() * sizeof(DataType), hipMemcpyDeviceToHost));
    std::size_t errors = 0;
    for(ck::index_t g = 0; g < G; ++g)
        for(ck::index_t n = 0; n < N; ++n)
            for(ck::index_t od = 0; od < Do; ++od)
                for(ck::index_t oh = 0; oh < Ho; ++oh)
                    for(ck::index_t ow = 0; ow < Wo; ++ow)
                        for(ck::index_t z = 0; z < Z; ++z)
                            for(ck::index_t y = 0; y < Y; ++y)
                                for(ck::index_t x = 0; x < X; ++x)
                                    for(ck::index_t c = 0; c < C; ++c)
                                    {
                                        const ck::index_t di = od * filter_strides[0] + z * filter_dilations[0];
                                        const ck::index_t hi = oh * filter_strides[1] + y * filter_dilations[1];
                                        const ck::index_t wi = ow * filter_strides[2] + x * filter_dilations[2];
                                        const std::size_t in_off =
                                            ((((static_cast<std::size_t>(n) * Di + di) * Hi + hi) * Wi + wi) * G + g) *
                                                C +
                                            c;
                                        const std::size_t out_off =
                                            ((((static_cast<std::size_t>(n) * Do + od) * Ho + oh) * Wo + ow) * G + g) *
                                                ZYXC +
                                            ((z * Y + y) * X + x) * C + c;
                                        if(out[out_off] != input_data[in_off] && errors++ < 5)
                                            std::cerr << "out[" << out_off << "] = " << out[out_off] << " != input["
                                                      << in_off << "] = " << input_data[in_off] << std::endl;
                                    }
    std::cout << "valid:" << (errors == 0 ? "y" : "n") << std::endl;
    return errors == 0;
}

int main(int argc, char* argv[])
{
    try
    {
        ck::index_t G = 4;
#if defined(CK_TILE_RUNS_ON_CPU)
        ck::index_t N = 2; // batch (the emulator copies on the CPU: a smaller default)
#else
        ck::index_t N = 32; // batch
#endif
        ck::index_t C = 64; // input channel (per group)
        if(argc != 1 && argc != 4)
            throw std::invalid_argument("expected no arguments or G N C, got " + std::to_string(argc - 1) +
                                        " arguments");
        if(argc == 4)
        {
            G = wrapper_example::parse_dim(argv[1], "G");
            N = wrapper_example::parse_dim(argv[2], "N");
            C = wrapper_example::parse_dim(argv[3], "C");
        }
        constexpr ck::index_t Z  = 3; // filter D
        constexpr ck::index_t Y  = 3; // filter H
        constexpr ck::index_t X  = 3; // filter W
        constexpr ck::index_t Di = 9; // input D
        constexpr ck::index_t Hi = 9; // input H
        constexpr ck::index_t Wi = 7; // input W
        constexpr ck::index_t Do = 7; // output D
        constexpr ck::index_t Ho = 7; // output H
        constexpr ck::index_t Wo = 5; // output W
        if(static_cast<long long>(G) * N * C * Di * Hi * Wi > (1ll << 28) ||
           static_cast<long long>(G) * N * C * Do * Ho * Wo * Z * Y * X > (1ll << 28))
            throw std::invalid_argument("the problem is too large (more than 2^28 elements)");
        return PerformImageToColumnPad0(G, N, Di, Hi, Wi, Do, Ho, Wo, C, Z, Y, X, {1, 1, 1} /*filter_strides*/,
                                        {1, 1, 1} /*filter_dilations*/)
                   ? 0
                   : 1;
    }
    catch(const std::exception& e)
    {
        std::cerr << "error: " << e.what() << std::endl;
        return 1;
    }
}
