# SPDX-License-Identifier: MIT
# libLLVM-22, which hip-cpu (library/hip_cpu) links for its decoder (the AMDGPU disassembler of the
# compiler that produced the code objects): through llvm-config-22, else Debian's /usr/lib/llvm-22.
# Sets, without failing:
#   CK_TILE_LIBLLVM            the shared library, or ...-NOTFOUND
#   CK_TILE_LLVM_INCLUDE_DIR   its headers, or ...-NOTFOUND
find_program(CK_TILE_LLVM_CONFIG NAMES llvm-config-22 llvm-config HINTS /usr/lib/llvm-22/bin)
set(_llvm_libdir "")
set(_llvm_includedir "")
if(CK_TILE_LLVM_CONFIG)
  execute_process(COMMAND ${CK_TILE_LLVM_CONFIG} --version OUTPUT_VARIABLE _llvm_version OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(_llvm_version MATCHES "^22\\.")
    execute_process(COMMAND ${CK_TILE_LLVM_CONFIG} --libdir OUTPUT_VARIABLE _llvm_libdir OUTPUT_STRIP_TRAILING_WHITESPACE)
    execute_process(COMMAND ${CK_TILE_LLVM_CONFIG} --includedir OUTPUT_VARIABLE _llvm_includedir
                    OUTPUT_STRIP_TRAILING_WHITESPACE)
  endif()
endif()
find_library(CK_TILE_LIBLLVM NAMES LLVM-22 HINTS ${_llvm_libdir} /usr/lib/llvm-22/lib)
find_path(CK_TILE_LLVM_INCLUDE_DIR llvm/MC/MCDisassembler/MCDisassembler.h HINTS ${_llvm_includedir} /usr/lib/llvm-22/include
          NO_DEFAULT_PATH)
