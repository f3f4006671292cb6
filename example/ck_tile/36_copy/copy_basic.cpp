// SPDX-License-Identifier: MIT
// tile_example_copy: y = x for an m x n row-major matrix, through the tile copy op
// (ck_tile/ops/copy.hpp), directly (DRAM -> registers -> DRAM) or staged through LDS; checks the
// copy against the host reference and reports the bandwidth.
#include <cstdio>
#include <iostream>
#include <string>

#include "ck_tile/core.hpp"
#include "ck_tile/host.hpp"
#include "ck_tile/host/reference/reference_copy.hpp"
#include "ck_tile/ops/copy.hpp"

namespace {

// One block: 4 waves stacked along M; a lane moves 16 bytes per access; a wave row covers 64
// elements of N; each lane repeats its access twice down M.
template <typename T>
struct CopyConfig
{
    static constexpr ck_tile::index_t kVector = 16 / sizeof(T);
    static constexpr ck_tile::index_t kLanesM = ck_tile::get_warp_size() / (64 / kVector);
    using Shape = ck_tile::TileCopyShape<ck_tile::sequence<4, 1>, ck_tile::sequence<2 * 4 * kLanesM, 64>,
                                         ck_tile::sequence<kLanesM, 64>, ck_tile::sequence<1, kVector>>;
};

struct Options
{
    int m, n, warmup, repeat;
    bool verify, lds;
    std::string prec;
};

template <typename Kernel>
float launch(const Options& o, const ck_tile::TileCopyHostArgs& h)
{
    const ck_tile::stream_config s{nullptr, true, 0, o.warmup, o.repeat};
    return ck_tile::launch_kernel(s, ck_tile::make_kernel<Kernel::kBlockSize>(
                                         Kernel{}, Kernel::GridSize(h), Kernel::BlockSize(), 0, Kernel::MakeKargs(h)));
}

template <typename T, bool kLds>
float launch_variant(const Options& o, const ck_tile::TileCopyHostArgs& h, bool vector_access)
{
    using Shape = typename CopyConfig<T>::Shape;
    using VecP  = ck_tile::TileCopyProblem<T, Shape, true>;
    using ScaP  = ck_tile::TileCopyProblem<T, Shape, false>;
    if constexpr(kLds)
        return vector_access ? launch<ck_tile::TileCopyKernel_LDS<VecP>>(o, h)
                             : launch<ck_tile::TileCopyKernel_LDS<ScaP>>(o, h);
    else
        return vector_access ? launch<ck_tile::TileCopyKernel<VecP>>(o, h)
                             : launch<ck_tile::TileCopyKernel<ScaP>>(o, h);
}

template <typename T>
bool run(const Options& o)
{
    using Shape = typename CopyConfig<T>::Shape;

    ck_tile::HostTensor<T> x_host({o.m, o.n});
    ck_tile::HostTensor<T> y_host({o.m, o.n});
    ck_tile::FillUniformDistribution<T>{-5.f, 5.f, 11939}(x_host);

    ck_tile::DeviceMem x_dev(x_host.get_element_space_size_in_bytes());
    ck_tile::DeviceMem y_dev(y_host.get_element_space_size_in_bytes());
    x_dev.ToDevice(x_host.data());
    y_dev.SetZero();

    const ck_tile::TileCopyHostArgs h{x_dev.GetDeviceBuffer(), y_dev.GetDeviceBuffer(), o.m, o.n};
    // a lane's vector needs every row to start aligned: n a multiple of the vector
    const bool vector_access = o.n % Shape::kVector == 0;

    std::cout << "copy m=" << o.m << " n=" << o.n << " prec " << o.prec << ", variant " << (o.lds ? "lds" : "direct")
              << ", block tile " << Shape::kBlockM << "x" << Shape::kBlockN << ", block " << Shape::kBlockSize
              << ", grid " << ck_tile::integer_divide_ceil(o.m, Shape::kBlockM) << ", "
              << (vector_access ? "vector access (" + std::to_string(Shape::kVector) + " elements)"
                                : "scalar access (n=" + std::to_string(o.n) + " is not a multiple of " +
                                      std::to_string(Shape::kVector) + ")")
              << std::endl;

    const float ms =
        o.lds ? launch_variant<T, true>(o, h, vector_access) : launch_variant<T, false>(o, h, vector_access);

    // bytes read + bytes written
    const double bytes = 2.0 * o.m * o.n * sizeof(T);
    std::cout << "Perf: " << ms << " ms, " << bytes / 1e6 / ms << " GB/s" << std::endl;

    bool pass = true;
    if(o.verify)
    {
        ck_tile::HostTensor<T> y_ref({o.m, o.n});
        ck_tile::reference_copy(x_host, y_ref);
        y_dev.FromDevice(y_host.data());
        pass = ck_tile::check_err(y_host, y_ref, "Error: the copy differs from its input", 0, 0);
        std::cout << "valid:" << (pass ? "y" : "n") << std::endl;
    }
    return pass;
}

} // namespace

int main(int argc, char* argv[])
{
    ck_tile::ArgParser p;
    p.insert("m", "128", "rows (m)")
        .insert("n", "8", "columns (n)")
        .insert("v", "1", "verification: 0 none, 1 against the host reference")
        .insert("prec", "fp16", "data type: fp16, bf16 or fp32")
        .insert("variant", "direct", "direct: DRAM -> registers -> DRAM; lds: through LDS")
        .insert("warmup", "50", "untimed launches before timing")
        .insert("repeat", "100", "timed launches (the perf line is their average)");
    if(!p.parse(argc, argv))
        return p.help_requested() ? 0 : 1;

    try
    {
        Options o;
        o.m      = p.get_int_at_least("m", 1);
        o.n      = p.get_int_at_least("n", 1);
        o.verify = p.get_int_in_range("v", 0, 1) == 1;
        o.warmup = p.get_int_at_least("warmup", 0);
        o.repeat = p.get_int_at_least("repeat", 1);
        o.prec   = p.get_str("prec");

        const std::string variant = p.get_str("variant");
        if(variant != "direct" && variant != "lds")
            throw ck_tile::arg_error("error: option -variant: '" + variant + "' is not a variant (direct or lds)");
        o.lds = variant == "lds";

        if(static_cast<long long>(o.m) * o.n * 4 > (1ll << 31) - 1)
            throw ck_tile::arg_error("error: -m x -n is too large for 32-bit offsets");

        bool pass;
        if(o.prec == "fp16")
            pass = run<ck_tile::half_t>(o);
        else if(o.prec == "bf16")
            pass = run<ck_tile::bf16_t>(o);
        else if(o.prec == "fp32")
            pass = run<float>(o);
        else
            throw ck_tile::arg_error("error: option -prec: '" + o.prec + "' is not supported (fp16, bf16 or fp32)");
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
