// SPDX-License-Identifier: MIT
// Sequence lengths of the FMHA example: the batch/group mode switch, decoding of the -s / -s_k /
// -s_kpad options into per-batch lengths, random variable lengths for group (varlen) mode, and
// the prefix sums (seqstart arrays) a group-mode kernel reads.
//
// Option syntax, as upstream's example accepts it: one number ("100") or, in group mode only, a
// comma list ("55,33,7") with one entry per batch. Entries not given are generated: each starts
// at the last given value, then random unit moves between random pairs of them reshape the
// lengths while their sum stays fixed and none goes below 1 (generate_seqlens). The moves come
// from std::mt19937 seeded with the example's -seed, so a seed reproduces the same lengths.
// Unlike upstream (which ignores extra entries and reads malformed ones as 0), a malformed list
// is refused with std::invalid_argument: an empty entry, a non-number, a negative value other
// than the -1 that -s_k/-s_kpad use for "not set", more entries than batches, or a list in batch
// mode.
#pragma once
#include <cstdint>
#include <optional>
#include <ostream>
#include <random>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>
#include "ck_tile/core/numeric/integer.hpp"

enum class mode_enum
{
    batch = 0,
    group
};

inline std::ostream& operator<<(std::ostream& os, mode_enum mode)
{
    return os << (mode == mode_enum::batch ? "batch" : "group");
}

// {0, l0, l0 + l1, ...}: where each batch starts in the packed tensor; size() = seqlens.size() + 1.
inline std::vector<int32_t> to_seqstarts(const std::vector<int32_t>& seqlens)
{
    std::vector<int32_t> starts(seqlens.size() + 1, 0);
    for(std::size_t i = 0; i < seqlens.size(); ++i)
        starts[i + 1] = starts[i] + seqlens[i];
    return starts;
}

// count lengths starting at seqlen_avg (at most seqlen_max when that is > 0). In group mode they
// are then reshaped by seqlen_avg * (count / 2) attempted unit moves from a random entry to
// another random entry; a move is skipped if it would take the source below seqlen_min or the
// destination above seqlen_max (> 0), so the sum never changes. seed: nullopt = nondeterministic.
inline std::vector<int32_t> generate_seqlens(mode_enum mode, int count, int32_t seqlen_avg, int32_t seqlen_min = 1,
                                             int32_t seqlen_max = -1, std::optional<unsigned> seed = std::nullopt)
{
    if(count <= 0)
        throw std::invalid_argument("generate_seqlens: count must be positive, got " + std::to_string(count));
    const int32_t start = seqlen_max > 0 && seqlen_avg > seqlen_max ? seqlen_max : seqlen_avg;
    std::vector<int32_t> seqlens(static_cast<std::size_t>(count), start);
    if(mode != mode_enum::group || count == 1)
        return seqlens;

    std::mt19937 engine(seed.has_value() ? *seed : std::random_device{}());
    std::uniform_int_distribution<int> pick(0, count - 1);
    std::uniform_int_distribution<int> step(1, count - 1); // never the source itself
    for(int64_t moves = static_cast<int64_t>(seqlen_avg) * (count / 2); moves > 0; --moves)
    {
        const int from = pick(engine);
        if(seqlens[from] <= seqlen_min)
            continue;
        const int to = (from + step(engine)) % count;
        if(seqlen_max > 0 && seqlens[to] >= seqlen_max)
            continue;
        --seqlens[from];
        ++seqlens[to];
    }
    return seqlens;
}

// The entries of one option value. allow_unset: -1 is accepted (the "not set" of -s_k/-s_kpad).
inline std::vector<int32_t> parse_seqlen_list(const std::string& text, const std::string& option, bool allow_unset)
{
    std::vector<int32_t> values;
    std::size_t pos = 0;
    while(true)
    {
        const std::size_t comma = text.find(',', pos);
        const std::string entry = text.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
        const bool unset        = allow_unset && entry == "-1";
        bool digits             = !entry.empty() && entry.size() <= 9; // 9 digits always fit in int32
        for(char c : entry)
            digits = digits && c >= '0' && c <= '9';
        if(!unset && !digits)
            throw std::invalid_argument(option + "='" + text + "': entry '" + entry + "' is not a non-negative length" +
                                        (allow_unset ? " or -1" : ""));
        values.push_back(unset ? -1 : static_cast<int32_t>(std::stol(entry)));
        if(comma == std::string::npos)
            return values;
        pos = comma + 1;
    }
}

// Per-batch (seqlen_q, seqlen_k, seqlen_kpad) from the -s, -s_k and -s_kpad strings.
// seqlen_k -1 = same as seqlen_q; seqlen_kpad -1 = packed (no padding; always so in batch mode).
// A -s_k or -s_kpad list has one entry (applied to every given -s entry) or as many as -s.
// Generated entries of K never exceed the last given kpad (their padded stride) when it is set
// (upstream bounds Q by it too; Q has no padding, so we do not). Q and K draw the same moves (one
// seed), so equal starting values give equal lengths unless the kpad bound stops a K move.
inline std::tuple<std::vector<ck_tile::index_t>, std::vector<ck_tile::index_t>, std::vector<ck_tile::index_t>>
decode_seqlen(mode_enum mode, ck_tile::index_t batch, const std::string& q_val, const std::string& k_val,
              const std::string& k_pad_val = "-1", std::optional<unsigned> seed = std::nullopt)
{
    using ck_tile::index_t;
    if(batch <= 0)
        throw std::invalid_argument("decode_seqlen: batch must be positive, got " + std::to_string(batch));
    const auto qs  = parse_seqlen_list(q_val, "-s", false);
    const auto ks  = parse_seqlen_list(k_val, "-s_k", true);
    const auto kps = parse_seqlen_list(k_pad_val, "-s_kpad", true);

    if(mode == mode_enum::batch)
    {
        if(qs.size() != 1 || ks.size() != 1 || kps.size() != 1)
            throw std::invalid_argument("-s/-s_k/-s_kpad lists need group mode (-mode=1)");
        const index_t k = ks[0] < 0 ? qs[0] : ks[0];
        return {std::vector<index_t>(batch, qs[0]), std::vector<index_t>(batch, k), std::vector<index_t>(batch, -1)};
    }

    const std::size_t given = qs.size();
    if(given > static_cast<std::size_t>(batch))
        throw std::invalid_argument("-s='" + q_val + "' has " + std::to_string(given) + " entries for batch " +
                                    std::to_string(batch));
    if(ks.size() != 1 && ks.size() != given)
        throw std::invalid_argument("-s_k='" + k_val + "' must have one entry or as many as -s='" + q_val + "'");
    if(kps.size() != 1 && kps.size() != given)
        throw std::invalid_argument("-s_kpad='" + k_pad_val + "' must have one entry or as many as -s='" + q_val + "'");

    std::vector<index_t> s_q, s_k, s_kpad;
    for(std::size_t i = 0; i < given; ++i)
    {
        const index_t k  = ks[ks.size() == 1 ? 0 : i];
        const index_t kp = kps[kps.size() == 1 ? 0 : i];
        s_q.push_back(qs[i]);
        s_k.push_back(k < 0 ? qs[i] : k);
        if(kp >= 0 && kp < s_k.back())
            throw std::invalid_argument("-s_kpad=" + std::to_string(kp) + " is shorter than seqlen_k " +
                                        std::to_string(s_k.back()));
        s_kpad.push_back(kp);
    }
    if(given < static_cast<std::size_t>(batch))
    {
        const int rest = batch - static_cast<int>(given);
        // one seed for both, so that q and k make the same moves even when none was given
        const unsigned s = seed.has_value() ? *seed : std::random_device{}();
        const auto rem_q = generate_seqlens(mode, rest, s_q.back(), 1, -1, s);
        const auto rem_k = generate_seqlens(mode, rest, s_k.back(), 1, s_kpad.back(), s);
        s_q.insert(s_q.end(), rem_q.begin(), rem_q.end());
        s_k.insert(s_k.end(), rem_k.begin(), rem_k.end());
        s_kpad.insert(s_kpad.end(), rest, s_kpad.back());
    }
    return {s_q, s_k, s_kpad};
}
