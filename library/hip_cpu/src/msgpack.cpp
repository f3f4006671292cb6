// SPDX-License-Identifier: MIT
#include "msgpack.hpp"

#include <cstring>
#include <stdexcept>

namespace hip_cpu::msgpack {
namespace {
struct reader
{
    const std::uint8_t* p;
    const std::uint8_t* end;

    std::uint64_t be(int bytes)
    {
        need(bytes);
        std::uint64_t v = 0;
        for(int k = 0; k < bytes; ++k)
            v = (v << 8) | *p++;
        return v;
    }
    void need(std::size_t n) const
    {
        if(static_cast<std::size_t>(end - p) < n)
            throw std::runtime_error("msgpack: truncated");
    }
    std::string bytes(std::size_t n)
    {
        need(n);
        std::string s(reinterpret_cast<const char*>(p), n);
        p += n;
        return s;
    }
    value array(std::size_t n)
    {
        value v;
        v.type = value::kind::array;
        for(std::size_t k = 0; k < n; ++k)
            v.items.push_back(next());
        return v;
    }
    value map(std::size_t n)
    {
        value v;
        v.type = value::kind::map;
        for(std::size_t k = 0; k < n; ++k)
        {
            v.keys.push_back(next());
            v.values.push_back(next());
        }
        return v;
    }
    static value integer(std::int64_t i)
    {
        value v;
        v.type = value::kind::integer;
        v.i    = i;
        return v;
    }
    static value string(std::string s)
    {
        value v;
        v.type = value::kind::string;
        v.s    = std::move(s);
        return v;
    }

    value next()
    {
        const std::uint8_t t = static_cast<std::uint8_t>(be(1));
        if(t <= 0x7f)
            return integer(t);
        if(t >= 0xe0)
            return integer(static_cast<std::int8_t>(t));
        if((t & 0xf0) == 0x80)
            return map(t & 0x0f);
        if((t & 0xf0) == 0x90)
            return array(t & 0x0f);
        if((t & 0xe0) == 0xa0)
            return string(bytes(t & 0x1f));
        switch(t)
        {
        case 0xc0:
            return value{};
        case 0xc2:
        case 0xc3:
        {
            value v;
            v.type = value::kind::boolean;
            v.b    = t == 0xc3;
            return v;
        }
        case 0xc4:
            return string(bytes(be(1)));
        case 0xc5:
            return string(bytes(be(2)));
        case 0xc6:
            return string(bytes(be(4)));
        case 0xca:
        {
            const std::uint32_t bits = static_cast<std::uint32_t>(be(4));
            float f;
            std::memcpy(&f, &bits, 4);
            value v;
            v.type = value::kind::floating;
            v.f    = f;
            return v;
        }
        case 0xcb:
        {
            const std::uint64_t bits = be(8);
            value v;
            v.type = value::kind::floating;
            std::memcpy(&v.f, &bits, 8);
            return v;
        }
        case 0xcc:
            return integer(static_cast<std::int64_t>(be(1)));
        case 0xcd:
            return integer(static_cast<std::int64_t>(be(2)));
        case 0xce:
            return integer(static_cast<std::int64_t>(be(4)));
        case 0xcf:
            return integer(static_cast<std::int64_t>(be(8)));
        case 0xd0:
            return integer(static_cast<std::int8_t>(be(1)));
        case 0xd1:
            return integer(static_cast<std::int16_t>(be(2)));
        case 0xd2:
            return integer(static_cast<std::int32_t>(be(4)));
        case 0xd3:
            return integer(static_cast<std::int64_t>(be(8)));
        case 0xd9:
            return string(bytes(be(1)));
        case 0xda:
            return string(bytes(be(2)));
        case 0xdb:
            return string(bytes(be(4)));
        case 0xdc:
            return array(be(2));
        case 0xdd:
            return array(be(4));
        case 0xde:
            return map(be(2));
        case 0xdf:
            return map(be(4));
        default:
            throw std::runtime_error("msgpack: unsupported type byte " + std::to_string(t));
        }
    }
};
} // namespace

const value* value::find(const std::string& key) const
{
    if(type != kind::map)
        return nullptr;
    for(std::size_t n = 0; n < keys.size(); ++n)
        if(keys[n].type == kind::string && keys[n].s == key)
            return &values[n];
    return nullptr;
}

value parse(const std::uint8_t* data, std::size_t size)
{
    reader r{data, data + size};
    return r.next();
}

} // namespace hip_cpu::msgpack
