// SPDX-License-Identifier: MIT
// check_err(out, ref, ...): compares a result range with a reference range element by element.
//
//   bool pass = ck_tile::check_err(c_dev_result, c_host_ref, "Error: Incorrect results!",
//                                  rtol, atol);
//
// Ranges are anything with begin()/end() (HostTensor, std::vector, ...); the element types may
// differ (e.g. half_t output against a float reference). Elements are compared in storage order
// (the index printed is the position in the range: for a HostTensor, the offset in mData), after
// conversion to double (half_t and bf16_t through float).
//
// Rules, for element i with o = out[i], r = ref[i]:
//   * sizes differ                    -> failure (reported, nothing compared)
//   * both integer types              -> error if |o - r| > atol (atol < 1: exact)
//   * otherwise (floating)            -> error if |o - r| > atol + rtol * |r|
//       - NaN: o NaN and r not NaN, or r NaN and o not NaN, is an error; both NaN agree.
//       - infinity: with allow_infinity_ref, o and r the same infinity agree; without it any
//         infinity in r is an error (the reference overflowed: the test is set up wrongly);
//         an infinity in o where r is finite is always an error.
//
// Default tolerances come from default_tolerance<T>() of the coarser of the two element types
// (see below); pass rtol / atol to override them.
//
// 8-bit floats (out and ref both fp8 or both bf8, one encoding) have their own overload, as
// upstream's: check_err(out, ref, msg, max_rounding_point_distance = 1, atol = 0). An element
// agrees when |o - r| <= atol or when o and r are at most that many representable values apart
// (1: one rounding step, what a kernel and a reference that round the same fp32 value differently
// by an ulp of fp32 can produce). NaN agrees only with NaN.
//
// On failure, prints to std::cerr: msg, the number of mismatching elements, the largest error
// and where it occurred, and the first (up to 5) mismatches with their index and both values;
// returns false. Prints nothing and returns true on success.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <iomanip>
#include <iostream>
#include <iterator>
#include <limits>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>

#include "ck_tile/core/config.hpp"
#include "ck_tile/core/numeric/bfloat16.hpp"
#include "ck_tile/core/numeric/half.hpp"
#include "ck_tile/core/numeric/float8.hpp"

namespace ck_tile {

// Relative and absolute tolerance used by check_err by default.
struct tolerance
{
    double rtol;
    double atol;
};

namespace detail {

// Integer types compared exactly (bool and character types are compared as numbers instead).
template <typename T>
inline constexpr bool is_check_integer_v =
    std::is_integral_v<T> && !std::is_same_v<T, bool> && !std::is_same_v<T, char> && !std::is_same_v<T, wchar_t> &&
    !std::is_same_v<T, char8_t> && !std::is_same_v<T, char16_t> && !std::is_same_v<T, char32_t>;

// Significand bits (implicit bit included) of a floating type; 0 for integer types.
template <typename T>
constexpr int significand_digits()
{
    if constexpr(std::is_same_v<T, half_t>)
        return 11;
    else if constexpr(std::is_same_v<T, bf16_t>)
        return 8;
    else if constexpr(std::is_integral_v<T>)
        return 0;
    else
        return std::numeric_limits<T>::digits;
}

template <typename T>
double check_to_double(const T& x)
{
    if constexpr(std::is_class_v<T>)
        return static_cast<double>(static_cast<float>(x)); // bf16_t and friends: via float
    else
        return static_cast<double>(x);
}

template <typename R>
using check_range_value_t = std::remove_cvref_t<decltype(*std::begin(std::declval<const R&>()))>;

} // namespace detail

// Default tolerances of check_err per element type. One rounding to a type with p significand
// bits has a relative error of at most 2^-p; the defaults leave room for a couple of roundings
// plus a different order of accumulation between kernel and reference:
//   double, float : rtol 1e-5, atol 3e-6  (fp32 rounding is 6e-8; reorderings of fp32 sums of a
//                                          few hundred terms stay well below 1e-5)
//   half_t        : rtol 1e-3, atol 1e-3  (one fp16 rounding: 4.9e-4)
//   bf16_t        : rtol 1e-2, atol 1e-2  (one bf16 rounding: 3.9e-3)
//   integer types : rtol 0,    atol 0     (exact)
// A larger problem (e.g. a GEMM with a long K) may need get_relative_threshold /
// get_absolute_threshold below.
template <typename T>
constexpr tolerance default_tolerance()
{
    if constexpr(std::is_integral_v<T>)
        return {0.0, 0.0};
    else if constexpr(std::is_same_v<T, half_t>)
        return {1e-3, 1e-3};
    else if constexpr(std::is_same_v<T, bf16_t>)
        return {1e-2, 1e-2};
    else
        return {1e-5, 3e-6};
}

// The coarser of the default tolerances of two element types.
template <typename OutType, typename RefType>
constexpr tolerance default_tolerance()
{
    constexpr tolerance a = default_tolerance<OutType>();
    constexpr tolerance b = default_tolerance<RefType>();
    return {a.rtol > b.rtol ? a.rtol : b.rtol, a.atol > b.atol ? a.atol : b.atol};
}

// Relative error bound for a result computed from inputs converted to ComputeType, accumulated
// number_of_accumulations times in AccType and stored as OutType: the largest of the unit
// roundoffs 2^-p of ComputeType and OutType and number_of_accumulations times that of AccType
// (integer types contribute 0).
template <typename ComputeType, typename OutType, typename AccType = ComputeType>
double get_relative_threshold(int number_of_accumulations = 1)
{
    auto unit            = [](int digits) { return digits == 0 ? 0.0 : std::ldexp(1.0, -digits); };
    const double compute = unit(detail::significand_digits<ComputeType>());
    const double out     = unit(detail::significand_digits<OutType>());
    const double acc     = unit(detail::significand_digits<AccType>()) * std::max(number_of_accumulations, 1);
    return std::max({compute, out, acc});
}

// Absolute error bound for results of magnitude up to max_possible_num: the relative threshold
// scaled by max_possible_num rounded up to a power of two (the ulp scale of the largest result).
template <typename ComputeType, typename OutType, typename AccType = ComputeType>
double get_absolute_threshold(double max_possible_num, int number_of_accumulations = 1)
{
    const double m = std::fabs(max_possible_num);
    if(!(m > 0) || !std::isfinite(m))
        return 0.0;
    const double scale = std::exp2(std::ceil(std::log2(m)));
    return get_relative_threshold<ComputeType, OutType, AccType>(number_of_accumulations) * scale;
}

// The largest |v| of a range of numbers (0 for an empty one): the magnitude the absolute part of a
// tolerance scales with (calculate_rtol_atol's max_accumulated_value, normalization_tolerance.hpp).
template <typename Range>
double max_abs_value(const Range& range)
{
    double r = 0;
    for(const auto& v : range)
        r = std::max(r, std::fabs(detail::check_to_double(v)));
    return r;
}

// The thresholds the GEMM examples check C with (upstream's calculate_rtol_atol): each of the
// k_batch splits sums ceil(K / k_batch) products in AccDataType from inputs of the narrower of A
// and B, and the k_batch partial results are then added in CDataType; the bound is the larger of
// the two stages'. max_accumulated_value: the largest |C| of the reference. Returns {rtol, atol}.
template <typename ADataType, typename BDataType, typename AccDataType, typename CDataType>
std::pair<double, double> calculate_rtol_atol(int K, int k_batch, double max_accumulated_value)
{
    using ComputeType     = std::conditional_t<(sizeof(ADataType) < sizeof(BDataType)), ADataType, BDataType>;
    const int k_per_split = (K + k_batch - 1) / std::max(k_batch, 1);
    const double rtol     = std::max(get_relative_threshold<ComputeType, CDataType, AccDataType>(k_per_split),
                                     get_relative_threshold<CDataType, CDataType, CDataType>(k_batch));
    const double atol     = std::max(
        get_absolute_threshold<ComputeType, CDataType, AccDataType>(max_accumulated_value / k_batch, k_per_split),
        get_absolute_threshold<CDataType, CDataType, CDataType>(max_accumulated_value, k_batch));
    return {rtol, atol};
}

template <typename Range, typename RefRange>
    requires(!(is_float8_v<detail::check_range_value_t<Range>> && is_float8_v<detail::check_range_value_t<RefRange>>))
bool check_err(
    const Range& out, const RefRange& ref, const std::string& msg = "Error: Incorrect results!",
    double rtol = default_tolerance<detail::check_range_value_t<Range>, detail::check_range_value_t<RefRange>>().rtol,
    double atol = default_tolerance<detail::check_range_value_t<Range>, detail::check_range_value_t<RefRange>>().atol,
    bool allow_infinity_ref = false)
{
    using O                        = detail::check_range_value_t<Range>;
    using R                        = detail::check_range_value_t<RefRange>;
    constexpr bool integer_compare = detail::is_check_integer_v<O> && detail::is_check_integer_v<R>;
    constexpr int precision        = (std::is_same_v<O, double> || std::is_same_v<R, double>) ? 17 : 9;

    const auto out_size = static_cast<std::size_t>(std::distance(std::begin(out), std::end(out)));
    const auto ref_size = static_cast<std::size_t>(std::distance(std::begin(ref), std::end(ref)));
    if(out_size != ref_size)
    {
        std::cerr << msg << "\ncheck_err: size mismatch: out has " << out_size << " elements, ref has " << ref_size
                  << std::endl;
        return false;
    }

    struct mismatch
    {
        std::size_t index;
        double o, r, err;
    };
    constexpr std::size_t max_listed = 5;
    mismatch listed[max_listed];
    std::size_t n_listed = 0;
    std::size_t n_err    = 0;
    double max_err       = 0;
    std::size_t max_at   = 0;
    bool max_set         = false;

    auto it_o = std::begin(out);
    auto it_r = std::begin(ref);
    for(std::size_t i = 0; i < out_size; ++i, ++it_o, ++it_r)
    {
        bool bad   = false;
        double err = 0;
        double o = 0, r = 0;
        if constexpr(integer_compare)
        {
            const auto oi = *it_o;
            const auto ri = *it_r;
            o             = static_cast<double>(oi);
            r             = static_cast<double>(ri);
            if(std::cmp_not_equal(oi, ri))
            {
                // exact difference, then as double
                if(std::cmp_greater(oi, ri))
                    err = static_cast<double>(static_cast<std::uint64_t>(oi) - static_cast<std::uint64_t>(ri));
                else
                    err = static_cast<double>(static_cast<std::uint64_t>(ri) - static_cast<std::uint64_t>(oi));
                bad = err > atol;
            }
        }
        else
        {
            o = detail::check_to_double(*it_o);
            r = detail::check_to_double(*it_r);
            if(std::isnan(o) || std::isnan(r))
            {
                bad = std::isnan(o) != std::isnan(r);
                err = bad ? std::numeric_limits<double>::infinity() : 0.0;
            }
            else if(std::isinf(r))
            {
                bad = !(allow_infinity_ref && o == r);
                err = bad ? std::numeric_limits<double>::infinity() : 0.0;
            }
            else if(std::isinf(o))
            {
                bad = true;
                err = std::numeric_limits<double>::infinity();
            }
            else
            {
                err = std::fabs(o - r);
                bad = err > atol + rtol * std::fabs(r);
            }
        }
        if(bad)
        {
            if(n_listed < max_listed)
                listed[n_listed++] = {i, o, r, err};
            ++n_err;
            if(!max_set || err > max_err)
            {
                max_err = err;
                max_at  = i;
                max_set = true;
            }
        }
    }

    if(n_err == 0)
        return true;

    std::ostringstream os;
    os << std::setprecision(precision);
    os << msg << "\ncheck_err: " << n_err << " of " << out_size << " elements differ (rtol " << rtol << ", atol "
       << atol << "); max error " << max_err << " at index " << max_at << "\n";
    for(std::size_t k = 0; k < n_listed; ++k)
        os << "  [" << listed[k].index << "] out " << listed[k].o << ", ref " << listed[k].r << ", error "
           << listed[k].err << "\n";
    if(n_err > n_listed)
        os << "  ... " << (n_err - n_listed) << " more\n";
    std::cerr << os.str() << std::flush;
    return false;
}

namespace detail {
// position of an 8-bit float code on the number line: codes of one sign are ordered by magnitude
inline int fp8_ordinal(uint8_t code) { return (code & 0x80) ? -int(code & 0x7f) : int(code & 0x7f); }
} // namespace detail

template <typename Range, typename RefRange>
    requires(is_float8_v<detail::check_range_value_t<Range>> && is_float8_v<detail::check_range_value_t<RefRange>>)
bool check_err(const Range& out, const RefRange& ref, const std::string& msg = "Error: Incorrect results!",
               unsigned max_rounding_point_distance = 1, double atol = 0)
{
    using O = detail::check_range_value_t<Range>;
    static_assert(std::is_same_v<O, detail::check_range_value_t<RefRange>>,
                  "check_err: out and ref must be the same 8-bit float type");
    const auto out_size = static_cast<std::size_t>(std::distance(std::begin(out), std::end(out)));
    const auto ref_size = static_cast<std::size_t>(std::distance(std::begin(ref), std::end(ref)));
    if(out_size != ref_size)
    {
        std::cerr << msg << "\ncheck_err: size mismatch: out has " << out_size << " elements, ref has " << ref_size
                  << std::endl;
        return false;
    }
    std::size_t n_err = 0, first_at = 0;
    float first_o = 0, first_r = 0;
    auto it_o = std::begin(out);
    auto it_r = std::begin(ref);
    for(std::size_t i = 0; i < out_size; ++i, ++it_o, ++it_r)
    {
        const float o = static_cast<float>(*it_o), r = static_cast<float>(*it_r);
        bool bad;
        if(std::isnan(o) || std::isnan(r))
            bad = std::isnan(o) != std::isnan(r);
        else
        {
            // +0 and -0 are the same point (ordinal 0)
            const int d = std::abs(detail::fp8_ordinal(it_o->data) - detail::fp8_ordinal(it_r->data));
            bad         = !(std::fabs(double(o) - double(r)) <= atol || unsigned(d) <= max_rounding_point_distance);
        }
        if(bad && n_err++ == 0)
        {
            first_at = i;
            first_o  = o;
            first_r  = r;
        }
    }
    if(n_err == 0)
        return true;
    std::cerr << msg << "\ncheck_err: " << n_err << " of " << out_size << " 8-bit float elements differ by more than "
              << max_rounding_point_distance << " rounding step(s) and atol " << atol << "; first at index " << first_at
              << ": out " << first_o << ", ref " << first_r << std::endl;
    return false;
}

// check_quantized_err(out, ref, msg): a quantized output (int8 or another integer type, or an
// 8-bit float) against the reference's, within one rounding step: a kernel that reduces in another
// order than the reference computes the value it rounds a few bits differently, which can land it
// on the other side of a rounding point (integers: |out - ref| <= 1; 8-bit floats: one code apart).
template <typename Range, typename RefRange>
bool check_quantized_err(const Range& out, const RefRange& ref, const std::string& msg = "Error: Incorrect results!")
{
    using T = detail::check_range_value_t<Range>;
    static_assert(is_float8_v<T> || std::is_integral_v<T>, "check_quantized_err: an integer or 8-bit float output");
    if constexpr(is_float8_v<T>)
        return check_err(out, ref, msg, 1u, 0);
    else
        return check_err(out, ref, msg, 0, 1);
}

} // namespace ck_tile
