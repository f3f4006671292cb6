// SPDX-License-Identifier: MIT
// Device memory and the HIP-like host runtime of the emulator backend.
#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "test_common.hpp"
#include "ck_tile/host/runtime/emulator.hpp"

namespace emu = ck_tile::emu;

TEST_SUITE("host_runtime")
{
    TEST_CASE("device allocations: alignment, fill, range checks")
    {
        CHECK(emu::device_malloc(0) == nullptr);
        for(std::size_t bytes : {std::size_t{1}, std::size_t{13}, std::size_t{4096}, std::size_t{100000}})
        {
            auto* p = static_cast<unsigned char*>(emu::device_malloc(bytes));
            REQUIRE(p != nullptr);
            CHECK(reinterpret_cast<std::uintptr_t>(p) % 16 == 0);
            CHECK(p[0] == 0xCD);
            CHECK(p[bytes - 1] == 0xCD);
            CHECK(emu::is_device_pointer(p, bytes));
            CHECK(emu::is_device_pointer(p + bytes - 1, 1));
            CHECK(emu::is_device_pointer(p + bytes, 0));
            CHECK_FALSE(emu::is_device_pointer(p, bytes + 1));
            CHECK_FALSE(emu::is_device_pointer(p + bytes, 1));
            CHECK_FALSE(emu::is_device_pointer(p - 1, 1));
            emu::device_free(p);
            CHECK_FALSE(emu::is_device_pointer(p, 1));
        }
        int host = 0;
        CHECK_FALSE(emu::is_device_pointer(&host, sizeof(host)));
        CHECK_THROWS_AS(emu::device_free(&host), std::invalid_argument);
        emu::device_free(nullptr);
    }

    TEST_CASE("the pointer cache follows frees")
    {
        void* a = emu::device_malloc(256);
        CHECK(emu::is_device_pointer(a, 256));
        CHECK(emu::is_device_pointer(a, 256));
        emu::device_free(a);
        CHECK_FALSE(emu::is_device_pointer(a, 256));
    }

    TEST_CASE("hip-like runtime")
    {
        constexpr dim3 d(4);
        static_assert(d.x == 4 && d.y == 1 && d.z == 1);
        hipStream_t stream = nullptr;

        float* dev = nullptr;
        REQUIRE(hipMalloc(&dev, 256 * sizeof(float)) == hipSuccess);
        std::vector<float> h(256), back(256, 0.0f);
        for(int i = 0; i < 256; ++i)
            h[static_cast<std::size_t>(i)] = static_cast<float>(i) * 0.5f;
        CHECK(hipMemcpy(dev, h.data(), 256 * sizeof(float), hipMemcpyHostToDevice) == hipSuccess);
        emu::launch({{2}, {128}, 0, "scale"}, [=] {
            const int i = emu::block_idx_x() * 128 + emu::thread_idx_x();
            dev[i] *= 2.0f;
        });
        CHECK(hipDeviceSynchronize() == hipSuccess);
        CHECK(hipStreamSynchronize(stream) == hipSuccess);
        CHECK(hipMemcpy(back.data(), dev, 256 * sizeof(float), hipMemcpyDeviceToHost) == hipSuccess);
        for(int i = 0; i < 256; ++i)
            CHECK(back[static_cast<std::size_t>(i)] == static_cast<float>(i));

        void* dev2 = nullptr;
        REQUIRE(hipMalloc(&dev2, 256 * sizeof(float)) == hipSuccess);
        CHECK(hipMemcpy(dev2, dev, 256 * sizeof(float), hipMemcpyDeviceToDevice) == hipSuccess);
        CHECK(hipMemset(dev, 0, 256 * sizeof(float)) == hipSuccess);
        CHECK(hipMemcpy(back.data(), dev2, 256 * sizeof(float), hipMemcpyDefault) == hipSuccess);
        CHECK(back[255] == 255.0f);
        CHECK(dev[17] == 0.0f);

        // Errors.
        CHECK(hipGetLastError() == hipSuccess);
        std::vector<float> big(512);
        CHECK(hipMemcpy(big.data(), dev, 257 * sizeof(float), hipMemcpyDeviceToHost) == hipErrorInvalidValue);
        CHECK(hipMemcpy(h.data(), back.data(), 4, hipMemcpyHostToDevice) == hipErrorInvalidValue);
        CHECK(hipMemset(h.data(), 0, 4) == hipErrorInvalidValue);
        CHECK(hipGetLastError() == hipErrorInvalidValue);
        CHECK(hipGetLastError() == hipSuccess);
        CHECK(hipFree(h.data()) == hipErrorInvalidValue);
        CHECK(hipMalloc(static_cast<void**>(nullptr), 4) == hipErrorInvalidValue);
        CHECK(std::string(hipGetErrorString(hipErrorOutOfMemory)) == "out of memory");
        CHECK(std::string(hipGetErrorString(hipSuccess)) == "no error");
        CHECK(hipErrorLaunchFailure == 719);

        CHECK(hipFree(dev) == hipSuccess);
        CHECK(hipFree(dev2) == hipSuccess);
        CHECK(hipFree(nullptr) == hipSuccess);
        CHECK(hipFree(dev) == hipErrorInvalidValue); // double free
        void* zero = reinterpret_cast<void*>(1);
        CHECK(hipMalloc(&zero, 0) == hipSuccess);
        CHECK(zero == nullptr);
    }
}
