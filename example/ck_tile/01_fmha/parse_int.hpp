// SPDX-License-Identifier: MIT
// parse_option_int: the strict integer reading that the -mask and -bias decoders share. std::stoi
// would accept "3x" and " 3" and throw std::out_of_range on overflow; an option value is either
// exactly an integer or a mistake the user should hear about, as one std::invalid_argument.
#pragma once
#include <charconv>
#include <stdexcept>
#include <string>
#include <string_view>
#include "ck_tile/core.hpp"

// `text` is the part of the option value `whole` that must be an integer; `what` names the option
// for the message ("mask", "bias").
inline ck_tile::index_t parse_option_int(std::string_view text, const std::string& whole, const char* what)
{
    ck_tile::index_t v   = 0;
    const char* end      = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, v, 10);
    if(text.empty() || ec != std::errc{} || ptr != end)
        throw std::invalid_argument(std::string("invalid ") + what + " value: '" + whole + "'");
    return v;
}
