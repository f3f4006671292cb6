// SPDX-License-Identifier: MIT
// The example's -bias decoder, the ALiBi head slopes (8 and 12 heads against their closed forms),
// Alibi::update in each mode and the mode make_alibi_from_lr_mask picks for each mask.
#include <doctest/doctest.h>

#include <cmath>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>
#include "ck_tile/core.hpp"
#include "ck_tile/host.hpp"
#include "ck_tile/host/reference/reference_batched_masking.hpp"
#include "ck_tile/host/reference/reference_batched_softmax.hpp"
#include "ck_tile/ops/fmha/block/block_attention_bias_enum.hpp"
#include "ck_tile/ops/fmha/block/block_masking.hpp"
#include "ck_tile/ops/fmha/block/block_position_encoding.hpp"
#include "example/ck_tile/01_fmha/bias.hpp"

using namespace ck_tile;

namespace {

std::string printed(const bias_info& b)
{
    std::ostringstream os;
    os << b;
    return os.str();
}

float biased(const Alibi<float>& a, int row, int col, float pixel = 0.f)
{
    a.update(pixel, row, col);
    return pixel;
}

} // namespace

TEST_CASE("attention bias names")
{
    CHECK(std::string(attention_bias_name(BlockAttentionBiasEnum::NO_BIAS)) == "");
    CHECK(std::string(attention_bias_name(BlockAttentionBiasEnum::ELEMENTWISE_BIAS)) == "bias");
    CHECK(std::string(attention_bias_name(BlockAttentionBiasEnum::ALIBI)) == "alibi");
}

TEST_CASE("bias_info decodes every spelling")
{
    using E = BlockAttentionBiasEnum;
    struct Case
    {
        const char* in;
        E type;
        int rank;
        const char* out;
    };
    const std::vector<Case> cases{{"n", E::NO_BIAS, 0, "n"},
                                  {"0", E::NO_BIAS, 0, "n"},
                                  {"e", E::ELEMENTWISE_BIAS, 0, "e"},
                                  {"1", E::ELEMENTWISE_BIAS, 0, "e"},
                                  {"elementwise", E::ELEMENTWISE_BIAS, 0, "e"},
                                  {"e:0", E::ELEMENTWISE_BIAS, 0, "e"},
                                  {"e:1", E::ELEMENTWISE_BIAS, 1, "e[1]"},
                                  {"elementwise:2", E::ELEMENTWISE_BIAS, 2, "e[2]"},
                                  {"a", E::ALIBI, 0, "alibi"},
                                  {"2", E::ALIBI, 0, "alibi"},
                                  {"alibi", E::ALIBI, 0, "alibi"},
                                  {"a:0", E::ALIBI, 0, "alibi"},
                                  {"alibi:1", E::ALIBI, 1, "alibi[1]"}};
    for(const auto& c : cases)
    {
        CAPTURE(c.in);
        const auto b = bias_info::decode(c.in);
        CHECK(b.type == c.type);
        CHECK(b.rank_info == c.rank);
        CHECK(printed(b) == c.out);
    }
    for(const char* s :
        {"", "3", "x", "b", "e:", "e:3", "e:-1", "a:2", "alibi:1x", "e:1:2", "n:0", "0:1", " e", "e ", "elem", "a:+1"})
    {
        CAPTURE(s);
        bool threw = false;
        try
        {
            (void)bias_info::decode(s);
        }
        catch(const std::invalid_argument& e)
        {
            threw = true;
            CHECK(std::string(e.what()).find("'" + std::string(s) + "'") != std::string::npos);
        }
        CHECK(threw);
    }
}

TEST_CASE("ALiBi slopes")
{
    // a power of two: 2^(-8/n), 2^(-16/n), ..., 2^-8
    const auto s8 = get_alibi_slopes<float>(8);
    REQUIRE(s8.size() == 8);
    for(int i = 0; i < 8; ++i)
        CHECK(s8[i] == std::ldexp(1.f, -(i + 1)));
    // 12 heads: the 8 above, then the slopes of 16 heads at odd multiples of 1/2: 2^-0.5 .. 2^-3.5
    const auto s12 = get_alibi_slopes<float>(12);
    REQUIRE(s12.size() == 12);
    for(int i = 0; i < 8; ++i)
        CHECK(s12[i] == s8[i]);
    const float odd[4] = {0.70710678f, 0.35355339f, 0.17677670f, 0.08838835f};
    for(int k = 0; k < 4; ++k)
        CHECK(s12[8 + k] == doctest::Approx(odd[k]).epsilon(1e-7));
    // one head: 2^-8; three heads: 2^-4, 2^-8, then 2^-2 from four heads
    CHECK(get_alibi_slopes<float>(1) == std::vector<float>{std::ldexp(1.f, -8)});
    CHECK(get_alibi_slopes<float>(3) ==
          std::vector<float>{std::ldexp(1.f, -4), std::ldexp(1.f, -8), std::ldexp(1.f, -2)});
    CHECK(get_alibi_slopes<float>(0).empty());
}

TEST_CASE("Alibi update in each mode (the constructor takes the positive slope)")
{
    // sq = 3, sk = 5
    const Alibi<float> v{0.5f, 3, 5, AlibiMode::VERTICAL};
    CHECK(v.slope == 0.5f);
    CHECK(biased(v, 2, 3, 1.f) == 2.5f); // + slope * col
    CHECK(biased(v, 0, 0) == 0.f);

    const Alibi<float> tl{0.5f, 3, 5, AlibiMode::FROM_TOP_LEFT};
    CHECK(tl.slope == -0.5f);
    CHECK(biased(tl, 2, 2) == 0.f);
    CHECK(biased(tl, 2, 4) == -1.f); // - slope * |row - col|
    CHECK(biased(tl, 2, 0) == -1.f);

    const Alibi<float> br{0.5f, 3, 5, AlibiMode::FROM_BOTTOM_RIGHT};
    CHECK(biased(br, 0, 2) == 0.f); // the diagonal ends in the bottom-right corner
    CHECK(biased(br, 2, 4) == 0.f);
    CHECK(biased(br, 0, 0) == -1.f);
    CHECK(biased(br, 1, 4) == -0.5f);

    // sq > sk: the diagonal starts below row 0
    const Alibi<float> br2{0.5f, 5, 3, AlibiMode::FROM_BOTTOM_RIGHT};
    CHECK(biased(br2, 2, 0) == 0.f);
    CHECK(biased(br2, 4, 2) == 0.f);
    CHECK(biased(br2, 0, 0) == -1.f);

    float pixel = 3.f;
    EmptyPositionEncoding<float>{}.update(pixel, 1, 2);
    CHECK(pixel == 3.f);
}

TEST_CASE("make_alibi_from_lr_mask picks the mode from the mask")
{
    using M = GenericAttentionMaskEnum;
    CHECK(make_alibi_from_lr_mask(0.5f, -1, 0, 4, 6, M::MASK_FROM_TOP_LEFT).mode == AlibiMode::VERTICAL);
    CHECK(make_alibi_from_lr_mask(0.5f, -1, 0, 4, 6, M::MASK_FROM_BOTTOM_RIGHT).mode == AlibiMode::VERTICAL);
    CHECK(make_alibi_from_lr_mask(0.5f, 3, 5, 4, 6, M::MASK_FROM_TOP_LEFT).mode == AlibiMode::FROM_TOP_LEFT);
    CHECK(make_alibi_from_lr_mask(0.5f, 3, 5, 4, 6, M::MASK_FROM_BOTTOM_RIGHT).mode == AlibiMode::FROM_BOTTOM_RIGHT);
    CHECK(make_alibi_from_lr_mask(0.5f, -1, 5, 4, 6, M::MASK_FROM_BOTTOM_RIGHT).mode == AlibiMode::FROM_BOTTOM_RIGHT);
    CHECK(make_alibi_from_lr_mask(0.5f, 2, 3, 4, 6, M::MASK_GENERIC).mode == AlibiMode::FROM_TOP_LEFT);
    CHECK(make_alibi_from_lr_mask(0.5f, -1, -1, 4, 6, M::NO_MASK).mode == AlibiMode::FROM_BOTTOM_RIGHT);
    const auto a = make_alibi_from_lr_mask(0.5f, 3, 5, 4, 6, M::MASK_FROM_TOP_LEFT);
    CHECK(a.slope == -0.5f);
}

TEST_CASE("VERTICAL ALiBi under a causal mask gives the softmax of the distance ALiBi")
{
    // the reason make_alibi_from_lr_mask may pick VERTICAL for causal masks, from either corner
    using CausalMask = GenericAttentionMask<true, false>;
    for(int sq : {3, 6})
        for(int sk : {2, 6, 9})
            for(bool top_left : {true, false})
            {
                CAPTURE(sq);
                CAPTURE(sk);
                CAPTURE(top_left);
                const auto mask = make_generic_attention_mask_from_lr_window<CausalMask>(-1, 0, sq, sk, top_left);
                const Alibi<float> vert{0.25f, sq, sk, AlibiMode::VERTICAL};
                const Alibi<float> dist{0.25f, sq, sk,
                                        top_left ? AlibiMode::FROM_TOP_LEFT : AlibiMode::FROM_BOTTOM_RIGHT};
                HostTensor<float> sv({1, sq, sk}), sd({1, sq, sk}), pv({1, sq, sk}), pd({1, sq, sk});
                for(int i = 0; i < sq; ++i)
                    for(int j = 0; j < sk; ++j)
                    {
                        const float s = 0.1f * static_cast<float>((i * 7 + j * 3) % 5);
                        sv(0, i, j)   = biased(vert, i, j, s);
                        sd(0, i, j)   = biased(dist, i, j, s);
                    }
                reference_batched_masking(sv, mask);
                reference_batched_masking(sd, mask);
                reference_batched_softmax<float, float, float>(sv, pv);
                reference_batched_softmax<float, float, float>(sd, pd);
                for(int i = 0; i < sq; ++i)
                    for(int j = 0; j < sk; ++j)
                        CHECK(pv(0, i, j) == doctest::Approx(pd(0, i, j)).epsilon(1e-5));
            }
}
