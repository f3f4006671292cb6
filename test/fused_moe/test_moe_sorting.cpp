// SPDX-License-Identifier: MIT
// reference_moe_sorting on hand-worked cases (padding, empty experts, masking, local tokens), then
// MoeSortingKernel and the multi-phase kernels against it on random routings.
#include <doctest/doctest.h>

#include <random>
#include <vector>
#include "ck_tile/host.hpp"
#include "ck_tile/host/reference/reference_moe_sorting.hpp"
#include "ck_tile/ops/fused_moe.hpp"

using namespace ck_tile;

namespace {

constexpr index_t id(index_t t, index_t s) { return static_cast<index_t>(moe_sorting_mock_id(t, s)); }

// 3 tokens, topk 2, 4 experts: token 0 -> (1, 3), token 1 -> (1, 0), token 2 -> (3, 1);
// weight (t, s) = 10 t + s + 1
struct Small
{
    HostTensor<index_t> ids{{3, 2}};
    HostTensor<float> w{{3, 2}};
    Small()
    {
        const index_t r[3][2] = {{1, 3}, {1, 0}, {3, 1}};
        for(index_t t = 0; t < 3; ++t)
            for(index_t s = 0; s < 2; ++s)
            {
                ids(t, s) = r[t][s];
                w(t, s)   = 10.f * t + s + 1;
            }
    }
};

struct Sorted
{
    std::vector<index_t> ids;
    std::vector<float> w;
    std::vector<index_t> eids;
};

Sorted sort_ref(const Small& in, const HostTensor<index_t>& mask, index_t unit, index_t local_t)
{
    const index_t n = moe_sorting_max_output_ids(3, 4, 2, unit);
    HostTensor<index_t> ids({static_cast<std::size_t>(n)}), eids({static_cast<std::size_t>(n / unit)});
    HostTensor<float> w({static_cast<std::size_t>(n)});
    index_t units = -1;
    reference_moe_sorting<float, index_t>(in.ids, in.w, mask, ids, w, eids, units, 4, unit, local_t);
    return {std::vector<index_t>(ids.mData.begin(), ids.mData.begin() + units * unit),
            std::vector<float>(w.mData.begin(), w.mData.begin() + units * unit),
            std::vector<index_t>(eids.mData.begin(), eids.mData.begin() + units)};
}

} // namespace

TEST_CASE("reference: grouped by expert in token order, padded per expert, empty experts emit nothing")
{
    const Small in;
    const index_t pad = id(3, 2); // tokens | topk << 24
    const Sorted r    = sort_ref(in, HostTensor<index_t>{}, 2, -1);
    // expert 0: (1,1); expert 1: (0,0) (1,0) (2,1); expert 2: none; expert 3: (0,1) (2,0)
    CHECK(r.ids == std::vector<index_t>{id(1, 1), pad, id(0, 0), id(1, 0), id(2, 1), pad, id(0, 1), id(2, 0)});
    CHECK(r.w == std::vector<float>{12.f, 0.f, 1.f, 11.f, 22.f, 0.f, 2.f, 21.f});
    CHECK(r.eids == std::vector<index_t>{0, 1, 1, 3});
    // unit 1: no padding at all
    const Sorted r1 = sort_ref(in, HostTensor<index_t>{}, 1, -1);
    CHECK(r1.ids == std::vector<index_t>{id(1, 1), id(0, 0), id(1, 0), id(2, 1), id(0, 1), id(2, 0)});
    CHECK(r1.eids == std::vector<index_t>{0, 1, 1, 1, 3, 3});
    // unit 4: every expert pads to 4
    const Sorted r4 = sort_ref(in, HostTensor<index_t>{}, 4, -1);
    CHECK(r4.ids.size() == 12);
    CHECK(r4.eids == std::vector<index_t>{0, 1, 3});
}

TEST_CASE("reference: masked-out experts are skipped, expert ids are local indices")
{
    const Small in;
    HostTensor<index_t> mask({4});
    mask(0)           = 0;
    mask(1)           = 1;
    mask(2)           = 0;
    mask(3)           = 1;
    const index_t pad = id(3, 2);
    const Sorted r    = sort_ref(in, mask, 2, -1);
    CHECK(r.ids == std::vector<index_t>{id(0, 0), id(1, 0), id(2, 1), pad, id(0, 1), id(2, 0)});
    CHECK(r.w == std::vector<float>{1.f, 11.f, 22.f, 0.f, 2.f, 21.f});
    CHECK(r.eids == std::vector<index_t>{0, 0, 1}); // expert 1 is local 0, expert 3 local 1
}

TEST_CASE("reference: only the first local_t tokens are sorted; the padding id is local_t | topk << 24")
{
    const Small in;
    const Sorted r = sort_ref(in, HostTensor<index_t>{}, 2, 1);
    CHECK(r.ids == std::vector<index_t>{id(0, 0), id(1, 2), id(0, 1), id(1, 2)});
    CHECK(r.eids == std::vector<index_t>{1, 3});
    const Sorted r0 = sort_ref(in, HostTensor<index_t>{}, 2, 0);
    CHECK(r0.ids.empty());
    CHECK(r0.eids.empty());
}

namespace {

// the kernels on the emulated device against the reference
void check_kernels(index_t t, index_t e, index_t k, index_t unit, index_t local_t, bool masking, int dispatch)
{
    std::mt19937 rng(1234 + t * 7 + e);
    HostTensor<index_t> ids({static_cast<std::size_t>(t), static_cast<std::size_t>(k)});
    HostTensor<float> w({static_cast<std::size_t>(t), static_cast<std::size_t>(k)});
    for(index_t i = 0; i < t; ++i)
    {
        std::vector<index_t> perm(e);
        for(index_t x = 0; x < e; ++x)
            perm[x] = x;
        for(index_t s = 0; s < k; ++s)
        {
            std::swap(perm[s], perm[std::uniform_int_distribution<index_t>(s, e - 1)(rng)]);
            ids(i, s) = perm[s];
            w(i, s)   = std::uniform_real_distribution<float>(0.f, 1.f)(rng);
        }
    }
    HostTensor<index_t> mask;
    if(masking)
    {
        mask = HostTensor<index_t>({static_cast<std::size_t>(e)});
        for(index_t x = 0; x < e; ++x)
            mask(x) = x % 3 != 1;
    }
    const index_t n = moe_sorting_max_output_ids(t, e, k, unit);
    HostTensor<index_t> ids_ref({static_cast<std::size_t>(n)}), eid_ref({static_cast<std::size_t>(n / unit)});
    HostTensor<float> w_ref({static_cast<std::size_t>(n)});
    index_t units = 0;
    reference_moe_sorting<float, index_t>(ids, w, mask, ids_ref, w_ref, eid_ref, units, e, unit, local_t);

    DeviceMem ids_d(ids.get_element_space_size_in_bytes()), w_d(w.get_element_space_size_in_bytes());
    DeviceMem mask_d(e * 4), lt_d(4), sid_d(n * 4), sw_d(n * 4), seid_d(n / unit * 4), tot_d(8);
    const index_t ws_bytes = moe_sorting_get_workspace_size(t, e, k, dispatch);
    DeviceMem ws_d(ws_bytes > 0 ? ws_bytes : 4);
    DeviceMem buf_d(t * 3 * 2);
    ids_d.ToDevice(ids.data());
    w_d.ToDevice(w.data());
    if(masking)
        mask_d.ToDevice(mask.data());
    lt_d.ToDevice(&local_t);
    std::vector<unsigned char> junk(n * 4 + t * 6 + 16, 0x5a);
    buf_d.ToDevice(junk.data());
    sid_d.ToDevice(junk.data());

    MoeSortingHostArgs a{ids_d.GetDeviceBuffer(),
                         w_d.GetDeviceBuffer(),
                         masking ? mask_d.GetDeviceBuffer() : nullptr,
                         local_t >= 0 ? lt_d.GetDeviceBuffer() : nullptr,
                         sid_d.GetDeviceBuffer(),
                         sw_d.GetDeviceBuffer(),
                         seid_d.GetDeviceBuffer(),
                         tot_d.GetDeviceBuffer(),
                         buf_d.GetDeviceBuffer(),
                         ws_d.GetDeviceBuffer(),
                         t,
                         unit,
                         e,
                         k,
                         3,
                         2};
    using P = MoeSortingProblem<index_t, float>;
    const stream_config s{};
    if(!moe_sorting_is_mp(t, e, k, dispatch))
    {
        using K = MoeSortingKernel<P>;
        launch_kernel(s, make_kernel<K::kBlockSize>(K{}, K::GridSize(a), K::BlockSize(a), 0, a));
    }
    else
    {
        using K0 = MoeSortingMultiPhaseKernel<P, 0>;
        using K1 = MoeSortingMultiPhaseKernel<P, 1>;
        using K2 = MoeSortingMultiPhaseKernel<P, 2>;
        using K3 = MoeSortingMultiPhaseKernel<P, 3>;
        launch_kernel(s, make_kernel<256>(K0{}, K0::GridSize(a), K0::BlockSize(a), 0, a),
                      make_kernel<256>(K1{}, K1::GridSize(a), K1::BlockSize(a), 0, a),
                      make_kernel<256>(K2{}, K2::GridSize(a), K2::BlockSize(a), 0, a),
                      make_kernel<256>(K3{}, K3::GridSize(a), K3::BlockSize(a), 0, a));
    }
    std::vector<index_t> tot(2), sid(n), seid(n / unit);
    std::vector<float> sw(n);
    std::vector<unsigned char> buf(t * 6);
    tot_d.FromDevice(tot.data());
    sid_d.FromDevice(sid.data());
    sw_d.FromDevice(sw.data());
    seid_d.FromDevice(seid.data());
    buf_d.FromDevice(buf.data());
    REQUIRE(tot[0] == units * unit);
    CHECK(tot[1] == (local_t < 0 ? t : local_t));
    for(index_t i = 0; i < units * unit; ++i)
    {
        REQUIRE(sid[i] == ids_ref(i));
        REQUIRE(sw[i] == w_ref(i));
    }
    for(index_t u = 0; u < units; ++u)
        REQUIRE(seid[u] == eid_ref(u));
    for(unsigned char c : buf)
        REQUIRE(c == 0);
}

} // namespace

TEST_CASE("MoeSortingKernel and the multi-phase kernels match the reference")
{
    for(int dispatch : {1, 2})
    {
        CAPTURE(dispatch);
        check_kernels(80, 17, 4, 32, -1, false, dispatch);
        check_kernels(1, 1, 1, 1, -1, false, dispatch);
        check_kernels(99, 33, 9, 16, -1, true, dispatch);
        check_kernels(67, 555, 5, 32, 9, false, dispatch);
        check_kernels(61, 333, 99, 8, 0, true, dispatch);
        check_kernels(2000, 64, 8, 64, 1777, true, dispatch);
    }
    check_kernels(700, 3000, 3, 4, -1, false, 2); // beyond the single kernel's LDS table
}
