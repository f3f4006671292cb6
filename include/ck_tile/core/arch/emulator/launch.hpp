// SPDX-License-Identifier: MIT
// Kernel launch on the CPU emulator.
//
//   ck_tile::emu::launch({.grid = {64}, .block = {256}, .dynamic_lds_bytes = 0,
//                         .kernel_name = "my_kernel"},
//                        [=] { ... kernel body, run by every work-item ... });
//
// Workgroups are independent and are spread over a pool of OS threads (the calling thread takes
// part). The pool has CK_TILE_EMU_THREADS threads (default: the number of hardware threads; 1 runs
// everything on the calling thread), or what set_worker_threads() set last. Results do not depend
// on that number: each workgroup runs the same way on any thread, and printf output is put in
// workgroup order.
//
// launch() returns when every workgroup has ended (launches are synchronous and, from several host
// threads, serialised). It throws launch_error for a bad configuration and for errors the emulator
// detects while running (deadlock, too much LDS, mismatched wave collectives); an exception thrown
// by the kernel body is caught in its fiber and rethrown by launch(). When several workgroups
// fail, the error of the lowest workgroup index is the one thrown. The work-items of a failed
// workgroup are abandoned without unwinding their stacks.
//
// Limits: workgroups run on several OS threads at once, so global memory that several workgroups
// update needs atomic operations (std::atomic_ref or the __atomic builtins). A kernel in which a
// workgroup waits for another one (spinning on a flag in global memory) cannot be emulated: the
// workgroups of a grid are not all running at once (with one worker thread, one after another).
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <exception>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include <pthread.h>

#include "ck_tile/core/arch/emulator/arch_traits.hpp"
#include "ck_tile/core/arch/emulator/fault.hpp"
#include "ck_tile/core/arch/emulator/printf.hpp"
#include "ck_tile/core/arch/emulator/profile.hpp"
#include "ck_tile/core/arch/emulator/racecheck.hpp"
#include "ck_tile/core/arch/emulator/worker.hpp"
#include "ck_tile/core/arch/emulator/workgroup.hpp"

namespace ck_tile::emu {

struct launch_params
{
    extent3 grid{};                    // workgroups in x, y, z
    extent3 block{};                   // work-items per workgroup in x, y, z
    std::size_t dynamic_lds_bytes = 0; // dynamic LDS (`extern __shared__`) per workgroup
    const char* kernel_name       = "kernel";
};

namespace detail {

struct launch_job
{
    const launch_params* params = nullptr;
    const void* body            = nullptr;
    void (*entry)()             = nullptr;
    std::uint64_t workgroups    = 0;

    std::atomic<std::uint64_t> next{0};
    std::atomic<bool> stop{false};
    std::mutex mutex;
    std::uint64_t error_index = ~std::uint64_t{0};
    std::exception_ptr error;
    printf_orderer output;

    void record_error(std::uint64_t index, std::exception_ptr e)
    {
        std::lock_guard<std::mutex> lock(mutex);
        if(!error || index < error_index)
        {
            error_index = index;
            error       = std::move(e);
        }
        stop.store(true, std::memory_order_relaxed);
    }
};

// Runs workgroups of `job` on the calling OS thread until none is left.
inline void run_job(launch_job& job) noexcept
{
    worker* w = nullptr;
    try
    {
        w                      = &this_worker();
        const launch_params& p = *job.params;
        w->configure(p.kernel_name, p.grid, p.block, p.dynamic_lds_bytes, job.body, job.entry);
    }
    catch(...)
    {
        job.record_error(~std::uint64_t{0} - 1, std::current_exception());
        return;
    }
    for(;;)
    {
        if(job.stop.load(std::memory_order_relaxed))
            break;
        const std::uint64_t i = job.next.fetch_add(1, std::memory_order_relaxed);
        if(i >= job.workgroups)
            break;
        workgroup& wg = w->run(i);
        if(profile_enabled()) [[unlikely]]
            profile_end_workgroup(wg);
        if(wg.failed)
        {
            try
            {
                job.record_error(i, wg.exception ? wg.exception : std::make_exception_ptr(launch_error(wg.error)));
            }
            catch(...)
            {
                job.record_error(i, std::current_exception());
            }
            wg.exception = nullptr;
        }
        try
        {
            job.output.complete(i, wg.printf_buffer);
        }
        catch(...)
        {
            job.record_error(i, std::current_exception());
        }
    }
}

// Pool of OS threads that run jobs together with the launching thread.
class worker_pool
{
public:
    explicit worker_pool(unsigned extra_threads)
    {
        threads_.reserve(extra_threads);
        for(unsigned i = 0; i < extra_threads; ++i)
            threads_.emplace_back([this] { loop(); });
    }
    worker_pool(const worker_pool&)            = delete;
    worker_pool& operator=(const worker_pool&) = delete;
    ~worker_pool()
    {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            quit_ = true;
        }
        work_cv_.notify_all();
        for(auto& t : threads_)
            t.join();
    }

    unsigned size() const noexcept { return static_cast<unsigned>(threads_.size()) + 1; }

    // Runs `job` on the calling thread and on the pool threads that wake up while work is left.
    // A pool thread joins only while the job is open; the caller closes it when it runs out of
    // work and then waits for the threads that joined, not for those still asleep, so a small
    // launch does not pay for waking the pool.
    void run(launch_job& job)
    {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            job_ = &job;
            ++generation_;
        }
        work_cv_.notify_all();
        run_job(job);
        std::unique_lock<std::mutex> lock(mutex_);
        job_ = nullptr;
        done_cv_.wait(lock, [this] { return active_ == 0; });
    }

private:
    void loop()
    {
        std::uint64_t seen = 0;
        for(;;)
        {
            launch_job* job;
            {
                std::unique_lock<std::mutex> lock(mutex_);
                work_cv_.wait(lock, [&] { return quit_ || generation_ != seen; });
                if(quit_)
                    return;
                seen = generation_;
                job  = job_;
                if(job == nullptr)
                    continue; // closed already
                ++active_;
            }
            run_job(*job);
            {
                std::lock_guard<std::mutex> lock(mutex_);
                if(--active_ == 0)
                    done_cv_.notify_all();
            }
        }
    }

    std::mutex mutex_;
    std::condition_variable work_cv_, done_cv_;
    std::vector<std::thread> threads_;
    launch_job* job_          = nullptr; // the open job, if any
    std::uint64_t generation_ = 0;
    unsigned active_          = 0; // pool threads running the open or just-closed job
    bool quit_                = false;
};

struct launch_runtime
{
    std::mutex mutex;                   // one launch at a time
    std::atomic<unsigned> requested{0}; // set_worker_threads(); 0: environment / hardware
    worker_pool* pool = nullptr;
    ~launch_runtime() { delete pool; }
};

inline launch_runtime& runtime()
{
    static launch_runtime r;
    return r;
}

inline unsigned default_worker_threads() noexcept
{
    static const unsigned n = [] {
        if(const char* e = std::getenv("CK_TILE_EMU_THREADS"))
        {
            char* end         = nullptr;
            const long long v = std::strtoll(e, &end, 10);
            if(end != e && v > 0)
                return static_cast<unsigned>(v > 1024 ? 1024 : v);
        }
        const unsigned hw = std::thread::hardware_concurrency();
        return hw == 0 ? 1u : hw;
    }();
    return n;
}

inline unsigned effective_worker_threads(const launch_runtime& r) noexcept
{
    const unsigned n = r.requested.load(std::memory_order_relaxed);
    return n != 0 ? n : default_worker_threads();
}

// In a child of fork() the pool's threads do not exist: forget the pool (leaked, not joined).
inline void forget_pool_after_fork() { runtime().pool = nullptr; }

inline void ensure_fork_handler()
{
    static std::once_flag once;
    std::call_once(once, [] { pthread_atfork(nullptr, nullptr, &forget_pool_after_fork); });
}

inline std::string kernel_label(const launch_params& p)
{
    return std::string("ck_tile emulator: kernel '") + (p.kernel_name ? p.kernel_name : "") + "'";
}

inline std::string extent_text(const extent3& e)
{
    return "(" + std::to_string(e.x) + "," + std::to_string(e.y) + "," + std::to_string(e.z) + ")";
}

// Checks the launch configuration; returns the number of workgroups.
inline std::uint64_t validate_launch(const launch_params& p)
{
    const extent3& g = p.grid;
    const extent3& b = p.block;
    if(g.x == 0 || g.y == 0 || g.z == 0 || b.x == 0 || b.y == 0 || b.z == 0)
        throw launch_error(kernel_label(p) + ": invalid launch configuration: grid " + extent_text(g) + ", block " +
                           extent_text(b) + " (every dimension must be at least 1)");
    const std::uint64_t threads = std::uint64_t{b.x} * b.y * b.z;
    if(threads > max_threads_per_block)
        throw launch_error(kernel_label(p) + ": a workgroup of " + std::to_string(threads) + " threads (block " +
                           extent_text(b) + ") exceeds the " + std::to_string(max_threads_per_block) +
                           " threads per workgroup of " + arch_name());
    const std::uint64_t limit = 0xFFFFFFFFull;
    if(std::uint64_t{g.x} * b.x > limit || std::uint64_t{g.y} * b.y > limit || std::uint64_t{g.z} * b.z > limit)
        throw launch_error(kernel_label(p) + ": grid " + extent_text(g) + " of blocks " + extent_text(b) +
                           " has more than 2^32-1 work-items in one dimension");
    if(p.dynamic_lds_bytes > lds_bytes_limit())
        throw launch_error(kernel_label(p) + " requests " + std::to_string(p.dynamic_lds_bytes) +
                           " bytes of dynamic LDS, more than the " + std::to_string(lds_bytes_limit()) +
                           "-byte LDS limit per workgroup of " + arch_name());
    return std::uint64_t{g.x} * g.y * g.z;
}

inline void execute(launch_job& job)
{
    if(t_wg != nullptr)
        throw launch_error(kernel_label(*job.params) +
                           ": launched from inside a kernel (nested launches are not supported)");
    job.workgroups = validate_launch(*job.params);
    install_fault_handler();
    ensure_alt_signal_stack();
    ensure_fork_handler();
    if(g_printf_sink.fn.load(std::memory_order_acquire) == nullptr)
        std::fflush(stdout); // host output so far comes before the kernel's

    launch_runtime& r = runtime();
    {
        std::lock_guard<std::mutex> lock(r.mutex);
        racecheck_begin_launch();
        profile_begin_launch();
        unsigned n = effective_worker_threads(r);
        if(static_cast<std::uint64_t>(n) > job.workgroups)
            n = static_cast<unsigned>(job.workgroups);
        if(n <= 1)
            run_job(job);
        else
        {
            const unsigned want = effective_worker_threads(r);
            if(r.pool == nullptr || r.pool->size() != want)
            {
                delete r.pool;
                r.pool = nullptr;
                r.pool = new worker_pool(want - 1);
            }
            r.pool->run(job);
        }
        job.output.finish();
        profile_end_launch(job.params->kernel_name, job.params->grid, job.params->block); // its report
    }
    if(job.error)
        std::rethrow_exception(job.error);
}

} // namespace detail

// Number of OS threads launches use from now on (the calling thread included); 0 goes back to
// CK_TILE_EMU_THREADS or the number of hardware threads. Not callable inside a kernel.
inline void set_worker_threads(unsigned n)
{
    if(detail::t_wg != nullptr)
        throw launch_error("ck_tile emulator: set_worker_threads() called inside a kernel");
    detail::launch_runtime& r = detail::runtime();
    std::lock_guard<std::mutex> lock(r.mutex); // waits for a running launch to end
    r.requested.store(n > 1024 ? 1024 : n, std::memory_order_relaxed);
}

// Number of OS threads launches use.
inline unsigned worker_threads() { return detail::effective_worker_threads(detail::runtime()); }

// Runs `body()` as every work-item of every workgroup of the grid (see above). The body is called
// through a const reference from many fibers and OS threads at once: it must not modify its state.
template <typename F>
void launch(const launch_params& params, F&& body)
{
    using body_t = std::remove_cv_t<std::remove_reference_t<F>>;
    if constexpr(std::is_function_v<body_t>)
    {
        body_t* fn = &body;
        launch(params, [fn] { fn(); });
        return;
    }
    else
    {
        static_assert(std::is_invocable_v<const body_t&>,
                      "ck_tile::emu::launch: the kernel body must be callable as body() through a const "
                      "reference");
        detail::launch_job job;
        job.params = &params;
        job.body   = static_cast<const void*>(std::addressof(body));
        job.entry  = &detail::fiber_main<body_t>;
        detail::execute(job);
    }
}

} // namespace ck_tile::emu
