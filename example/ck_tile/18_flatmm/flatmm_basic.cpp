// SPDX-License-Identifier: MIT
// tile_example_flatmm_basic: C = A * B with B pre-shuffled on the host (shuffle_b) and the
// FlatmmKernel (FlatmmPipelineAGmemBGmemCRegV1: A through LDS, B from DRAM straight into the MFMA
// B registers), checked against reference_gemm on the unshuffled B. -? lists the options.
//
// Compiled with FLATMM_WEIGHT_PRESHUFFLE (gemm_weight_preshuffle*.cpp) it is
// tile_example_gemm_weight_preshuffle, upstream's weight-preshuffle GEMM of 03_gemm: the same
// pre-shuffled B and kernel with the 16x16 warp tile, and the universal GEMM's options and defaults.
#include <algorithm>
#include <cmath>
#include <iostream>
#include <string>

#include "ck_tile/host/reference/reference_gemm.hpp"
#include "flatmm_basic.hpp"

namespace flatmm_example {
namespace {

template <typename T>
void fill(ck_tile::HostTensor<T>& t, int init, std::uint32_t seed)
{
    if(init == 0)
        ck_tile::FillUniformDistribution<T>{-0.5f, 0.5f, seed}(t);
    else if(init == 1)
    {
        // a monotonic ramp in [-1, 1] in steps of 1/8, restarting every 17 elements of storage
        std::size_t i = 0;
        for(auto& x : t.mData)
            x = ck_tile::type_convert<T>(static_cast<float>(static_cast<int>(i++ % 17) - 8) / 8.f);
    }
    else
        ck_tile::FillConstant<T>{1}(t);
}

template <typename T>
bool run(const Config& cfg)
{
    using A   = typename T::ADataType;
    using B   = typename T::BDataType;
    using Acc = typename T::AccDataType;
    using C   = typename T::CDataType;

    const auto check_span = [](const char* name, long long outer, long long inner, long long stride, long long bytes) {
        const long long span = ((outer - 1) * stride + inner) * bytes;
        if(span > 0x7fffffffll)
            throw ck_tile::arg_error(std::string("error: ") + name + " spans " + std::to_string(span) +
                                     " bytes; the kernel uses 32-bit offsets (at most 2^31 - 1 bytes per matrix)");
    };
    check_span("A", cfg.M, cfg.K, cfg.stride_a, sizeof(A));
    check_span("B", cfg.N, cfg.K, cfg.stride_b, sizeof(B));
    check_span("C", cfg.M, cfg.N, cfg.stride_c, sizeof(C));

    // A: M x K row-major, B: K x N column-major (stored N x K), C: M x N row-major
    ck_tile::HostTensor<A> a_m_k(ck_tile::host_tensor_descriptor(cfg.M, cfg.K, cfg.stride_a, true));
    ck_tile::HostTensor<B> b_k_n(ck_tile::host_tensor_descriptor(cfg.K, cfg.N, cfg.stride_b, false));
    ck_tile::HostTensor<C> c_m_n(ck_tile::host_tensor_descriptor(cfg.M, cfg.N, cfg.stride_c, true));
    fill(a_m_k, cfg.init, 11939);
    fill(b_k_n, cfg.init, 11940);

    // B pre-shuffled for the warp tile: each warp tile one contiguous run in MFMA register order
    const FlatBLayout fl        = flat_b_layout<T>(cfg.warp_tile);
    const std::vector<B> b_flat = ck_tile::shuffle_b(b_k_n, fl.n_warp_tile, fl.k_warp_tile, fl.k_lane_groups);

    ck_tile::DeviceMem a_dev(a_m_k.get_element_space_size_in_bytes());
    ck_tile::DeviceMem b_flat_dev(b_flat.size() * sizeof(B));
    ck_tile::DeviceMem c_dev(c_m_n.get_element_space_size_in_bytes());
    a_dev.ToDevice(a_m_k.data());
    b_flat_dev.ToDevice(b_flat.data());
    c_dev.SetZero();

    std::cout << "flatmm M=" << cfg.M << " N=" << cfg.N << " K=" << cfg.K << " stride_A=" << cfg.stride_a
              << " stride_B=" << cfg.stride_b << " stride_C=" << cfg.stride_c << " layouts A=R B=C C=R, prec "
              << T::name << " (C " << (sizeof(C) == sizeof(A) ? T::name : "fp16") << "), warp_tile " << cfg.warp_tile
              << ", split_k " << cfg.k_batch << ", arch " << ck_tile::compiled_arch_name << std::endl;

    const LaunchResult r =
        launch_flatmm<T>(cfg, a_dev.GetDeviceBuffer(), b_flat_dev.GetDeviceBuffer(), c_dev.GetDeviceBuffer(), c_dev);
    std::cout << r.instance << std::endl;

    // the flat B is B's elements (plus padding of partial warp tiles, not counted)
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
        ck_tile::reference_gemm<A, B, Acc, C>(a_m_k, b_k_n, c_ref);
    else
    {
        // the device reference on the unshuffled B
        ck_tile::DeviceMem b_dev(b_k_n.get_element_space_size_in_bytes());
        ck_tile::DeviceMem c_ref_dev(c_ref.get_element_space_size_in_bytes());
        b_dev.ToDevice(b_k_n.data());
        c_ref_dev.SetZero();
        ck_tile::reference_gemm_gpu<A, B, Acc, C, ck_tile::tensor_layout::gemm::RowMajor,
                                    ck_tile::tensor_layout::gemm::ColumnMajor, ck_tile::tensor_layout::gemm::RowMajor>(
            static_cast<const A*>(a_dev.GetDeviceBuffer()), static_cast<const B*>(b_dev.GetDeviceBuffer()),
            static_cast<C*>(c_ref_dev.GetDeviceBuffer()), cfg.M, cfg.N, cfg.K, cfg.stride_a, cfg.stride_b,
            cfg.stride_c);
        c_ref_dev.FromDevice(c_ref.data());
    }

    double max_ref = 0;
    for(int m = 0; m < cfg.M; ++m)
        for(int n = 0; n < cfg.N; ++n)
            max_ref = std::max(max_ref, std::fabs(double(ck_tile::type_convert<float>(c_ref(m, n)))));
    const auto [rtol, atol] = ck_tile::calculate_rtol_atol<A, B, Acc, C>(cfg.K, cfg.k_batch, max_ref);
    std::cout << "Relative error threshold: " << rtol << " Absolute error threshold: " << atol << std::endl;
    const bool pass = ck_tile::check_err(c_m_n.mData, c_ref.mData, "Error: incorrect results!", rtol, atol);
    std::cout << "valid:" << (pass ? "y" : "n") << std::endl;
    return pass;
}

} // namespace
} // namespace flatmm_example

int main(int argc, char* argv[])
{
    using namespace flatmm_example;
#if defined(CK_TILE_RUNS_ON_CPU)
    const char* warmup_default = "1";
    const char* repeat_default = "3";
#else
    const char* warmup_default = "50";
    const char* repeat_default = "100";
#endif
#if !defined(FLATMM_WEIGHT_PRESHUFFLE)
    const char *m_default = "256", *n_default = "256", *k_default = "128";
#elif defined(CK_TILE_RUNS_ON_CPU)
    const char *m_default = "512", *n_default = "512", *k_default = "256";
#else
    const char *m_default = "3840", *n_default = "4096", *k_default = "2048";
#endif
    ck_tile::ArgParser p;
    p.insert("m", m_default, "M: rows of A and C")
        .insert("n", n_default, "N: columns of B and C")
        .insert("k", k_default, "K: columns of A, rows of B")
        .insert("a_layout", "R", "A (M x K): R row-major (the only one)")
        .insert("b_layout", "C", "B (K x N): C column-major, stored N x K, pre-shuffled on the host (the only one)")
        .insert("c_layout", "R", "C (M x N): R row-major (the only one)")
        .insert("stride_a", "0", "leading-dimension stride of A in elements (0: packed)")
        .insert("stride_b", "0", "leading-dimension stride of the unshuffled B in elements (0: packed)")
        .insert("stride_c", "0", "leading-dimension stride of C in elements (0: packed)")
        .insert("v", "1", "verification: 0 none, 1 CPU reference, 2 device reference (reference_gemm_gpu)")
        .insert("prec", "fp16", "data type: fp16, bf16, fp8 or bf8 (8-bit A/B give fp16 C)")
        .insert("warmup", warmup_default, "untimed launches before timing")
        .insert("repeat", repeat_default, "timed launches (the perf line is their average)")
        .insert("split_k", "1", "split-K: K splits added into a zeroed C")
        .insert("init", "0", "A and B: 0 uniform random in [-0.5, 0.5], 1 a monotonic ramp, 2 all ones")
        .insert("timer", "gpu", "gpu or cpu: both time with the runtime's events here");
#if defined(FLATMM_WEIGHT_PRESHUFFLE)
    p.insert("persistent", "0", "0 only: the weight-preshuffle GEMM has no persistent instance here");
#else
    p.insert("warp_tile", "0",
             "0: 16x16 (K = 64 bytes), 1: 32x32 (K = 32 bytes), 2: 16x16x128 and 3: 32x32x64 8-bit (gfx950 only)");
#endif
    if(!p.parse(argc, argv))
        return p.help_requested() ? 0 : 1;

    try
    {
        Config cfg;
        cfg.M = p.get_int_at_least("m", 1);
        cfg.N = p.get_int_at_least("n", 1);
        cfg.K = p.get_int_at_least("k", 1);
        if(!p.get_layout("a_layout"))
            throw ck_tile::arg_error("error: option -a_layout: only R (row-major A) is supported");
        if(p.get_layout("b_layout"))
            throw ck_tile::arg_error("error: option -b_layout: only C (column-major B) is supported");
        if(!p.get_layout("c_layout"))
            throw ck_tile::arg_error("error: option -c_layout: only R (row-major C) is supported");
        cfg.stride_a = p.get_leading_stride("stride_a", cfg.K, "K", "row-major A (M x K)");
        cfg.stride_b = p.get_leading_stride("stride_b", cfg.K, "K", "column-major B (K x N)");
        cfg.stride_c = p.get_leading_stride("stride_c", cfg.N, "N", "row-major C (M x N)");
        cfg.verify   = p.get_int_in_range("v", 0, 2);
        cfg.warmup   = p.get_int_at_least("warmup", 0);
        cfg.repeat   = p.get_int_at_least("repeat", 1);
        cfg.k_batch  = p.get_int_at_least("split_k", 1);
        cfg.init     = p.get_int_in_range("init", 0, 2);

        const std::string prec = p.get_str("prec");
        if(prec != "fp16" && prec != "bf16" && prec != "fp8" && prec != "bf8")
            throw ck_tile::arg_error("error: option -prec: '" + prec + "' is not supported (fp16, bf16, fp8 or bf8)");

        const std::string timer = p.get_str("timer");
        if(timer != "gpu" && timer != "cpu")
            throw ck_tile::arg_error("error: option -timer: '" + timer + "' is not a timer (gpu or cpu)");
#if defined(FLATMM_WEIGHT_PRESHUFFLE)
        if(p.get_int_in_range("persistent", 0, 1) != 0)
            throw ck_tile::arg_error("error: option -persistent: 1 is not built for the weight-preshuffle GEMM");
        cfg.warp_tile = 0;
#else
        cfg.warp_tile = p.get_int_in_range("warp_tile", 0, 3);
#endif
        if(cfg.warp_tile >= 2)
        {
            // gfx950's 8-bit MFMAs with K = 128 (16x16) / 64 (32x32)
            const std::string arch       = ck_tile::get_device_name();
            const char* tile             = cfg.warp_tile == 2 ? "16x16x128" : "32x32x64";
            const ck_tile::arch_info* ai = ck_tile::find_arch(arch.c_str());
            if(ai == nullptr || !ck_tile::mfma_set_includes(ai->mfma, ck_tile::mfma_set::cdna4))
                throw ck_tile::arg_error("error: option -warp_tile: " + std::to_string(cfg.warp_tile) + " (" + tile +
                                         ") uses gfx950-only MFMAs; " + arch + " has them not");
            if(prec != "fp8" && prec != "bf8")
                throw ck_tile::arg_error("error: option -warp_tile: " + std::to_string(cfg.warp_tile) + " (" + tile +
                                         ", v_mfma_f32_*_f8f6f4) is for fp8 and bf8, not " + prec);
        }

        if(prec == "fp8" || prec == "bf8")
        {
            // fp8_t / bf8_t have one encoding per build (FNUZ for gfx942, OCP for gfx950)
            const std::string arch = ck_tile::get_device_name();
            if(!ck_tile::fp8_native_on(arch.c_str()))
                throw ck_tile::arg_error("error: option -prec: this binary's " + prec + " encoding is not " + arch +
                                         "'s; build for " + arch + " alone (-DGPU_TARGETS=" + arch + ")");
        }
        bool pass;
        if(prec == "fp16")
            pass = run<Fp16Types>(cfg);
        else if(prec == "bf16")
            pass = run<Bf16Types>(cfg);
        else if(prec == "fp8")
            pass = run<Fp8Types>(cfg);
        else
            pass = run<Bf8Types>(cfg);
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
