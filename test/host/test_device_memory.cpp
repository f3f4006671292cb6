// SPDX-License-Identifier: MIT
#include <doctest/doctest.h>

#include <cstdint>
#include <numeric>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "ck_tile/host/device_memory.hpp"
#include "ck_tile/host/hip_check_error.hpp"
#include "ck_tile/host/host_tensor.hpp"

static_assert(!std::is_copy_constructible_v<ck_tile::DeviceMem>);
static_assert(!std::is_copy_assignable_v<ck_tile::DeviceMem>);
static_assert(std::is_nothrow_move_constructible_v<ck_tile::DeviceMem>);
static_assert(std::is_nothrow_move_assignable_v<ck_tile::DeviceMem>);

TEST_CASE("round trip host -> device -> host")
{
    std::vector<float> src(1000);
    std::iota(src.begin(), src.end(), 0.f);
    ck_tile::DeviceMem buf(src.size() * sizeof(float));
    CHECK(buf.GetBufferSize() == 4000);
    CHECK(buf.GetDeviceBuffer() != nullptr);
    buf.ToDevice(src.data());
    std::vector<float> dst(1000, -1.f);
    buf.FromDevice(dst.data());
    CHECK(dst == src);

    // partial copies
    std::vector<float> part(10, -1.f);
    buf.FromDevice(part.data(), 10 * sizeof(float));
    CHECK(part == std::vector<float>(src.begin(), src.begin() + 10));
    std::vector<float> head(4, 9.f);
    buf.ToDevice(head.data(), 4 * sizeof(float));
    buf.FromDevice(dst.data());
    CHECK(dst[3] == 9.f);
    CHECK(dst[4] == 4.f);
}

TEST_CASE("HostTensor through DeviceMem")
{
    ck_tile::HostTensor<std::int32_t> a({3, 5}, {8, 1});
    std::iota(a.begin(), a.end(), 1);
    ck_tile::DeviceMem buf(a.get_element_space_size_in_bytes());
    buf.ToDevice(a.data());
    ck_tile::HostTensor<std::int32_t> b(a.mDesc);
    buf.FromDevice(b.data());
    CHECK(b.mData == a.mData);
}

TEST_CASE("SetZero, Realloc, copies larger than the buffer")
{
    std::vector<std::uint8_t> ones(64, 1), back(64, 7);
    ck_tile::DeviceMem buf(64);
    buf.ToDevice(ones.data());
    buf.SetZero();
    buf.FromDevice(back.data());
    CHECK(back == std::vector<std::uint8_t>(64, 0));

    buf.Realloc(128);
    CHECK(buf.GetBufferSize() == 128);
    std::vector<std::uint8_t> big(200, 3);
    CHECK_THROWS_AS(buf.ToDevice(big.data(), 200), std::out_of_range);
    CHECK_THROWS_AS(buf.FromDevice(big.data(), 129), std::out_of_range);
}

TEST_CASE("zero-byte buffers")
{
    ck_tile::DeviceMem empty;
    CHECK(empty.GetBufferSize() == 0);
    CHECK(empty.GetDeviceBuffer() == nullptr);
    ck_tile::DeviceMem zero(0);
    CHECK(zero.GetDeviceBuffer() == nullptr);
    zero.ToDevice(nullptr);
    zero.FromDevice(nullptr);
    zero.SetZero();
    zero.Realloc(16);
    CHECK(zero.GetDeviceBuffer() != nullptr);
    zero.Realloc(0);
    CHECK(zero.GetDeviceBuffer() == nullptr);
}

TEST_CASE("move leaves the source empty")
{
    ck_tile::DeviceMem a(32);
    void* p = a.GetDeviceBuffer();
    ck_tile::DeviceMem b(std::move(a));
    CHECK(b.GetDeviceBuffer() == p);
    CHECK(b.GetBufferSize() == 32);
    CHECK(a.GetDeviceBuffer() == nullptr); // NOLINT(bugprone-use-after-move)
    CHECK(a.GetBufferSize() == 0);
    ck_tile::DeviceMem c(8);
    c = std::move(b);
    CHECK(c.GetDeviceBuffer() == p);
    CHECK(c.GetBufferSize() == 32);
    std::vector<ck_tile::DeviceMem> v;
    v.emplace_back(16);
    v.emplace_back(24);
    CHECK(v[1].GetBufferSize() == 24);
}

TEST_CASE("HIP_CHECK_ERROR throws with the error text and the call site")
{
    CHECK_NOTHROW(HIP_CHECK_ERROR(hipSuccess));
    CHECK_NOTHROW(ck_tile::hip_check_error(hipDeviceSynchronize()));
    // a copy to a null destination is an error on every backend
    std::vector<char> host(16);
    try
    {
        HIP_CHECK_ERROR(hipMemcpy(nullptr, host.data(), host.size(), hipMemcpyHostToDevice));
        FAIL("no exception");
    }
    catch(const std::runtime_error& e)
    {
        const std::string what = e.what();
        CHECK(what.find("HIP error: ") == 0);
        CHECK(what.find("hipMemcpy(nullptr") != std::string::npos);
        CHECK(what.find("test_device_memory.cpp:") != std::string::npos);
    }
}
