// SPDX-License-Identifier: MIT
// tile_example_gemm_universal: C = A * B with the universal GEMM kernel (UniversalGemmKernel): the
// mem / compv3 / compv4 pipelines, split-K, the persistent grid, fp16 / bf16 / fp8 / bf8 / int8,
// the four A/B layouts; checked against a CPU (-v=1) or device (-v=2) reference with upstream's
// thresholds. -? lists the options.
#include <algorithm>
#include <cmath>
#include <iostream>
#include <string>

#include "ck_tile/host/reference/reference_gemm.hpp"
#include "gemm_args.hpp"
#include "universal_gemm.hpp"

namespace universal_gemm {
namespace {

template <typename T>
void fill(ck_tile::HostTensor<T>& t, int init, std::uint32_t seed)
{
    if(init == 0)
        ck_tile::FillUniformDistribution<T>{-1.f, 1.f, seed}(t);
    else if(init == 1)
        ck_tile::FillUniformDistributionIntegerValue<T>{-3, 3, seed}(t);
    else
        ck_tile::FillConstant<T>{1}(t);
}

template <typename Types>
bool run(const Config& cfg, int verify, int init)
{
    using A   = typename Types::ADataType;
    using B   = typename Types::BDataType;
    using Acc = typename Types::AccDataType;
    using C   = typename Types::CDataType;

    // the kernel addresses each matrix with 32-bit byte offsets: refuse before allocating
    using gemm_args::check_span;
    check_span("A", cfg.a_row_major ? cfg.M : cfg.K, cfg.a_row_major ? cfg.K : cfg.M, cfg.stride_a, sizeof(A));
    check_span("B", cfg.b_row_major ? cfg.K : cfg.N, cfg.b_row_major ? cfg.N : cfg.K, cfg.stride_b, sizeof(B));
    check_span("C", cfg.M, cfg.N, cfg.stride_c, sizeof(C));

    ck_tile::HostTensor<A> a_m_k(ck_tile::host_tensor_descriptor(cfg.M, cfg.K, cfg.stride_a, cfg.a_row_major));
    ck_tile::HostTensor<B> b_k_n(ck_tile::host_tensor_descriptor(cfg.K, cfg.N, cfg.stride_b, cfg.b_row_major));
    ck_tile::HostTensor<C> c_m_n(ck_tile::host_tensor_descriptor(cfg.M, cfg.N, cfg.stride_c, true));
    fill(a_m_k, init, 11939);
    fill(b_k_n, init, 11940);

    ck_tile::DeviceMem a_dev(a_m_k.get_element_space_size_in_bytes());
    ck_tile::DeviceMem b_dev(b_k_n.get_element_space_size_in_bytes());
    ck_tile::DeviceMem c_dev(c_m_n.get_element_space_size_in_bytes());
    a_dev.ToDevice(a_m_k.data());
    b_dev.ToDevice(b_k_n.data());
    c_dev.SetZero();

    const ck_tile::GemmHostArgs args{a_dev.GetDeviceBuffer(),
                                     b_dev.GetDeviceBuffer(),
                                     c_dev.GetDeviceBuffer(),
                                     cfg.k_batch,
                                     cfg.M,
                                     cfg.N,
                                     cfg.K,
                                     cfg.stride_a,
                                     cfg.stride_b,
                                     cfg.stride_c};
    const LaunchResult r = launch_universal_gemm<Types>(cfg, args, c_dev.GetBufferSize());

    const auto layout = [](bool row) { return row ? "R" : "C"; };
    std::cout << "Run Gemm kernel with M =" << cfg.M << " N =" << cfg.N << " K =" << cfg.K
              << " StrideA =" << cfg.stride_a << " StrideB =" << cfg.stride_b << " StrideC =" << cfg.stride_c
              << " A_Layout =" << layout(cfg.a_row_major) << " B_Layout =" << layout(cfg.b_row_major)
              << " C_Layout =R A Type = " << Types::name << " B Type = " << Types::name << " C Type = " << Types::c_name
              << " split_k =" << cfg.k_batch << (cfg.persistent ? " persistent" : "") << ", arch "
              << ck_tile::compiled_arch_name << "\n"
              << r.instance << std::endl;

    const double flops = 2.0 * cfg.M * cfg.N * cfg.K;
    const double bytes =
        double(sizeof(A)) * cfg.M * cfg.K + double(sizeof(B)) * cfg.K * cfg.N + double(sizeof(C)) * cfg.M * cfg.N;
    std::cout << "Perf: " << r.ms << " ms, " << flops / 1e9 / r.ms << " TFlops, " << bytes / 1e6 / r.ms << " GB/s"
              << std::endl;
    if(verify == 0)
        return true;

    c_dev.FromDevice(c_m_n.data());
    ck_tile::HostTensor<C> c_ref(ck_tile::host_tensor_descriptor(cfg.M, cfg.N, cfg.stride_c, true));
    if(verify == 1)
        ck_tile::reference_gemm<A, B, Acc, C>(a_m_k, b_k_n, c_ref);
    else
    {
        ck_tile::DeviceMem ref_dev(c_ref.get_element_space_size_in_bytes());
        ref_dev.SetZero();
        gemm_args::reference_gemm_gpu<A, B, Acc, C>(cfg.a_row_major, cfg.b_row_major, a_dev.GetDeviceBuffer(),
                                                    b_dev.GetDeviceBuffer(), ref_dev.GetDeviceBuffer(), cfg.M, cfg.N,
                                                    cfg.K, cfg.stride_a, cfg.stride_b, cfg.stride_c);
        ref_dev.FromDevice(c_ref.data());
    }

    const double max_ref    = gemm_args::max_abs(c_ref, cfg.M, cfg.N);
    const auto [rtol, atol] = ck_tile::calculate_rtol_atol<A, B, Acc, C>(cfg.K, cfg.k_batch, max_ref);
    std::cout << "Relative error threshold: " << rtol << " Absolute error threshold: " << atol << std::endl;
    const bool pass = ck_tile::check_err(c_m_n.mData, c_ref.mData, "Error: incorrect results!", rtol, atol);
    std::cout << "The " << (verify == 1 ? "CPU" : "GPU") << " verification result is:" << (pass ? "correct" : "fail")
              << "\nvalid:" << (pass ? "y" : "n") << std::endl;
    return pass;
}

} // namespace
} // namespace universal_gemm

int main(int argc, char* argv[])
{
    using namespace universal_gemm;
#if defined(CK_TILE_RUNS_ON_CPU)
    const char *m_default = "512", *n_default = "512", *k_default = "256";
    const char *warmup_default = "1", *repeat_default = "3", *v_default = "1";
#else
    const char *m_default = "3840", *n_default = "4096", *k_default = "2048";
    const char *warmup_default = "50", *repeat_default = "100", *v_default = "2";
#endif
    ck_tile::ArgParser p;
    p.insert("m", m_default, "M: rows of A and C")
        .insert("n", n_default, "N: columns of B and C")
        .insert("k", k_default, "K: columns of A, rows of B")
        .insert("a_layout", "R", "A (M x K): R row-major or C column-major")
        .insert("b_layout", "C", "B (K x N): R row-major or C column-major (stored N x K)")
        .insert("c_layout", "R", "C (M x N): R row-major (the only one)")
        .insert("stride_a", "0", "leading-dimension stride of A in elements (0: packed)")
        .insert("stride_b", "0", "leading-dimension stride of B in elements (0: packed)")
        .insert("stride_c", "0", "leading-dimension stride of C in elements (0: packed)")
        .insert("v", v_default, "verification: 0 none, 1 CPU reference, 2 device reference")
        .insert("prec", "fp16", "data type: fp16, bf16, fp8, bf8 (C fp16) or int8 (C int32)")
        .insert("warmup", warmup_default, "untimed launches before timing")
        .insert("repeat", repeat_default, "timed launches (the perf line is their average)")
        .insert("timer", "gpu", "gpu or cpu: both time with the runtime's events here")
        .insert("split_k", "1", "k_batch: K splits added into C atomically (C is zeroed first)")
        .insert("init", "0", "A and B: 0 uniform random in [-1, 1], 1 random integers in [-3, 3], 2 constant 1")
        .insert("persistent", "0", "1: a persistent grid (compute units x occupancy blocks loop over the tiles)")
        .insert("pipeline", "compv3", "mem, compv3 or compv4")
        .insert("scheduler", "intrawave", "the mem pipeline's scheduler: intrawave or interwave");
    if(!p.parse(argc, argv))
        return p.help_requested() ? 0 : 1;

    try
    {
        Config cfg;
        cfg.M = p.get_int_at_least("m", 1);
        cfg.N = p.get_int_at_least("n", 1);
        cfg.K = p.get_int_at_least("k", 1);

        cfg.a_row_major = p.get_layout("a_layout");
        cfg.b_row_major = p.get_layout("b_layout");
        if(!p.get_layout("c_layout"))
            throw ck_tile::arg_error("error: option -c_layout: only R (row-major C) is supported");
        cfg.stride_a = cfg.a_row_major ? p.get_leading_stride("stride_a", cfg.K, "K", "row-major A (M x K)")
                                       : p.get_leading_stride("stride_a", cfg.M, "M", "column-major A (M x K)");
        cfg.stride_b = cfg.b_row_major ? p.get_leading_stride("stride_b", cfg.N, "N", "row-major B (K x N)")
                                       : p.get_leading_stride("stride_b", cfg.K, "K", "column-major B (K x N)");
        cfg.stride_c = p.get_leading_stride("stride_c", cfg.N, "N", "row-major C (M x N)");

        const int verify        = p.get_int_in_range("v", 0, 2);
        const int init          = p.get_int_in_range("init", 0, 2);
        cfg.warmup              = p.get_int_at_least("warmup", 0);
        cfg.repeat              = p.get_int_at_least("repeat", 1);
        cfg.k_batch             = p.get_int_at_least("split_k", 1);
        cfg.persistent          = p.get_int_in_range("persistent", 0, 1) == 1;
        const std::string timer = p.get_str("timer");
        if(timer != "gpu" && timer != "cpu")
            throw ck_tile::arg_error("error: option -timer: '" + timer + "' is not a timer (gpu or cpu)");

        const std::string pipeline = p.get_str("pipeline");
        if(pipeline == "mem")
            cfg.pipeline = Pipeline::mem;
        else if(pipeline == "compv3")
            cfg.pipeline = Pipeline::compv3;
        else if(pipeline == "compv4")
            cfg.pipeline = Pipeline::compv4;
        else
            throw ck_tile::arg_error("error: option -pipeline: '" + pipeline +
                                     "' is not a pipeline (mem, compv3 or compv4)");
        const std::string scheduler = p.get_str("scheduler");
        if(scheduler != "intrawave" && scheduler != "interwave")
            throw ck_tile::arg_error("error: option -scheduler: '" + scheduler +
                                     "' is not a scheduler (intrawave or interwave)");
        if(scheduler == "interwave" && cfg.pipeline != Pipeline::mem)
            throw ck_tile::arg_error("error: option -scheduler: interwave is the mem pipeline's only (" + pipeline +
                                     " is intrawave)");
        cfg.interwave = scheduler == "interwave";

        const std::string prec = p.get_str("prec");
        const auto native_fp8  = [&] {
            // fp8_t / bf8_t have one encoding per build (FNUZ for gfx942, OCP for gfx950)
            const std::string arch = ck_tile::get_device_name();
            if(!ck_tile::fp8_native_on(arch.c_str()))
                throw ck_tile::arg_error("error: option -prec: this binary's " + prec + " encoding is not " + arch +
                                         "'s; build for " + arch + " alone (-DGPU_TARGETS=" + arch + ")");
        };
        bool pass;
        if(prec == "fp16")
            pass = run<Fp16Types>(cfg, verify, init);
        else if(prec == "bf16")
            pass = run<Bf16Types>(cfg, verify, init);
        else if(prec == "fp8")
            pass = (native_fp8(), run<Fp8Types>(cfg, verify, init));
        else if(prec == "bf8")
            pass = (native_fp8(), run<Bf8Types>(cfg, verify, init));
        else if(prec == "int8")
            pass = run<Int8Types>(cfg, verify, init);
        else
            throw ck_tile::arg_error("error: option -prec: '" + prec +
                                     "' is not supported (fp16, bf16, fp8, bf8 or int8)");
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
