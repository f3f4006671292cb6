// SPDX-License-Identifier: MIT
// tile_tutorial_tile_distribution_3: the C (accumulator) layout of the MFMA instruction
// v_mfma_f32_32x32x8_f16, written as a tile distribution, standard and transposed.
//
// One wave (64 lanes) computes a 32x32 tile of C with v_mfma_f32_32x32x8_f16; each lane keeps
// 16 fp32 accumulators. Which element of C each accumulator is comes from the hardware; a block
// GEMM describes it with a tile distribution, so that its epilogue can store C with store_tile.
// This program writes that layout as an encoding (and its transpose), loads a 32x32 tile whose
// element (row, col) holds the tag row*32 + col through it, prints for the lanes you choose the
// (row, col) of each of the 16 registers, and checks the standard mapping against the
// instruction's D layout and the transposed one against its transpose. The compiler checks that
// both encodings are exactly the ones the library's warp GEMM uses for this instruction.
//
// Read this file top to bottom: first how the encodings are read, then the program.
#include <iostream>
#include <string>
#include <type_traits>

#include "ck_tile/core.hpp"
#include "ck_tile/host.hpp"
#include "ck_tile/ops/gemm/warp/warp_gemm.hpp"
#include "tile_distribution_probe.hpp"

namespace tdt = ck_tile::tile_distribution_tutorial;
using ck_tile::index_t;
using ck_tile::sequence;
using ck_tile::tuple;

// ---- The hardware fact ---------------------------------------------------------------------
//
// The register layout of D (= C) of v_mfma_f32_32x32x8_f16 on CDNA3 (gfx942), as AMD's public
// matrix instruction calculator prints it (gfx950 keeps the same D layout): lane l's 16
// accumulators come in 4 groups of 4; group g covers rows 8g .. 8g+7, lanes 0..31 hold the first
// 4 of those rows and lanes 32..63 the last 4, and the lane's column is l % 32:
//   lane 0 : rows 0,1,2,3, 8,9,10,11, 16,17,18,19, 24,25,26,27 of column 0
//   lane 33: rows 4,5,6,7, 12,13,14,15, 20,21,22,23, 28,29,30,31 of column 1
constexpr tdt::coord mfma_32x32x8_f16_d(index_t lane, index_t reg)
{
    return {8 * (reg / 4) + 4 * (lane / 32) + reg % 4, lane % 32};
}

// The library describes each instruction's register layouts once, in its traits
// (ck_tile/core/arch/mfma.hpp); the fact above is its D layout for this instruction.
using Mfma = ck_tile::mfma_instr::v_mfma_f32_32x32x8_f16;
constexpr bool fact_is_the_librarys()
{
    for(index_t l = 0; l < 64; ++l)
        for(index_t r = 0; r < 16; ++r)
        {
            const ck_tile::mfma_coord d = ck_tile::mfma_traits<Mfma>::d_coord(l, r);
            if(!(mfma_32x32x8_f16_d(l, r) == tdt::coord{d.row, d.col}))
                return false;
        }
    return true;
}
static_assert(fact_is_the_librarys());

// ---- Reading the standard encoding, step by step -------------------------------------------
//
// tile_distribution_encoding<Rs, Hs, Ps major, Ps minor, Ys major, Ys minor>
//
// Step 1. Hs: split each tile dimension into components, the first one slowest.
//   X0 (M, 32 rows) = H0 = <4, 2, 4>:  row = h00*8 + h01*4 + h02
//   X1 (N, 32 cols) = H1 = <32>:       col = h10
//   Rs = <> : no replicated components.
//
// Step 2. Components by (major, minor): (1,0) = h00, (1,1) = h01, (1,2) = h02, (2,0) = h10.
//
// Step 3. Ps: one P dimension (NDimP = 1), the lane id; the warp plays no part (one wave).
//   Ps major (<1,2>), minor (<1,0>): P0 = merge((1,1), (2,0)), the last listed fastest:
//   lane = h01*32 + h10. So col = h10 = lane % 32 and h01 = lane / 32 (lanes 32..63 sit 4 rows
//   lower than lanes 0..31).
//
// Step 4. Ys major <1,1>, minor <0,2>:
//   - Y0 = (1,0) = h00 (length 4): 4 groups, 8 rows apart.
//   - Y1 = (1,2) = h02 (length 4): 4 consecutive rows.
//   Both Ys walk rows: a lane's 16 registers are one column. No Y walks the last dimension
//   with stride 1, so a load or store through this layout moves one element at a time.
//
// Step 5. Register order: row-major over the Y lengths <4, 4>: register d = y0*4 + y1, so lane l
//   holds in register d
//     row = 8*y0 + 4*(l/32) + y1 = 8*(d/4) + 4*(l/32) + d%4,   col = l % 32
//   which is the hardware fact above, register for register.
using CEncoding = ck_tile::tile_distribution_encoding<sequence<>,                             // Rs
                                                      tuple<sequence<4, 2, 4>, sequence<32>>, // Hs
                                                      tuple<sequence<1, 2>>,                  // Ps major
                                                      tuple<sequence<1, 0>>,                  // Ps minor
                                                      sequence<1, 1>,                         // Ys major
                                                      sequence<0, 2>>;                        // Ys minor

// ---- Reading the transposed encoding -------------------------------------------------------
//
// A GEMM can compute C^T = B^T * A^T with the same instruction by swapping its A and B
// operands; the accumulators then hold the transposed layout: lane l's registers lie along one
// ROW of C. The encoding swaps the roles of the two dimensions:
//   Hs = <32>, <4, 2, 4>:          row = h00,  col = h10*8 + h11*4 + h12
//   Ps (<2,1>) / (<1,0>):          lane = merge((2,1), (1,0)) = h11*32 + h00:
//                                  row = lane % 32, h11 = lane / 32
//   Ys <2,2> / <0,2>:              Y0 = h10 (4 groups, 8 columns apart), Y1 = h12 (4 columns)
//   register d = y0*4 + y1:        row = l % 32,  col = 8*(d/4) + 4*(l/32) + d%4
// Now Y1 walks the last dimension with stride 1: a lane's 4 consecutive registers are 4
// contiguous elements of a row-major C, one vector store instead of four.
using CTransposedEncoding = ck_tile::tile_distribution_encoding<sequence<>,                             // Rs
                                                                tuple<sequence<32>, sequence<4, 2, 4>>, // Hs
                                                                tuple<sequence<2, 1>>,                  // Ps major
                                                                tuple<sequence<1, 0>>,                  // Ps minor
                                                                sequence<2, 2>,                         // Ys major
                                                                sequence<0, 2>>;                        // Ys minor

// ---- The library's encodings ---------------------------------------------------------------
//
// A block GEMM does not write these encodings by hand: the warp GEMM of the instruction derives
// its C encoding (and those of A and B) from the instruction's layout in its traits. Ours are
// exactly the same types:
static_assert(std::is_same_v<CEncoding, ck_tile::WarpGemmAttributeMfma<Mfma>::CWarpDstrEncoding>);
static_assert(std::is_same_v<CTransposedEncoding,
                             ck_tile::WarpGemmAttributeMfmaTransposedCDistribution<Mfma>::CWarpDstrEncoding>);

constexpr index_t kM = 32, kN = 32, kWaveSize = 64;
using Kernel           = tdt::DistributionProbeKernel<kM, kN, kWaveSize, CEncoding>;
using KernelTransposed = tdt::DistributionProbeKernel<kM, kN, kWaveSize, CTransposedEncoding>;

// Checked by the compiler: 16 registers per lane, Y lengths <4, 4> in both; a vector direction
// only in the transposed one.
static_assert(Kernel::kRegs == 16 && KernelTransposed::kRegs == 16);
static_assert(Kernel::Dstr::get_ys_lengths().at(0) == 4 && Kernel::Dstr::get_ys_lengths().at(1) == 4);
static_assert(KernelTransposed::Dstr::get_ys_lengths().at(0) == 4 &&
              KernelTransposed::Dstr::get_ys_lengths().at(1) == 4);
static_assert(Kernel::Dstr::get_vector_y_dim() == -1);
static_assert(KernelTransposed::Dstr::get_vector_y_dim() == 1);

// Step 5 as code, for each encoding: the element lane l holds in register d.
tdt::coord c_formula(index_t l, index_t d) { return {8 * (d / 4) + 4 * (l / 32) + d % 4, l % 32}; }
tdt::coord c_transposed_formula(index_t l, index_t d) { return {l % 32, 8 * (d / 4) + 4 * (l / 32) + d % 4}; }

// Shows one of the two layouts from its probe run: prints the chosen lanes, then the checks.
// Returns whether all passed.
template <typename K, typename Formula>
bool show(const tdt::probe_result& res, const std::string& name, const std::string& encoding,
          const std::string& formula_text, const std::vector<index_t>& lanes, Formula formula, bool transposed)
{
    std::cout << name << " encoding: " << encoding << "\n"
              << name << " mapping: lane l, register d: " << formula_text << "\n";
    for(index_t l : lanes)
        std::cout << tdt::mapping_line(name + " lane " + std::to_string(l), tdt::registers_of<K>(res, l)) << "\n";

    bool pass = tdt::check_probe<K>(res, "32x32", "lane", formula, name + ": ");

    // The point of the exercise: the layout is the instruction's D layout (or its transpose).
    tdt::checker hw(name + ": every lane and register agrees with the D layout of v_mfma_f32_32x32x8_f16" +
                    (transposed ? " transposed" : ""));
    for(index_t l = 0; l < kWaveSize; ++l)
        for(index_t d = 0; d < K::kRegs; ++d)
        {
            const tdt::coord fact = mfma_32x32x8_f16_d(l, d);
            const tdt::coord want = transposed ? tdt::coord{fact.col, fact.row} : fact;
            const tdt::coord got  = res.regs[l * K::kRegs + d];
            hw.expect(got == want, "lane " + std::to_string(l) + " register " + std::to_string(d) + " holds " +
                                       tdt::to_string(got) + ", the instruction's layout says " + tdt::to_string(want));
        }
    return hw.report() && pass;
}

int main(int argc, char* argv[])
{
    ck_tile::ArgParser args;
    args.insert("lanes", "0,1,32,33,63", "lanes (0..63) whose registers are printed, separated by commas, or all")
        .insert("transposed", "both", "which layout: 0 standard, 1 transposed, both");
    if(!args.parse(argc, argv))
        return args.help_requested() ? 0 : 1;

    return tdt::guarded_main([&] {
        const auto lanes        = tdt::parse_id_list(args, "lanes", kWaveSize, "lane");
        const std::string which = args.get_str("transposed");
        if(which != "0" && which != "1" && which != "both")
            throw ck_tile::arg_error("error: option -transposed: '" + which + "' is not 0, 1 or both");

        std::cout << "C tile 32x32 (M x N) of v_mfma_f32_32x32x8_f16, one wave of 64 lanes, 16 registers per lane\n"
                  << "registers: Y lengths <4,4>, register d = y0*4 + y1\n";
        const bool want_standard = which != "1", want_transposed = which != "0";
        tdt::probe_result standard, transposed;
        if(want_standard)
            standard = tdt::run_probe<Kernel>();
        if(want_transposed)
            transposed = tdt::run_probe<KernelTransposed>();
        std::cout << "ran on: " << tdt::arch_name(want_standard ? standard.arch : transposed.arch) << " ("
                  << tdt::backend_name() << ")\n";

        bool pass = true;
        if(want_standard)
            pass &= show<Kernel>(standard, "standard", "Rs=<> Hs=<4,2,4>,<32> Ps=(<1,2>)/(<1,0>) Ys=<1,1>/<0,2>",
                                 "row = 8*(d/4) + 4*(l/32) + d%4, col = l%32", lanes, c_formula, false);
        if(want_transposed)
            pass &= show<KernelTransposed>(
                transposed, "transposed", "Rs=<> Hs=<32>,<4,2,4> Ps=(<2,1>)/(<1,0>) Ys=<2,2>/<0,2>",
                "row = l%32, col = 8*(d/4) + 4*(l/32) + d%4", lanes, c_transposed_formula, true);
        std::cout << "valid:" << (pass ? "y" : "n") << std::endl;
        return pass ? 0 : 1;
    });
}
