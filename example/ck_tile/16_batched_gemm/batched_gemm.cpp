// SPDX-License-Identifier: MIT
// tile_example_batched_gemm: batch_count GEMMs C[b] = A[b] * B[b] of one shape in one launch
// (BatchedGemmKernel over the universal GEMM kernel), checked against a CPU reference
// (reference_batched_gemm) or a reference kernel (-v=2). -? lists the options.
#include <algorithm>
#include <cmath>
#include <iostream>
#include <string>

#include "ck_tile/host/reference/reference_batched_gemm.hpp"
#include "ck_tile/host/reference/reference_gemm.hpp"
#include "batched_gemm.hpp"

namespace batched_gemm_example {
namespace {

// the layout options: upstream's kernel takes A row-major, B column-major, C row-major only
void require_layout(const ck_tile::ArgParser& p, const std::string& name, char want, const char* what)
{
    const std::string v = p.get_str(name);
    if(v != "R" && v != "r" && v != "C" && v != "c")
        throw ck_tile::arg_error("error: option -" + name + ": '" + v +
                                 "' is not a layout (R: row-major, C: column-major)");
    if(std::toupper(static_cast<unsigned char>(v[0])) != want)
        throw ck_tile::arg_error("error: option -" + name + ": only " + std::string(1, want) + " (" + what +
                                 ") is supported; the batched kernel takes A row-major, B column-major, C row-major");
}

// elements between batches: 0 means one matrix after the other (outer x stride)
int resolve_batch_stride(const ck_tile::ArgParser& p, const std::string& name, long long outer, long long stride)
{
    const int s = p.get_int_at_least(name, 0);
    if(s != 0)
        return s;
    const long long packed = outer * stride;
    if(packed > 0x7fffffffll)
        throw ck_tile::arg_error("error: option -" + name + ": one matrix has " + std::to_string(packed) +
                                 " elements, more than a 32-bit batch stride holds");
    return static_cast<int>(packed);
}

template <typename Types>
bool run(const Config& cfg, int verify)
{
    using A   = typename Types::ADataType;
    using B   = typename Types::BDataType;
    using Acc = typename Types::AccDataType;
    using C   = typename Types::CDataType;
    using Row = ck_tile::tensor_layout::gemm::RowMajor;
    using Col = ck_tile::tensor_layout::gemm::ColumnMajor;

    // the kernel addresses each matrix with 32-bit byte offsets: refuse before allocating
    const auto check_span = [](const char* name, long long outer, long long inner, long long stride, long long bytes) {
        const long long span = ((outer - 1) * stride + inner) * bytes;
        if(span > 0x7fffffffll)
            throw ck_tile::arg_error(std::string("error: ") + name + " spans " + std::to_string(span) +
                                     " bytes; the kernel uses 32-bit offsets (at most 2^31 - 1 bytes per matrix)");
    };
    check_span("A", cfg.M, cfg.K, cfg.stride_a, sizeof(A));
    check_span("B", cfg.N, cfg.K, cfg.stride_b, sizeof(B));
    check_span("C", cfg.M, cfg.N, cfg.stride_c, sizeof(C));

    // A: batch x M x K (row-major), B: batch x N x K (column-major K x N), C: batch x M x N
    using D       = std::vector<std::size_t>;
    const auto bc = static_cast<std::size_t>(cfg.batch_count);
    ck_tile::HostTensor<A> a(
        ck_tile::HostTensorDescriptor(D{bc, std::size_t(cfg.M), std::size_t(cfg.K)},
                                      D{std::size_t(cfg.batch_stride_a), std::size_t(cfg.stride_a), 1}));
    ck_tile::HostTensor<B> b(
        ck_tile::HostTensorDescriptor(D{bc, std::size_t(cfg.N), std::size_t(cfg.K)},
                                      D{std::size_t(cfg.batch_stride_b), std::size_t(cfg.stride_b), 1}));
    ck_tile::HostTensor<C> c(
        ck_tile::HostTensorDescriptor(D{bc, std::size_t(cfg.M), std::size_t(cfg.N)},
                                      D{std::size_t(cfg.batch_stride_c), std::size_t(cfg.stride_c), 1}));
    ck_tile::FillUniformDistribution<A>{-1.f, 1.f, 11939}(a);
    ck_tile::FillUniformDistribution<B>{-1.f, 1.f, 11940}(b);

    ck_tile::DeviceMem a_dev(a.get_element_space_size_in_bytes());
    ck_tile::DeviceMem b_dev(b.get_element_space_size_in_bytes());
    ck_tile::DeviceMem c_dev(c.get_element_space_size_in_bytes());
    a_dev.ToDevice(a.data());
    b_dev.ToDevice(b.data());
    c_dev.SetZero();

    const ck_tile::BatchedGemmHostArgs args(a_dev.GetDeviceBuffer(), b_dev.GetDeviceBuffer(), c_dev.GetDeviceBuffer(),
                                            cfg.k_batch, cfg.M, cfg.N, cfg.K, cfg.stride_a, cfg.stride_b, cfg.stride_c,
                                            cfg.batch_stride_a, cfg.batch_stride_b, cfg.batch_stride_c,
                                            cfg.batch_count);

    std::cout << "batched gemm M=" << cfg.M << " N=" << cfg.N << " K=" << cfg.K << " stride_A=" << cfg.stride_a
              << " stride_B=" << cfg.stride_b << " stride_C=" << cfg.stride_c
              << " batch_stride_A=" << cfg.batch_stride_a << " batch_stride_B=" << cfg.batch_stride_b
              << " batch_stride_C=" << cfg.batch_stride_c << " batch_count=" << cfg.batch_count
              << " split_k=" << cfg.k_batch << " layouts A=R B=C C=R, prec " << Types::name << " (" << Types::types
              << "), arch " << ck_tile::compiled_arch_name << std::endl;

    const LaunchResult r = launch_batched_gemm<Types>(cfg, args, c.get_element_space_size_in_bytes());
    std::cout << r.instance << ", grid " << r.grid.x << " x " << r.grid.y << " x " << r.grid.z
              << " (tiles x batches x K splits)" << std::endl;

    const double flops = 2.0 * cfg.M * cfg.N * cfg.K * cfg.batch_count;
    const double bytes =
        (double(sizeof(A)) * cfg.M * cfg.K + double(sizeof(B)) * cfg.K * cfg.N + double(sizeof(C)) * cfg.M * cfg.N) *
        cfg.batch_count;
    std::cout << "Perf: " << r.ms << " ms, " << flops / 1e9 / r.ms << " TFlops, " << bytes / 1e6 / r.ms << " GB/s"
              << std::endl;

    if(verify == 0)
        return true;

    c_dev.FromDevice(c.data());
    ck_tile::HostTensor<C> c_ref(c.mDesc);
    if(verify == 1)
        ck_tile::reference_batched_gemm<A, B, Acc, C>(a, b, c_ref);
    else
    {
        // a reference kernel on the device, one GEMM per batch
        ck_tile::DeviceMem ref_dev(c_ref.get_element_space_size_in_bytes());
        ref_dev.SetZero();
        for(int g = 0; g < cfg.batch_count; ++g)
            ck_tile::reference_gemm_gpu<A, B, Acc, C, Row, Col, Row>(
                static_cast<const A*>(a_dev.GetDeviceBuffer()) + static_cast<long long>(g) * cfg.batch_stride_a,
                static_cast<const B*>(b_dev.GetDeviceBuffer()) + static_cast<long long>(g) * cfg.batch_stride_b,
                static_cast<C*>(ref_dev.GetDeviceBuffer()) + static_cast<long long>(g) * cfg.batch_stride_c, cfg.M,
                cfg.N, cfg.K, cfg.stride_a, cfg.stride_b, cfg.stride_c);
        ref_dev.FromDevice(c_ref.data());
    }

    // compare the matrices' elements only (not the gaps a stride leaves)
    std::vector<C> out, ref;
    out.reserve(std::size_t(cfg.batch_count) * cfg.M * cfg.N);
    ref.reserve(out.capacity());
    double max_ref = 0;
    for(int g = 0; g < cfg.batch_count; ++g)
        for(int m = 0; m < cfg.M; ++m)
            for(int n = 0; n < cfg.N; ++n)
            {
                out.push_back(c(g, m, n));
                ref.push_back(c_ref(g, m, n));
                max_ref = std::max(max_ref, std::fabs(double(ck_tile::type_convert<float>(ref.back()))));
            }
    const auto [rtol, atol] = ck_tile::calculate_rtol_atol<A, B, Acc, C>(cfg.K, cfg.k_batch, max_ref);
    std::cout << "Relative error threshold: " << rtol << " Absolute error threshold: " << atol << " ("
              << (verify == 1 ? "CPU reference" : "reference kernel") << ")" << std::endl;
    const bool pass = ck_tile::check_err(out, ref, "Error: incorrect results!", rtol, atol);
    std::cout << "valid:" << (pass ? "y" : "n") << std::endl;
    return pass;
}

} // namespace
} // namespace batched_gemm_example

int main(int argc, char* argv[])
{
    using namespace batched_gemm_example;
#if defined(CK_TILE_RUNS_ON_CPU)
    const char* warmup_default = "1";
    const char* repeat_default = "3";
#else
    const char* warmup_default = "50";
    const char* repeat_default = "100";
#endif
    ck_tile::ArgParser p;
    p.insert("m", "512", "M: rows of A and C (per batch)")
        .insert("n", "1024", "N: columns of B and C (per batch)")
        .insert("k", "2048", "K: columns of A, rows of B (per batch)")
        .insert("stride_a", "0", "leading-dimension stride of A in elements (0: packed)")
        .insert("stride_b", "0", "leading-dimension stride of B in elements (0: packed)")
        .insert("stride_c", "0", "leading-dimension stride of C in elements (0: packed)")
        .insert("a_layout", "R", "A (M x K): R row-major (the only one)")
        .insert("b_layout", "C", "B (K x N): C column-major, stored N x K (the only one)")
        .insert("c_layout", "R", "C (M x N): R row-major (the only one)")
        .insert("batch_stride_a", "0", "elements between A matrices (0: packed, M x stride_a)")
        .insert("batch_stride_b", "0", "elements between B matrices (0: packed, N x stride_b)")
        .insert("batch_stride_c", "0", "elements between C matrices (0: packed, M x stride_c)")
        .insert("batch_count", "8", "number of GEMMs")
        .insert("v", "1", "verification: 0 none, 1 CPU reference, 2 reference kernel on the device")
        .insert("prec", "fp16", "data type of A, B and C: fp16 or bf16")
        .insert("warmup", warmup_default, "untimed launches before timing")
        .insert("repeat", repeat_default, "timed launches (the perf line is their average)")
        .insert("split_k", "1", "K splits (k_batch): the splits' partial results are added into a zeroed C");
    if(!p.parse(argc, argv))
        return p.help_requested() ? 0 : 1;

    try
    {
        Config cfg;
        cfg.M = p.get_int_at_least("m", 1);
        cfg.N = p.get_int_at_least("n", 1);
        cfg.K = p.get_int_at_least("k", 1);
        require_layout(p, "a_layout", 'R', "row-major A");
        require_layout(p, "b_layout", 'C', "column-major B");
        require_layout(p, "c_layout", 'R', "row-major C");
        cfg.stride_a       = p.get_leading_stride("stride_a", cfg.K, "K", "row-major A (M x K)");
        cfg.stride_b       = p.get_leading_stride("stride_b", cfg.K, "K", "column-major B (K x N)");
        cfg.stride_c       = p.get_leading_stride("stride_c", cfg.N, "N", "row-major C (M x N)");
        cfg.batch_count    = p.get_int_in_range("batch_count", 1, 65535);
        cfg.batch_stride_a = resolve_batch_stride(p, "batch_stride_a", cfg.M, cfg.stride_a);
        cfg.batch_stride_b = resolve_batch_stride(p, "batch_stride_b", cfg.N, cfg.stride_b);
        cfg.batch_stride_c = resolve_batch_stride(p, "batch_stride_c", cfg.M, cfg.stride_c);
        // two batches' C must not share an element: each C starts after the previous one's last
        const long long c_span = (long long)(cfg.M - 1) * cfg.stride_c + cfg.N;
        if(cfg.batch_count > 1 && cfg.batch_stride_c < c_span)
            throw ck_tile::arg_error("error: option -batch_stride_c: " + std::to_string(cfg.batch_stride_c) +
                                     " is smaller than one C matrix ((M - 1) x stride_c + N = " +
                                     std::to_string(c_span) + " elements): the batches' outputs would overlap");
        cfg.k_batch      = p.get_int_in_range("split_k", 1, 65535);
        const int verify = p.get_int_in_range("v", 0, 2);
        cfg.warmup       = p.get_int_at_least("warmup", 0);
        cfg.repeat       = p.get_int_at_least("repeat", 1);

        const std::string prec = p.get_str("prec");
        bool pass;
        if(prec == "fp16")
            pass = run<Fp16Types>(cfg, verify);
        else if(prec == "bf16")
            pass = run<Bf16Types>(cfg, verify);
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
