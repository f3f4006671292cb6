// SPDX-License-Identifier: MIT
#include <doctest/doctest.h>

#include <algorithm>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "ck_tile/host/arg_parser.hpp"

// Redirects a stream while alive.
struct capture
{
    std::ostream& os;
    std::ostringstream buf;
    std::streambuf* old;
    explicit capture(std::ostream& s) : os(s), old(s.rdbuf(buf.rdbuf())) {}
    ~capture() { os.rdbuf(old); }
    std::string str() const { return buf.str(); }
};

static ck_tile::ArgParser make_parser()
{
    ck_tile::ArgParser p;
    p.insert("m", "3840", "m dimension")
        .insert("n", "4096", "n dimension")
        .insert("alpha", "1.5", "scale")
        .insert("v", "1", "validate")
        .insert("prec", "fp16", "data type")
        .insert("seed", "11939", "random seed");
    return p;
}

static bool parse(ck_tile::ArgParser& p, std::vector<const char*> args)
{
    args.insert(args.begin(), "prog");
    return p.parse(static_cast<int>(args.size()), args.data());
}

static std::string error_of(const ck_tile::ArgParser& p, int (ck_tile::ArgParser::*get)(const std::string&) const,
                            const char* name)
{
    try
    {
        (p.*get)(name);
    }
    catch(const ck_tile::arg_error& e)
    {
        return e.what();
    }
    return "";
}

TEST_CASE("defaults")
{
    auto p = make_parser();
    REQUIRE(parse(p, {}));
    CHECK(p.get_int("m") == 3840);
    CHECK(p.get_uint32("n") == 4096u);
    CHECK(p.get_uint64("seed") == 11939u);
    CHECK(p.get_float("alpha") == 1.5f);
    CHECK(p.get_double("alpha") == 1.5);
    CHECK(p.get_bool("v"));
    CHECK(p.get_str("prec") == "fp16");
    CHECK_FALSE(p.help_requested());
}

TEST_CASE("-name=value overrides; later wins; --name=value; negative and empty values")
{
    auto p = make_parser();
    REQUIRE(parse(p, {"-m=128", "-prec=bf16", "--n=64", "-alpha=-0.25", "-m=256", "-v=n"}));
    CHECK(p.get_int("m") == 256);
    CHECK(p.get_int("n") == 64);
    CHECK(p.get_str("prec") == "bf16");
    CHECK(p.get_double("alpha") == -0.25);
    CHECK_FALSE(p.get_bool("v"));
    REQUIRE(parse(p, {"-prec="}));
    CHECK(p.get_str("prec").empty());
    CHECK(p.get_int("m") == 3840); // a new parse starts from the defaults again
    REQUIRE(parse(p, {"-m=+7"}));
    CHECK(p.get_int("m") == 7);
}

TEST_CASE("bad integers are one clear error each")
{
    auto p = make_parser();
    REQUIRE(parse(p, {"-m=abc"}));
    CHECK(error_of(p, &ck_tile::ArgParser::get_int, "m") == "error: option -m: 'abc' is not an integer");
    REQUIRE(parse(p, {"-m=12x"}));
    CHECK(error_of(p, &ck_tile::ArgParser::get_int, "m") == "error: option -m: '12x' is not an integer");
    REQUIRE(parse(p, {"-m="}));
    CHECK(error_of(p, &ck_tile::ArgParser::get_int, "m") == "error: option -m: '' is not an integer");
    REQUIRE(parse(p, {"-m= 12"}));
    CHECK_THROWS_AS(p.get_int("m"), ck_tile::arg_error);
    REQUIRE(parse(p, {"-m=1.5"}));
    CHECK_THROWS_AS(p.get_int("m"), ck_tile::arg_error);
    REQUIRE(parse(p, {"-m=99999999999"}));
    CHECK(error_of(p, &ck_tile::ArgParser::get_int, "m") ==
          "error: option -m: '99999999999' is out of range (-2147483648 to 2147483647)");
    CHECK(p.get_int64("m") == 99999999999);
    REQUIRE(parse(p, {"-n=-5"}));
    CHECK_THROWS_WITH_AS(p.get_uint32("n"), "error: option -n: '-5' is not a non-negative integer", ck_tile::arg_error);
    CHECK_THROWS_AS(p.get_uint64("n"), ck_tile::arg_error);
    REQUIRE(parse(p, {"-n=4294967296"}));
    CHECK_THROWS_AS(p.get_uint32("n"), ck_tile::arg_error);
    CHECK(p.get_uint64("n") == 4294967296ull);
}

TEST_CASE("bad floats and booleans")
{
    auto p = make_parser();
    REQUIRE(parse(p, {"-alpha=1.5f", "-v=maybe"}));
    CHECK_THROWS_WITH_AS(p.get_float("alpha"), "error: option -alpha: '1.5f' is not a number", ck_tile::arg_error);
    CHECK_THROWS_WITH_AS(p.get_bool("v"), "error: option -v: 'maybe' is not a boolean (use 1/0, true/false or y/n)",
                         ck_tile::arg_error);
    REQUIRE(parse(p, {"-alpha=1e60"}));
    CHECK_THROWS_WITH_AS(p.get_float("alpha"), "error: option -alpha: '1e60' is out of range for float",
                         ck_tile::arg_error);
    CHECK(p.get_double("alpha") == 1e60);
    for(const char* t : {"1", "true", "TRUE", "y", "Y", "yes", "on"})
    {
        std::string a = std::string("-v=") + t;
        REQUIRE(parse(p, {a.c_str()}));
        CHECK(p.get_bool("v"));
    }
    for(const char* f : {"0", "false", "n", "N", "no", "off"})
    {
        std::string a = std::string("-v=") + f;
        REQUIRE(parse(p, {a.c_str()}));
        CHECK_FALSE(p.get_bool("v"));
    }
}

TEST_CASE("positive and ranged integers")
{
    auto p = make_parser();
    REQUIRE(parse(p, {"-m=-5", "-n=9"}));
    CHECK_THROWS_WITH_AS(p.get_int_at_least("m", 1), "error: option -m: must be >= 1, got -5", ck_tile::arg_error);
    CHECK(p.get_int_at_least("n", 1) == 9);
    CHECK_THROWS_WITH_AS(p.get_int_in_range("n", 1, 8), "error: option -n: must be in [1, 8], got 9",
                         ck_tile::arg_error);
    CHECK(p.get_int_in_range("n", 1, 9) == 9);
    REQUIRE(parse(p, {"-m=abc"}));
    CHECK_THROWS_WITH_AS(p.get_int_at_least("m", 1), "error: option -m: 'abc' is not an integer", ck_tile::arg_error);
}

TEST_CASE("row strides: -1 is n or the fallback, others must be >= n")
{
    ck_tile::ArgParser p;
    p.insert("stride", "-1", "").insert("x_stride", "-1", "").insert("y_stride", "-1", "");
    REQUIRE(parse(p, {"-y_stride=130"}));
    CHECK(p.get_row_stride("stride", 100) == 100);
    CHECK(p.get_row_stride("x_stride", 100, 120) == 120); // -1 takes the fallback
    CHECK(p.get_row_stride("y_stride", 100, 120) == 130); // given: itself
    CHECK(p.get_row_stride("y_stride", 130) == 130);      // equal to n is fine
    CHECK_THROWS_WITH_AS(p.get_row_stride("y_stride", 131),
                         "error: option -y_stride: must be -1 (n) or >= n (131), got 130", ck_tile::arg_error);
    REQUIRE(parse(p, {"-x_stride=-2"}));
    CHECK_THROWS_WITH_AS(p.get_row_stride("x_stride", 1), "error: option -x_stride: must be -1 (n) or >= n (1), got -2",
                         ck_tile::arg_error);
}

TEST_CASE("get_layout and get_leading_stride: the GEMM examples' layouts and strides")
{
    ck_tile::ArgParser p;
    p.insert("a_layout", "R", "").insert("b_layout", "c", "").insert("stride_a", "0", "").insert("stride_b", "0", "");
    REQUIRE(parse(p, {"-stride_b=40"}));
    CHECK(p.get_layout("a_layout"));
    CHECK_FALSE(p.get_layout("b_layout"));
    CHECK(p.get_leading_stride("stride_a", 17, "K", "row-major A") == 17); // 0: packed
    CHECK(p.get_leading_stride("stride_b", 40, "K", "column-major B") == 40);
    CHECK_THROWS_WITH_AS(p.get_leading_stride("stride_b", 41, "K", "column-major B"),
                         "error: option -stride_b: 40 is smaller than K=41, the contiguous dimension of column-major B",
                         ck_tile::arg_error);
    REQUIRE(parse(p, {"-a_layout=row", "-stride_a=-1"}));
    CHECK_THROWS_WITH_AS(p.get_layout("a_layout"),
                         "error: option -a_layout: 'row' is not a layout (R: row-major, C: column-major)",
                         ck_tile::arg_error);
    CHECK_THROWS_WITH_AS(p.get_leading_stride("stride_a", 1, "K", "A"), "error: option -stride_a: must be >= 0, got -1",
                         ck_tile::arg_error);
}

TEST_CASE("-name value: the next argument is the value, a negative number included")
{
    auto p = make_parser();
    REQUIRE(parse(p, {"-m", "128", "-n=7", "-alpha", "-0.25", "-prec", "bf16"}));
    CHECK(p.get_int("m") == 128);
    CHECK(p.get_int("n") == 7);
    CHECK(p.get_float("alpha") == -0.25f);
    CHECK(p.get_str("prec") == "bf16");
    REQUIRE(parse(p, {"-m", "-5", "-alpha", "-.5"}));
    CHECK(p.get_int("m") == -5);
    CHECK(p.get_float("alpha") == -0.5f);
    {
        capture err(std::cerr); // an option where the value should be: the first lacks its value
        CHECK_FALSE(parse(p, {"-m", "-n=3"}));
        CHECK(err.str() == "error: option -m: missing value, write -m=VALUE or -m VALUE\n");
    }
}

TEST_CASE("unknown option, missing value, stray argument: parse fails with one line")
{
    auto p = make_parser();
    {
        capture err(std::cerr);
        CHECK_FALSE(parse(p, {"-m=1", "-k=5"}));
        CHECK(err.str() == "error: unknown option -k (-? lists the options)\n");
    }
    CHECK_FALSE(p.help_requested());
    CHECK(p.error_message() == "error: unknown option -k (-? lists the options)");
    {
        capture err(std::cerr);
        CHECK_FALSE(parse(p, {"-m"}));
        CHECK(err.str() == "error: option -m: missing value, write -m=VALUE or -m VALUE\n");
    }
    {
        capture err(std::cerr);
        CHECK_FALSE(parse(p, {"-m", "128", "256"}));
        CHECK(err.str().rfind("error: unexpected argument '256'", 0) == 0);
    }
    {
        capture err(std::cerr);
        CHECK_FALSE(parse(p, {"128"}));
        const std::string line = err.str();
        CHECK(line.rfind("error: unexpected argument '128'", 0) == 0);
        CHECK(std::count(line.begin(), line.end(), '\n') == 1);
    }
    CHECK_THROWS_WITH_AS(p.get_int("nope"),
                         "error: option -nope was read but never declared (ArgParser::insert it first)",
                         ck_tile::arg_error);
}

TEST_CASE("-h is an option, not help, when the program declares h (05_reduce's H)")
{
    ck_tile::ArgParser p;
    p.insert("h", "64", "H dimension");
    capture out(std::cout);
    CHECK(parse(p, {"-h", "3"}));
    CHECK_FALSE(p.help_requested());
    CHECK(p.get_int("h") == 3);
    CHECK(out.str().empty());
    CHECK_FALSE(parse(p, {"-?"}));
    CHECK(p.help_requested());
}

TEST_CASE("help: printed to stdout, parse returns false, help_requested() true")
{
    for(const char* h : {"-?", "-h", "--help", "-help"})
    {
        auto p = make_parser();
        capture out(std::cout);
        capture err(std::cerr);
        CHECK_FALSE(parse(p, {"-m=abc", "-bogus", h}));
        CHECK(p.help_requested());
        CHECK(err.str().empty());
        const std::string s = out.str();
        CHECK(s.find("usage: prog [-name=value | -name value]...") != std::string::npos);
        CHECK(s.find("  -m      m dimension (default: 3840)") != std::string::npos);
        CHECK(s.find("  -alpha  scale (default: 1.5)") != std::string::npos);
        CHECK(s.find("-prec") < s.find("-seed")); // declaration order
    }
}

TEST_CASE("the documented main() pattern")
{
    auto run = [](std::vector<const char*> args) {
        auto p = make_parser();
        capture out(std::cout);
        capture err(std::cerr);
        args.insert(args.begin(), "prog");
        if(!p.parse(static_cast<int>(args.size()), args.data()))
            return p.help_requested() ? 0 : 1;
        try
        {
            return p.get_int_at_least("m", 1) > 0 ? 0 : 2;
        }
        catch(const ck_tile::arg_error& e)
        {
            std::cerr << e.what() << '\n';
            return 1;
        }
    };
    CHECK(run({}) == 0);
    CHECK(run({"-?"}) == 0);
    CHECK(run({"-x=1"}) == 1);
    CHECK(run({"-m=0"}) == 1);
    CHECK(run({"-m=12x"}) == 1);
}

TEST_CASE("insert rejects bad names; re-insert replaces")
{
    ck_tile::ArgParser p;
    CHECK_THROWS_AS(p.insert("", "1", "x"), std::invalid_argument);
    CHECK_THROWS_AS(p.insert("a=b", "1", "x"), std::invalid_argument);
    CHECK_THROWS_AS(p.insert("-a", "1", "x"), std::invalid_argument);
    p.insert("a", "1", "first").insert("a", "2", "second");
    char prog[]  = "prog";
    char* argv[] = {prog, nullptr};
    REQUIRE(p.parse(1, argv)); // char** works as upstream's main passes it
    CHECK(p.get_int("a") == 2);
    CHECK(p.contains("a"));
    CHECK_FALSE(p.contains("b"));
}
