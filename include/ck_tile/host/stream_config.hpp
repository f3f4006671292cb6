// SPDX-License-Identifier: MIT
// stream_config: how a kernel launch is run and timed (launch_kernel takes one).
//
//   ck_tile::stream_config s{nullptr, true};       // default stream, time the kernel
//   float ms = ck_tile::launch_kernel(s, ck_tile::make_kernel(...));
#pragma once
#include "ck_tile/core/config.hpp"
#include "ck_tile/host/runtime/runtime.hpp"

namespace ck_tile {

struct stream_config
{
    hipStream_t stream_id_ = nullptr; // stream to launch on (nullptr: the default stream)
    bool time_kernel_      = false;   // run warm-up + timed repetitions and report the mean time
    int log_level_         = 0;       // 0: quiet; higher prints more about launches
    int cold_niters_       = 3;       // untimed warm-up runs before timing
    int nrepeat_           = 10;      // timed runs averaged
    bool is_gpu_timer_     = true;    // time with runtime events (true) or the host clock
    bool flush_cache_      = false;   // flush caches between timed runs
    int rotating_count_    = 1;       // number of rotating input copies used while timing
};

} // namespace ck_tile
