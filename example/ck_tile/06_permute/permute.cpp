// SPDX-License-Identifier: MIT
// tile_example_permute: y = x.permute(perm).contiguous() for a tensor of rank 1..8 in fp8, fp16 or
// fp32, checked bit-exactly against the host reference. -? lists the options.
#include <cstring>
#include <fstream>
#include <iostream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "ck_tile/host/reference/reference_permute.hpp"
#include "permute.hpp"

namespace {

template <typename DataType>
permute_result run_generic(const permute_args& a, const ck_tile::stream_config& s)
{
    // the vector instance where the innermost dimension stays innermost in 16-byte runs
    using Vector      = ck_tile::GenericPermute<ck_tile::GenericPermuteProblem<DataType, 256, 8, true>>;
    using Scalar      = ck_tile::GenericPermute<ck_tile::GenericPermuteProblem<DataType, 256, 8, false>>;
    const auto launch = [&](auto kernel) {
        using Kernel     = decltype(kernel);
        const auto kargs = Kernel::MakeKargs(a);
        const float ms =
            ck_tile::launch_kernel(s, ck_tile::make_kernel<Kernel::kBlockSize>(Kernel{}, Kernel::GridSize(kargs),
                                                                               Kernel::BlockSize(), 0, kargs));
        return permute_result{ms, Kernel::GetName()};
    };
    if(Vector::IsSupportedArgument(Vector::MakeKargs(a)))
        return launch(Vector{});
    return launch(Scalar{});
}

// the comma-separated integers of option `name`; each one must be >= min_value
std::vector<int> parse_list(const ck_tile::ArgParser& p, const std::string& name, int min_value, const char* what)
{
    const std::string text = p.get_str(name);
    std::vector<int> out;
    std::stringstream ss(text);
    std::string item;
    while(std::getline(ss, item, ','))
    {
        std::size_t used = 0;
        long v           = -1;
        try
        {
            v = std::stol(item, &used);
        }
        catch(const std::exception&)
        {
            used = 0;
        }
        if(item.empty() || used != item.size() || v < min_value || v > 0x7fffffff)
            throw ck_tile::arg_error("error: option -" + name + ": '" + item + "' is not " + what);
        out.push_back(static_cast<int>(v));
    }
    if(text.empty() || text.back() == ',')
        throw ck_tile::arg_error("error: option -" + name + ": '" + text + "' is not a comma-separated list");
    return out;
}

std::string list_str(const std::vector<int>& v)
{
    std::string s = "[";
    for(std::size_t i = 0; i < v.size(); ++i)
        s += (i ? "," : "") + std::to_string(v[i]);
    return s + "]";
}

struct Config
{
    std::vector<int> shape, perm;
    bool verify;
    int warmup, repeat, seed, log_level;
    bool json;
    std::string jsonfile;
};

template <typename DataType>
bool run(const Config& c, const std::string& prec)
{
    const int rank = static_cast<int>(c.shape.size());
    std::vector<int> y_shape(rank);
    for(int i = 0; i < rank; ++i)
        y_shape[i] = c.shape[c.perm[i]];

    ck_tile::HostTensor<DataType> x(c.shape);
    ck_tile::HostTensor<DataType> y(y_shape);
    const unsigned seed = c.seed < 0 ? std::random_device{}() : static_cast<unsigned>(c.seed);
    ck_tile::FillUniformDistributionIntegerValue<DataType>{-15, 15, seed}(x);

    ck_tile::DeviceMem x_dev(x.get_element_space_size_in_bytes());
    ck_tile::DeviceMem y_dev(y.get_element_space_size_in_bytes());
    x_dev.ToDevice(x.data());
    y_dev.SetZero();

    permute_args a{};
    a.p_src = x_dev.GetDeviceBuffer();
    a.p_dst = y_dev.GetDeviceBuffer();
    a.rank  = rank;
    for(int i = 0; i < rank; ++i)
    {
        a.shape[i] = c.shape[i];
        a.perm[i]  = c.perm[i];
    }
    const ck_tile::stream_config s{nullptr, true, c.log_level, c.warmup, c.repeat};
    const permute_result r = permute(permute_traits{prec}, a, s);

    const double bytes = 2.0 * x.get_element_size() * sizeof(DataType); // read x, write y
    std::cout << "[" << prec << "] shape:" << list_str(c.shape) << "->" << list_str(y_shape)
              << ", permute:" << list_str(c.perm) << ", " << r.instance << std::endl;
    std::cout << "Perf: " << r.ms << " ms, " << bytes / 1e6 / r.ms << " GB/s" << std::endl;

    bool pass = true;
    if(c.verify)
    {
        y_dev.FromDevice(y.data());
        ck_tile::HostTensor<DataType> y_ref(y_shape);
        ck_tile::reference_permute(x, y_ref, std::vector<ck_tile::index_t>(c.perm.begin(), c.perm.end()));
        // bit-exact: a permute only moves bits
        std::size_t wrong = 0;
        for(std::size_t i = 0; i < y.get_element_size(); ++i)
            if(std::memcmp(&y.mData[i], &y_ref.mData[i], sizeof(DataType)) != 0 && wrong++ < 4)
                std::cout << "mismatch at y[" << i << "]: " << ck_tile::type_convert<float>(y.mData[i])
                          << " != " << ck_tile::type_convert<float>(y_ref.mData[i]) << std::endl;
        if(wrong)
            std::cout << wrong << " of " << y.get_element_size() << " elements differ" << std::endl;
        pass = wrong == 0;
        std::cout << "valid:" << (pass ? "y" : "n") << std::endl;
    }
    if(c.json)
    {
        std::ofstream f(c.jsonfile);
        f << "{\"name\": \"permute\", \"prec\": \"" << prec << "\", \"shape\": " << list_str(c.shape)
          << ", \"perm\": " << list_str(c.perm) << ", \"kernel\": \"" << r.instance << "\", \"ms\": " << r.ms
          << ", \"GB/s\": " << bytes / 1e6 / r.ms << ", \"valid\": " << (c.verify ? (pass ? "true" : "false") : "null")
          << "}\n";
    }
    return pass;
}

} // namespace

permute_result permute(const permute_traits& t, const permute_args& a, const ck_tile::stream_config& s)
{
    if(t.data_type == "fp16")
    {
#if defined(PERMUTE_USE_ALTERNATIVE_IMPL)
        permute_result r;
        if(matrix_core_swizzle(a, s, r))
            return r;
#endif
        return run_generic<ck_tile::half_t>(a, s);
    }
    if(t.data_type == "fp32")
        return run_generic<float>(a, s);
    if(t.data_type == "fp8")
        return run_generic<ck_tile::fp8_t>(a, s);
    throw ck_tile::arg_error("error: option -prec: '" + t.data_type + "' is not supported (fp8, fp16 or fp32)");
}

int main(int argc, char* argv[])
{
    ck_tile::ArgParser p;
    p.insert("v", "1", "validate on the host (bit-exact): 0 no, 1 yes")
        .insert("prec", "fp16", "data type: fp8, fp16 or fp32")
        .insert("shape", "2,3,4", "x's lengths, comma-separated (rank 1..8)")
        .insert("perm", "2,1,0", "y's dimension i is x's dimension perm[i] (each of 0..rank-1 once)")
        .insert("kname", "0", "print the kernel name when launching: 0 no, 1 yes")
        .insert("seed", "11939", "seed of the random integers in x (< 0: a random seed)")
        .insert("warmup", "5", "untimed launches before timing")
        .insert("repeat", "20", "timed launches (the perf line is their average)")
        .insert("json", "0", "write the result as JSON: 0 no, 1 yes")
        .insert("jsonfile", "permute.json", "the JSON file");
    if(!p.parse(argc, argv))
        return p.help_requested() ? 0 : 1;

    try
    {
        Config c;
        c.shape = parse_list(p, "shape", 1, "a positive integer");
        if(c.shape.size() > 8)
            throw ck_tile::arg_error("error: option -shape: rank " + std::to_string(c.shape.size()) +
                                     " is not supported (at most 8 dimensions)");
        const int rank = static_cast<int>(c.shape.size());
        c.perm         = parse_list(p, "perm", 0, "a non-negative integer");
        std::vector<bool> seen(rank, false);
        for(int v : c.perm)
        {
            if(v >= rank)
                throw ck_tile::arg_error("error: option -perm: axis " + std::to_string(v) +
                                         " is out of range for a rank-" + std::to_string(rank) + " shape");
            if(seen[v])
                throw ck_tile::arg_error("error: option -perm: axis " + std::to_string(v) + " appears twice");
            seen[v] = true;
        }
        if(static_cast<int>(c.perm.size()) != rank)
            throw ck_tile::arg_error("error: option -perm: " + std::to_string(c.perm.size()) + " axes for a rank-" +
                                     std::to_string(rank) + " shape (each of 0.." + std::to_string(rank - 1) +
                                     " once)");
        c.verify    = p.get_int_in_range("v", 0, 1) == 1;
        c.log_level = p.get_bool("kname") ? 1 : 0;
        c.seed      = p.get_int("seed");
        c.warmup    = p.get_int_at_least("warmup", 0);
        c.repeat    = p.get_int_at_least("repeat", 1);
        c.json      = p.get_bool("json");
        c.jsonfile  = p.get_str("jsonfile");

        const std::string prec  = p.get_str("prec");
        const std::size_t bytes = prec == "fp8" ? 1 : prec == "fp16" ? 2 : 4;
        long long elements      = 1;
        for(int v : c.shape)
        {
            elements *= v;
            if(elements * static_cast<long long>(bytes) > 0x7fffffffll)
                throw ck_tile::arg_error("error: option -shape: the tensor exceeds 2^31 - 1 bytes; the kernel "
                                         "uses 32-bit offsets");
        }

        bool pass;
        if(prec == "fp16")
            pass = run<ck_tile::half_t>(c, prec);
        else if(prec == "fp32")
            pass = run<float>(c, prec);
        else if(prec == "fp8")
            pass = run<ck_tile::fp8_t>(c, prec);
        else
            throw ck_tile::arg_error("error: option -prec: '" + prec + "' is not supported (fp8, fp16 or fp32)");
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
