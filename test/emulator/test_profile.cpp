// SPDX-License-Identifier: MIT
// The access profile (profile.hpp, profile_model.hpp): LDS bank conflicts of an unpadded and a
// padded tile, coalescing of contiguous and strided global loads, vector widths, MFMA, barrier
// and LDS counts, the report on stderr, and nothing at all when the profile is off.
#include <doctest/doctest.h>

#include <cstdio>
#include <string>
#include <vector>

#include <unistd.h>

#include "test_common.hpp"
#include "ck_tile/core.hpp"

namespace emu = ck_tile::emu;
using ck_tile::address_space_enum;
using ck_tile::number;

namespace {

struct profile_guard
{
    profile_guard() { emu::set_profile(true); }
    ~profile_guard() { emu::set_profile(false); }
};

// What `f()` writes to stderr (file descriptor 2).
template <typename F>
std::string capture_stderr(F&& f)
{
    std::fflush(stderr);
    std::FILE* tmp = std::tmpfile();
    REQUIRE(tmp != nullptr);
    const int saved = dup(2);
    dup2(fileno(tmp), 2);
    f();
    std::fflush(stderr);
    dup2(saved, 2);
    close(saved);
    std::string s;
    std::rewind(tmp);
    for(int ch; (ch = std::fgetc(tmp)) != EOF;)
        s += static_cast<char>(ch);
    std::fclose(tmp);
    return s;
}

// One wave reads column `c` of a 64 x 64 fp32 LDS tile whose rows are `Stride` floats apart,
// c = 0..63, lane t taking row t: with Stride 64 all lanes of a phase hit one bank.
template <int Stride>
void lds_column_reads()
{
    emu::launch({{1}, {64}, 64 * Stride * sizeof(float), "lds_columns"}, [] {
        auto* p         = static_cast<float*>(emu::dynamic_lds());
        const auto tile = ck_tile::make_naive_tensor_view<address_space_enum::lds>(p, ck_tile::make_tuple(64, 64),
                                                                                   ck_tile::make_tuple(Stride, 1));
        const int t     = emu::lane_id();
        float sum       = 0;
        for(int c = 0; c < 64; ++c)
            sum += tile.get_element(ck_tile::make_multi_index(t, c));
        asm volatile("" ::"r"(sum));
    });
}

// Lane t loads one float at element t * Stride of a global buffer (and stores one at t).
template <int Stride>
void global_strided(float* g)
{
    emu::launch({{1}, {64}, 0, "global_strided"}, [=] {
        const auto v  = ck_tile::make_naive_tensor_view<address_space_enum::global>(g, ck_tile::make_tuple(64 * 64),
                                                                                    ck_tile::make_tuple(1));
        const int t   = emu::lane_id();
        const float x = v.get_element(ck_tile::make_multi_index(t * Stride));
        v.set_element(ck_tile::make_multi_index(t), x + 1.0f);
    });
}

} // namespace

TEST_SUITE("profile")
{
    TEST_CASE("column reads of an unpadded LDS tile conflict on every instruction; a padded tile's do not")
    {
        profile_guard on;
        lds_column_reads<64>();
        const emu::profile_report r = emu::last_profile();
        CHECK(r.kernel_name == "lds_columns");
        CHECK(r.lds_reads == 64);
        CHECK(r.lds_writes == 0);
        CHECK(r.lds_conflicted == 64);
        CHECK(r.lds_conflict_percent() == doctest::Approx(100.0));
        // each instruction: two phases of 32 lanes, all on one bank: 31 extra cycles each
        CHECK(r.lds_conflict_cycles == 64 * 2 * 31);
        CHECK(r.lds_width[2] == 64); // 4 bytes per lane
        CHECK(r.lds_bytes == 64 * 64 * sizeof(float));

        lds_column_reads<65>();
        const emu::profile_report p = emu::last_profile();
        CHECK(p.launch == r.launch + 1);
        CHECK(p.lds_reads == 64);
        CHECK(p.lds_conflicted == 0);
        CHECK(p.lds_conflict_percent() == doctest::Approx(0.0));
        CHECK(p.lds_conflict_cycles == 0);
    }

    TEST_CASE("16-byte LDS accesses are serviced 8 lanes at a time; broadcasts do not conflict")
    {
        profile_guard on;
        using lds_view = ck_tile::buffer_view<address_space_enum::lds, float>;
        emu::launch({{1}, {64}, 64 * 8 * sizeof(float), "lds_b128"}, [] {
            const lds_view lds{static_cast<float*>(emu::dynamic_lds()), 64 * 8};
            const int t = emu::lane_id();
            (void)lds.get<4>(4 * t, true); // contiguous: conflict-free
            (void)lds.get<4>(8 * t, true); // 32-byte stride: 8 lanes span 2 rows of banks: 1 extra cycle
            (void)lds.get<4>(0, true);     // every lane the same 16 bytes: a broadcast
            (void)lds.get<1>(t % 2, true); // two dwords in two banks
            (void)lds.get<8>(8 * t, true); // 32 bytes: two 16-byte instructions, both 32-byte strided
        });
        const emu::profile_report r = emu::last_profile();
        CHECK(r.lds_reads == 6);
        CHECK(r.lds_width[4] == 5);
        CHECK(r.lds_width[2] == 1);
        CHECK(r.lds_conflicted == 3);
        CHECK(r.lds_conflict_cycles == 3 * 8);
    }

    TEST_CASE("a strided global load fetches 16 times the bytes it uses; a contiguous one none more")
    {
        profile_guard on;
        float* g = static_cast<float*>(emu::device_malloc(64 * 64 * sizeof(float)));
        global_strided<1>(g);
        const emu::profile_report c = emu::last_profile();
        CHECK(c.global_loads == 1);
        CHECK(c.global_load_useful == 256);
        CHECK(c.global_load_fetched == 256);
        CHECK(c.global_load_efficiency() == doctest::Approx(100.0));
        CHECK(c.global_stores == 1);
        CHECK(c.global_store_efficiency() == doctest::Approx(100.0));
        CHECK(c.global_width[2] == 2);

        global_strided<64>(g); // 256 bytes between lanes: each lane's 4 bytes in a segment of its own
        const emu::profile_report s = emu::last_profile();
        CHECK(s.global_loads == 1);
        CHECK(s.global_load_useful == 256);
        CHECK(s.global_load_fetched == 64 * 64);
        CHECK(s.global_load_efficiency() == doctest::Approx(6.25));
        CHECK(s.global_store_efficiency() == doctest::Approx(100.0));
        emu::device_free(g);
    }

    TEST_CASE("load_tile through a tile window: 16-byte loads, coalesced when the rows are contiguous")
    {
        profile_guard on;
        float* g = static_cast<float*>(emu::device_malloc(64 * 64 * sizeof(float)));
        // 64 rows of 4 floats, lane t holding row t as one vector
        using enc = ck_tile::tile_distribution_encoding<
            ck_tile::sequence<>, ck_tile::tuple<ck_tile::sequence<1, 64>, ck_tile::sequence<4>>,
            ck_tile::tuple<ck_tile::sequence<1>, ck_tile::sequence<1>>,
            ck_tile::tuple<ck_tile::sequence<0>, ck_tile::sequence<1>>, ck_tile::sequence<2>, ck_tile::sequence<0>>;
        const auto run = [g](int stride) {
            emu::launch({{1}, {64}, 0, "tile_rows"}, [=] {
                const auto v = ck_tile::make_naive_tensor_view<address_space_enum::global>(
                    g, ck_tile::make_tuple(64, 4), ck_tile::make_tuple(stride, 1), number<4>{}, number<1>{});
                auto w       = ck_tile::make_tile_window(v, ck_tile::make_tuple(number<64>{}, number<4>{}),
                                                         ck_tile::make_multi_index(0, 0),
                                                         ck_tile::make_static_tile_distribution(enc{}));
                const auto x = ck_tile::load_tile(w);
                asm volatile("" ::"r"(&x) : "memory");
            });
            return emu::last_profile();
        };
        const emu::profile_report dense = run(4);
        CHECK(dense.global_loads == 1);
        CHECK(dense.global_width[4] == 1);
        CHECK(dense.global_load_efficiency() == doctest::Approx(100.0));
        const emu::profile_report sparse = run(64); // rows 256 bytes apart: 16 of each 64 bytes used
        CHECK(sparse.global_loads == 1);
        CHECK(sparse.global_load_efficiency() == doctest::Approx(25.0));
        emu::device_free(g);
    }

    TEST_CASE("MFMAs, barriers, workgroups and LDS are counted; the report goes to stderr")
    {
        profile_guard on;
        using I                     = ck_tile::mfma_instr::v_mfma_f32_32x32x8_f16;
        const std::string err       = capture_stderr([] {
            emu::launch({{3}, {128}, 1000, "counted"}, [] {
                emu::barrier();
                ck_tile::mfma_c_buffer<I> c{};
                c = ck_tile::mfma<I>(ck_tile::mfma_a_buffer<I>{}, ck_tile::mfma_b_buffer<I>{}, c);
                c = ck_tile::mfma<I>(ck_tile::mfma_a_buffer<I>{}, ck_tile::mfma_b_buffer<I>{}, c);
                asm volatile("" ::"r"(&c) : "memory");
                emu::barrier();
            });
        });
        const emu::profile_report r = emu::last_profile();
        CHECK(r.workgroups == 3);
        CHECK(r.mfma == 3 * 2 * 2); // 3 workgroups of 2 waves, 2 each
        CHECK(r.barriers == 3 * 2);
        CHECK(r.lds_bytes == 1008); // the dynamic LDS, rounded up to 16 bytes
        CHECK(r.grid.x == 3);
        CHECK(r.block.x == 128);
        CHECK(err.find("ck_tile emulator profile: kernel 'counted'") != std::string::npos);
        CHECK(err.find("LDS bank conflicts: 0 (0.0% of LDS wavefront instructions)") != std::string::npos);
        CHECK(err.find("MFMA: 12 wavefront instructions") != std::string::npos);
        CHECK(err.find("barriers: 6 completed") != std::string::npos);
    }

    TEST_CASE("__shared__ arrays are not in the arena: the span their accesses touch is reported")
    {
        profile_guard on;
        using lds_view = ck_tile::buffer_view<address_space_enum::lds, float>;
        emu::launch({{2}, {64}, 0, "shared_span"}, [] {
            __shared__ float buf[256];
            const lds_view lds{buf, 256};
            const int t = emu::lane_id();
            lds.set<1>(t, true, {{1.0f}});
            lds.set<1>(192 + t, true, {{2.0f}});
        });
        const emu::profile_report r = emu::last_profile();
        CHECK(r.lds_bytes == 0);
        CHECK(r.lds_shared_span == 256 * sizeof(float));
        CHECK(r.lds_writes == 2 * 2);
        CHECK(r.lds_conflicted == 0);
    }

    TEST_CASE("profile off: no report, the last profile untouched")
    {
        emu::set_profile(false);
        CHECK_FALSE(emu::profile_enabled());
        const emu::profile_report before = emu::last_profile();
        const std::string err            = capture_stderr([] { lds_column_reads<64>(); });
        CHECK(err.empty());
        const emu::profile_report after = emu::last_profile();
        CHECK(after.launch == before.launch);
        CHECK(after.kernel_name == before.kernel_name);
        CHECK(after.lds_reads == before.lds_reads);
    }

    TEST_CASE("profile and racecheck together: both work")
    {
        profile_guard on;
        emu::set_racecheck(true);
        const std::string m = emu_test::launch_error_message([] { lds_column_reads<65>(); });
        emu::set_racecheck(false);
        CHECK(m == "");
        CHECK(emu::last_profile().lds_reads == 64);
    }
}
