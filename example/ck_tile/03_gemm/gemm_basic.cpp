// SPDX-License-Identifier: MIT
// tile_example_gemm_basic: C = op(A * B) with the CK Tile GEMM kernel (GemmKernel: tile
// partitioner, pipeline, epilogue), checked against a CPU reference. -? lists the options.
#include <algorithm>
#include <cmath>
#include <iostream>
#include <string>

#include "ck_tile/host/reference/reference_gemm.hpp"
#include "gemm_args.hpp"
#include "gemm_basic.hpp"

namespace gemm_example {
namespace {

std::string layout_name(bool row_major) { return row_major ? "R" : "C"; }

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
bool run_gemm(const Config& cfg)
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

    // A: M x K, B: K x N, C: M x N, each with its layout and leading-dimension stride
    ck_tile::HostTensor<A> a_m_k(ck_tile::host_tensor_descriptor(cfg.M, cfg.K, cfg.stride_a, cfg.a_row_major));
    ck_tile::HostTensor<B> b_k_n(ck_tile::host_tensor_descriptor(cfg.K, cfg.N, cfg.stride_b, cfg.b_row_major));
    ck_tile::HostTensor<C> c_m_n(ck_tile::host_tensor_descriptor(cfg.M, cfg.N, cfg.stride_c, true));
    fill(a_m_k, cfg.init, 11939);
    fill(b_k_n, cfg.init, 11940);

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

    std::cout << "gemm M=" << cfg.M << " N=" << cfg.N << " K=" << cfg.K << " stride_A=" << cfg.stride_a
              << " stride_B=" << cfg.stride_b << " stride_C=" << cfg.stride_c
              << " layouts A=" << layout_name(cfg.a_row_major) << " B=" << layout_name(cfg.b_row_major) << " C=R, prec "
              << Types::name << " (" << Types::types << "), elementwise " << cfg.op_name << ", split_k " << cfg.k_batch
              << ", arch " << ck_tile::compiled_arch_name << std::endl;

    const LaunchResult r = cfg.pipeline_v2 ? launch_gemm<Types, true>(cfg, args) : launch_gemm<Types, false>(cfg, args);
    const auto grid      = ck_tile::TilePartitioner<typename Types::Shape>::GridSize(cfg.M, cfg.N);
    std::cout << r.instance << ", grid " << grid.x << " x " << cfg.k_batch << std::endl;

    const double flops = 2.0 * cfg.M * cfg.N * cfg.K;
    const double bytes =
        double(sizeof(A)) * cfg.M * cfg.K + double(sizeof(B)) * cfg.K * cfg.N + double(sizeof(C)) * cfg.M * cfg.N;
    std::cout << "Perf: " << r.ms << " ms, " << flops / 1e9 / r.ms << " TFlops, " << bytes / 1e6 / r.ms << " GB/s"
              << std::endl;

    if(cfg.verify == 0)
        return true;

    c_dev.FromDevice(c_m_n.data());
    ck_tile::HostTensor<C> c_ref(ck_tile::host_tensor_descriptor(cfg.M, cfg.N, cfg.stride_c, true));
    if(cfg.verify == 1)
        ck_tile::reference_gemm<A, B, Acc, C>(a_m_k, b_k_n, c_ref, ck_tile::identity{}, ck_tile::identity{}, cfg.op);
    else
    {
        // the device reference: A * B by ReferenceGemmKernel (no fused op: -v=2 refuses one)
        ck_tile::DeviceMem ref_dev(c_ref.get_element_space_size_in_bytes());
        ref_dev.SetZero();
        gemm_args::reference_gemm_gpu<A, B, Acc, C>(cfg.a_row_major, cfg.b_row_major, a_dev.GetDeviceBuffer(),
                                                    b_dev.GetDeviceBuffer(), ref_dev.GetDeviceBuffer(), cfg.M, cfg.N,
                                                    cfg.K, cfg.stride_a, cfg.stride_b, cfg.stride_c);
        ref_dev.FromDevice(c_ref.data());
    }

    // the kernel and the reference see the same inputs and both sum in AccDataType (in another
    // order, and in k_batch parts); upstream's thresholds allow for that and the rounding to C
    const double max_ref    = gemm_args::max_abs(c_ref, cfg.M, cfg.N);
    const auto [rtol, atol] = ck_tile::calculate_rtol_atol<A, B, Acc, C>(cfg.K, cfg.k_batch, max_ref);
    const bool pass         = ck_tile::check_err(c_m_n.mData, c_ref.mData, "Error: incorrect results!", rtol, atol);
    std::cout << "The " << (cfg.verify == 1 ? "CPU" : "GPU")
              << " verification result is:" << (pass ? "correct" : "fail") << "\nvalid:" << (pass ? "y" : "n")
              << std::endl;
    return pass;
}

} // namespace
} // namespace gemm_example

int main(int argc, char* argv[])
{
    using namespace gemm_example;
#if defined(CK_TILE_RUNS_ON_CPU)
    const char* warmup_default = "1";
    const char* repeat_default = "3";
#else
    const char* warmup_default = "50";
    const char* repeat_default = "100";
#endif
    ck_tile::ArgParser p;
    p.insert("m", "3840", "M: rows of A and C")
        .insert("n", "4096", "N: columns of B and C")
        .insert("k", "2048", "K: columns of A, rows of B")
        .insert("stride_a", "0", "leading-dimension stride of A in elements (0: packed)")
        .insert("stride_b", "0", "leading-dimension stride of B in elements (0: packed)")
        .insert("stride_c", "0", "leading-dimension stride of C in elements (0: packed)")
        .insert("a_layout", "R", "A (M x K): R row-major or C column-major")
        .insert("b_layout", "C", "B (K x N): R row-major or C column-major (stored N x K)")
        .insert("c_layout", "R", "C (M x N): R row-major (the only one)")
        .insert("v", "1", "verification: 0 none, 1 CPU reference, 2 device reference")
        .insert("prec", "fp16", "data type: fp16, bf16, fp8, bf8 (8-bit A/B with fp16 C) or int8 (int32 C)")
        .insert("split_k", "1", "k_batch: K splits added into C atomically (C is zeroed first)")
        .insert("warmup", warmup_default, "untimed launches before timing")
        .insert("repeat", repeat_default, "timed launches (the perf line is their average)")
        .insert("init", "0", "A and B: 0 uniform random in [-1, 1], 1 random integers in [-3, 3], 2 constant 1")
        .insert("pipeline", "v1", "v1: one LDS buffer, 2 barriers per K step; v2: two LDS buffers, 1 barrier")
        .insert("epilogue", "default", "default: store C as the MFMA holds it; cshuffle: through LDS, row vectors")
        .insert("elementwise", "none", "op fused into the epilogue: none, relu, scale or scale_relu")
        .insert("alpha", "1", "factor of scale and scale_relu");
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

        cfg.verify  = p.get_int_in_range("v", 0, 2);
        cfg.k_batch = p.get_int_at_least("split_k", 1);
        cfg.warmup  = p.get_int_at_least("warmup", 0);
        cfg.repeat  = p.get_int_at_least("repeat", 1);
        cfg.init    = p.get_int_in_range("init", 0, 2);

        const std::string pipeline = p.get_str("pipeline");
        if(pipeline != "v1" && pipeline != "v2")
            throw ck_tile::arg_error("error: option -pipeline: '" + pipeline + "' is not a pipeline (v1 or v2)");
        cfg.pipeline_v2 = pipeline == "v2";

        const std::string epilogue = p.get_str("epilogue");
        if(epilogue != "default" && epilogue != "cshuffle")
            throw ck_tile::arg_error("error: option -epilogue: '" + epilogue +
                                     "' is not an epilogue (default or cshuffle)");
        cfg.cshuffle = epilogue == "cshuffle";

        cfg.op_name = p.get_str("elementwise");
        if(cfg.op_name == "none")
            cfg.op.kind = ElementwiseOp::none;
        else if(cfg.op_name == "relu")
            cfg.op.kind = ElementwiseOp::relu;
        else if(cfg.op_name == "scale")
            cfg.op.kind = ElementwiseOp::scale;
        else if(cfg.op_name == "scale_relu")
            cfg.op.kind = ElementwiseOp::scale_relu;
        else
            throw ck_tile::arg_error("error: option -elementwise: '" + cfg.op_name +
                                     "' is not an op (none, relu, scale or scale_relu)");
        cfg.op.alpha = p.get_float("alpha");
        if(cfg.op.kind == ElementwiseOp::scale || cfg.op.kind == ElementwiseOp::scale_relu)
            cfg.op_name += " (alpha " + p.get_str("alpha") + ")";

        // split-K adds the splits' op(partial) into C: only additive ops give op(A * B)
        if(cfg.k_batch > 1 && (cfg.op.kind == ElementwiseOp::relu || cfg.op.kind == ElementwiseOp::scale_relu))
            throw ck_tile::arg_error("error: option -split_k: " + p.get_str("split_k") +
                                     " splits add relu(partial sums), not relu(A * B); use -elementwise=none or "
                                     "scale with split-K");
        if(cfg.verify == 2 && cfg.op.kind != ElementwiseOp::none)
            throw ck_tile::arg_error("error: option -v: the device reference computes A * B without a fused op; use "
                                     "-v=1 with -elementwise=" +
                                     p.get_str("elementwise"));

        const std::string prec = p.get_str("prec");
        const auto native_fp8  = [&] {
            // fp8_t / bf8_t have one encoding per build (FNUZ for gfx942, OCP for gfx950): refuse
            // a device that computes with the other one rather than give a wrong answer
            const std::string arch = ck_tile::get_device_name();
            if(!ck_tile::fp8_native_on(arch.c_str()))
                throw ck_tile::arg_error("error: option -prec: this binary's " + prec + " encoding is not " + arch +
                                         "'s; build for " + arch + " alone (-DGPU_TARGETS=" + arch + ")");
        };
        bool pass;
        if(prec == "fp16")
            pass = run_gemm<Fp16Types>(cfg);
        else if(prec == "bf16")
            pass = run_gemm<Bf16Types>(cfg);
        else if(prec == "fp8")
            pass = (native_fp8(), run_gemm<Fp8Types>(cfg));
        else if(prec == "bf8")
            pass = (native_fp8(), run_gemm<Bf8Types>(cfg));
        else if(prec == "int8")
        {
            if(cfg.op.kind != ElementwiseOp::none)
                throw ck_tile::arg_error("error: option -elementwise: int8 computes exactly in int32; the fused ops "
                                         "are for the floating-point types");
            pass = run_gemm<Int8Types>(cfg);
        }
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
