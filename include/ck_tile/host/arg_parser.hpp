// SPDX-License-Identifier: MIT
// ArgParser: command-line options of the tutorials and examples, written -name=value or -name value.
//
//   ck_tile::ArgParser arg_parser;
//   arg_parser.insert("m", "3840", "m dimension")
//             .insert("v", "1", "validate the result (0: no, 1: on the host)")
//             .insert("prec", "fp16", "data type");
//   if(!arg_parser.parse(argc, argv))
//       return arg_parser.help_requested() ? 0 : 1;     // help printed / error line printed
//   try {
//       const int m = arg_parser.get_int_at_least("m", 1);
//       const bool validate = arg_parser.get_bool("v");
//       ...
//   } catch(const ck_tile::arg_error& e) {
//       std::cerr << e.what() << '\n';                  // e.g. "error: option -m: 'abc' is not an integer"
//       return 1;
//   }
//
// Syntax: each option is -name=value or -name value (--name is accepted too). With '=', the value
// is everything after the first '=' and may be empty or start with '-' (-k=-1). Without '=', the
// value is the next argument, which may start with '-' only if it is a number (-k -1, -scale -.5);
// anything else that starts with '-' is the next option, so the first lacks its value. A later
// occurrence of an option overrides an earlier one. -?, -h, -help or --help anywhere prints the help text (every
// option with its help and default) to stdout; parse then returns false and help_requested()
// is true.
//
// Errors: parse() rejects an unknown option, an option without a value, or a stray argument that
// is not an option's value: it prints one line "error: ..." to stderr and returns false (help_requested() false).
// Values are untyped until read: the typed getters (get_int, get_uint32, get_uint64, get_float,
// get_double, get_bool, get_int_at_least, get_int_in_range) accept only a complete, in-range value
// of their type ("12x", "abc", "" and "99999999999" for get_int are rejected) and otherwise throw
// ck_tile::arg_error, whose what() is the one error line; they print nothing themselves, so the
// caller prints it once. Reading an option that was never insert()ed throws arg_error too.
#pragma once
#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <ostream>
#include <limits>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
#include <type_traits>
#include <utility>
#include <vector>

#include "ck_tile/core/config.hpp"

namespace ck_tile {

// A bad command-line value; what() is one line of the form "error: option -NAME: ...".
struct arg_error : std::runtime_error
{
    using std::runtime_error::runtime_error;
};

class ArgParser
{
public:
    ArgParser() = default;

    // Declares option -name with its default value (a string, as it would be written on the
    // command line) and a help text. Declaring the same name twice replaces the first.
    ArgParser& insert(const std::string& name, const std::string& default_value, const std::string& help_text)
    {
        if(name.empty() || name.find('=') != std::string::npos || name.front() == '-')
            throw std::invalid_argument("ArgParser::insert: bad option name '" + name + "'");
        auto it = index_.find(name);
        if(it != index_.end())
            args_[it->second] = {name, default_value, help_text, default_value};
        else
        {
            index_[name] = args_.size();
            args_.push_back({name, default_value, help_text, default_value});
        }
        return *this;
    }

    // Parses argv[start_index .. argc-1]. Returns true if every argument was a declared option
    // with a value; false after printing the help (help_requested()) or one error line.
    bool parse(int argc, const char* const argv[], int start_index = 1)
    {
        help_requested_ = false;
        error_.clear();
        for(auto& a : args_)
            a.value = a.default_value;
        if(argc > 0 && argv != nullptr && argv[0] != nullptr)
            program_ = argv[0];

        for(int i = start_index; i < argc; ++i)
        {
            const std::string_view arg = argv[i] ? argv[i] : "";
            // -h and -help ask for help unless the program declares them (05_reduce's -h is H)
            if(arg == "-?" || (arg == "-h" && !contains("h")) || (arg == "-help" && !contains("help")) ||
               arg == "--help")
            {
                help_requested_ = true;
                print(std::cout);
                return false;
            }
        }

        for(int i = start_index; i < argc; ++i)
        {
            const std::string_view arg = argv[i] ? argv[i] : "";
            if(arg.size() < 2 || arg[0] != '-')
                return fail("error: unexpected argument '" + std::string(arg) +
                            "' (options are written -name=value or -name value; -? lists them)");
            std::string_view body = arg.substr(arg.size() > 2 && arg[1] == '-' ? 2 : 1);
            const auto eq         = body.find('=');
            const std::string name(body.substr(0, eq));
            auto it = index_.find(name);
            if(it == index_.end())
                return fail("error: unknown option -" + name + " (-? lists the options)");
            if(eq != std::string_view::npos)
                args_[it->second].value = std::string(body.substr(eq + 1));
            else if(i + 1 < argc && argv[i + 1] != nullptr && is_value(argv[i + 1]))
                args_[it->second].value = argv[++i];
            else
                return fail("error: option -" + name + ": missing value, write -" + name + "=VALUE or -" + name +
                            " VALUE");
        }
        return true;
    }

    bool help_requested() const { return help_requested_; }

    // The error line of the last failed parse ("" if none).
    const std::string& error_message() const { return error_; }

    // True if the option was declared.
    bool contains(const std::string& name) const { return index_.count(name) != 0; }

    std::string get_str(const std::string& name) const { return find(name).value; }

    int get_int(const std::string& name) const { return get_integer<int>(name, "an integer"); }

    std::int64_t get_int64(const std::string& name) const { return get_integer<std::int64_t>(name, "an integer"); }

    std::uint32_t get_uint32(const std::string& name) const
    {
        return get_integer<std::uint32_t>(name, "a non-negative integer");
    }

    std::uint64_t get_uint64(const std::string& name) const
    {
        return get_integer<std::uint64_t>(name, "a non-negative integer");
    }

    float get_float(const std::string& name) const { return get_real<float>(name); }

    double get_double(const std::string& name) const { return get_real<double>(name); }

    // Accepts 1/0, true/false, y/n, yes/no, on/off (any letter case).
    bool get_bool(const std::string& name) const
    {
        const Arg& a  = find(name);
        std::string v = a.value;
        std::transform(v.begin(), v.end(), v.begin(),
                       [](unsigned char c) { return static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c); });
        if(v == "1" || v == "true" || v == "y" || v == "yes" || v == "on")
            return true;
        if(v == "0" || v == "false" || v == "n" || v == "no" || v == "off")
            return false;
        throw arg_error(prefix(a) + "'" + a.value + "' is not a boolean (use 1/0, true/false or y/n)");
    }

    // get_int, and the value must be >= min_value ("error: option -m: must be >= 1, got -5").
    int get_int_at_least(const std::string& name, int min_value) const
    {
        const int v = get_int(name);
        if(v < min_value)
            throw arg_error(prefix(find(name)) + "must be >= " + std::to_string(min_value) + ", got " +
                            std::to_string(v));
        return v;
    }

    // get_int, and the value must lie in [lo, hi].
    int get_int_in_range(const std::string& name, int lo, int hi) const
    {
        const int v = get_int(name);
        if(v < lo || v > hi)
            throw arg_error(prefix(find(name)) + "must be in [" + std::to_string(lo) + ", " + std::to_string(hi) +
                            "], got " + std::to_string(v));
        return v;
    }

    // A row stride in elements, for options where -1 means "n": -1 gives `fallback` (n when it
    // is -1; pass another option's stride to let, e.g., an older -stride key stand for it), and
    // any other value must be >= n ("error: option -x_stride: must be -1 (n) or >= n (100), got 99").
    int get_row_stride(const std::string& name, int n, int fallback = -1) const
    {
        const int v = get_int(name);
        if(v == -1)
            return fallback == -1 ? n : fallback;
        if(v < n)
            throw arg_error(prefix(find(name)) + "must be -1 (n) or >= n (" + std::to_string(n) + "), got " +
                            std::to_string(v));
        return v;
    }

    // A matrix layout, R (row-major: true) or C (column-major: false), either letter case
    // ("error: option -a_layout: 'X' is not a layout (R: row-major, C: column-major)").
    bool get_layout(const std::string& name) const
    {
        const Arg& a = find(name);
        if(a.value == "R" || a.value == "r")
            return true;
        if(a.value == "C" || a.value == "c")
            return false;
        throw arg_error(prefix(a) + "'" + a.value + "' is not a layout (R: row-major, C: column-major)");
    }

    // A GEMM operand's leading-dimension stride in elements, where 0 means packed: 0 gives
    // `inner`, the operand's contiguous dimension; any other value must be at least that
    // ("error: option -stride_a: 10 is smaller than K=17, the contiguous dimension of row-major A").
    int get_leading_stride(const std::string& name, int inner, const std::string& inner_name,
                           const std::string& operand) const
    {
        const int s = get_int_at_least(name, 0);
        if(s == 0)
            return inner;
        if(s < inner)
            throw arg_error(prefix(find(name)) + std::to_string(s) + " is smaller than " + inner_name + "=" +
                            std::to_string(inner) + ", the contiguous dimension of " + operand);
        return s;
    }

    // The help text: usage line, then each option with its help and default.
    void print(std::ostream& os = std::cout) const
    {
        std::size_t width = 0;
        for(const auto& a : args_)
            width = std::max(width, a.name.size());
        os << "usage: " << (program_.empty() ? "<program>" : program_) << " [-name=value | -name value]...\noptions:\n";
        for(const auto& a : args_)
        {
            os << "  -" << a.name << std::string(width - a.name.size() + 2, ' ') << a.help_text
               << " (default: " << (a.default_value.empty() ? "\"\"" : a.default_value) << ")\n";
        }
        os << "  -?" << std::string(width + 1, ' ') << "print this help\n";
    }

private:
    struct Arg
    {
        std::string name;
        std::string default_value;
        std::string help_text;
        std::string value;
    };

    // Whether an argument after "-name" is its value: anything but an option ("-x..."), where a
    // negative number ("-1", "-.5") counts as a value.
    static bool is_value(std::string_view next)
    {
        if(next.empty() || next[0] != '-')
            return true;
        const std::size_t d = next.size() > 1 && next[1] == '.' ? 2 : 1;
        return next.size() > d && std::isdigit(static_cast<unsigned char>(next[d])) != 0;
    }

    static std::string prefix(const Arg& a) { return "error: option -" + a.name + ": "; }

    const Arg& find(const std::string& name) const
    {
        auto it = index_.find(name);
        if(it == index_.end())
            throw arg_error("error: option -" + name + " was read but never declared (ArgParser::insert it first)");
        return args_[it->second];
    }

    bool fail(std::string line)
    {
        error_ = std::move(line);
        std::cerr << error_ << std::endl;
        return false;
    }

    template <typename I>
    I get_integer(const std::string& name, const char* kind) const
    {
        const Arg& a        = find(name);
        std::string_view sv = a.value;
        if(!sv.empty() && sv.front() == '+' && (sv.size() < 2 || sv[1] != '-'))
            sv.remove_prefix(1);
        I v{};
        const auto [ptr, ec] = std::from_chars(sv.data(), sv.data() + sv.size(), v, 10);
        if(ec == std::errc::result_out_of_range && ptr == sv.data() + sv.size())
            throw arg_error(prefix(a) + "'" + a.value + "' is out of range (" +
                            std::to_string(std::numeric_limits<I>::min()) + " to " +
                            std::to_string(std::numeric_limits<I>::max()) + ")");
        if(sv.empty() || ec != std::errc{} || ptr != sv.data() + sv.size())
            throw arg_error(prefix(a) + "'" + a.value + "' is not " + kind);
        return v;
    }

    template <typename F>
    F get_real(const std::string& name) const
    {
        const Arg& a          = find(name);
        const std::string& s  = a.value;
        const bool bad_prefix = s.empty() || std::isspace(static_cast<unsigned char>(s.front()));
        char* end             = nullptr;
        errno                 = 0;
        F v{};
        if(!bad_prefix)
        {
            if constexpr(std::is_same_v<F, float>)
                v = std::strtof(s.c_str(), &end);
            else
                v = std::strtod(s.c_str(), &end);
        }
        if(bad_prefix || end != s.c_str() + s.size())
            throw arg_error(prefix(a) + "'" + s + "' is not a number");
        if(errno == ERANGE && std::isinf(v))
            throw arg_error(prefix(a) + "'" + s + "' is out of range for " +
                            (std::is_same_v<F, float> ? "float" : "double"));
        return v;
    }

    std::vector<Arg> args_;                    // in declaration order (for the help text)
    std::map<std::string, std::size_t> index_; // name -> position in args_
    std::string program_;
    std::string error_;
    bool help_requested_ = false;
};

} // namespace ck_tile
