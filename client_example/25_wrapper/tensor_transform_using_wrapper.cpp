// SPDX-License-Identifier: MIT
// client_tensor_transform_using_wrapper: ck::wrapper layouts on the host. Prints the offset
// tables of compile-time and run-time layouts with flat and nested shapes, traversed column-major
// as upstream's example does, and checks every printed offset against the offset computed by hand
// from the shape and strides (valid:y|n).
#include <functional>
#include <iostream>

#include "ck/ck.hpp"

#include "ck/utility/number.hpp"
#include "ck/utility/tuple.hpp"
#include "ck/utility/sequence.hpp"

#include "ck/wrapper/layout.hpp"

using DataType = int;

// every printed offset, checked against the expected one
static int g_errors = 0;
static void check(ck::index_t got, ck::index_t want)
{
    if(got != want)
    {
        if(g_errors < 5)
            std::cerr << "offset " << got << " != expected " << want << std::endl;
        ++g_errors;
    }
}

template <typename Layout>
void Print1d(const Layout& layout, const std::function<ck::index_t(ck::index_t)>& want)
{
    std::cout << "Print1d" << std::endl;
    for(ck::index_t w = 0; w < ck::wrapper::size(layout); w++)
    {
        std::cout << layout(ck::make_tuple(w)) << " ";
        check(layout(ck::make_tuple(w)), want(w));
    }
    std::cout << std::endl;
}

template <typename Layout>
void Print2d(const Layout& layout, const std::function<ck::index_t(ck::index_t, ck::index_t)>& want)
{
    std::cout << "Print2d" << std::endl;
    for(ck::index_t h = 0; h < ck::wrapper::size<0>(layout); h++)
    {
        for(ck::index_t w = 0; w < ck::wrapper::size<1>(layout); w++)
        {
            std::cout << layout(ck::make_tuple(h, w)) << " ";
            check(layout(ck::make_tuple(h, w)), want(h, w));
        }
        std::cout << std::endl;
    }
}

// Print in (x,y),z pattern
template <typename Layout>
void Print3dCustom(const Layout& layout, const std::function<ck::index_t(ck::index_t, ck::index_t, ck::index_t)>& want)
{
    std::cout << "Print3dCustom" << std::endl;
    for(ck::index_t d = 0; d < ck::wrapper::size<0>(ck::wrapper::get<0>(layout)); d++)
    {
        for(ck::index_t h = 0; h < ck::wrapper::size<1>(ck::wrapper::get<0>(layout)); h++)
        {
            for(ck::index_t w = 0; w < ck::wrapper::size<1>(layout); w++)
            {
                std::cout << layout(ck::make_tuple(ck::make_tuple(d, h), w)) << " ";
                check(layout(ck::make_tuple(ck::make_tuple(d, h), w)), want(d, h, w));
            }
            std::cout << std::endl;
        }
        std::cout << std::endl;
    }
}

int main()
{
    // Layout traverse in column-major
    std::cout << "Note: Layout traverse in column-major" << std::endl;
    // Basic descriptor 0, 1, 2, ... 30, 31 (compile-time descriptor)
    // (dims:4,8 strides:1,4)
    const auto shape_4x8       = ck::make_tuple(ck::Number<4>{}, ck::Number<8>{});
    const auto layout_4x8_s1x4 = ck::wrapper::make_layout(shape_4x8);
    std::cout << "dims:4,8 strides:1,4" << std::endl;
    Print2d(layout_4x8_s1x4, [](ck::index_t h, ck::index_t w) { return h + 4 * w; });
    using Cord1x1Type                = ck::Tuple<ck::Number<1>, ck::Number<1>>;
    constexpr ck::index_t offset_1x1 = layout_4x8_s1x4.template operator()<Cord1x1Type>();
    static_assert(offset_1x1 == 5);
    std::cout << "Constexpr calculated [1, 1] offset:" << offset_1x1 << std::endl;

    // Basic descriptor 0, 1, 8, 9, 16, 17, ... 30, 31 (runtime descriptor)
    // dims:4,(2,4) strides:2,(1,8)
    const auto shape_4x2x4         = ck::make_tuple(4, ck::make_tuple(2, 4));
    const auto strides_s2x1x8      = ck::make_tuple(2, ck::make_tuple(1, 8));
    const auto layout_4x2x4_s2x1x8 = ck::wrapper::make_layout(shape_4x2x4, strides_s2x1x8);

    std::cout << "dims:4,(2,4) strides:2,(1,8)" << std::endl;
    Print2d(layout_4x2x4_s2x1x8, [](ck::index_t h, ck::index_t w) { return 2 * h + (w % 2) + 8 * (w / 2); });

    // Basic descriptor 0, 1, 8, 9, 16, 17, ... 30, 31 (compile-time descriptor)
    // dims:(2,2),(2,4) strides:((1,4),(2,8)
    const auto shape_2x2x2x4                  = ck::make_tuple(ck::make_tuple(ck::Number<2>{}, ck::Number<2>{}),
                                                               ck::make_tuple(ck::Number<2>{}, ck::Number<4>{}));
    const auto strides_s1x4x2x8               = ck::make_tuple(ck::make_tuple(ck::Number<1>{}, ck::Number<4>{}),
                                                               ck::make_tuple(ck::Number<2>{}, ck::Number<8>{}));
    static const auto layout_2x2x2x4_s1x4x2x8 = ck::wrapper::make_layout(shape_2x2x2x4, strides_s1x4x2x8);

    const auto want_2x2x2x4 = [](ck::index_t h, ck::index_t w) {
        return (h % 2) + 4 * (h / 2) + 2 * (w % 2) + 8 * (w / 2);
    };
    std::cout << "dims:(2,2),(2,4) strides:(1,4),(2,8)" << std::endl;
    Print2d(layout_2x2x2x4_s1x4x2x8, want_2x2x2x4);
    Print3dCustom(layout_2x2x2x4_s1x4x2x8,
                  [&](ck::index_t d, ck::index_t h, ck::index_t w) { return want_2x2x2x4(d + 2 * h, w); });

    // Basic descriptor 0, 1, 8, 9, 16, 17, ... 30, 31 (compile-time descriptor)
    // dims:((2,2),2),4 strides:((1,4),2),8
    // Transform to 2d
    const auto shape_2x2x2x4_nested = ck::make_tuple(
        ck::make_tuple(ck::make_tuple(ck::Number<2>{}, ck::Number<2>{}), ck::Number<2>{}), ck::Number<4>{});
    const auto strides_s1x4x2x8_nested = ck::make_tuple(
        ck::make_tuple(ck::make_tuple(ck::Number<1>{}, ck::Number<4>{}), ck::Number<2>{}), ck::Number<8>{});
    static const auto layout_2x2x2x4_s1x4x2x8_nested =
        ck::wrapper::make_layout(shape_2x2x2x4_nested, strides_s1x4x2x8_nested);

    // mode 0 = ((2,2),2) strides ((1,4),2): index h -> (h%2)*1 + ((h/2)%2)*4 + (h/4)*2
    const auto want_nested = [](ck::index_t h, ck::index_t w) {
        return (h % 2) + 4 * ((h / 2) % 2) + 2 * (h / 4) + 8 * w;
    };
    std::cout << "dims:((2,2),2),4 strides:((1,4),2),8" << std::endl;
    Print1d(layout_2x2x2x4_s1x4x2x8_nested, [&](ck::index_t i) { return want_nested(i % 8, i / 8); });
    Print2d(layout_2x2x2x4_s1x4x2x8_nested, want_nested);
    Print3dCustom(layout_2x2x2x4_s1x4x2x8_nested,
                  [&](ck::index_t d, ck::index_t h, ck::index_t w) { return want_nested(d + 4 * h, w); });

    std::cout << "size " << ck::wrapper::size(layout_2x2x2x4_s1x4x2x8_nested) << ", rank "
              << ck::wrapper::rank(layout_2x2x2x4_s1x4x2x8_nested) << ", depth "
              << ck::wrapper::depth(layout_2x2x2x4_s1x4x2x8_nested) << std::endl;
    const bool pass = g_errors == 0 && ck::wrapper::size(layout_2x2x2x4_s1x4x2x8_nested) == 32 &&
                      ck::wrapper::rank(layout_2x2x2x4_s1x4x2x8_nested) == 2 &&
                      ck::wrapper::depth(layout_2x2x2x4_s1x4x2x8_nested) == 3;
    std::cout << "valid:" << (pass ? "y" : "n") << std::endl;
    return pass ? 0 : 1;
}
