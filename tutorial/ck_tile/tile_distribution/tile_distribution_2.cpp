// SPDX-License-Identifier: MIT
// tile_tutorial_tile_distribution_2: which thread holds which element of the B tile of a block GEMM.
//
// The companion of tutorial 1. The block GEMM keeps B with K contiguous (B^T row-major, N x K),
// so each step of the K loop its 256 threads (4 warps of 64 lanes) load a 128x32 tile of B
// (N = 128 rows, K = 32 columns, 2-byte elements like fp16). The pattern is the one of the A
// tile; only the number of repeats down the rows shrinks from 4 to 2, because the tile has half
// as many rows. This program loads a tile whose element (n, k) holds the tag n*32 + k, lets every
// thread write back what it got, and prints, for the threads you choose, the (row, col) of each
// register. Then it checks every register of every thread and that the 256 threads cover the
// tile exactly once.
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
//   X0 (N, 128 rows)  = H0 = <2, 4, 16>:  n = h00*64 + h01*16 + h02   (2*4*16 = 128)
//   X1 (K, 32 cols)   = H1 = <4, 8>:      k = h10*8  + h11            (4*8    = 32)
//   Rs = <> : no replicated components.
//   Only h00 differs from tutorial 1 (2 instead of 4): 2 bands of 64 rows instead of 4.
//
// Step 2. Name each component by (major, minor): major 0 is R, major 1 is H0, major 2 is H1;
//   minor is the position inside it: (1,0) = h00, (1,1) = h01, (1,2) = h02, (2,0) = h10,
//   (2,1) = h11.
//
// Step 3. Ps (NDimP = 2: P0 is the warp id, P1 the lane id), major (<1>, <1,2>), minor
//   (<1>, <2,0>), the same as for the A tile:
//   - P0 = (1,1)                 : warp = h01 (0..3), a band of 16 rows per warp.
//   - P1 = merge((1,2), (2,0))   : lane = h02*4 + h10, the last listed component fastest:
//     h02 = lane / 4 is the row inside the warp's band, h10 = lane % 4 the 8-column group.
//     A warp's 64 lanes cover 16 rows x 4 column groups; 4 neighbouring lanes read one whole
//     64-byte row.
//
// Step 4. Ys major <1,2>, minor <0,1>:
//   - Y0 = (1,0) = h00 (length 2): two repeats, 64 rows apart.
//   - Y1 = (2,1) = h11 (length 8): 8 contiguous columns, one 16-byte vector load.
//   Every component appears once: 2*4*16*4*8 = 256 threads x 16 registers = 128 x 32.
//
// Step 5. Register order: row-major over the Y lengths <2, 8>: register d = y0*8 + y1, so thread
//   t = warp*64 + lane holds in register d
//     row = 64*y0 + 16*warp + lane/4,   col = 8*(lane%4) + y1,   y0 = d/8, y1 = d%8.
//   Thread 0: rows 0 and 64, columns 0..7. Thread 1: the same rows, columns 8..15.
//   Thread 4: rows 1 and 65. Thread 64 (warp 1, lane 0): rows 16 and 80.
//   Threads hold the same rows as in tutorial 1, minus the repeats at 128 and 192.
using BEncoding = ck_tile::tile_distribution_encoding<sequence<>,                                // Rs
                                                      tuple<sequence<2, 4, 16>, sequence<4, 8>>, // Hs
                                                      tuple<sequence<1>, sequence<1, 2>>,        // Ps major
                                                      tuple<sequence<1>, sequence<2, 0>>,        // Ps minor
                                                      sequence<1, 2>,                            // Ys major
                                                      sequence<0, 1>>;                           // Ys minor

constexpr index_t kN = 128, kK = 32, kBlockSize = 256;
using Kernel = tdt::DistributionProbeKernel<kN, kK, kBlockSize, BEncoding>;

// The same facts, checked by the compiler: 16 registers per thread, Y lengths <2, 8>, and the
// 8 contiguous columns (Y1) are the direction of vector access.
static_assert(Kernel::kRegs == 16);
static_assert(Kernel::Dstr::get_ys_lengths().at(0) == 2 && Kernel::Dstr::get_ys_lengths().at(1) == 8);
static_assert(Kernel::Dstr::get_vector_y_dim() == 1);

// Step 5 as code: the element thread t holds in register d, read off the encoding by hand.
tdt::coord b_formula(index_t t, index_t d)
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

        std::cout << "B tile " << kN << "x" << kK << " (N x K), 256 threads = 4 warps x 64 lanes, 2-byte elements\n"
                  << "encoding: Rs=<> Hs=<2,4,16>,<4,8> Ps=(<1>,<1,2>)/(<1>,<2,0>) Ys=<1,2>/<0,1>\n"
                  << "registers: Y lengths <2,8>, 16 per thread, register d = y0*8 + y1\n"
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

        const bool pass = tdt::check_probe<Kernel>(res, "128x32", "thread", b_formula);
        std::cout << "valid:" << (pass ? "y" : "n") << std::endl;
        return pass ? 0 : 1;
    });
}
