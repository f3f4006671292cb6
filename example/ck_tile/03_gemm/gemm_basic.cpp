// SPDX-License-Identifier: MIT
// tile_example_gemm_basic: C = op(A * B) with the CK Tile GEMM kernel (GemmKernel: tile
// partitioner, pipeline, epilogue), checked against a CPU reference. -? lists the options.
#include <algorithm>
#include <cmath>
#include <iostream>
#include <string>

#include "ck_tile/host/reference/reference_gemm.hpp"
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
    const auto check_span = [](const char* name, long long outer, long long inner, long long stride, long long bytes) {
        const long long span = ((outer - 1) * stride + inner) * bytes;
        if(span > 0x7fffffffll)
            throw ck_tile::arg_error(std::string("error: ") + name + " spans " + std::to_string(span) +
                                     " bytes; the kernel uses 32-bit offsets (at most 2^31 - 1 bytes per matrix)");
    };
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
                                     1,
                                     cfg.M,
                                     cfg.N,
                                     cfg.K,
                                     cfg.stride_a,
                                     cfg.stride_b,
                                     cfg.stride_c};

    std::cout << "gemm M=" << cfg.M << " N=" << cfg.N << " K=" << cfg.K << " stride_A=" << cfg.stride_a
              << " stride_B=" << cfg.stride_b << " stride_C=" << cfg.stride_c
              << " layouts A=" << layout_name(cfg.a_row_major) << " B=" << layout_name(cfg.b_row_major) << " C=R, prec "
              << Types::name << " (" << Types::types << "), elementwise " << cfg.op_name << ", arch "
              << ck_tile::compiled_arch_name << std::endl;

    const LaunchResult r = cfg.pipeline_v2 ? launch_gemm<Types, true>(cfg, args) : launch_gemm<Types, false>(cfg, args);
    const auto grid      = ck_tile::TilePartitioner<typename Types::Shape>::GridSize(cfg.M, cfg.N);
    std::cout << r.instance << ", grid " << grid.x << std::endl;

    const double flops = 2.0 * cfg.M * cfg.N * cfg.K;
    const double bytes =
        double(sizeof(A)) * cfg.M * cfg.K + double(sizeof(B)) * cfg.K * cfg.N + double(sizeof(C)) * cfg.M * cfg.N;
    std::cout << "Perf: " << r.ms << " ms, " << flops / 1e9 / r.ms << " TFlops, " << bytes / 1e6 / r.ms << " GB/s"
              << std::endl;

    if(!cfg.verify)
        return true;

    c_dev.FromDevice(c_m_n.data());
    ck_tile::HostTensor<C> c_ref(ck_tile::host_tensor_descriptor(cfg.M, cfg.N, cfg.stride_c, true));
    ck_tile::reference_gemm<A, B, Acc, C>(a_m_k, b_k_n, c_ref, ck_tile::identity{}, ck_tile::identity{}, cfg.op);

    // the kernel and the reference see the same inputs and both sum in fp32 (in another order);
    // the bound allows for that and for the rounding to C's type (upstream's formulas)
    using Compute  = std::conditional_t<sizeof(A) == 1, C, A>;
    double max_ref = 0;
    for(const C& v : c_ref.mData)
        max_ref = std::max(max_ref, std::fabs(static_cast<double>(ck_tile::type_convert<float>(v))));
    const double rtol = ck_tile::get_relative_threshold<Compute, C, Acc>(cfg.K);
    const double atol = ck_tile::get_absolute_threshold<Compute, C, Acc>(max_ref, cfg.K);
    const bool pass   = ck_tile::check_err(c_m_n.mData, c_ref.mData, "Error: incorrect results!", rtol, atol);
    std::cout << "valid:" << (pass ? "y" : "n") << std::endl;
    return pass;
}

bool parse_layout(const ck_tile::ArgParser& p, const std::string& name)
{
    const std::string v = p.get_str(name);
    if(v == "R" || v == "r")
        return true;
    if(v == "C" || v == "c")
        return false;
    throw ck_tile::arg_error("error: option -" + name + ": '" + v +
                             "' is not a layout (R: row-major, C: column-major)");
}

// the leading-dimension stride: 0 means packed; otherwise at least the contiguous dimension
int resolve_stride(const ck_tile::ArgParser& p, const std::string& name, int inner, const char* inner_name,
                   const std::string& what)
{
    const int s = p.get_int_at_least(name, 0);
    if(s == 0)
        return inner;
    if(s < inner)
        throw ck_tile::arg_error("error: option -" + name + ": " + std::to_string(s) + " is smaller than " +
                                 inner_name + "=" + std::to_string(inner) + ", the contiguous dimension of " + what);
    return s;
}

} // namespace
} // namespace gemm_example

int main(int argc, char* argv[])
{
    using namespace gemm_example;
#if defined(CK_TILE_BACKEND_EMULATOR)
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
        .insert("v", "1", "verification: 0 none, 1 CPU reference")
        .insert("prec", "fp16", "data type: fp16, bf16 or fp8 (fp8 A/B with fp16 C)")
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

        cfg.a_row_major = parse_layout(p, "a_layout");
        cfg.b_row_major = parse_layout(p, "b_layout");
        if(!parse_layout(p, "c_layout"))
            throw ck_tile::arg_error("error: option -c_layout: only R (row-major C) is supported");

        cfg.stride_a = cfg.a_row_major ? resolve_stride(p, "stride_a", cfg.K, "K", "row-major A (M x K)")
                                       : resolve_stride(p, "stride_a", cfg.M, "M", "column-major A (M x K)");
        cfg.stride_b = cfg.b_row_major ? resolve_stride(p, "stride_b", cfg.N, "N", "row-major B (K x N)")
                                       : resolve_stride(p, "stride_b", cfg.K, "K", "column-major B (K x N)");
        cfg.stride_c = resolve_stride(p, "stride_c", cfg.N, "N", "row-major C (M x N)");

        const int v = p.get_int_in_range("v", 0, 1);
        cfg.verify  = v == 1;
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

        const std::string prec = p.get_str("prec");
        bool pass;
        if(prec == "fp16")
            pass = run_gemm<Fp16Types>(cfg);
        else if(prec == "bf16")
            pass = run_gemm<Bf16Types>(cfg);
        else if(prec == "fp8")
        {
            // fp8_t has one encoding per build (FNUZ for gfx942, OCP for gfx950): refuse a device
            // that computes with the other one rather than give a wrong answer
            const std::string arch = ck_tile::get_device_name();
            if(!ck_tile::fp8_native_on(arch.c_str()))
                throw ck_tile::arg_error("error: option -prec: this binary's fp8 encoding is not " + arch +
                                         "'s; build for " + arch + " alone (-DGPU_TARGETS=" + arch + ")");
            pass = run_gemm<Fp8Types>(cfg);
        }
        else
            throw ck_tile::arg_error("error: option -prec: '" + prec + "' is not supported (fp16, bf16 or fp8)");
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
