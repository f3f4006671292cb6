// SPDX-License-Identifier: MIT
#pragma once
#include <algorithm>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace hip_cpu {

// The host threads that run workgroups: started once, and each launch hands them its work (the
// launching thread takes part too), so that a launch costs no thread creation.
class worker_pool
{
public:
    static worker_pool& get()
    {
        static worker_pool pool;
        return pool;
    }
    unsigned size() const { return static_cast<unsigned>(threads_.size()) + 1; }

    // Runs job on `n` threads (this one included) and returns when all have returned.
    void run(unsigned n, const std::function<void()>& job)
    {
        std::unique_lock lock(mutex_);
        job_     = &job;
        wanted_  = n - 1;
        running_ = 0;
        ++generation_;
        wake_.notify_all();
        lock.unlock();
        job();
        lock.lock();
        done_.wait(lock, [&] { return wanted_ == 0 && running_ == 0; });
        job_ = nullptr;
    }

private:
    worker_pool()
    {
        const unsigned hw = std::max(1u, std::thread::hardware_concurrency());
        for(unsigned t = 1; t < hw; ++t)
            threads_.emplace_back([this] { loop(); });
    }
    ~worker_pool()
    {
        {
            std::lock_guard lock(mutex_);
            stop_ = true;
        }
        wake_.notify_all();
        for(auto& t : threads_)
            t.join();
    }
    void loop()
    {
        std::uint64_t seen = 0;
        std::unique_lock lock(mutex_);
        for(;;)
        {
            wake_.wait(lock, [&] { return stop_ || (generation_ != seen && wanted_ > 0); });
            if(stop_)
                return;
            seen = generation_;
            --wanted_;
            ++running_;
            const std::function<void()>* job = job_;
            lock.unlock();
            (*job)();
            lock.lock();
            --running_;
            if(wanted_ == 0 && running_ == 0)
                done_.notify_all();
        }
    }

    std::mutex mutex_;
    std::condition_variable wake_, done_;
    std::vector<std::thread> threads_;
    const std::function<void()>* job_ = nullptr;
    unsigned wanted_ = 0, running_ = 0;
    std::uint64_t generation_ = 0;
    bool stop_                = false;
};

} // namespace hip_cpu
