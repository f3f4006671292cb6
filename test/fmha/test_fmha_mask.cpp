// SPDX-License-Identifier: MIT
// GenericAttentionMask against the FlashAttention keep rule, by brute force over many shapes and
// windows (sk = 0 and 1, sq > sk, sq < sk): IsOutOfBound is the rule, GetTileRangeAlongX covers
// every kept score with a tile-aligned start, IsEdgeTile is false exactly on all-kept tiles; and
// the example's -mask decoder for every spelling, the bad ones throwing.
#include <doctest/doctest.h>

#include <algorithm>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>
#include "ck_tile/core.hpp"
#include "ck_tile/ops/fmha/block/block_masking.hpp"
#include "example/ck_tile/01_fmha/mask.hpp"

using namespace ck_tile;

namespace {

using NoMask     = GenericAttentionMask<false>;
using CausalMask = GenericAttentionMask<true, false>;
using LocalMask  = GenericAttentionMask<true, true>;

// The FlashAttention statement of a window: keep j in [i + d - left, i + d + right], d = 0 from the
// top-left and sk - sq from the bottom-right, a negative size unbounded; and j inside [0, sk).
bool fa_keep(int i, int j, int sq, int sk, int left, int right, bool top_left)
{
    const int d = top_left ? 0 : sk - sq;
    if(j < 0 || j >= sk)
        return false;
    if(left >= 0 && j < i + d - left)
        return false;
    if(right >= 0 && j > i + d + right)
        return false;
    return true;
}

const std::vector<int> kSeqQ{1, 2, 3, 5, 8, 13, 17};
const std::vector<int> kSeqK{0, 1, 2, 3, 5, 8, 13, 17, 31};
const std::vector<int> kLeft{-1, 0, 1, 2, 5, 20};
const std::vector<int> kRight{-1, 0, 1, 3, 20};

// Checks one mask over all its rows against keep(i, j) for the tile sizes YT x XT.
template <typename Mask, index_t YT, index_t XT, typename Keep>
void check_mask(const Mask& mask, int sq, int sk, Keep keep)
{
    // IsOutOfBound is the rule (and j >= sk is always out)
    for(int i = 0; i < sq; ++i)
        for(int j = 0; j < sk + 3; ++j)
            REQUIRE(mask.IsOutOfBound(i, j) == !keep(i, j));

    // each row block's range is tile-aligned, inside [0, sk], and covers the kept scores
    for(int top = 0; top < sq; top += YT)
    {
        const auto r     = mask.GetTileRangeAlongX(top, number<YT>{}, number<XT>{});
        const index_t xs = r.at(number<0>{}), xe = r.at(number<1>{});
        REQUIRE(xs >= 0);
        REQUIRE(xs % XT == 0);
        REQUIRE(xe <= sk);
        for(int i = top; i < top + YT && i < sq; ++i)
            for(int j = 0; j < sk; ++j)
                if(keep(i, j))
                    REQUIRE((xs <= j && j < xe));
    }

    // IsEdgeTile is false exactly when every score of the tile is kept (rows past sq included:
    // they are judged by the same column rule)
    for(int top = 0; top < sq; top += YT)
        for(int lft = 0; lft < sk + XT; lft += XT)
        {
            bool any_out = false;
            for(int i = top; i < top + YT; ++i)
                for(int j = lft; j < lft + XT; ++j)
                    any_out = any_out || mask.IsOutOfBound(i, j);
            REQUIRE(mask.IsEdgeTile(top, lft, number<YT>{}, number<XT>{}) == any_out);
            if(!any_out)
                for(int i = top; i < top + YT && i < sq; ++i)
                    for(int j = lft; j < lft + XT; ++j)
                        REQUIRE(keep(i, j));
        }
}

template <index_t YT, index_t XT>
void check_all_shapes()
{
    for(int sq : kSeqQ)
        for(int sk : kSeqK)
        {
            CAPTURE(sq);
            CAPTURE(sk);
            check_mask<NoMask, YT, XT>(NoMask{sq, sk}, sq, sk, [&](int, int j) { return j < sk; });
            for(bool top_left : {true, false})
            {
                CAPTURE(top_left);
                for(int left : kLeft)
                    for(int right : kRight)
                    {
                        CAPTURE(left);
                        CAPTURE(right);
                        auto keep = [&](int i, int j) { return fa_keep(i, j, sq, sk, left, right, top_left); };
                        check_mask<LocalMask, YT, XT>(
                            make_generic_attention_mask_from_lr_window<LocalMask>(left, right, sq, sk, top_left), sq,
                            sk, keep);
                        // a causal mask type only honours the right bound
                        if(left < 0)
                            check_mask<CausalMask, YT, XT>(
                                make_generic_attention_mask_from_lr_window<CausalMask>(left, right, sq, sk, top_left),
                                sq, sk, keep);
                    }
            }
        }
}

std::string printed(const mask_info& m)
{
    std::ostringstream os;
    os << m;
    return os.str();
}

} // namespace

TEST_CASE("mask names and the no-mask bound")
{
    CHECK(std::string(NoMask::name) == "mn");
    CHECK(std::string(CausalMask::name) == "mc");
    CHECK(std::string(LocalMask::name) == "mg");
    CHECK(!NoMask::IsMasking);
    CHECK(CausalMask::IsMasking);
    CHECK(!CausalMask::IsLocal);
    CHECK(LocalMask::IsLocal);
    // usable in constant expressions (device code builds it from kernel arguments the same way)
    constexpr auto m = make_generic_attention_mask_from_lr_window<CausalMask>(-1, 0, 4, 4);
    static_assert(m.IsOutOfBound(0, 1) && !m.IsOutOfBound(1, 1));
    const NoMask nm{3, 5};
    CHECK(!nm.IsOutOfBound(2, 4));
    CHECK(nm.IsOutOfBound(0, 5));
}

TEST_CASE("generic coordinates from FlashAttention windows")
{
    // causal top-left: y = sq, x = 1; causal bottom-right: y = sq, x = sk - sq + 1
    auto yx = make_generic_attention_mask_coordinates_from_lr_window(-1, 0, 5, 8, true);
    CHECK(yx.at(number<0>{}) == 5);
    CHECK(yx.at(number<1>{}) == 1);
    yx = make_generic_attention_mask_coordinates_from_lr_window(-1, 0, 5, 8, false);
    CHECK(yx.at(number<0>{}) == 5);
    CHECK(yx.at(number<1>{}) == 4);
    // sliding window t:3,5 -> y = 4, x = 6; b:3,5 with sq = 5, sk = 8 -> y = 1, x = 9
    yx = make_generic_attention_mask_coordinates_from_lr_window(3, 5, 5, 8, true);
    CHECK(yx.at(number<0>{}) == 4);
    CHECK(yx.at(number<1>{}) == 6);
    yx = make_generic_attention_mask_coordinates_from_lr_window(3, 5, 5, 8, false);
    CHECK(yx.at(number<0>{}) == 1);
    CHECK(yx.at(number<1>{}) == 9);
}

TEST_CASE("masks match the FlashAttention rule, 1x1 tiles") { check_all_shapes<1, 1>(); }

TEST_CASE("masks match the FlashAttention rule, 4x8 tiles") { check_all_shapes<4, 8>(); }

TEST_CASE("masks match the FlashAttention rule, 16x4 tiles") { check_all_shapes<16, 4>(); }

TEST_CASE("a fully masked row block has an empty range")
{
    // bottom-right causal with sq = 8 > sk = 3: rows 0..4 keep nothing (j <= i - 5)
    const auto m = make_generic_attention_mask_from_lr_window<CausalMask>(-1, 0, 8, 3, false);
    const auto r = m.GetTileRangeAlongX(0, number<4>{}, number<4>{});
    CHECK(r.at(number<1>{}) <= r.at(number<0>{}));
    // sk = 0: nothing anywhere
    const auto z  = make_generic_attention_mask_from_lr_window<LocalMask>(2, 2, 4, 0, true);
    const auto rz = z.GetTileRangeAlongX(0, number<4>{}, number<4>{});
    CHECK(rz.at(number<1>{}) <= rz.at(number<0>{}));
}

TEST_CASE("mask_info decodes every spelling")
{
    const int sq = 5, sk = 8;
    auto m = mask_info::decode("0", sq, sk);
    CHECK(m.type == mask_enum::no_mask);
    CHECK(printed(m) == "n");

    for(const char* s : {"1", "t", "t:-1,0", "xt:-1", "xt:0"})
    {
        CAPTURE(s);
        m = mask_info::decode(s, sq, sk);
        CHECK(m.type == mask_enum::mask_top_left);
        CHECK(m.left == -1);
        CHECK(m.right == 0);
        CHECK(m.y == sq);
        CHECK(m.x == 1);
        CHECK(printed(m) == "t(-1:0)");
    }
    for(const char* s : {"2", "b", "b:-1,0", "xb:-3"})
    {
        CAPTURE(s);
        m = mask_info::decode(s, sq, sk);
        CHECK(m.type == mask_enum::mask_bottom_right);
        CHECK(m.left == -1);
        CHECK(m.right == 0);
        CHECK(m.y == sq);
        CHECK(m.x == sk - sq + 1);
        CHECK(printed(m) == "b(-1:0)");
    }

    m = mask_info::decode("t:3,5", sq, sk);
    CHECK(m.type == mask_enum::mask_top_left);
    CHECK((m.left == 3 && m.right == 5 && m.y == 4 && m.x == 6));
    CHECK(printed(m) == "t(3:5)");

    m = mask_info::decode("b:10,11", sq, sk);
    CHECK(m.type == mask_enum::mask_bottom_right);
    CHECK((m.left == 10 && m.right == 11 && m.y == 1 + 10 - 3 && m.x == 1 + 11 + 3));
    CHECK(printed(m) == "b(10:11)");

    // xformers windows: left = w / 2, right = w - 1 - left
    m = mask_info::decode("xt:4", sq, sk);
    CHECK((m.type == mask_enum::mask_top_left && m.left == 2 && m.right == 1));
    CHECK(printed(m) == "t(2:1)");
    m = mask_info::decode("xb:16", sq, sk);
    CHECK((m.type == mask_enum::mask_bottom_right && m.left == 8 && m.right == 7));
    CHECK(printed(m) == "b(8:7)");
    m = mask_info::decode("xt:1", sq, sk);
    CHECK((m.left == 0 && m.right == 0));

    // g:y,x: raw generic coordinates, read from the top-left (left = y - 1, right = x - 1)
    m = mask_info::decode("g:3,4", sq, sk);
    CHECK(m.type == mask_enum::window_generic);
    CHECK((m.y == 3 && m.x == 4 && m.left == 2 && m.right == 3));
    CHECK(printed(m) == "g(3:4)");

    // negative window sizes pass through
    m = mask_info::decode("t:-1,-1", sq, sk);
    CHECK((m.left == -1 && m.right == -1 && m.y == sq && m.x == sk));
}

TEST_CASE("a decoded mask_info builds the same mask from (y, x) and from (left, right)")
{
    const std::vector<std::string> spellings{"1",      "t",    "2",    "b",     "t:3,5", "b:3,5", "b:0,0",
                                             "t:0,-1", "xt:4", "xb:7", "xb:16", "g:1,1", "g:3,4", "g:2,9"};
    for(int sq : {1, 3, 8})
        for(int sk : {0, 1, 4, 8, 11})
            for(const auto& s : spellings)
            {
                CAPTURE(sq);
                CAPTURE(sk);
                CAPTURE(s);
                const auto m       = mask_info::decode(s, sq, sk);
                const bool tl      = m.type != mask_enum::mask_bottom_right;
                const auto from_lr = make_generic_attention_mask_from_lr_window<LocalMask>(m.left, m.right, sq, sk, tl);
                const LocalMask from_yx{m.y, m.x, sq, sk};
                for(int i = 0; i < sq; ++i)
                    for(int j = 0; j < sk; ++j)
                    {
                        REQUIRE(from_lr.IsOutOfBound(i, j) == from_yx.IsOutOfBound(i, j));
                        if(m.type == mask_enum::window_generic)
                            REQUIRE(from_yx.IsOutOfBound(i, j) == !(i - m.y + 1 <= j && j < std::min(i + m.x, sk)));
                    }
            }
}

TEST_CASE("mask_info rejects bad spellings with invalid_argument naming them")
{
    for(const char* s : {"",
                         "3",
                         "4",
                         "-1",
                         "00",
                         "01",
                         "x",
                         "n",
                         "tt",
                         " 1",
                         "1 ",
                         "t:",
                         "t:1",
                         "t:1,",
                         "t:,1",
                         "t:1,2,3",
                         "t:a,b",
                         "t:1,2x",
                         "t: 1,2",
                         "t:+1,2",
                         "q:1,2",
                         "xt:",
                         "xt:4,5",
                         "xt:w",
                         "x:4",
                         "g:1",
                         "g:0,1",
                         "g:1,0",
                         "b:99999999999,1",
                         ":1,2",
                         "t:1;2"})
    {
        CAPTURE(s);
        bool threw = false;
        try
        {
            (void)mask_info::decode(s, 5, 8);
        }
        catch(const std::invalid_argument& e)
        {
            threw = true;
            CHECK(std::string(e.what()).find("'" + std::string(s) + "'") != std::string::npos);
        }
        CHECK(threw);
    }
}
