// SPDX-License-Identifier: MIT
// The emulator's race detection on the naive GEMM tutorial: the tutorial as written is clean and
// right; with either of its pipeline's two block_sync_lds() calls left out, the launch fails with
// a race report (even when the numbers happen to come out right).
//
// The tutorial is compiled here unchanged, with `block_sync_lds()` spelled as a macro while its
// headers are read: each call site gets its own number (__COUNTER__), and the test chooses one
// site whose barrier is skipped.
#include <doctest/doctest.h>

#include <exception>
#include <string>

#include "ck_tile/core.hpp"
#include "ck_tile/host.hpp"

namespace naive_race {
inline int skipped_site = 0; // 1: the barrier after the LDS stores, 2: the one after the block GEMM
inline void sync_lds(int site)
{
    if(site != skipped_site)
        ck_tile::block_sync_lds();
}
} // namespace naive_race

constexpr int site_base = __COUNTER__;
#define block_sync_lds() ::naive_race::sync_lds(__COUNTER__ - site_base)
#include "tutorial/ck_tile/gemm/01_naive_gemm/practice_gemm.hpp"
#undef block_sync_lds
// the tutorial's pipeline has exactly two barriers (sites 1 and 2); this line takes number 3
static_assert(__COUNTER__ - site_base == 3, "the naive GEMM tutorial no longer has two block_sync_lds() calls");

#include "tutorial/ck_tile/gemm/01_naive_gemm/reference_gemm.hpp"

using namespace ck_tile;

namespace {

using Kernel =
    PracticeGemm<PracticeGemmProblem<half_t, half_t, float, half_t, PracticeGemmBlockShape<256, 128, 32>, 256>>;

struct racecheck_on
{
    racecheck_on() { emu::set_racecheck(true); }
    ~racecheck_on() { emu::set_racecheck(false); }
};

// Runs the tutorial's kernel on M x N x K with race detection; returns the launch's error ("" when
// none) and whether C matched the reference.
std::string run(int skipped_site, int M, int N, int K, bool& right)
{
    naive_race::skipped_site = skipped_site;
    racecheck_on on;
    HostTensor<half_t> a({M, K}), b({N, K}), c({M, N}), c_ref({M, N});
    FillUniformDistributionIntegerValue<half_t>{-3, 3, 1}(a);
    FillUniformDistributionIntegerValue<half_t>{-3, 3, 2}(b);
    DeviceMem a_dev(a.get_element_space_size_in_bytes()), b_dev(b.get_element_space_size_in_bytes()),
        c_dev(c.get_element_space_size_in_bytes());
    a_dev.ToDevice(a.data());
    b_dev.ToDevice(b.data());
    c_dev.SetZero();
    std::string error;
    try
    {
        launch_kernel(stream_config{}, make_kernel<256>(Kernel{}, dim3(Kernel::Grid::GetGridSize(M, N)), dim3(256), 0,
                                                        static_cast<const half_t*>(a_dev.GetDeviceBuffer()),
                                                        static_cast<const half_t*>(b_dev.GetDeviceBuffer()),
                                                        static_cast<half_t*>(c_dev.GetDeviceBuffer()), M, N, K));
    }
    catch(const std::exception& e)
    {
        error = e.what();
    }
    c_dev.FromDevice(c.data());
    reference_gemm<half_t, half_t, float, half_t>(a, b, c_ref);
    right = c.mData == c_ref.mData; // small integers: exact
    return error;
}

} // namespace

TEST_CASE("the naive GEMM tutorial is clean under race detection")
{
    bool right = false;
    CHECK(run(0, 512, 256, 96, right) == "");
    CHECK(right);
}

TEST_CASE("without the barrier after the LDS stores, a race is reported")
{
    bool right          = true;
    const std::string e = run(1, 256, 128, 64, right);
    INFO(e);
    CHECK(e.find("race: ") != std::string::npos);
    CHECK(e.find("of LDS") != std::string::npos);
    CHECK(e.find("block_gemm_asmem_bsmem_creg.hpp") != std::string::npos); // the reading site
}

TEST_CASE("without the barrier after the block GEMM, a race is reported")
{
    bool right          = true;
    const std::string e = run(2, 256, 128, 64, right);
    INFO(e);
    CHECK(e.find("race: ") != std::string::npos);
    CHECK(e.find("of LDS") != std::string::npos);
    CHECK(e.find("block_gemm_pipeline_agmem_bgmem_creg.hpp") != std::string::npos); // the overwriting store
}
