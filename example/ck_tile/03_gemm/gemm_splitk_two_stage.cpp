// SPDX-License-Identifier: MIT
// tile_example_gemm_splitk_two_stage: split-K in two kernels. Stage 1, the universal GEMM, adds
// the K splits' partial products into an fp32 M x N workspace (atomically when split_k > 1);
// stage 2, ElementWiseKernel, converts the workspace to C's type. The partial sums meet in fp32,
// where the one-stage split-K adds them in C's type. -? lists the options.
#include <algorithm>
#include <cmath>
#include <iostream>
#include <string>

#include "ck_tile/host/reference/reference_gemm.hpp"
#include "ck_tile/ops/elementwise.hpp"
#include "gemm_args.hpp"
#include "universal_gemm_instances.hpp"

namespace two_stage {

using universal_gemm::Config;
using universal_gemm::Types;
inline constexpr char fp16_name[] = "fp16";
inline constexpr char bf16_name[] = "bf16";
inline constexpr char fp32_name[] = "fp32";
// stage 1's types: the inputs' with an fp32 "C" (the workspace); the mem pipeline (the compv3
// 256 x 256 tile with an fp32 C does not fit gfx942's registers for bf16 without spilling)
using Fp16Workspace = Types<ck_tile::half_t, float, float, fp16_name, fp32_name, false>;
using Bf16Workspace = Types<ck_tile::bf16_t, float, float, bf16_name, fp32_name, false>;

// stage 2: 8 warps, a 16 x 2048 block tile (upstream's block tile of 2048 elements per row step),
// 4 elements per access (16 bytes of fp32), or 1 for sizes and strides off the vector
using ConvertShape =
    ck_tile::Generic2dBlockShape<ck_tile::sequence<16, 2048>, ck_tile::sequence<2, 256>, ck_tile::sequence<1, 8>>;
template <typename C, ck_tile::index_t kVector>
using Convert = ck_tile::ElementWiseKernel<float, C, ConvertShape, ck_tile::element_wise::PassThrough, kVector>;

template <typename C, ck_tile::index_t kVector>
float launch_convert(const ck_tile::ElementWiseHostArgs& h, const Config& cfg)
{
    using K          = Convert<C, kVector>;
    const auto kargs = K::MakeKargs(h);
    return ck_tile::launch_kernel(
        ck_tile::stream_config{nullptr, true, 0, cfg.warmup, cfg.repeat},
        ck_tile::make_kernel<K::kBlockSize>(K{}, K::GridSize(kargs), K::BlockSize(), 0, kargs));
}

template <typename A, typename C, typename Workspace>
bool run(const Config& cfg, int verify, int init)
{
    using gemm_args::check_span;
    check_span("A", cfg.a_row_major ? cfg.M : cfg.K, cfg.a_row_major ? cfg.K : cfg.M, cfg.stride_a, sizeof(A));
    check_span("B", cfg.b_row_major ? cfg.K : cfg.N, cfg.b_row_major ? cfg.N : cfg.K, cfg.stride_b, sizeof(A));
    check_span("C", cfg.M, cfg.N, cfg.stride_c, sizeof(float)); // the workspace is the widest

    ck_tile::HostTensor<A> a_m_k(ck_tile::host_tensor_descriptor(cfg.M, cfg.K, cfg.stride_a, cfg.a_row_major));
    ck_tile::HostTensor<A> b_k_n(ck_tile::host_tensor_descriptor(cfg.K, cfg.N, cfg.stride_b, cfg.b_row_major));
    ck_tile::HostTensor<C> c_m_n(ck_tile::host_tensor_descriptor(cfg.M, cfg.N, cfg.stride_c, true));
    const auto fill = [&](auto& t, std::uint32_t seed) {
        if(init == 0)
            ck_tile::FillUniformDistribution<A>{-1.f, 1.f, seed}(t);
        else if(init == 1)
            ck_tile::FillUniformDistributionIntegerValue<A>{-3, 3, seed}(t);
        else
            ck_tile::FillConstant<A>{1}(t);
    };
    fill(a_m_k, 11939);
    fill(b_k_n, 11940);

    ck_tile::DeviceMem a_dev(a_m_k.get_element_space_size_in_bytes());
    ck_tile::DeviceMem b_dev(b_k_n.get_element_space_size_in_bytes());
    ck_tile::DeviceMem c_dev(c_m_n.get_element_space_size_in_bytes());
    ck_tile::DeviceMem ws_dev(static_cast<std::size_t>(cfg.M) * cfg.N * sizeof(float));
    a_dev.ToDevice(a_m_k.data());
    b_dev.ToDevice(b_k_n.data());
    c_dev.SetZero();
    ws_dev.SetZero();

    // stage 1: A * B into the packed fp32 workspace
    const ck_tile::GemmHostArgs gemm{a_dev.GetDeviceBuffer(),
                                     b_dev.GetDeviceBuffer(),
                                     ws_dev.GetDeviceBuffer(),
                                     cfg.k_batch,
                                     cfg.M,
                                     cfg.N,
                                     cfg.K,
                                     cfg.stride_a,
                                     cfg.stride_b,
                                     cfg.N};
    const auto r1 = universal_gemm::launch_universal_gemm<Workspace>(cfg, gemm, ws_dev.GetBufferSize());

    // stage 2: the workspace converted to C
    const ck_tile::ElementWiseHostArgs conv{
        ws_dev.GetDeviceBuffer(), c_dev.GetDeviceBuffer(), cfg.M, cfg.N, cfg.N, cfg.stride_c};
    const bool vector = Convert<C, 4>::IsSupportedArgument(Convert<C, 4>::MakeKargs(conv));
    const float ms2   = vector ? launch_convert<C, 4>(conv, cfg) : launch_convert<C, 1>(conv, cfg);

    const auto layout = [](bool row) { return row ? "R" : "C"; };
    std::cout << "Run Gemm kernel with M =" << cfg.M << " N =" << cfg.N << " K =" << cfg.K
              << " StrideA =" << cfg.stride_a << " StrideB =" << cfg.stride_b << " StrideC =" << cfg.stride_c
              << " A_Layout =" << layout(cfg.a_row_major) << " B_Layout =" << layout(cfg.b_row_major)
              << " C_Layout =R A Type = " << Workspace::name << " B Type = " << Workspace::name
              << " C Type = " << Workspace::name << " workspace fp32 split_k =" << cfg.k_batch << ", arch "
              << ck_tile::compiled_arch_name << "\nstage 1: " << r1.instance << "\nstage 2: ElementWiseKernel fp32 -> "
              << Workspace::name << ", " << (vector ? "vector (4 elements)" : "scalar") << " access, " << ms2 << " ms"
              << std::endl;

    const float ms     = r1.ms + ms2;
    const double flops = 2.0 * cfg.M * cfg.N * cfg.K;
    const double bytes = double(sizeof(A)) * (double(cfg.M) * cfg.K + double(cfg.K) * cfg.N) +
                         double(sizeof(C)) * cfg.M * cfg.N + 2.0 * sizeof(float) * cfg.M * cfg.N;
    std::cout << "Perf: " << ms << " ms, " << flops / 1e9 / ms << " TFlops, " << bytes / 1e6 / ms << " GB/s"
              << std::endl;
    if(verify == 0)
        return true;

    c_dev.FromDevice(c_m_n.data());
    ck_tile::HostTensor<C> c_ref(ck_tile::host_tensor_descriptor(cfg.M, cfg.N, cfg.stride_c, true));
    ck_tile::reference_gemm<A, A, float, C>(a_m_k, b_k_n, c_ref);
    const double max_ref = gemm_args::max_abs(c_ref, cfg.M, cfg.N);
    // the splits meet in fp32, so the bound is the one-split one over all of K (which covers the
    // shorter sums of each split)
    const auto [rtol, atol] = ck_tile::calculate_rtol_atol<A, A, float, C>(cfg.K, 1, max_ref);
    std::cout << "Relative error threshold: " << rtol << " Absolute error threshold: " << atol << std::endl;
    const bool pass = ck_tile::check_err(c_m_n.mData, c_ref.mData, "Error: incorrect results!", rtol, atol);
    std::cout << "The CPU verification result is:" << (pass ? "correct" : "fail") << "\nvalid:" << (pass ? "y" : "n")
              << std::endl;
    return pass;
}

} // namespace two_stage

namespace universal_gemm {
UNIVERSAL_GEMM_INSTANTIATE(two_stage::Fp16Workspace)
UNIVERSAL_GEMM_INSTANTIATE(two_stage::Bf16Workspace)
} // namespace universal_gemm

int main(int argc, char* argv[])
{
    using universal_gemm::Config;
    using universal_gemm::Pipeline;
#if defined(CK_TILE_RUNS_ON_CPU)
    const char *m_default = "512", *n_default = "512", *k_default = "1024", *warmup_default = "1",
               *repeat_default = "3";
#else
    const char *m_default = "3840", *n_default = "4096", *k_default = "2048", *warmup_default = "50",
               *repeat_default = "100";
#endif
    ck_tile::ArgParser p;
    p.insert("m", m_default, "M: rows of A and C")
        .insert("n", n_default, "N: columns of B and C")
        .insert("k", k_default, "K: columns of A, rows of B")
        .insert("a_layout", "R", "A (M x K): R row-major (the built instances' only)")
        .insert("b_layout", "C", "B (K x N): C column-major (the built instances' only)")
        .insert("c_layout", "R", "C (M x N): R row-major (the only one)")
        .insert("stride_a", "0", "leading-dimension stride of A in elements (0: packed)")
        .insert("stride_b", "0", "leading-dimension stride of B in elements (0: packed)")
        .insert("stride_c", "0", "leading-dimension stride of C in elements (0: packed)")
        .insert("v", "1", "verification: 0 none, 1 CPU reference")
        .insert("prec", "fp16", "data type of A, B and C: fp16 or bf16 (the workspace is fp32)")
        .insert("warmup", warmup_default, "untimed launches before timing")
        .insert("repeat", repeat_default, "timed launches (the perf line is their average)")
        .insert("split_k", "2", "k_batch: K splits added into the fp32 workspace")
        .insert("init", "0", "A and B: 0 uniform random in [-1, 1], 1 random integers in [-3, 3], 2 constant 1");
    if(!p.parse(argc, argv))
        return p.help_requested() ? 0 : 1;
    try
    {
        Config cfg;
        cfg.M           = p.get_int_at_least("m", 1);
        cfg.N           = p.get_int_at_least("n", 1);
        cfg.K           = p.get_int_at_least("k", 1);
        cfg.a_row_major = p.get_layout("a_layout");
        cfg.b_row_major = p.get_layout("b_layout");
        if(!cfg.a_row_major || cfg.b_row_major || !p.get_layout("c_layout"))
            throw ck_tile::arg_error("error: options -a_layout/-b_layout/-c_layout: this example is built for A=R "
                                     "B=C C=R");
        cfg.stride_a     = p.get_leading_stride("stride_a", cfg.K, "K", "row-major A (M x K)");
        cfg.stride_b     = p.get_leading_stride("stride_b", cfg.K, "K", "column-major B (K x N)");
        cfg.stride_c     = p.get_leading_stride("stride_c", cfg.N, "N", "row-major C (M x N)");
        const int verify = p.get_int_in_range("v", 0, 1);
        const int init   = p.get_int_in_range("init", 0, 2);
        cfg.warmup       = p.get_int_at_least("warmup", 0);
        cfg.repeat       = p.get_int_at_least("repeat", 1);
        cfg.k_batch      = p.get_int_at_least("split_k", 1);
        cfg.pipeline     = Pipeline::mem;

        const std::string prec = p.get_str("prec");
        bool pass;
        if(prec == "fp16")
            pass = two_stage::run<ck_tile::half_t, ck_tile::half_t, two_stage::Fp16Workspace>(cfg, verify, init);
        else if(prec == "bf16")
            pass = two_stage::run<ck_tile::bf16_t, ck_tile::bf16_t, two_stage::Bf16Workspace>(cfg, verify, init);
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
