// SPDX-License-Identifier: MIT
// tile_example_gemm_multi_d_fp16: E = op(A * B, D0, D1, ...) with GemmKernelMultiD (CompV3 pipeline,
// C-shuffle epilogue reading the Ds), fp16 A, B, Ds and E, fp32 accumulation, checked against
// reference_gemm_multiple_d. -? lists the options.
#include <algorithm>
#include <cmath>
#include <iostream>
#include <string>

#include "ck_tile/host/reference/reference_gemm_multiple_d.hpp"
#include "gemm_multi_d_fp16.hpp"

namespace gemm_multi_d_example {
namespace {

template <typename T>
void fill(ck_tile::HostTensor<T>& t, int init, float range, int int_range, std::uint32_t seed)
{
    if(init == 0)
        ck_tile::FillUniformDistribution<T>{-range, range, seed}(t);
    else if(init == 1)
        ck_tile::FillUniformDistributionIntegerValue<T>{-int_range, int_range, seed}(t);
    else
        ck_tile::FillConstant<T>{1}(t);
}

template <int NumD>
bool run(const Config& cfg, int init)
{
    const auto check_span = [](const std::string& name, long long outer, long long inner, long long stride) {
        const long long span = ((outer - 1) * stride + inner) * 2;
        if(span > 0x7fffffffll)
            throw ck_tile::arg_error("error: " + name + " spans " + std::to_string(span) +
                                     " bytes; the kernel uses 32-bit offsets (at most 2^31 - 1 bytes per tensor)");
    };
    check_span("A", cfg.M, cfg.K, cfg.stride_a);
    check_span("B", cfg.N, cfg.K, cfg.stride_b);
    check_span("E", cfg.M, cfg.N, cfg.stride_e);
    check_span("each D", cfg.ds_row_major ? cfg.M : cfg.N, cfg.ds_row_major ? cfg.N : cfg.M, cfg.stride_ds);

    // A: M x K row-major, B: K x N column-major, Ds and E: M x N
    ck_tile::HostTensor<ADataType> a_m_k(ck_tile::host_tensor_descriptor(cfg.M, cfg.K, cfg.stride_a, true));
    ck_tile::HostTensor<BDataType> b_k_n(ck_tile::host_tensor_descriptor(cfg.K, cfg.N, cfg.stride_b, false));
    std::array<ck_tile::HostTensor<DDataType>, NumD> ds_m_n;
    for(int j = 0; j < NumD; ++j)
        ds_m_n[j] = ck_tile::HostTensor<DDataType>(
            ck_tile::host_tensor_descriptor(cfg.M, cfg.N, cfg.stride_ds, cfg.ds_row_major));
    ck_tile::HostTensor<EDataType> e_m_n(ck_tile::host_tensor_descriptor(cfg.M, cfg.N, cfg.stride_e, true));
    // upstream's data: A and B uniform in [-5, 5], the Ds in [-1, 1]
    fill(a_m_k, init, 5.f, 3, 11939);
    fill(b_k_n, init, 5.f, 3, 11940);
    for(int j = 0; j < NumD; ++j)
        fill(ds_m_n[j], init, 1.f, 2, 11941 + j);

    ck_tile::DeviceMem a_dev(a_m_k.get_element_space_size_in_bytes());
    ck_tile::DeviceMem b_dev(b_k_n.get_element_space_size_in_bytes());
    ck_tile::DeviceMem e_dev(e_m_n.get_element_space_size_in_bytes());
    std::array<ck_tile::DeviceMem, NumD> ds_dev;
    a_dev.ToDevice(a_m_k.data());
    b_dev.ToDevice(b_k_n.data());
    e_dev.SetZero();
    DeviceArgs dev{a_dev.GetDeviceBuffer(), b_dev.GetDeviceBuffer(), {}, e_dev.GetDeviceBuffer(), &e_dev};
    for(int j = 0; j < NumD; ++j)
    {
        ds_dev[j].Realloc(ds_m_n[j].get_element_space_size_in_bytes());
        ds_dev[j].ToDevice(ds_m_n[j].data());
        dev.ds[j] = ds_dev[j].GetDeviceBuffer();
    }

    std::cout << "gemm_multi_d M=" << cfg.M << " N=" << cfg.N << " K=" << cfg.K << " stride_A=" << cfg.stride_a
              << " stride_B=" << cfg.stride_b << " stride_Ds=" << cfg.stride_ds << " stride_E=" << cfg.stride_e
              << " layouts A=R B=C Ds=" << (cfg.ds_row_major ? "R" : "C") << " E=R, num_d " << NumD << ", op "
              << CDEOp::name(cfg.op.kind) << ", kbatch " << cfg.k_batch << ", fp16 A/B/Ds/E, acc fp32, arch "
              << ck_tile::compiled_arch_name << std::endl;

    const LaunchResult r = launch_gemm_multi_d<NumD>(cfg, dev);
    std::cout << r.instance << std::endl;

    // 2MNK for the GEMM and one operation per D and element of E; every tensor read or written once
    const double flops = 2.0 * cfg.M * cfg.N * cfg.K + double(NumD) * cfg.M * cfg.N;
    const double bytes = 2.0 * cfg.M * cfg.K + 2.0 * cfg.K * cfg.N + 2.0 * NumD * cfg.M * cfg.N + 2.0 * cfg.M * cfg.N;
    std::cout << "Perf: " << r.ms << " ms, " << flops / 1e9 / r.ms << " TFlops, " << bytes / 1e6 / r.ms << " GB/s"
              << std::endl;

    if(!cfg.verify)
        return true;

    e_dev.FromDevice(e_m_n.data());
    ck_tile::HostTensor<EDataType> e_ref(ck_tile::host_tensor_descriptor(cfg.M, cfg.N, cfg.stride_e, true));
    using DsTuple = decltype([]<std::size_t... I>(std::index_sequence<I...>) {
        return ck_tile::tuple<std::conditional_t<(I >= 0), DDataType, DDataType>...>{};
    }(std::make_index_sequence<NumD>{}));
    ck_tile::reference_gemm_multiple_d<ADataType, BDataType, DsTuple, AccDataType, EDataType>(a_m_k, b_k_n, ds_m_n,
                                                                                              e_ref, cfg.op);

    double max_ref = 0;
    for(int m = 0; m < cfg.M; ++m)
        for(int n = 0; n < cfg.N; ++n)
            max_ref = std::max(max_ref, std::fabs(double(ck_tile::type_convert<float>(e_ref(m, n)))));
    const auto [rtol, atol] =
        ck_tile::calculate_rtol_atol<ADataType, BDataType, AccDataType, EDataType>(cfg.K, cfg.k_batch, max_ref);
    std::cout << "Relative error threshold: " << rtol << " Absolute error threshold: " << atol << std::endl;
    const bool pass = ck_tile::check_err(e_m_n.mData, e_ref.mData, "Error: incorrect results!", rtol, atol);
    std::cout << "valid:" << (pass ? "y" : "n") << std::endl;
    return pass;
}

} // namespace
} // namespace gemm_multi_d_example

int main(int argc, char* argv[])
{
    using namespace gemm_multi_d_example;
#if defined(CK_TILE_RUNS_ON_CPU)
    const char* warmup_default = "1";
    const char* repeat_default = "3";
#else
    const char* warmup_default = "50";
    const char* repeat_default = "100";
#endif
    ck_tile::ArgParser p;
    p.insert("m", "3840", "M: rows of A and E")
        .insert("n", "4096", "N: columns of B and E")
        .insert("k", "4096", "K: columns of A, rows of B")
        .insert("num_d", "2", "number of D tensors, 1 to 4 (all fp16, M x N, one layout and stride)")
        .insert("op", "MultiplyMultiply",
                "CDE op: MultiplyMultiply (e = c*d0*d1...), AddAdd (e = c+d0+d1...) or Add (e = c+d0, one D)")
        .insert("a_layout", "R", "A (M x K): R row-major (the only one)")
        .insert("b_layout", "C", "B (K x N): C column-major, stored N x K (the only one)")
        .insert("ds_layout", "R", "the Ds (M x N): R row-major or C column-major")
        .insert("e_layout", "R", "E (M x N): R row-major (the only one)")
        .insert("stride_a", "0", "leading-dimension stride of A in elements (0: packed)")
        .insert("stride_b", "0", "leading-dimension stride of B in elements (0: packed)")
        .insert("stride_ds", "0", "leading-dimension stride of every D in elements (0: packed)")
        .insert("stride_e", "0", "leading-dimension stride of E in elements (0: packed)")
        .insert("v", "1", "verification: 0 none, 1 CPU reference (reference_gemm_multiple_d)")
        .insert("warmup", warmup_default, "untimed launches before timing")
        .insert("repeat", repeat_default, "timed launches (the perf line is their average)")
        .insert("kbatch", "1", "split-K: K splits added into a zeroed E (the Ds applied exactly once)")
        .insert("init", "0", "0 uniform random (A, B in [-5, 5], Ds in [-1, 1]), 1 small integers, 2 all ones");
    if(!p.parse(argc, argv))
        return p.help_requested() ? 0 : 1;

    try
    {
        Config cfg;
        cfg.M     = p.get_int_at_least("m", 1);
        cfg.N     = p.get_int_at_least("n", 1);
        cfg.K     = p.get_int_at_least("k", 1);
        cfg.num_d = p.get_int_in_range("num_d", 1, kMaxNumD);

        if(!p.get_layout("a_layout"))
            throw ck_tile::arg_error("error: option -a_layout: only R (row-major A) is supported");
        if(p.get_layout("b_layout"))
            throw ck_tile::arg_error("error: option -b_layout: only C (column-major B) is supported");
        cfg.ds_row_major = p.get_layout("ds_layout");
        if(!p.get_layout("e_layout"))
            throw ck_tile::arg_error("error: option -e_layout: only R (row-major E) is supported");

        cfg.stride_a  = p.get_leading_stride("stride_a", cfg.K, "K", "row-major A (M x K)");
        cfg.stride_b  = p.get_leading_stride("stride_b", cfg.K, "K", "column-major B (K x N)");
        cfg.stride_ds = cfg.ds_row_major ? p.get_leading_stride("stride_ds", cfg.N, "N", "row-major D (M x N)")
                                         : p.get_leading_stride("stride_ds", cfg.M, "M", "column-major D (M x N)");
        cfg.stride_e  = p.get_leading_stride("stride_e", cfg.N, "N", "row-major E (M x N)");

        const std::string op = p.get_str("op");
        if(op == "MultiplyMultiply" || op == "multiply_multiply")
            cfg.op.kind = CDEOp::multiply_multiply;
        else if(op == "AddAdd" || op == "add_add")
            cfg.op.kind = CDEOp::add_add;
        else if(op == "Add" || op == "add")
            cfg.op.kind = CDEOp::add;
        else
            throw ck_tile::arg_error("error: option -op: '" + op + "' is not an op (MultiplyMultiply, AddAdd or Add)");
        if(cfg.op.kind == CDEOp::add && cfg.num_d != 1)
            throw ck_tile::arg_error("error: option -op: Add takes exactly one D (-num_d=1), got -num_d=" +
                                     std::to_string(cfg.num_d) + "; AddAdd adds several");

        cfg.verify     = p.get_int_in_range("v", 0, 1) == 1;
        cfg.warmup     = p.get_int_at_least("warmup", 0);
        cfg.repeat     = p.get_int_at_least("repeat", 1);
        cfg.k_batch    = p.get_int_at_least("kbatch", 1);
        const int init = p.get_int_in_range("init", 0, 2);

        bool pass = false;
        switch(cfg.num_d)
        {
        case 1:
            pass = run<1>(cfg, init);
            break;
        case 2:
            pass = run<2>(cfg, init);
            break;
        case 3:
            pass = run<3>(cfg, init);
            break;
        default:
            pass = run<4>(cfg, init);
            break;
        }
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
