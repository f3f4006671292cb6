// SPDX-License-Identifier: MIT
// cpu_timer: host wall-clock timer (std::chrono::steady_clock), in milliseconds.
//
//   ck_tile::cpu_timer t;
//   t.start(stream);  ... launches ...  t.stop(stream);   // synchronizes the stream first
//   float ms = t.duration();
//
// start()/stop() without a stream just read the clock. duration() is the time between the last
// start() and stop() (0 before the first stop()).
#pragma once
#include <chrono>

#include "ck_tile/core/config.hpp"
#include "ck_tile/host/hip_check_error.hpp"
#include "ck_tile/host/runtime/runtime.hpp"

namespace ck_tile {

struct cpu_timer
{
    using clock = std::chrono::steady_clock;

    void start() { start_ = stop_ = clock::now(); }

    // Waits for the work queued on stream s, then starts.
    void start(const hipStream_t& s)
    {
        HIP_CHECK_ERROR(hipStreamSynchronize(s));
        start();
    }

    void stop() { stop_ = clock::now(); }

    // Waits for the work queued on stream s, then stops.
    void stop(const hipStream_t& s)
    {
        HIP_CHECK_ERROR(hipStreamSynchronize(s));
        stop();
    }

    // Milliseconds from start() to stop().
    float duration() const { return std::chrono::duration<float, std::milli>(stop_ - start_).count(); }

private:
    clock::time_point start_{};
    clock::time_point stop_{};
};

} // namespace ck_tile
