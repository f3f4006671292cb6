// SPDX-License-Identifier: MIT
// A MessagePack reader for the AMDGPU metadata note (code object v4+ carries it in msgpack): just
// enough of the format for it: maps, arrays, strings, integers, booleans, nil, floats, binary.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace hip_cpu::msgpack {

struct value
{
    enum class kind
    {
        nil,
        boolean,
        integer,
        floating,
        string,
        array,
        map
    } type         = kind::nil;
    bool b         = false;
    std::int64_t i = 0;
    double f       = 0;
    std::string s;
    std::vector<value> items;        // array
    std::vector<value> keys, values; // map, in order

    // The map entry whose key is the string `key`; nullptr when absent or not a map.
    const value* find(const std::string& key) const;
    std::int64_t integer_or(std::int64_t fallback) const { return type == kind::integer ? i : fallback; }
};

// Parses one value from [data, data + size); throws std::runtime_error on malformed input.
value parse(const std::uint8_t* data, std::size_t size);

} // namespace hip_cpu::msgpack
