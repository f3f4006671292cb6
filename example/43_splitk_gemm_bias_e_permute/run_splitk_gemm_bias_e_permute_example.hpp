// SPDX-License-Identifier: MIT
// What the fp16 and fp32 examples share: the command line, the tensors, the device op's run and
// the check against the host reference. Each example's .cpp names its data types and calls
// run_splitk_gemm_bias_e_permute_example<...>(argc, argv).
//
//   F[g0,g1,m0,m1,n0,n1] = (sum_k A[g0,g1,m0,m1,k] B[g0,g1,n0,n1,k] + D[g0,g1,n0,n1]) * E[g0,g1,m0,m1,n0,n1]
//
// with A [G0,G1,M0,M1,K] and B [G0,G1,N0,N1,K] packed, D a bias per (g, n) broadcast over M, E
// packed and F stored permuted, physically [G0, G1, M0, N0, M1, N1].
#pragma once
#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "ck/ck.hpp"
#include "ck/stream_config.hpp"
#include "ck/library/utility/check_err.hpp"
#include "ck/library/utility/device_memory.hpp"
#include "ck/library/utility/fill.hpp"
#include "ck/library/utility/host_tensor.hpp"
#include "ck/tensor_operation/gpu/device/impl/device_splitk_contraction_multiple_d_xdl_cshuffle.hpp"
#include "ck_tile/host/reference/reference_gemm_bias_e_permute.hpp"

namespace splitk_example {

using ck::index_t;
using ck::tensor_operation::device::SplitKReduction;

struct Options
{
    bool verify               = true;
    int init                  = 1; // 0: none (zeros), 1: integers, 2: decimals, other: ones
    bool time                 = false;
    index_t split_k           = 1;
    SplitKReduction reduction = SplitKReduction::Workspace;
    // upstream's problem: G = 2, M = 1024, N = 2048, K = 128
    index_t G0 = 1, G1 = 2, M0 = 4, M1 = 256, N0 = 16, N1 = 128, K = 128;
};

inline void print_usage(std::ostream& os, const char* exe)
{
    os << "usage: " << exe << " [verify init time [split_k [G0 G1 M0 M1 N0 N1 K]]] [-reduction=workspace|atomic]\n"
       << "arg1: verification (0=no, 1=yes)\n"
       << "arg2: initialization (0=no init, 1=integer value, 2=decimal value, other=ones)\n"
       << "arg3: time kernel (0=no, 1=yes)\n"
       << "arg4: split_k (number of K splits, >= 1; default 1)\n"
       << "arg5 to arg11: G0 G1 M0 M1 N0 N1 K (default 1 2 4 256 16 128 128)\n"
       << "-reduction=workspace|atomic: how the splits are summed (default workspace: two stages through an "
          "fp32 workspace; atomic: atomic adds, the first split applies the epilogue)\n";
}

// a whole decimal integer within [lo, hi], or an error naming the argument
inline index_t parse_int(const std::string& s, const char* what, long lo, long hi)
{
    errno        = 0;
    char* end    = nullptr;
    const long v = std::strtol(s.c_str(), &end, 10);
    if(s.empty() || end == nullptr || *end != '\0' || errno == ERANGE)
        throw std::invalid_argument(std::string(what) + " must be an integer, got '" + s + "'");
    if(v < lo || v > hi)
        throw std::invalid_argument(std::string(what) + " must be in [" + std::to_string(lo) + ", " +
                                    std::to_string(hi) + "], got " + s);
    return static_cast<index_t>(v);
}

// false: -? / --help was asked for (usage printed); throws std::invalid_argument on bad input
inline bool parse(int argc, char* argv[], Options& o)
{
    std::vector<std::string> pos;
    for(int i = 1; i < argc; ++i)
    {
        const std::string a = argv[i];
        if(a == "-?" || a == "-h" || a == "--help")
        {
            print_usage(std::cout, argv[0]);
            return false;
        }
        if(a.rfind("-reduction=", 0) == 0)
        {
            const std::string v = a.substr(11);
            if(v == "workspace")
                o.reduction = SplitKReduction::Workspace;
            else if(v == "atomic")
                o.reduction = SplitKReduction::Atomic;
            else
                throw std::invalid_argument("-reduction must be workspace or atomic, got '" + v + "'");
            continue;
        }
        pos.push_back(a);
    }
    const std::size_t n = pos.size();
    if(n != 0 && n != 3 && n != 4 && n != 11)
        throw std::invalid_argument("expected 0, 3, 4 or 11 arguments (verify init time [split_k [G0 G1 M0 M1 N0 N1 "
                                    "K]]), got " +
                                    std::to_string(n) + "; -? for help");
    if(n == 0)
        return true;
    constexpr long imax = std::numeric_limits<int32_t>::max();
    o.verify            = parse_int(pos[0], "verify (arg1)", 0, 1) != 0;
    o.init              = parse_int(pos[1], "init (arg2)", 0, imax);
    o.time              = parse_int(pos[2], "time kernel (arg3)", 0, 1) != 0;
    if(n >= 4)
        o.split_k = parse_int(pos[3], "split_k (arg4)", 1, imax);
    if(n == 11)
    {
        index_t* dims[]            = {&o.G0, &o.G1, &o.M0, &o.M1, &o.N0, &o.N1, &o.K};
        static const char* names[] = {"G0 (arg5)", "G1 (arg6)",  "M0 (arg7)", "M1 (arg8)",
                                      "N0 (arg9)", "N1 (arg10)", "K (arg11)"};
        for(int i = 0; i < 7; ++i)
            *dims[i] = parse_int(pos[4 + i], names[i], 1, imax);
    }
    return true;
}

template <typename T>
void fill(Tensor<T>& t, int init, double lo_int, double hi_int, double lo, double hi, unsigned seed)
{
    if(init == 0)
        t.SetZero();
    else if(init == 1)
        ck::utils::FillUniformDistributionIntegerValue<T>{lo_int, hi_int, seed}(t);
    else if(init == 2)
        ck::utils::FillUniformDistribution<T>{lo, hi, seed}(t);
    else
        ck::utils::FillConstant<T>{1.f}(t);
}

// the largest (sum_k |A B| + |D|) |E| over F's elements: a bound of every partial sum of the
// splits' contributions, whatever the order the atomic adds land in
template <typename A, typename B, typename D, typename E>
double max_abs_contributions(const Tensor<A>& a, const Tensor<B>& b, const Tensor<D>& d, const Tensor<E>& e)
{
    const auto& l       = e.GetLengths(); // [G0, G1, M0, M1, N0, N1]
    const std::size_t K = a.GetLengths()[4];
    // |A| and |B| as contiguous rows of K, so the K loop reads memory in order
    const auto abs_rows = [K](const auto& t, std::size_t g0s, std::size_t g1s, std::size_t r0s, std::size_t r1s) {
        std::vector<float> rows;
        rows.reserve(g0s * g1s * r0s * r1s * K);
        for(std::size_t g0 = 0; g0 < g0s; ++g0)
            for(std::size_t g1 = 0; g1 < g1s; ++g1)
                for(std::size_t r0 = 0; r0 < r0s; ++r0)
                    for(std::size_t r1 = 0; r1 < r1s; ++r1)
                        for(std::size_t k = 0; k < K; ++k)
                            rows.push_back(std::fabs(ck_tile::type_convert<float>(t(g0, g1, r0, r1, k))));
        return rows;
    };
    const auto ra       = abs_rows(a, l[0], l[1], l[2], l[3]);
    const auto rb       = abs_rows(b, l[0], l[1], l[4], l[5]);
    const std::size_t M = l[2] * l[3], N = l[4] * l[5];
    double worst = 0;
    for(std::size_t g0 = 0; g0 < l[0]; ++g0)
        for(std::size_t g1 = 0; g1 < l[1]; ++g1)
            for(std::size_t m = 0; m < M; ++m)
                for(std::size_t n = 0; n < N; ++n)
                {
                    const std::size_t g = g0 * l[1] + g1;
                    const float* pa     = &ra[(g * M + m) * K];
                    const float* pb     = &rb[(g * N + n) * K];
                    double s            = 0;
                    for(std::size_t k = 0; k < K; ++k)
                        s += static_cast<double>(pa[k]) * pb[k];
                    const std::size_t m0 = m / l[3], m1 = m % l[3], n0 = n / l[5], n1 = n % l[5];
                    s += std::fabs(ck_tile::type_convert<float>(d(g0, g1, m0, m1, n0, n1)));
                    s *= std::fabs(ck_tile::type_convert<float>(e(g0, g1, m0, m1, n0, n1)));
                    worst = std::max(worst, s);
                }
    return worst;
}

template <typename ADataType, typename BDataType, typename DDataType, typename EDataType, typename FDataType>
int run(const Options& o)
{
    // upstream's code name for the op: an alias of DeviceSplitkGemmBiasEPermute
    using DeviceOp =
        ck::tensor_operation::device::DeviceSplitKContractionMultipleD_Xdl_CShuffle<ADataType, BDataType, DDataType,
                                                                                    EDataType, FDataType>;
    static_assert(std::is_same_v<DeviceOp, ck::tensor_operation::device::DeviceSplitkGemmBiasEPermute<
                                               ADataType, BDataType, DDataType, EDataType, FDataType>>);

    const index_t G0 = o.G0, G1 = o.G1, M0 = o.M0, M1 = o.M1, N0 = o.N0, N1 = o.N1, K = o.K;
    const auto mul = [](std::initializer_list<long long> xs) {
        long long p = 1;
        for(long long x : xs)
        {
            p *= x;
            if(p > std::numeric_limits<int32_t>::max())
                throw std::invalid_argument("the problem G0 x G1 x M0 x M1 x N0 x N1 x K is too large (a tensor "
                                            "of more than 2^31 - 1 elements)");
        }
        return static_cast<index_t>(p);
    };
    mul({G0, G1, M0, M1, K});
    mul({G0, G1, N0, N1, K});
    mul({G0, G1, M0, M1, N0, N1});

    // A [G0,G1,M0,M1,K] and B [G0,G1,N0,N1,K] packed
    const std::vector<index_t> a_lengths{G0, G1, M0, M1, K};
    const std::vector<index_t> a_strides{G1 * M0 * M1 * K, M0 * M1 * K, M1 * K, K, 1};
    const std::vector<index_t> b_lengths{G0, G1, N0, N1, K};
    const std::vector<index_t> b_strides{G1 * N0 * N1 * K, N0 * N1 * K, N1 * K, K, 1};
    // D: a bias per (g0, g1, n0, n1), broadcast over M0 and M1
    const std::vector<index_t> out_lengths{G0, G1, M0, M1, N0, N1};
    const std::vector<index_t> d_strides{G1 * N0 * N1, N0 * N1, 0, 0, N1, 1};
    // E: packed; F: physically [G0, G1, M0, N0, M1, N1] (N0 between M0 and M1)
    const std::vector<index_t> e_strides{G1 * M0 * M1 * N0 * N1, M0 * M1 * N0 * N1, M1 * N0 * N1, N0 * N1, N1, 1};
    const std::vector<index_t> f_strides{G1 * M0 * N0 * M1 * N1, M0 * N0 * M1 * N1, N0 * M1 * N1, N1, M1 * N1, 1};

    Tensor<ADataType> a(a_lengths, a_strides);
    Tensor<BDataType> b(b_lengths, b_strides);
    Tensor<DDataType> d(out_lengths, d_strides);
    Tensor<EDataType> e(out_lengths, e_strides);
    Tensor<FDataType> f(out_lengths, f_strides);

    std::cout << "a_gs_ms_ks: " << a.mDesc << "\n"
              << "b_gs_ns_ks: " << b.mDesc << "\n"
              << "d_gs_ms_ns: " << d.mDesc << "\n"
              << "e_gs_ms_ns: " << e.mDesc << "\n"
              << "f_gs_ms_ns: " << f.mDesc << std::endl;

    // init 1: integers (A, B, D in [-5, 4], E in [-2, 2]); 2: A in [0, 1), B, D in [-0.5, 0.5),
    // E in [0.5, 1.5)
    fill(a, o.init, -5, 4, 0.0, 1.0, 11);
    fill(b, o.init, -5, 4, -0.5, 0.5, 12);
    fill(d, o.init, -5, 4, -0.5, 0.5, 13);
    fill(e, o.init, -2, 2, 0.5, 1.5, 14);

    DeviceMem a_buf(a.GetElementSpaceSizeInBytes()), b_buf(b.GetElementSpaceSizeInBytes()),
        d_buf(d.GetElementSpaceSizeInBytes()), e_buf(e.GetElementSpaceSizeInBytes()),
        f_buf(f.GetElementSpaceSizeInBytes());
    a_buf.ToDevice(a.data());
    b_buf.ToDevice(b.data());
    d_buf.ToDevice(d.data());
    e_buf.ToDevice(e.data());
    f_buf.SetZero();

    DeviceOp op;
    auto argument =
        op.MakeArgument(a_buf.GetDeviceBuffer(), b_buf.GetDeviceBuffer(), d_buf.GetDeviceBuffer(),
                        e_buf.GetDeviceBuffer(), f_buf.GetDeviceBuffer(), a_lengths, a_strides, b_lengths, b_strides,
                        out_lengths, d_strides, out_lengths, e_strides, out_lengths, f_strides, o.split_k, o.reduction);
    if(!op.IsSupportedArgument(argument))
        throw std::invalid_argument(op.GetTypeString() +
                                    " does not support this problem: " + DeviceOp::GetUnsupportedReason(argument));

    const std::size_t ws_bytes = op.GetWorkSpaceSize(&argument);
    DeviceMem workspace(ws_bytes);
    op.SetWorkSpacePointer(&argument, workspace.GetDeviceBuffer());

    const long long G = static_cast<long long>(G0) * G1, M = static_cast<long long>(M0) * M1,
                    N         = static_cast<long long>(N0) * N1;
    const index_t k_per_split = DeviceOp::KPerSplit(K, o.split_k);
    std::cout << "problem: G " << G << " (" << G0 << "x" << G1 << "), M " << M << " (" << M0 << "x" << M1 << "), N "
              << N << " (" << N0 << "x" << N1 << "), K " << K << "\n"
              << "split_k " << o.split_k << " (K " << k_per_split << " per split), reduction "
              << (o.split_k == 1 ? "none (split_k = 1: one fused kernel)"
                  : o.reduction == SplitKReduction::Workspace
                      ? "workspace (two stages)"
                      : (std::is_same_v<FDataType, float> ? "atomic (fp32 atomic adds into F)"
                                                          : "atomic (packed fp16 atomic adds into F)"))
              << ", workspace " << ws_bytes << " bytes" << std::endl;

    auto invoker   = op.MakeInvoker();
    const float ms = invoker.Run(argument, StreamConfig{nullptr, o.time, 0, 1, o.time ? 5 : 1});

    if(o.time)
    {
        const double flop  = 2.0 * G * M * N * K;
        const double bytes = sizeof(ADataType) * double(G * M * K) + sizeof(BDataType) * double(G * N * K) +
                             sizeof(DDataType) * double(G * N) + sizeof(EDataType) * double(G * M * N) +
                             sizeof(FDataType) * double(G * M * N);
        std::cout << "Perf: " << ms << " ms, " << flop / 1.e9 / ms << " TFlops, " << bytes / 1.e6 / ms << " GB/s, "
                  << op.GetTypeString() << std::endl;
    }
    else
        std::cout << "Perf: not timed (arg3 = 0), " << op.GetTypeString() << std::endl;

    if(!o.verify)
        return 0;

    f_buf.FromDevice(f.data());
    Tensor<FDataType> f_ref(out_lengths, f_strides);
    ck_tile::reference_gemm_bias_e_permute<ADataType, BDataType, DDataType, EDataType, FDataType>(a, b, d, e, f_ref);

    double max_ref = 0;
    for(const auto& x : f_ref)
        max_ref = std::max(max_ref, std::fabs(static_cast<double>(ck_tile::type_convert<float>(x))));
    // an fp32 sum of K products, rounded to F's type once (the splits' order differs from the
    // reference's: one rounding step of fp32 per accumulation)
    const double rtol = ck::utils::get_relative_threshold<ADataType, FDataType, float>(K);
    double atol       = ck::utils::get_absolute_threshold<ADataType, FDataType, float>(max_ref, K);
    // atomic adds into a 16-bit F: each split's contribution c_s is rounded to F's type and the
    // split_k adds round the running sum, |partial sum| <= sum_s |c_s| <= (sum_k |a b| + |d|) |e|:
    // at most split_k roundings of F's type at that magnitude more (upstream's split-K bound,
    // calculate_rtol_atol, with the partial sums' magnitude instead of the result's, since the
    // partial sums may exceed the result where the splits cancel)
    if(o.reduction == SplitKReduction::Atomic && o.split_k > 1 && sizeof(FDataType) == 2)
        atol += ck::utils::get_absolute_threshold<FDataType, FDataType, FDataType>(max_abs_contributions(a, b, d, e),
                                                                                   o.split_k);
    const bool pass = ck::utils::check_err(f, f_ref, "Error: incorrect results!", rtol, atol);
    std::cout << "valid:" << (pass ? "y" : "n") << std::endl;
    return pass ? 0 : 1;
}

template <typename ADataType, typename BDataType, typename DDataType, typename EDataType, typename FDataType>
int run_splitk_gemm_bias_e_permute_example(int argc, char* argv[])
{
    try
    {
        Options o;
        if(!parse(argc, argv, o))
            return 0;
        return run<ADataType, BDataType, DDataType, EDataType, FDataType>(o);
    }
    catch(const std::invalid_argument& e)
    {
        std::cerr << "error: " << e.what() << std::endl;
        return 1;
    }
    catch(const std::exception& e)
    {
        std::cerr << "error: " << e.what() << std::endl;
        return 1;
    }
}

} // namespace splitk_example
