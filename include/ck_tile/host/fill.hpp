// SPDX-License-Identifier: MIT
// Fill functors for host data: applied to an iterator range or to any range with begin()/end()
// (HostTensor, std::vector, ...).
//
//   ck_tile::FillUniformDistribution<ck_tile::half_t>{-1.f, 1.f}(a_host);        // seed 11939
//   ck_tile::FillUniformDistribution<float>{-1.f, 1.f, 42}(b_host);              // own seed
//   ck_tile::FillUniformDistributionIntegerValue<ck_tile::bf16_t>{-5, 5}(c_host);
//   ck_tile::FillNormalDistribution<float>{0.f, 1.f}(d_host);
//   ck_tile::FillConstant<float>{0.f}(e_host);
//   ck_tile::FillMonotonicSeq<int>{0, 1}(f_host);                                // 0, 1, 2, ...
//
// Values are produced as double, converted to the fill's type T (type_convert), then to the
// element type of the range if that differs. So FillUniformDistribution<half_t> on a float range
// stores values representable in half_t.
//
// Determinism: the random fills give the same values for the same seed, size and type, whatever
// the number of threads and the standard library: the range is cut into chunks of
// fill_chunk_size elements, chunk c draws from its own std::mt19937 seeded with
// std::seed_seq{seed, c_lo, c_hi} (both fully specified by the C++ standard), and numbers are
// mapped to values by this file's own arithmetic, not by std::*_distribution (whose algorithms
// are implementation-defined). Large ranges with random-access iterators are filled by several
// threads, one chunk at a time. A seed of std::nullopt draws a seed from std::random_device.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <optional>
#include <random>
#include <stdexcept>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

#include "ck_tile/core/config.hpp"
#include "ck_tile/core/numeric/type_convert.hpp"

namespace ck_tile {

inline constexpr std::size_t fill_chunk_size = std::size_t{1} << 16;

namespace detail {

// Stores double `v` (already a value of the fill type T) into element `out`.
template <typename T, typename Ref>
void fill_store(Ref&& out, T v)
{
    using E = std::remove_cvref_t<Ref>;
    if constexpr(std::is_same_v<E, T>)
        out = v;
    else
        out = type_convert<E>(v);
}

// Uniform double in [0, 1) with 32 random bits.
inline double uniform01(std::mt19937& eng) { return static_cast<double>(eng()) * 0x1p-32; }

// Uniform double in (0, 1] with 32 random bits (safe for log()).
inline double uniform01_open_low(std::mt19937& eng) { return (static_cast<double>(eng()) + 1.0) * 0x1p-32; }

inline std::uint32_t resolve_seed(const std::optional<std::uint32_t>& seed)
{
    if(seed)
        return *seed;
    std::random_device rd;
    return rd();
}

// Fills [first, last): element i of chunk c gets gen(eng_c) as its i-th draw, where eng_c is
// chunk c's engine. gen returns a T.
template <typename T, typename Iter, typename Gen>
void fill_random_chunked(Iter first, Iter last, std::uint32_t seed, const Gen& gen)
{
    const auto n = static_cast<std::size_t>(std::distance(first, last));
    if(n == 0)
        return;
    const std::size_t nchunk = (n + fill_chunk_size - 1) / fill_chunk_size;

    auto fill_chunk = [&](std::size_t c, Iter it) {
        std::seed_seq seq{seed, static_cast<std::uint32_t>(c & 0xffffffffu),
                          static_cast<std::uint32_t>(static_cast<std::uint64_t>(c) >> 32)};
        std::mt19937 eng(seq);
        const std::size_t count = std::min(fill_chunk_size, n - c * fill_chunk_size);
        for(std::size_t i = 0; i < count; ++i, ++it)
            fill_store<T>(*it, gen(eng));
    };

    constexpr bool random_access =
        std::is_base_of_v<std::random_access_iterator_tag, typename std::iterator_traits<Iter>::iterator_category>;

    std::size_t nthread = 1;
    if constexpr(random_access)
    {
        if(nchunk >= 4)
            nthread =
                std::min<std::size_t>({std::max(1u, std::thread::hardware_concurrency()), nchunk, std::size_t{16}});
    }

    if(nthread <= 1)
    {
        Iter it = first;
        for(std::size_t c = 0; c < nchunk; ++c)
        {
            fill_chunk(c, it);
            if(c + 1 < nchunk)
                std::advance(it, static_cast<std::ptrdiff_t>(fill_chunk_size));
        }
        return;
    }

    if constexpr(random_access)
    {
        // Thread t fills chunks t, t + nthread, ...; a chunk's values do not depend on which
        // thread fills it.
        auto worker = [&](std::size_t t) {
            for(std::size_t c = t; c < nchunk; c += nthread)
                fill_chunk(c, first + static_cast<std::ptrdiff_t>(c * fill_chunk_size));
        };
        std::vector<std::thread> threads;
        threads.reserve(nthread - 1);
        for(std::size_t t = 1; t < nthread; ++t)
        {
            try
            {
                threads.emplace_back(worker, t);
            }
            catch(...) // no thread to be had: this thread fills those chunks itself
            {
                worker(t);
            }
        }
        worker(0);
        for(auto& th : threads)
            th.join();
    }
}

// A number the fills accept as a parameter (float, double, int, half_t, bf16_t, ...).
template <typename A>
concept fill_number = std::is_constructible_v<double, A> && !std::is_same_v<A, bool>;

template <typename A>
double fill_to_double(A a)
{
    if constexpr(std::is_class_v<A>)
        return static_cast<double>(static_cast<float>(a));
    else
        return static_cast<double>(a);
}

template <typename F, typename Range>
void apply_to_range(const F& f, Range&& r)
{
    f(std::begin(r), std::end(r));
}

} // namespace detail

// Real values uniformly distributed in [a_, b_) before rounding to T (rounding may reach b_).
template <typename T>
struct FillUniformDistribution
{
    double a_                          = -5.0;
    double b_                          = 5.0;
    std::optional<std::uint32_t> seed_ = 11939;

    FillUniformDistribution() = default;
    template <detail::fill_number A, detail::fill_number B>
    FillUniformDistribution(A a, B b, std::optional<std::uint32_t> seed = 11939)
        : a_(detail::fill_to_double(a)), b_(detail::fill_to_double(b)), seed_(seed)
    {}

    template <typename Iter>
    void operator()(Iter first, Iter last) const
    {
        const double a = a_, w = b_ - a_;
        detail::fill_random_chunked<T>(first, last, detail::resolve_seed(seed_),
                                       [=](auto& eng) { return type_convert<T>(a + w * detail::uniform01(eng)); });
    }

    template <typename Range>
    void operator()(Range&& r) const
    {
        detail::apply_to_range(*this, r);
    }
};

// Integer values uniformly distributed over [ceil(a_), floor(b_)] (both ends included), stored
// as T; e.g. for exact low-precision GEMM checks.
template <typename T>
struct FillUniformDistributionIntegerValue
{
    double a_                          = -5.0;
    double b_                          = 5.0;
    std::optional<std::uint32_t> seed_ = 11939;

    FillUniformDistributionIntegerValue() = default;
    template <detail::fill_number A, detail::fill_number B>
    FillUniformDistributionIntegerValue(A a, B b, std::optional<std::uint32_t> seed = 11939)
        : a_(detail::fill_to_double(a)), b_(detail::fill_to_double(b)), seed_(seed)
    {}

    template <typename Iter>
    void operator()(Iter first, Iter last) const
    {
        if(first == last)
            return;
        const double lo = std::ceil(a_), hi = std::floor(b_);
        if(!(lo <= hi && hi - lo < 0x1p32))
            throw std::invalid_argument(
                "FillUniformDistributionIntegerValue: no integer range in [a, b] (or wider than "
                "2^32)");
        const auto n = static_cast<std::uint64_t>(hi - lo) + 1; // 1 .. 2^32
        // Rejection sampling: unbiased and independent of the standard library.
        const std::uint64_t limit = (std::uint64_t{1} << 32) / n * n;
        detail::fill_random_chunked<T>(first, last, detail::resolve_seed(seed_), [=](auto& eng) {
            std::uint64_t x;
            do
                x = eng();
            while(x >= limit);
            return type_convert<T>(lo + static_cast<double>(x % n));
        });
    }

    template <typename Range>
    void operator()(Range&& r) const
    {
        detail::apply_to_range(*this, r);
    }
};

// Normally distributed values with mean mean_ and standard deviation std_ (Box-Muller).
template <typename T>
struct FillNormalDistribution
{
    double mean_                       = 0.0;
    double std_                        = 1.0;
    std::optional<std::uint32_t> seed_ = 11939;

    FillNormalDistribution() = default;
    template <detail::fill_number A, detail::fill_number B>
    FillNormalDistribution(A mean, B stddev, std::optional<std::uint32_t> seed = 11939)
        : mean_(detail::fill_to_double(mean)), std_(detail::fill_to_double(stddev)), seed_(seed)
    {}

    template <typename Iter>
    void operator()(Iter first, Iter last) const
    {
        const double mean = mean_, sd = std_;
        detail::fill_random_chunked<T>(first, last, detail::resolve_seed(seed_), [=](auto& eng) {
            const double u1 = detail::uniform01_open_low(eng);
            const double u2 = detail::uniform01(eng);
            const double z  = std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
            return type_convert<T>(mean + sd * z);
        });
    }

    template <typename Range>
    void operator()(Range&& r) const
    {
        detail::apply_to_range(*this, r);
    }
};

// Every element set to value_.
template <typename T>
struct FillConstant
{
    T value_{};

    FillConstant() = default;
    template <detail::fill_number U>
    FillConstant(U value) : value_(type_convert<T>(value))
    {}

    template <typename Iter>
    void operator()(Iter first, Iter last) const
    {
        for(; first != last; ++first)
            detail::fill_store<T>(*first, value_);
    }

    template <typename Range>
    void operator()(Range&& r) const
    {
        detail::apply_to_range(*this, r);
    }
};

// Element i set to init_value_ + i * step_, computed in double and then rounded to T once (no
// accumulation of rounding errors in low-precision T).
template <typename T>
struct FillMonotonicSeq
{
    T init_value_{};
    T step_ = type_convert<T>(1.0f);

    FillMonotonicSeq() = default;
    template <detail::fill_number U, detail::fill_number V = int>
    FillMonotonicSeq(U init_value, V step = 1) : init_value_(type_convert<T>(init_value)), step_(type_convert<T>(step))
    {}

    template <typename Iter>
    void operator()(Iter first, Iter last) const
    {
        const double init = to_double(init_value_), step = to_double(step_);
        double i = 0;
        for(; first != last; ++first, i += 1)
            detail::fill_store<T>(*first, type_convert<T>(init + i * step));
    }

    template <typename Range>
    void operator()(Range&& r) const
    {
        detail::apply_to_range(*this, r);
    }

private:
    static double to_double(T x) { return detail::fill_to_double(x); }
};

} // namespace ck_tile
