// SPDX-License-Identifier: MIT
// What the two wrapper GEMM examples share on the host: the optional M N K arguments, the data,
// the launch of a kernel and the check of C = A B^T against CK Tile's reference_gemm.
#pragma once
#include <cerrno>
#include <cstdlib>
#include <iomanip>
#include <iostream>
#include <limits>
#include <stdexcept>
#include <string>

#include "ck/ck.hpp"
#include "ck/library/utility/check_err.hpp"
#include "ck/library/utility/fill.hpp"
#include "ck/library/utility/host_tensor.hpp"
#include "ck_tile/host/reference/reference_gemm.hpp"

namespace wrapper_example {

struct Problem
{
#if defined(CK_TILE_RUNS_ON_CPU)
    // the emulator runs the kernel on the CPU: a smaller default problem
    ck::index_t M = 512, N = 512, K = 256;
#else
    ck::index_t M = 3840, N = 4096, K = 4096;
#endif
};

inline ck::index_t parse_dim(const char* s, const char* what)
{
    errno        = 0;
    char* end    = nullptr;
    const long v = std::strtol(s, &end, 10);
    if(*s == '\0' || *end != '\0' || errno == ERANGE)
        throw std::invalid_argument(std::string(what) + " must be an integer, got '" + s + "'");
    if(v < 1 || v > std::numeric_limits<int32_t>::max())
        throw std::invalid_argument(std::string(what) + " must be at least 1, got " + s);
    return static_cast<ck::index_t>(v);
}

// argv: none (defaults) or M N K
inline Problem parse(int argc, char* argv[])
{
    Problem p;
    if(argc != 1 && argc != 4)
        throw std::invalid_argument("expected no arguments or M N K, got " + std::to_string(argc - 1) + " arguments");
    if(argc == 4)
    {
        p.M = parse_dim(argv[1], "M");
        p.N = parse_dim(argv[2], "N");
        p.K = parse_dim(argv[3], "K");
    }
    if(static_cast<long long>(p.M) * p.K > std::numeric_limits<int32_t>::max() ||
       static_cast<long long>(p.N) * p.K > std::numeric_limits<int32_t>::max() ||
       static_cast<long long>(p.M) * p.N > std::numeric_limits<int32_t>::max())
        throw std::invalid_argument("the problem is too large (a matrix of more than 2^31 - 1 elements)");
    return p;
}

// A (M x K) and B (N x K, K contiguous) with values in [-1, 1)
template <typename DataType>
struct Operands
{
    Tensor<DataType> a, b;
    Operands(ck::index_t M, ck::index_t N, ck::index_t K) : a({M, K}), b({N, K})
    {
        ck::utils::FillUniformDistribution<DataType>{-1.f, 1.f, 1}(a);
        ck::utils::FillUniformDistribution<DataType>{-1.f, 1.f, 2}(b);
    }
};

// C (M x N, row-major) against the reference; prints valid:y|n
template <typename DataType>
bool check(const Operands<DataType>& ops, const Tensor<DataType>& c, ck::index_t K)
{
    const auto M = static_cast<ck::index_t>(ops.a.get_length(0));
    const auto N = static_cast<ck::index_t>(ops.b.get_length(0));
    Tensor<DataType> b_k_n({K, N}, {1, K}); // B seen as K x N
    std::copy(ops.b.begin(), ops.b.end(), b_k_n.begin());
    Tensor<float> ref({M, N});
    ck_tile::reference_gemm<DataType, DataType, float, float>(ops.a, b_k_n, ref);
    double max_ref = 0;
    for(float x : ref)
        max_ref = std::max(max_ref, static_cast<double>(std::abs(x)));
    const double rtol = ck::utils::get_relative_threshold<DataType, DataType, float>(K);
    const double atol = ck::utils::get_absolute_threshold<DataType, DataType, float>(max_ref, K);
    const bool pass   = ck::utils::check_err(c, ref, "Error: incorrect results!", rtol, atol);
    std::cout << "valid:" << (pass ? "y" : "n") << std::endl;
    return pass;
}

} // namespace wrapper_example
