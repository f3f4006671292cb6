// SPDX-License-Identifier: MIT
#include <doctest/doctest.h>

#include <chrono>
#include <thread>

#include "ck_tile/host/stream_config.hpp"
#include "ck_tile/host/timer.hpp"

TEST_CASE("cpu_timer measures wall-clock milliseconds")
{
    ck_tile::cpu_timer t;
    CHECK(t.duration() == 0.f);
    t.start();
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    t.stop();
    CHECK(t.duration() >= 19.f);
    CHECK(t.duration() < 2000.f);
    t.start(nullptr); // synchronizes the default stream first
    t.stop(nullptr);
    CHECK(t.duration() >= 0.f);
    CHECK(t.duration() < 1000.f);
}

TEST_CASE("stream_config defaults and aggregate initialization")
{
    ck_tile::stream_config s;
    CHECK(s.stream_id_ == nullptr);
    CHECK_FALSE(s.time_kernel_);
    CHECK(s.log_level_ == 0);
    CHECK(s.cold_niters_ == 3);
    CHECK(s.nrepeat_ == 10);
    CHECK(s.is_gpu_timer_);
    CHECK_FALSE(s.flush_cache_);
    CHECK(s.rotating_count_ == 1);
    ck_tile::stream_config t{nullptr, true, 1, 5, 50};
    CHECK(t.time_kernel_);
    CHECK(t.nrepeat_ == 50);
    CHECK(t.cold_niters_ == 5);
}
