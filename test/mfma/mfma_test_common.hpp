// SPDX-License-Identifier: MIT
// Helpers shared by the MFMA tests: the lists of instructions and a small JSON reader.
#pragma once

#include <cstddef>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "ck_tile/core.hpp"
#include "ck_tile/core/arch/mfma.hpp"

namespace mfma_test {

template <typename... Is>
struct instr_list
{};

namespace mi = ck_tile::mfma_instr;

// On gfx942 and gfx950.
using common_instrs =
    instr_list<mi::v_mfma_f32_32x32x8_f16, mi::v_mfma_f32_16x16x16_f16, mi::v_mfma_f32_32x32x8_bf16,
               mi::v_mfma_f32_16x16x16_bf16, mi::v_mfma_f32_4x4x4_16b_f16, mi::v_mfma_f32_32x32x4_2b_f16,
               mi::v_mfma_i32_32x32x16_i8, mi::v_mfma_i32_16x16x32_i8, mi::v_mfma_f32_32x32x16_fp8_fp8,
               mi::v_mfma_f32_16x16x32_fp8_fp8, mi::v_mfma_f32_32x32x16_bf8_bf8, mi::v_mfma_f32_16x16x32_bf8_bf8,
               mi::v_mfma_f32_32x32x2_f32, mi::v_mfma_f32_16x16x4_f32>;
// gfx950 only.
using gfx950_instrs = instr_list<mi::v_mfma_f32_32x32x16_f16, mi::v_mfma_f32_16x16x32_f16, mi::v_mfma_f32_32x32x16_bf16,
                                 mi::v_mfma_f32_16x16x32_bf16, mi::v_mfma_i32_32x32x32_i8, mi::v_mfma_i32_16x16x64_i8,
                                 mi::v_mfma_f32_32x32x64_f8f6f4_fp8, mi::v_mfma_f32_16x16x128_f8f6f4_fp8,
                                 mi::v_mfma_f32_32x32x64_f8f6f4_bf8, mi::v_mfma_f32_16x16x128_f8f6f4_bf8>;

// Calls f.template operator()<I>() for every I of the list.
template <typename F, typename... Is>
void for_each_instr(instr_list<Is...>, F&& f)
{
    (f.template operator()<Is>(), ...);
}

// ---- a small JSON reader (enough for the layout data: objects, arrays, strings, numbers) --------
struct json
{
    enum kind_t
    {
        null,
        boolean,
        number,
        string,
        array,
        object
    } kind     = null;
    double num = 0;
    bool flag  = false;
    std::string str;
    std::vector<json> items;        // array elements, or object member values
    std::vector<std::string> names; // object member names (same order as items)

    const json& operator[](std::size_t i) const
    {
        if(kind != array || i >= items.size())
            throw std::runtime_error("json: index out of range");
        return items[i];
    }
    const json& operator[](const std::string& key) const
    {
        if(kind == object)
            for(std::size_t i = 0; i < names.size(); ++i)
                if(names[i] == key)
                    return items[i];
        throw std::runtime_error("json: no member '" + key + "'");
    }
    std::size_t size() const { return items.size(); }
    int as_int() const
    {
        if(kind != number)
            throw std::runtime_error("json: not a number");
        return static_cast<int>(num);
    }
};

class json_parser
{
public:
    explicit json_parser(std::string text) : s_(std::move(text)) {}

    json parse()
    {
        json v = value();
        ws();
        if(p_ != s_.size())
            fail("trailing characters");
        return v;
    }

private:
    std::string s_;
    std::size_t p_ = 0;

    [[noreturn]] void fail(const char* what) const
    {
        throw std::runtime_error(std::string("json: ") + what + " at offset " + std::to_string(p_));
    }
    void ws()
    {
        while(p_ < s_.size() && (s_[p_] == ' ' || s_[p_] == '\n' || s_[p_] == '\r' || s_[p_] == '\t'))
            ++p_;
    }
    char peek()
    {
        ws();
        if(p_ >= s_.size())
            fail("unexpected end");
        return s_[p_];
    }
    void expect(char c)
    {
        if(peek() != c)
            fail("unexpected character");
        ++p_;
    }
    bool literal(const char* word)
    {
        const std::string w(word);
        if(s_.compare(p_, w.size(), w) == 0)
        {
            p_ += w.size();
            return true;
        }
        return false;
    }
    std::string string_value()
    {
        expect('"');
        std::string r;
        while(p_ < s_.size() && s_[p_] != '"')
        {
            char c = s_[p_++];
            if(c == '\\')
            {
                if(p_ >= s_.size())
                    fail("bad escape");
                const char e = s_[p_++];
                switch(e)
                {
                case 'n':
                    c = '\n';
                    break;
                case 't':
                    c = '\t';
                    break;
                case 'r':
                    c = '\r';
                    break;
                case 'b':
                    c = '\b';
                    break;
                case 'f':
                    c = '\f';
                    break;
                case 'u':
                    fail("\\u escapes are not supported");
                default:
                    c = e;
                    break; // \" \\ \/
                }
            }
            r += c;
        }
        if(p_ >= s_.size())
            fail("unterminated string");
        ++p_;
        return r;
    }
    json value()
    {
        json v;
        const char c = peek();
        if(c == '{')
        {
            ++p_;
            v.kind = json::object;
            if(peek() == '}')
            {
                ++p_;
                return v;
            }
            for(;;)
            {
                v.names.push_back(string_value());
                expect(':');
                v.items.push_back(value());
                if(peek() == ',')
                {
                    ++p_;
                    continue;
                }
                expect('}');
                return v;
            }
        }
        if(c == '[')
        {
            ++p_;
            v.kind = json::array;
            if(peek() == ']')
            {
                ++p_;
                return v;
            }
            for(;;)
            {
                v.items.push_back(value());
                if(peek() == ',')
                {
                    ++p_;
                    continue;
                }
                expect(']');
                return v;
            }
        }
        if(c == '"')
        {
            v.kind = json::string;
            v.str  = string_value();
            return v;
        }
        if(literal("true"))
        {
            v.kind = json::boolean;
            v.flag = true;
            return v;
        }
        if(literal("false"))
        {
            v.kind = json::boolean;
            return v;
        }
        if(literal("null"))
            return v;
        std::size_t used = 0;
        try
        {
            v.num = std::stod(s_.substr(p_, 32), &used);
        }
        catch(const std::exception&)
        {
            fail("bad value");
        }
        p_ += used;
        v.kind = json::number;
        return v;
    }
};

inline json read_json_file(const std::string& path)
{
    std::ifstream f(path, std::ios::binary);
    if(!f)
        throw std::runtime_error("cannot open " + path);
    std::stringstream ss;
    ss << f.rdbuf();
    return json_parser(ss.str()).parse();
}

#if defined(CK_TILE_MFMA_LAYOUT_JSON) // the layout test's build defines where the file is
// The CDNA3 layout data, read once.
inline const json& layout_data()
{
    static const json data = read_json_file(CK_TILE_MFMA_LAYOUT_JSON);
    return data;
}
#endif

} // namespace mfma_test
