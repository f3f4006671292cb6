// SPDX-License-Identifier: MIT
// tile_tutorial_naive_gemm [verification M N K]: C = A * B^T in fp16 with fp32 accumulation, with
// block tiles A 256x32, B 128x32, C 256x128, 4 warps, MFMA 32x32x8. Defaults: 0 3328 4096 4096.
#include <charconv>
#include <cstring>
#include <iostream>
#include <string>

#include "ck_tile/core.hpp"
#include "ck_tile/host.hpp"
#include "practice_gemm.hpp"
#include "reference_gemm.hpp"

namespace {

using ADataType   = ck_tile::half_t;
using BDataType   = ck_tile::half_t;
using AccDataType = float;
using CDataType   = ck_tile::half_t;
using Shape       = ck_tile::PracticeGemmBlockShape<256, 128, 32>;
using Problem     = ck_tile::PracticeGemmProblem<ADataType, BDataType, AccDataType, CDataType, Shape, 256>;
using Kernel      = ck_tile::PracticeGemm<Problem>;

// a whole positional argument as an int, or a clear error
int parse_int(const char* name, const char* text)
{
    int v          = 0;
    const char* e  = text + std::strlen(text);
    const auto res = std::from_chars(text, e, v);
    if(res.ec != std::errc{} || res.ptr != e || res.ptr == text)
        throw ck_tile::arg_error(std::string("error: argument ") + name + ": '" + text + "' is not an integer");
    return v;
}

} // namespace

int main(int argc, char* argv[])
{
    int verification = 0, M = 3328, N = 4096, K = 4096;
    try
    {
        if(argc > 5)
            throw ck_tile::arg_error("error: usage: " + std::string(argv[0]) + " [verification M N K]");
        if(argc > 1)
            verification = parse_int("verification", argv[1]);
        if(argc > 2)
            M = parse_int("M", argv[2]);
        if(argc > 3)
            N = parse_int("N", argv[3]);
        if(argc > 4)
            K = parse_int("K", argv[4]);
        if(verification != 0 && verification != 1)
            throw ck_tile::arg_error("error: argument verification: must be 0 or 1, got " +
                                     std::to_string(verification));
        if(!Kernel::IsSupportedArgument(M, N, K))
            throw ck_tile::arg_error("error: M, N and K must be positive multiples of the block tile " +
                                     std::to_string(Shape::kM) + " x " + std::to_string(Shape::kN) + " x " +
                                     std::to_string(Shape::kK) + " (got " + std::to_string(M) + " x " +
                                     std::to_string(N) + " x " + std::to_string(K) + "); this tutorial does not pad");
    }
    catch(const ck_tile::arg_error& e)
    {
        std::cerr << e.what() << std::endl;
        return 1;
    }

    try
    {
        ck_tile::HostTensor<ADataType> a_host({M, K});
        ck_tile::HostTensor<BDataType> b_host({N, K});
        ck_tile::HostTensor<CDataType> c_host({M, N});
        ck_tile::FillUniformDistribution<ADataType>{-1.f, 1.f}(a_host);
        ck_tile::FillUniformDistribution<BDataType>{-1.f, 1.f}(b_host);

        ck_tile::DeviceMem a_dev(a_host.get_element_space_size_in_bytes());
        ck_tile::DeviceMem b_dev(b_host.get_element_space_size_in_bytes());
        ck_tile::DeviceMem c_dev(c_host.get_element_space_size_in_bytes());
        a_dev.ToDevice(a_host.data());
        b_dev.ToDevice(b_host.data());
        c_dev.SetZero();

        const dim3 grid(Kernel::Grid::GetGridSize(M, N));
        const dim3 block(Kernel::kBlockSize);
        std::cout << "naive gemm M=" << M << " N=" << N << " K=" << K << ", grid " << grid.x << ", block " << block.x
                  << ", LDS " << Kernel::GetStaticLdsSize() << " B, "
                  << (CK_TILE_ENABLE_TRANSPOSED_C_DISTRIBUTION ? "transposed" : "standard") << " C distribution"
                  << std::endl;

        const float ms =
            ck_tile::launch_kernel(ck_tile::stream_config{nullptr, true, 0, 1, 3},
                                   ck_tile::make_kernel<Kernel::kBlockSize>(
                                       Kernel{}, grid, block, 0, static_cast<const ADataType*>(a_dev.GetDeviceBuffer()),
                                       static_cast<const BDataType*>(b_dev.GetDeviceBuffer()),
                                       static_cast<CDataType*>(c_dev.GetDeviceBuffer()), M, N, K));

        const double flops = 2.0 * M * N * K;
        const double bytes =
            sizeof(ADataType) * double(M) * K + sizeof(BDataType) * double(N) * K + sizeof(CDataType) * double(M) * N;
        std::cout << "Perf: " << ms << " ms, " << flops / 1e9 / ms << " TFlops, " << bytes / 1e6 / ms << " GB/s"
                  << std::endl;

        bool pass = true;
        if(verification)
        {
            c_dev.FromDevice(c_host.data());
            ck_tile::HostTensor<CDataType> c_ref({M, N});
            ck_tile::reference_gemm<ADataType, BDataType, AccDataType, CDataType>(a_host, b_host, c_ref);
            // fp16 output of a K-long fp32 sum: one fp16 rounding, plus K fp32 roundings for the
            // other order of the sum, relative to the largest result (the GEMM examples' bound)
            const auto [rtol, atol] = ck_tile::calculate_rtol_atol<ADataType, BDataType, AccDataType, CDataType>(
                static_cast<int>(K), 1, ck_tile::max_abs_value(c_ref.mData));
            pass = ck_tile::check_err(c_host.mData, c_ref.mData, "Error: incorrect results!", rtol, atol);
            std::cout << "valid:" << (pass ? "y" : "n") << std::endl;
        }
        return pass ? 0 : 1;
    }
    catch(const std::exception& e)
    {
        std::cerr << "error: " << e.what() << std::endl;
        return 1;
    }
}
