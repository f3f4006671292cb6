// SPDX-License-Identifier: MIT
// What the three tile-distribution tutorials share: a kernel that loads one tile through a tile
// window with a given distribution and writes every thread's registers, in register order, to a
// buffer; and the host code that runs it, prints the registers of chosen threads and checks them.
//
// The tile is row-major and element (row, col) holds the tag row * kCols + col, so the value a
// register holds says where in the tile it came from. Tags are 16-bit integers: an element is 2
// bytes like fp16, so a thread's loads are exactly those of an fp16 tile (8 contiguous elements are
// one 16-byte access), and every tag of a 256x32 tile (at most 8191) is exact.
//
// The kernel does not print: it writes what it loaded to memory and the host prints it. That
// works the same on a GPU, on the emulator and in a device-code-only build, and the output
// comes out in a fixed order.
#pragma once
#include <algorithm>
#include <cstdint>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "ck_tile/core.hpp"
#include "ck_tile/host.hpp"

namespace ck_tile {
namespace tile_distribution_tutorial {

using tag_t = std::uint16_t;

// Written by thread 0 when the kernel body ran: the arch the device code was compiled for, as its
// position in the arch table (static_cast<index_t>(ck_tile::compiled_arch)); the host starts the
// slot at kNoArch, so a kernel that did not run leaves it there.
inline constexpr index_t kNoArch = -1;

template <index_t kRows_, index_t kCols_, index_t kBlockSize_, typename Encoding_>
struct DistributionProbeKernel
{
    static constexpr index_t kRows      = kRows_;
    static constexpr index_t kCols      = kCols_;
    static constexpr index_t kBlockSize = kBlockSize_;
    using Encoding                      = Encoding_;
    using Dstr                          = decltype(make_static_tile_distribution(Encoding{}));
    static constexpr index_t kRegs      = Dstr::get_thread_buffer_size();

    static_assert(kRows * kCols == kBlockSize * kRegs, "the distribution must give every element to one thread");
    static_assert(kRows * kCols <= 65536, "the tags must fit in 16 bits");

    CK_TILE_DEVICE void operator()(const tag_t* p_tile, index_t* p_regs, index_t* p_arch) const
    {
        // The encodings are written for wave64 CDNA (gfx942, gfx950): 64 lanes per warp.
        // Compiled for any other arch, the kernel does nothing and the host says so.
#if defined(CK_TILE_ARCH_CDNA)
        // 1. A tensor view of the kRows x kCols row-major tile in global memory. Rows start
        //    16-byte aligned, so up to 8 contiguous 2-byte elements can move as one access.
        const auto view = make_naive_tensor_view<address_space_enum::global>(
            p_tile, make_tuple(kRows, kCols), make_tuple(kCols, 1), number<8>{}, number<1>{});

        // 2. A window over the whole tile at (0, 0) that carries the distribution.
        const auto window = make_tile_window(view, make_tuple(number<kRows>{}, number<kCols>{}), make_multi_index(0, 0),
                                             make_static_tile_distribution(Encoding{}));

        // 3. load_tile: each thread reads the kRegs elements the distribution gives it into
        //    its registers (a static_distributed_tensor).
        const auto tile = load_tile(window);

        // 4. Write the registers out in register order: thread t's register d goes to
        //    p_regs[t * kRegs + d]. sweep_tile visits them in that order.
        const index_t tid = get_thread_id();
        sweep_tile(tile, [&](auto idx) { p_regs[tid * kRegs + idx.d] = static_cast<index_t>(tile(idx)); });

        if(tid == 0)
            *p_arch = static_cast<index_t>(compiled_arch);
#else
        (void)p_tile;
        (void)p_regs;
        (void)p_arch;
#endif
    }
};

// ---- host side ------------------------------------------------------------------------------

struct coord
{
    index_t row;
    index_t col;
    friend bool operator==(const coord&, const coord&) = default;
};

inline std::string to_string(const coord& c) { return "(" + std::to_string(c.row) + "," + std::to_string(c.col) + ")"; }

// One printed line: "<label>: (row,col) (row,col) ..." with one (row,col) per register.
inline std::string mapping_line(const std::string& label, const std::vector<coord>& regs)
{
    std::string s = label + ":";
    for(const auto& c : regs)
        s += " " + to_string(c);
    return s;
}

// The value of option -name: "all", or a comma-separated list of integers in [0, count).
// Throws arg_error (one line) otherwise.
inline std::vector<index_t> parse_id_list(const ArgParser& args, const std::string& name, index_t count,
                                          const std::string& what)
{
    const std::string value = args.get_str(name);
    const std::string where = "error: option -" + name + ": ";
    std::vector<index_t> ids;
    if(value == "all")
    {
        for(index_t i = 0; i < count; ++i)
            ids.push_back(i);
        return ids;
    }
    if(value.empty())
        throw arg_error(where + "empty; give " + what + "s 0.." + std::to_string(count - 1) +
                        " separated by commas, or all");
    if(value.front() == ',' || value.back() == ',' || value.find(",,") != std::string::npos)
        throw arg_error(where + "'" + value + "' has an empty entry");
    std::stringstream ss(value);
    std::string item;
    while(std::getline(ss, item, ','))
    {
        const bool digits =
            !item.empty() && item.size() <= 9 &&
            std::all_of(item.begin(), item.end(), [](unsigned char ch) { return ch >= '0' && ch <= '9'; });
        if(!digits)
            throw arg_error(where + "'" + item + "' is not a " + what + " number (give 0.." +
                            std::to_string(count - 1) + " separated by commas, or all)");
        const long id = std::stol(item);
        if(id >= count)
            throw arg_error(where + what + " " + item + " does not exist (there are " + std::to_string(count) +
                            ": 0.." + std::to_string(count - 1) + ")");
        ids.push_back(static_cast<index_t>(id));
    }
    return ids;
}

// What one run of the probe kernel returns: the registers of every thread, decoded into tile
// coordinates (thread-major: regs[t * kRegs + d]), and the arch the kernel ran for.
struct probe_result
{
    std::vector<coord> regs;
    std::vector<index_t> raw;
    index_t arch = 0;
};

template <typename Kernel>
probe_result run_probe()
{
    constexpr index_t n = Kernel::kRows * Kernel::kCols;
    std::vector<tag_t> tile(n);
    for(index_t r = 0; r < Kernel::kRows; ++r)
        for(index_t c = 0; c < Kernel::kCols; ++c)
            tile[r * Kernel::kCols + c] = static_cast<tag_t>(r * Kernel::kCols + c);

    DeviceMem tile_dev(n * sizeof(tag_t));
    DeviceMem regs_dev(Kernel::kBlockSize * Kernel::kRegs * sizeof(index_t));
    DeviceMem arch_dev(sizeof(index_t));
    tile_dev.ToDevice(tile.data());
    regs_dev.SetZero();
    const index_t no_arch = kNoArch;
    arch_dev.ToDevice(&no_arch);

    launch_kernel(stream_config{},
                  make_kernel<Kernel::kBlockSize>(Kernel{}, dim3(1), dim3(Kernel::kBlockSize), 0,
                                                  static_cast<const tag_t*>(tile_dev.GetDeviceBuffer()),
                                                  static_cast<index_t*>(regs_dev.GetDeviceBuffer()),
                                                  static_cast<index_t*>(arch_dev.GetDeviceBuffer())));

    probe_result res;
    res.raw.resize(Kernel::kBlockSize * Kernel::kRegs);
    regs_dev.FromDevice(res.raw.data());
    arch_dev.FromDevice(&res.arch);
    res.regs.reserve(res.raw.size());
    for(index_t v : res.raw)
        res.regs.push_back(coord{v / Kernel::kCols, v % Kernel::kCols});
    if(res.arch < 0 || res.arch >= num_archs)
    {
        std::string wave64_archs;
        for(const arch_info& a : arch_table)
            if(a.wave_size == 64)
                wave64_archs += std::string(wave64_archs.empty() ? "" : ", ") + a.name;
        throw std::runtime_error("the kernel did not run: this tutorial is written for wave64 CDNA GPUs (" +
                                 wave64_archs + ") and its device code was built for another arch");
    }
    return res;
}

// The thread's registers as the library computes them from the encoding alone, on the host:
// calculate_index(P) is where the thread's register 0 lies, d_to_x_offset(d) how far register d
// lies from it.
template <typename Kernel>
std::vector<coord> library_mapping(index_t thread)
{
    using Dstr = typename Kernel::Dstr;
    multi_index<Dstr::NDimP> ps{};
    if constexpr(Dstr::NDimP == 1)
        ps[0] = thread % get_warp_size();
    else
    {
        ps[0] = thread / get_warp_size();
        ps[1] = thread % get_warp_size();
    }
    const auto x0 = Dstr::calculate_index(ps);
    std::vector<coord> out;
    for(index_t d = 0; d < Kernel::kRegs; ++d)
    {
        const auto dx = Dstr::d_to_x_offset(d);
        out.push_back(coord{x0[0] + dx[0], x0[1] + dx[1]});
    }
    return out;
}

// Counts mismatches and reports the first few on stderr.
class checker
{
public:
    explicit checker(std::string name) : name_(std::move(name)) {}

    void expect(bool ok, const std::string& what)
    {
        if(ok)
            return;
        if(failures_ < 10)
            std::cerr << "mismatch (" << name_ << "): " << what << std::endl;
        ++failures_;
    }
    bool passed() const { return failures_ == 0; }

    // prints "check: <name>: yes|no" and returns whether it passed
    bool report() const
    {
        std::cout << "check: " << name_ << ": " << (passed() ? "yes" : "no") << std::endl;
        return passed();
    }

private:
    std::string name_;
    long failures_ = 0;
};

// The checks every tutorial makes on one probe run, against `formula(thread, d)`, the mapping
// the tutorial reads off its encoding by hand:
//   1. every register holds the element the distribution computes for it (library_mapping);
//   2. the hand-read formula says the same;
//   3. the threads cover the tile exactly once.
// `prefix` starts each check's name (e.g. "standard: "); `who` is "thread" or "lane".
template <typename Kernel, typename Formula>
bool check_probe(const probe_result& res, const std::string& tile_name, const std::string& who, Formula formula,
                 const std::string& prefix = "")
{
    constexpr index_t R = Kernel::kRegs;
    checker loaded(prefix + "every register holds the element the distribution computes for it");
    checker by_hand(prefix + "the formula read off the encoding agrees");
    checker cover(prefix + std::to_string(Kernel::kBlockSize) + " " + who + "s x " + std::to_string(R) +
                  " registers cover the " + tile_name + " tile exactly once");

    std::vector<int> seen(Kernel::kRows * Kernel::kCols, 0);
    for(index_t t = 0; t < Kernel::kBlockSize; ++t)
    {
        const auto lib = library_mapping<Kernel>(t);
        for(index_t d = 0; d < R; ++d)
        {
            const index_t raw    = res.raw[t * R + d];
            const coord got      = res.regs[t * R + d];
            const coord hand     = formula(t, d);
            const std::string at = who + " " + std::to_string(t) + " register " + std::to_string(d);
            loaded.expect(got == lib[d],
                          at + " holds " + to_string(got) + ", the distribution says " + to_string(lib[d]));
            by_hand.expect(hand == lib[d], at + ": formula " + to_string(hand) + ", distribution " + to_string(lib[d]));
            if(raw >= 0 && raw < Kernel::kRows * Kernel::kCols)
                ++seen[raw];
            else
                cover.expect(false, at + " holds " + std::to_string(raw) + ", which is no element of the tile");
        }
    }
    for(index_t i = 0; i < Kernel::kRows * Kernel::kCols; ++i)
        cover.expect(seen[i] == 1, "element " + to_string(coord{i / Kernel::kCols, i % Kernel::kCols}) + " is held " +
                                       std::to_string(seen[i]) + " times");

    const bool a = loaded.report();
    const bool b = by_hand.report();
    const bool c = cover.report();
    return a && b && c;
}

// The name of the arch a probe run reports (its position in the arch table).
inline const char* arch_name(index_t arch) { return get_arch_info(static_cast<gpu_arch>(arch)).name; }

inline const char* backend_name()
{
#if defined(CK_TILE_BACKEND_EMULATOR)
    return "emulator";
#else
    return "GPU";
#endif
}

// The registers of one thread, decoded, in register order.
template <typename Kernel>
std::vector<coord> registers_of(const probe_result& res, index_t thread)
{
    return std::vector<coord>(res.regs.begin() + thread * Kernel::kRegs,
                              res.regs.begin() + (thread + 1) * Kernel::kRegs);
}

// Runs `body` and turns its exceptions into one "error: ..." line on stderr and exit status 1.
template <typename Body>
int guarded_main(Body body)
{
    try
    {
        return body();
    }
    catch(const arg_error& e)
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

} // namespace tile_distribution_tutorial
} // namespace ck_tile
