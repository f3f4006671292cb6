# SPDX-License-Identifier: MIT
# The host's instruction set for code that runs where it is built: the emulator's kernels, a hip
# build's host code (its launches and the examples' CPU references) and hip-cpu's engine. On an
# x86-64 host with the features, fp16 <-> fp32 conversions, fma and rint become instructions
# instead of libgcc and libm calls, and 64-lane loops take several lanes an instruction; the
# results are bit-identical, only faster.
#
# -DCK_TILE_HOST_ISA=OFF keeps the baseline x86-64 instruction set (CK_TILE_EMULATOR_HOST_ISA, its
# earlier name, is still read).
#
# ck_tile_host_isa_flags(<out-var> <feature>...): the -m<feature> flags (features as
# __builtin_cpu_supports names them: f16c, sse4.1, avx2, fma) when the option is on and this host
# runs code that uses them all; empty otherwise (another processor, a cross-compile, the option off).
include_guard(GLOBAL)

set(_ck_host_isa_default ON)
if(DEFINED CK_TILE_EMULATOR_HOST_ISA)
  set(_ck_host_isa_default ${CK_TILE_EMULATOR_HOST_ISA})
endif()
option(CK_TILE_HOST_ISA "use this x86-64 host's instruction set extensions (F16C, SSE4.1, AVX2, FMA) in code that runs on it" ${_ck_host_isa_default})

function(ck_tile_host_isa_flags out)
  set(${out} "" PARENT_SCOPE)
  if(NOT CK_TILE_HOST_ISA OR NOT CMAKE_SYSTEM_PROCESSOR MATCHES "x86_64|AMD64" OR CMAKE_CROSSCOMPILING)
    return()
  endif()
  set(_flags "")
  set(_supported "")
  foreach(_feature IN LISTS ARGN)
    list(APPEND _flags -m${_feature})
    string(APPEND _supported "__builtin_cpu_supports(\"${_feature}\") && ")
  endforeach()
  string(JOIN "_" _name ${ARGN})
  string(MAKE_C_IDENTIFIER "CK_TILE_HOST_HAS_${_name}" _result)
  string(TOUPPER ${_result} _result)
  include(CheckCXXSourceRuns)
  list(JOIN _flags " " CMAKE_REQUIRED_FLAGS)
  check_cxx_source_runs("int main() { return ${_supported}1 ? 0 : 1; }" ${_result})
  if(${_result})
    set(${out} ${_flags} PARENT_SCOPE)
  endif()
endfunction()
