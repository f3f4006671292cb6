// SPDX-License-Identifier: MIT
// doctest's runner (its main and its implementation), compiled once per build directory and linked
// into every test executable: compiling it into each test's own translation unit cost a few seconds
// of -O3 per test and per arch.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
