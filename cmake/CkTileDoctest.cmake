# SPDX-License-Identifier: MIT
# doctest for the C++ tests (test/ and the hip-cpu test project test/hip_cpu): DOCTEST_INCLUDE_DIR,
# with a clear error where doctest is missing, and
#
# ck_tile_doctest_main(<name>): doctest's runner (test/doctest_main.cpp) as an object library,
# compiled once per build dir; a test executable links it and gets doctest's include dir with it.
include_guard(GLOBAL)

find_path(DOCTEST_INCLUDE_DIR doctest/doctest.h)
if(NOT DOCTEST_INCLUDE_DIR)
  message(FATAL_ERROR "ck_tile: the tests need doctest (Debian/Ubuntu: apt-get install doctest-dev, "
                      "or run script/install-deps.sh)")
endif()

function(ck_tile_doctest_main name)
  add_library(${name} OBJECT ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/../test/doctest_main.cpp)
  target_include_directories(${name} PUBLIC ${DOCTEST_INCLUDE_DIR})
endfunction()
