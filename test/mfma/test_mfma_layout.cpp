// SPDX-License-Identifier: MIT
// The MFMA register layouts of mfma_traits (the library's one description of them, which the
// emulator's models and the warp GEMMs' encodings are built from) against AMD's register-layout
// tables for CDNA3
// (test/data/mfma_layouts/cdna3_gfx942.json): every lane and register element of A, B and D of
// every instruction in the file (but the xf32 and f64 ones, which the library leaves out). The
// gfx950-only instructions (gfx950 build) against the rule "twice (f16, bf16, i8) or four times
// (f8f6f4 with fp8 / bf8) the K per lane" of their CDNA3 counterparts in the file, D as theirs.
#include <doctest/doctest.h>

#include <set>
#include <string>
#include <tuple>

#include "mfma_test_common.hpp"

using namespace mfma_test;
using ck_tile::index_t;

namespace {

// The name the calculator gives register element i of an operand of `bits`-bit elements.
std::string register_name(int bits, int i)
{
    std::string r = "v";
    if(bits == 32)
        return r.append(std::to_string(i));
    const int per = 32 / bits;
    const int lo  = (i % per) * bits;
    r.append(std::to_string(i / per)).append(".[").append(std::to_string(lo + bits - 1));
    return r.append(":").append(std::to_string(lo)).append("]");
}

// (block, row, col) of a JSON entry: [row, col] or [block, row, col].
ck_tile::mfma_coord entry(const json& e, int blocks)
{
    if(blocks > 1)
    {
        REQUIRE(e.size() == 3);
        return {e[0].as_int(), e[1].as_int(), e[2].as_int()};
    }
    REQUIRE(e.size() == 2);
    return {0, e[0].as_int(), e[1].as_int()};
}

std::string show(const ck_tile::mfma_coord& c)
{
    std::string r = "(";
    r.append(std::to_string(c.block)).append(",").append(std::to_string(c.row)).append(",");
    return r.append(std::to_string(c.col)).append(")");
}

// Compares one operand: F(lane, e) against X.lanes; counts the mismatches (reports the first few).
template <typename F>
int compare_operand(const std::string& name, const std::string& which, const json& x, int blocks, int per_lane,
                    int bits, F&& formula)
{
    const json& regs = x["registers"];
    CHECK_MESSAGE(regs.size() == static_cast<std::size_t>(per_lane), name << " " << which << ": registers");
    for(int i = 0; i < per_lane && i < static_cast<int>(regs.size()); ++i)
        CHECK_MESSAGE(regs[static_cast<std::size_t>(i)].str == register_name(bits, i),
                      name << " " << which << ": register " << i);
    const json& lanes = x["lanes"];
    REQUIRE(lanes.size() == 64);
    int bad = 0;
    for(int l = 0; l < 64; ++l)
    {
        const json& row = lanes[static_cast<std::size_t>(l)];
        REQUIRE(row.size() == static_cast<std::size_t>(per_lane));
        for(int e = 0; e < per_lane; ++e)
        {
            const ck_tile::mfma_coord want = entry(row[static_cast<std::size_t>(e)], blocks);
            const ck_tile::mfma_coord got  = formula(l, e);
            if(!(want == got) && ++bad <= 4)
                FAIL_CHECK(name << " " << which << " lane " << l << " element " << e << ": table " << show(want)
                                << ", formula " << show(got));
        }
    }
    return bad;
}

// Each (block, row, col) of an operand is held by exactly one (lane, element).
template <typename F>
bool covers_once(int blocks, int rows, int cols, int per_lane, F&& formula)
{
    std::set<std::tuple<int, int, int>> seen;
    for(int l = 0; l < 64; ++l)
        for(int e = 0; e < per_lane; ++e)
        {
            const ck_tile::mfma_coord c = formula(l, e);
            if(c.block < 0 || c.block >= blocks || c.row < 0 || c.row >= rows || c.col < 0 || c.col >= cols)
                return false;
            if(!seen.insert({c.block, c.row, c.col}).second)
                return false;
        }
    return static_cast<int>(seen.size()) == blocks * rows * cols;
}

} // namespace

TEST_SUITE("mfma_layout")
{
    TEST_CASE("every CDNA3 instruction of the layout data matches the formulas")
    {
        const json& instrs = layout_data()["instructions"];
        std::set<std::string> in_file, checked, skipped;
        for(const auto& name : instrs.names)
            in_file.insert(name);

        for_each_instr(common_instrs{}, [&]<typename I>() {
            using tr               = ck_tile::mfma_traits<I>;
            const std::string name = tr::mnemonic;
            CAPTURE(name);
            REQUIRE_MESSAGE(in_file.count(name) == 1, name << " is not in the layout data");
            const json& x = instrs[name];
            CHECK(x["M"].as_int() == tr::M);
            CHECK(x["N"].as_int() == tr::N);
            CHECK(x["K"].as_int() == tr::K);
            CHECK(x["blocks"].as_int() == tr::num_blocks);
            const int blocks = x["blocks"].as_int();
            const int abits  = static_cast<int>(sizeof(typename tr::a_type)) * 8;
            const int bbits  = static_cast<int>(sizeof(typename tr::b_type)) * 8;
            const int cbits  = static_cast<int>(sizeof(typename tr::c_type)) * 8;
            int bad          = 0;
            bad += compare_operand(name, "A", x["A"], blocks, tr::a_per_lane, abits,
                                   [](int l, int e) { return tr::a_coord(l, e); });
            bad += compare_operand(name, "B", x["B"], blocks, tr::b_per_lane, bbits,
                                   [](int l, int e) { return tr::b_coord(l, e); });
            bad += compare_operand(name, "D", x["D"], blocks, tr::c_per_lane, cbits,
                                   [](int l, int e) { return tr::d_coord(l, e); });
            CHECK_MESSAGE(bad == 0, name << ": " << bad << " entries differ");
            checked.insert(name);
        });

        for(const auto& name : in_file)
            if(!checked.count(name))
                skipped.insert(name);
        // Left out on purpose: the xf32 and f64 instructions.
        CHECK(skipped ==
              std::set<std::string>{"v_mfma_f32_16x16x8_xf32", "v_mfma_f32_32x32x4_xf32", "v_mfma_f64_16x16x4_f64"});
        CHECK(checked.size() == 14);
    }

    TEST_CASE("traits are consistent with the layouts")
    {
        for_each_instr(common_instrs{}, [&]<typename I>() {
            using tr               = ck_tile::mfma_traits<I>;
            const std::string name = tr::mnemonic;
            CAPTURE(name);
            CHECK(tr::required_set == ck_tile::mfma_set::cdna3);
            for(ck_tile::index_t i = 0; i < ck_tile::num_archs; ++i)
                CHECK(ck_tile::mfma_supported_on<I>(static_cast<ck_tile::gpu_arch>(i)));
            CHECK(tr::supported);
            CHECK(covers_once(tr::num_blocks, tr::M, tr::K, tr::a_per_lane,
                              [](int l, int e) { return tr::a_coord(l, e); }));
            CHECK(covers_once(tr::num_blocks, tr::K, tr::N, tr::b_per_lane,
                              [](int l, int e) { return tr::b_coord(l, e); }));
            CHECK(covers_once(tr::num_blocks, tr::M, tr::N, tr::c_per_lane,
                              [](int l, int e) { return tr::d_coord(l, e); }));
        });
#if defined(CK_TILE_ARCH_GFX950)
        for_each_instr(gfx950_instrs{}, [&]<typename I>() {
            using tr               = ck_tile::mfma_traits<I>;
            const std::string name = tr::mnemonic;
            CAPTURE(name);
            CHECK(tr::required_set == ck_tile::mfma_set::cdna4);
            CHECK(!ck_tile::mfma_supported_on<I>(ck_tile::gpu_arch::gfx942));
            CHECK(ck_tile::mfma_supported_on<I>(ck_tile::gpu_arch::gfx950));
            CHECK(tr::supported);
        });
#else
        for_each_instr(gfx950_instrs{}, [&]<typename I>() { CHECK(!ck_tile::mfma_traits<I>::supported); });
#endif
        for_each_instr(gfx950_instrs{}, [&]<typename I>() {
            // supported follows the compiled arch's MFMA set in the arch table
            CHECK(ck_tile::mfma_traits<I>::supported == ck_tile::mfma_supported_on<I>(ck_tile::compiled_arch));
            CHECK(!ck_tile::mfma_supported_on<I>(ck_tile::gpu_arch::host));
        });
        CHECK(std::string(ck_tile::mfma_traits<mi::v_mfma_f32_32x32x8_bf16>::mnemonic) == "v_mfma_f32_32x32x8_bf16");
    }

#if defined(CK_TILE_ARCH_GFX950)
    TEST_CASE("gfx950-only instructions: 2x or 4x the K per lane of their CDNA3 counterparts, D as theirs")
    {
        const json& instrs = layout_data()["instructions"];
        // f: the instruction's K (and K per lane) over the counterpart's
        auto check = [&]<typename I>(const char* base_name, int f) {
            using tr               = ck_tile::mfma_traits<I>;
            const std::string name = tr::mnemonic;
            CAPTURE(name);
            const json& base = instrs[base_name];
            REQUIRE(base["M"].as_int() == tr::M);
            REQUIRE(base["N"].as_int() == tr::N);
            REQUIRE(f * base["K"].as_int() == tr::K);
            const int base_per_lane = static_cast<int>(base["A"]["registers"].size());
            REQUIRE(f * base_per_lane == tr::a_per_lane);
            int bad = 0;
            for(int l = 0; l < 64; ++l)
            {
                const json& al = base["A"]["lanes"][static_cast<std::size_t>(l)];
                const json& bl = base["B"]["lanes"][static_cast<std::size_t>(l)];
                // the pattern: a lane of the base holds consecutive k, starting at k0
                const int a_row = al[0][0].as_int(), a_k0 = al[0][1].as_int();
                const int b_k0 = bl[0][0].as_int(), b_col = bl[0][1].as_int();
                for(int e = 0; e < base_per_lane; ++e)
                {
                    REQUIRE(al[static_cast<std::size_t>(e)][1].as_int() == a_k0 + e);
                    REQUIRE(bl[static_cast<std::size_t>(e)][0].as_int() == b_k0 + e);
                }
                for(int e = 0; e < tr::a_per_lane; ++e)
                {
                    bad += !(tr::a_coord(l, e) == ck_tile::mfma_coord{0, a_row, f * a_k0 + e});
                    bad += !(tr::b_coord(l, e) == ck_tile::mfma_coord{0, f * b_k0 + e, b_col});
                }
                for(int e = 0; e < tr::c_per_lane; ++e)
                    bad += !(tr::d_coord(l, e) ==
                             entry(base["D"]["lanes"][static_cast<std::size_t>(l)][static_cast<std::size_t>(e)], 1));
            }
            CHECK(bad == 0);
            CHECK(covers_once(1, tr::M, tr::K, tr::a_per_lane, [](int l, int e) { return tr::a_coord(l, e); }));
            CHECK(covers_once(1, tr::K, tr::N, tr::b_per_lane, [](int l, int e) { return tr::b_coord(l, e); }));
        };
        check.operator()<mi::v_mfma_f32_32x32x16_f16>("v_mfma_f32_32x32x8_f16", 2);
        check.operator()<mi::v_mfma_f32_32x32x16_bf16>("v_mfma_f32_32x32x8_bf16", 2);
        check.operator()<mi::v_mfma_f32_16x16x32_f16>("v_mfma_f32_16x16x16_f16", 2);
        check.operator()<mi::v_mfma_f32_16x16x32_bf16>("v_mfma_f32_16x16x16_bf16", 2);
        check.operator()<mi::v_mfma_i32_32x32x32_i8>("v_mfma_i32_32x32x16_i8", 2);
        check.operator()<mi::v_mfma_i32_16x16x64_i8>("v_mfma_i32_16x16x32_i8", 2);
        check.operator()<mi::v_mfma_f32_32x32x64_f8f6f4_fp8>("v_mfma_f32_32x32x16_fp8_fp8", 4);
        check.operator()<mi::v_mfma_f32_16x16x128_f8f6f4_fp8>("v_mfma_f32_16x16x32_fp8_fp8", 4);
        check.operator()<mi::v_mfma_f32_32x32x64_f8f6f4_bf8>("v_mfma_f32_32x32x16_bf8_bf8", 4);
        check.operator()<mi::v_mfma_f32_16x16x128_f8f6f4_bf8>("v_mfma_f32_16x16x32_bf8_bf8", 4);
    }
#endif
}
