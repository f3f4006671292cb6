// SPDX-License-Identifier: MIT
// fp8 / bf8 (FNUZ and OCP encodings): known codes, limits, NaN, round trip of all 256 codes, and
// float -> fp8 (nearest even, saturating) against a brute-force nearest-value search.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "ck_tile/core.hpp"

using namespace ck_tile;

namespace {

template <typename T>
uint8_t code_of(float x)
{
    return T(x).data;
}

template <typename T>
float value_of(uint8_t code)
{
    return float(T::from_raw(code));
}

// The correctly rounded (nearest, ties to the even code), saturating conversion, by search.
template <typename T>
uint8_t brute_force(float x)
{
    using tr = typename T::traits;
    if(std::isnan(x))
        return tr::is_fnuz ? tr::nan_code : static_cast<uint8_t>((std::signbit(x) ? 0x80 : 0) | tr::nan_code);
    const double ax = std::fabs(static_cast<double>(x));
    if(ax >= double(value_of<T>(tr::max_code)))
        return static_cast<uint8_t>((std::signbit(x) ? 0x80 : 0) | tr::max_code); // saturation
    int best        = 0;
    double best_err = ax;
    for(int c = 1; c <= tr::max_code; ++c) // the positive finite codes, in increasing order
    {
        const double err = std::fabs(double(value_of<T>(static_cast<uint8_t>(c))) - ax);
        if(err < best_err || (err == best_err && (c & 1) == 0))
        {
            best     = c;
            best_err = err;
        }
    }
    if(best == 0 && tr::is_fnuz)
        return 0; // no negative zero
    return static_cast<uint8_t>((std::signbit(x) ? 0x80 : 0) | best);
}

template <typename T>
void check_round_trip_and_order()
{
    using tr = typename T::traits;
    int nans = 0;
    for(int c = 0; c < 256; ++c)
    {
        const auto code = static_cast<uint8_t>(c);
        const float v   = value_of<T>(code);
        CAPTURE(c);
        if(T::from_raw(code).is_nan())
        {
            ++nans;
            CHECK(std::isnan(v));
            CHECK(T(v).is_nan());
            continue;
        }
        CHECK(!std::isnan(v));
        if(std::isinf(v))
        {
            CHECK(tr::has_inf);
            CHECK((c & 0x7f) == tr::inf_code);
            CHECK(float_to_fp8<T::encoding, false>(v) == code);  // non-saturating keeps infinity
            CHECK(code_of<T>(v) == ((c & 0x80) | tr::max_code)); // saturating clips it
            continue;
        }
        CHECK(code_of<T>(v) == code); // every finite code survives float and back
        CHECK(std::signbit(v) == ((c & 0x80) != 0));
    }
    CHECK(nans == (tr::is_fnuz ? 1 : tr::is_e4m3 ? 2 : 6));
    for(int c = 1; c <= tr::max_code; ++c) // increasing magnitudes from 0 to max
        CHECK(value_of<T>(static_cast<uint8_t>(c)) > value_of<T>(static_cast<uint8_t>(c - 1)));
}

template <typename T>
void check_against_brute_force()
{
    using tr = typename T::traits;
    std::vector<float> xs;
    // every value, the midpoints between neighbours (exact ties), one float ulp either side of
    // each, and beyond the largest value
    for(int c = 0; c <= tr::max_code; ++c)
    {
        const float v = value_of<T>(static_cast<uint8_t>(c));
        const float n = c < tr::max_code ? value_of<T>(static_cast<uint8_t>(c + 1)) : 2 * v;
        const float m = (v + n) / 2;
        for(float x : {v, m, std::nextafter(m, 0.f), std::nextafter(m, 1e30f)})
        {
            xs.push_back(x);
            xs.push_back(-x);
        }
    }
    std::mt19937 g(42);
    std::uniform_real_distribution<float> mant(1.f, 2.f);
    for(int i = 0; i < 20000; ++i)
    {
        const float x = std::ldexp(mant(g), static_cast<int>(g() % 50) - 30);
        xs.push_back(g() & 1 ? x : -x);
    }
    for(float x : {0.f, -0.f, 1e-30f, -1e-30f, std::numeric_limits<float>::denorm_min(), 1e30f, -1e30f,
                   std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity(),
                   std::numeric_limits<float>::max()})
        xs.push_back(x);
    int bad = 0;
    for(float x : xs)
    {
        const uint8_t want =
            std::isinf(x) ? static_cast<uint8_t>((x < 0 ? 0x80 : 0) | tr::max_code) : brute_force<T>(x);
        const uint8_t got = code_of<T>(x);
        if(got != want && ++bad <= 5)
            FAIL_CHECK("x = " << x << ": got code " << int(got) << ", want " << int(want));
    }
    CHECK(bad == 0);
}

} // namespace

TEST_SUITE("float8")
{
    TEST_CASE("known encodings")
    {
        // 1.0
        CHECK(code_of<fp8_fnuz_t>(1.f) == 0x40);
        CHECK(code_of<fp8_ocp_t>(1.f) == 0x38);
        CHECK(code_of<bf8_fnuz_t>(1.f) == 0x40);
        CHECK(code_of<bf8_ocp_t>(1.f) == 0x3c);
        CHECK(code_of<fp8_fnuz_t>(-2.f) == 0xc8);
        CHECK(code_of<fp8_ocp_t>(-2.f) == 0xc0);
        CHECK(value_of<fp8_fnuz_t>(0x41) == 1.125f);
        CHECK(value_of<bf8_ocp_t>(0x3d) == 1.25f);
        // largest finite values
        CHECK(value_of<fp8_fnuz_t>(0x7f) == 240.f);
        CHECK(value_of<fp8_ocp_t>(0x7e) == 448.f);
        CHECK(value_of<bf8_fnuz_t>(0x7f) == 57344.f);
        CHECK(value_of<bf8_ocp_t>(0x7b) == 57344.f);
        CHECK(float(numeric<fp8_fnuz_t>::max()) == 240.f);
        CHECK(float(numeric<fp8_ocp_t>::max()) == 448.f);
        CHECK(float(numeric<bf8_fnuz_t>::max()) == 57344.f);
        CHECK(float(numeric<bf8_ocp_t>::max()) == 57344.f);
        CHECK(float(numeric<fp8_fnuz_t>::lowest()) == -240.f);
        CHECK(float(numeric<fp8_ocp_t>::lowest()) == -448.f);
        CHECK(float(numeric<bf8_ocp_t>::lowest()) == -57344.f);
        // smallest normal and subnormal values, epsilon
        CHECK(float(numeric<fp8_fnuz_t>::min()) == std::ldexp(1.f, -7));
        CHECK(float(numeric<fp8_ocp_t>::min()) == std::ldexp(1.f, -6));
        CHECK(float(numeric<bf8_fnuz_t>::min()) == std::ldexp(1.f, -15));
        CHECK(float(numeric<bf8_ocp_t>::min()) == std::ldexp(1.f, -14));
        CHECK(value_of<fp8_fnuz_t>(0x01) == std::ldexp(1.f, -10));
        CHECK(value_of<fp8_ocp_t>(0x01) == std::ldexp(1.f, -9));
        CHECK(value_of<bf8_fnuz_t>(0x01) == std::ldexp(1.f, -17));
        CHECK(value_of<bf8_ocp_t>(0x01) == std::ldexp(1.f, -16));
        CHECK(float(numeric<fp8_ocp_t>::epsilon()) == 0.125f);
        CHECK(float(numeric<bf8_fnuz_t>::epsilon()) == 0.25f);
        // NaN and infinity
        CHECK(code_of<fp8_fnuz_t>(NAN) == 0x80);
        CHECK(code_of<bf8_fnuz_t>(-NAN) == 0x80);
        CHECK(code_of<fp8_ocp_t>(NAN) == 0x7f);
        CHECK(code_of<fp8_ocp_t>(-NAN) == 0xff);
        CHECK(code_of<bf8_ocp_t>(NAN) == 0x7e);
        CHECK(std::isnan(value_of<fp8_fnuz_t>(0x80)));
        CHECK(std::isnan(value_of<fp8_ocp_t>(0xff)));
        CHECK(std::isnan(value_of<bf8_ocp_t>(0x7d)));
        CHECK(value_of<bf8_ocp_t>(0x7c) == std::numeric_limits<float>::infinity());
        CHECK(value_of<bf8_ocp_t>(0xfc) == -std::numeric_limits<float>::infinity());
        CHECK(numeric<bf8_ocp_t>::has_infinity());
        CHECK(!numeric<fp8_fnuz_t>::has_infinity());
        CHECK(numeric<bf8_ocp_t>::infinity().data == 0x7c);
        CHECK(numeric<fp8_fnuz_t>::quiet_NaN().is_nan());
        CHECK(numeric<fp8_ocp_t>::quiet_NaN().is_nan());
        // zeros: OCP has -0, FNUZ does not (0x80 is its NaN)
        CHECK(code_of<fp8_fnuz_t>(-0.f) == 0x00);
        CHECK(code_of<fp8_fnuz_t>(-1e-6f) == 0x00);
        CHECK(code_of<fp8_ocp_t>(-0.f) == 0x80);
        CHECK(code_of<bf8_ocp_t>(-1e-9f) == 0x80);
    }

    TEST_CASE("rounding: nearest, ties to even; saturation")
    {
        // E4M3 around 1: ulp 0.125
        CHECK(code_of<fp8_fnuz_t>(1.0625f) == 0x40); // tie -> even (1.0)
        CHECK(code_of<fp8_fnuz_t>(1.1875f) == 0x42); // tie -> even (1.25)
        CHECK(code_of<fp8_fnuz_t>(1.07f) == 0x41);
        CHECK(code_of<fp8_ocp_t>(1.0625f) == 0x38);
        // subnormal ties
        CHECK(code_of<fp8_fnuz_t>(std::ldexp(1.f, -11)) == 0x00); // half the smallest: tie -> 0
        CHECK(code_of<fp8_fnuz_t>(std::ldexp(3.f, -11)) == 0x02); // 1.5 ulp: tie -> 2
        CHECK(code_of<fp8_fnuz_t>(std::ldexp(1.01f, -11)) == 0x01);
        // rounding up into the next binade and from subnormal into normal
        CHECK(code_of<fp8_fnuz_t>(1.97f) == 0x48);
        CHECK(code_of<fp8_fnuz_t>(std::ldexp(0.97f, -7)) == 0x08);
        // saturation
        CHECK(code_of<fp8_fnuz_t>(241.f) == 0x7f);
        CHECK(code_of<fp8_fnuz_t>(1e9f) == 0x7f);
        CHECK(code_of<fp8_fnuz_t>(-1e9f) == 0xff);
        CHECK(code_of<fp8_fnuz_t>(INFINITY) == 0x7f);
        CHECK(code_of<fp8_ocp_t>(464.f) == 0x7e);
        CHECK(code_of<fp8_ocp_t>(-INFINITY) == 0xfe);
        CHECK(code_of<bf8_ocp_t>(65536.f) == 0x7b);
        CHECK(code_of<bf8_fnuz_t>(-1e6f) == 0xff);
        // the non-saturating variant
        CHECK(float_to_fp8<fp8_encoding::e4m3_fnuz, false>(300.f) == 0x80);
        CHECK(float_to_fp8<fp8_encoding::e4m3_ocp, false>(480.f) == 0x7f);
        CHECK(float_to_fp8<fp8_encoding::e4m3_ocp, false>(464.f) == 0x7e); // tie -> 448 (even)
        CHECK(float_to_fp8<fp8_encoding::e5m2_ocp, false>(-1e6f) == 0xfc);
        CHECK(float_to_fp8<fp8_encoding::e5m2_ocp, false>(60000.f) == 0x7b);
    }

    TEST_CASE("all 256 codes: round trip through float, order, NaN")
    {
        check_round_trip_and_order<fp8_fnuz_t>();
        check_round_trip_and_order<bf8_fnuz_t>();
        check_round_trip_and_order<fp8_ocp_t>();
        check_round_trip_and_order<bf8_ocp_t>();
    }

    TEST_CASE("float -> fp8 equals the nearest value found by search")
    {
        check_against_brute_force<fp8_fnuz_t>();
        check_against_brute_force<bf8_fnuz_t>();
        check_against_brute_force<fp8_ocp_t>();
        check_against_brute_force<bf8_ocp_t>();
    }

    TEST_CASE("fp8_t / bf8_t follow the arch; type_convert")
    {
#if defined(CK_TILE_ARCH_GFX950)
        static_assert(std::is_same_v<fp8_t, fp8_ocp_t> && std::is_same_v<bf8_t, bf8_ocp_t>);
        CHECK(type_convert<fp8_t>(1.f).data == 0x38);
#else
        static_assert(std::is_same_v<fp8_t, fp8_fnuz_t> && std::is_same_v<bf8_t, bf8_fnuz_t>);
        CHECK(type_convert<fp8_t>(1.f).data == 0x40);
#endif
        static_assert(sizeof(fp8_t) == 1 && sizeof(bf8_t) == 1);
        CHECK(type_convert<float>(type_convert<fp8_t>(-3.5f)) == -3.5f);
        CHECK(type_convert<float>(type_convert<bf8_t>(1000.f)) == 1024.f);
        CHECK(type_convert<fp8_t>(1000.0).data == numeric<fp8_t>::max().data); // saturates
        CHECK(type_convert<fp8_t>(3).data == type_convert<fp8_t>(3.f).data);
        CHECK(float(type_convert<half_t>(type_convert<fp8_t>(0.75f))) == 0.75f);
        CHECK(float(type_convert<bf16_t>(type_convert<bf8_t>(-6.f))) == -6.f);
        CHECK(type_convert<float>(type_convert<fp8_t>(half_t(2.5f))) == 2.5f);
        CHECK(type_convert<float>(type_convert<fp8_t>(bf16_t(-0.5f))) == -0.5f);
        CHECK(type_convert<int>(type_convert<fp8_t>(6.f)) == 6);
        // between encodings: exact where representable
        CHECK(type_convert<fp8_ocp_t>(type_convert<fp8_fnuz_t>(1.5f)).data == 0x3c);
        CHECK(type_convert<fp8_fnuz_t>(fp8_ocp_t::from_raw(0x7e)).data == 0x7f); // 448 saturates to 240
        // arithmetic goes through float
        CHECK(float(fp8_t(1.5f) + fp8_t(2.f)) == 3.5f);
        CHECK(float(-fp8_t(2.f)) == -2.f);
        CHECK(fp8_t(2.f) == fp8_t(2.f));
        CHECK(!(numeric<fp8_t>::quiet_NaN() == numeric<fp8_t>::quiet_NaN()));
        // usable in constant expressions
        static_assert(float_to_fp8<fp8_encoding::e4m3_fnuz>(1.f) == 0x40);
        static_assert(fp8_to_float<fp8_encoding::e5m2_ocp>(0x3c) == 1.f);
    }
}
