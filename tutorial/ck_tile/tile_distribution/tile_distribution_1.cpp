// SPDX-License-Identifier: MIT
// tile_tutorial_tile_distribution_1: which thread holds which element of the A tile of a block GEMM.
//
// A block GEMM that computes 256 rows of C = A * B walks K in steps of 32: each step, its 256
// threads (4 warps of 64 lanes) load a 256x32 tile of A (M = 256 rows, K = 32 columns,
// row-major, 2-byte elements like fp16) from global memory. The tile distribution below says
// which elements each thread loads into its registers. This program loads a tile whose element
// (m, k) holds the tag m*32 + k, lets every thread write back what it got, and prints, for the
// threads you choose, the (row, col) of each register. Then it checks every register of every
// thread and that the 256 threads cover the tile exactly once.
//
// Read this file top to bottom: first how the encoding is read, then the program.
#include <iostream>
#include <string>

#include "ck_tile/core.hpp"
#include "ck_tile/host.hpp"
#include "tile_distribution_probe.hpp"

namespace tdt = ck_tile::tile_distribution_tutorial;
using ck_tile::index_t;
using ck_tile::sequence;
using ck_tile::tuple;

// ---- Reading the encoding, step by step ----------------------------------------------------
//
// tile_distribution_encoding<Rs, Hs, Ps major, Ps minor, Ys major, Ys minor>
//
// Step 1. Hs: split each tile dimension into components, the first one slowest.
//   X0 (M, 256 rows)  = H0 = <4, 4, 16>:  m = h00*64 + h01*16 + h02   (4*4*16 = 256)
//   X1 (K, 32 cols)   = H1 = <4, 8>:      k = h10*8  + h11            (4*8    = 32)
//   Rs = <> : no replicated components (every element lives in exactly one thread).
//
// Step 2. Name each component by (major, minor): major 0 is R, major 1 is H0, major 2 is H1;
//   minor is the position inside it. So (1,0) = h00, (1,1) = h01, (1,2) = h02, (2,0) = h10,
//   (2,1) = h11.
//
// Step 3. Ps: which components the thread's own ids select. With two P dimensions (NDimP = 2),
//   P0 is the warp id and P1 the lane id. Ps major = (<1>, <1,2>), Ps minor = (<1>, <2,0>):
//   - P0 = (1,1)                 : warp = h01 (0..3). Each warp owns a band of 16 rows.
//   - P1 = merge((1,2), (2,0))   : lane = h02*4 + h10 (the last listed component fastest).
//     So h02 = lane / 4 (the row inside the warp's band, 0..15) and h10 = lane % 4 (which
//     8-column group). A warp's 64 lanes form 16 rows x 4 column groups: lanes 0..3 read row
//     0 of the band, the whole 32 columns = 64 contiguous bytes; lanes 4..7 the next row...
//
// Step 4. Ys: the components left over are walked by the thread's registers. Ys major = <1,2>,
//   Ys minor = <0,1>:
//   - Y0 = (1,0) = h00 (length 4): the thread repeats its pattern 4 times, 64 rows apart.
//   - Y1 = (2,1) = h11 (length 8): 8 contiguous columns. Y1 is the last component of the last
//     dimension (stride 1 in memory), so those 8 registers are one 16-byte vector load.
//   Every component appears exactly once, in a P or a Y: 4*4*16*4*8 = 256 threads x 32 registers.
//
// Step 5. Register order: row-major over the Y lengths <4, 8>, the last Y fastest:
//   register d = y0*8 + y1. Put together, thread t = warp*64 + lane holds in register d
//     row = 64*y0 + 16*warp + lane/4,   col = 8*(lane%4) + y1,   y0 = d/8, y1 = d%8.
//   Thread 0: rows 0, 64, 128, 192, columns 0..7. Thread 1: the same rows, columns 8..15.
//   Thread 4: row 1 (then 65, 129, 193), columns 0..7. Thread 64 (warp 1, lane 0): row 16.
using AEncoding = ck_tile::tile_distribution_encoding<sequence<>,                                // Rs
                                                      tuple<sequence<4, 4, 16>, sequence<4, 8>>, // Hs
                                                      tuple<sequence<1>, sequence<1, 2>>,        // Ps major
                                                      tuple<sequence<1>, sequence<2, 0>>,        // Ps minor
                                                      sequence<1, 2>,                            // Ys major
                                                      sequence<0, 1>>;                           // Ys minor

constexpr index_t kM = 256, kK = 32, kBlockSize = 256;
using Kernel = tdt::DistributionProbeKernel<kM, kK, kBlockSize, AEncoding>;

// The same facts, checked by the compiler: 32 registers per thread, Y lengths <4, 8>, and the
// 8 contiguous columns (Y1) are the direction of vector access.
static_assert(Kernel::kRegs == 32);
static_assert(Kernel::Dstr::get_ys_lengths().at(0) == 4 && Kernel::Dstr::get_ys_lengths().at(1) == 8);
static_assert(Kernel::Dstr::get_vector_y_dim() == 1);

// Step 5 as code: the element thread t holds in register d, read off the encoding by hand.
tdt::coord a_formula(index_t t, index_t d)
{
    const index_t warp = t / 64, lane = t % 64, y0 = d / 8, y1 = d % 8;
    return {64 * y0 + 16 * warp + lane / 4, 8 * (lane % 4) + y1};
}

int main(int argc, char* argv[])
{
    ck_tile::ArgParser args;
    args.insert("threads", "0,1,4,64,255", "threads (0..255) whose registers are printed, separated by commas, or all");
    if(!args.parse(argc, argv))
        return args.help_requested() ? 0 : 1;

    return tdt::guarded_main([&] {
        const auto threads = tdt::parse_id_list(args, "threads", kBlockSize, "thread");

        std::cout << "A tile " << kM << "x" << kK << " (M x K), 256 threads = 4 warps x 64 lanes, 2-byte elements\n"
                  << "encoding: Rs=<> Hs=<4,4,16>,<4,8> Ps=(<1>,<1,2>)/(<1>,<2,0>) Ys=<1,2>/<0,1>\n"
                  << "registers: Y lengths <4,8>, 32 per thread, register d = y0*8 + y1\n"
                  << "mapping: thread t = warp*64 + lane, register d: row = 64*y0 + 16*warp + lane/4, col = "
                     "8*(lane%4) + y1\n";

        const auto res = tdt::run_probe<Kernel>();
        std::cout << "ran on: " << tdt::arch_name(res.arch) << " (" << tdt::backend_name() << ")\n";

        // what each chosen thread's registers hold, in register order
        for(index_t t : threads)
            std::cout << tdt::mapping_line("thread " + std::to_string(t) + " (warp " + std::to_string(t / 64) +
                                               ", lane " + std::to_string(t % 64) + ")",
                                           tdt::registers_of<Kernel>(res, t))
                      << "\n";

        const bool pass = tdt::check_probe<Kernel>(res, "256x32", "thread", a_formula);
        std::cout << "valid:" << (pass ? "y" : "n") << std::endl;
        return pass ? 0 : 1;
    });
}
