# SPDX-License-Identifier: MIT
# ck_tile_add_executable(<name> SOURCES <src>... [ARCHS <arch>...] [WAVE <lanes>] [GROUP tutorials|examples]
#                        [FULL_SOURCES <src>...] [FULL_ONLY])
#
# FULL_SOURCES are compiled in only with the full instance profile (CK_TILE_INSTANCES=full), which
# also defines CK_TILE_INSTANCES_FULL=1 for the target's sources; a FULL_ONLY target is added only
# with that profile.
#
# Adds a tutorial or example binary, but only when this build dir builds at least one of the archs
# the target supports (the per-arch guard; ARCHS defaults to every arch of the arch table). In a
# device-code-only build it instead compiles one code object per arch,
# <build>/device/<name>.<arch>.co, all collected by the target device_code_objects.
function(ck_tile_add_executable name)
  cmake_parse_arguments(ARG "FULL_ONLY" "GROUP;WAVE" "SOURCES;ARCHS;FULL_SOURCES" ${ARGN})
  if(ARG_FULL_ONLY AND NOT CK_TILE_INSTANCES STREQUAL "full")
    message(STATUS "ck_tile: skipping ${name}: built with CK_TILE_INSTANCES=full only")
    return()
  endif()
  if(CK_TILE_INSTANCES STREQUAL "full")
    list(APPEND ARG_SOURCES ${ARG_FULL_SOURCES})
  endif()
  if(NOT ARG_ARCHS)
    set(ARG_ARCHS ${CK_TILE_SUPPORTED_ARCHS})
  endif()
  if(ARG_WAVE) # written for one wave size: only the archs of the table with that many lanes
    set(_same_wave "")
    foreach(_arch IN LISTS ARG_ARCHS)
      if(CK_TILE_ARCH_${_arch}_WAVE EQUAL ARG_WAVE)
        list(APPEND _same_wave ${_arch})
      endif()
    endforeach()
    set(ARG_ARCHS ${_same_wave})
  endif()
  set(_archs "")
  foreach(_arch IN LISTS CK_TILE_ARCHS)
    if(_arch IN_LIST ARG_ARCHS)
      list(APPEND _archs ${_arch})
    endif()
  endforeach()
  if(NOT _archs)
    message(STATUS "ck_tile: skipping ${name}: it supports ${ARG_ARCHS}, this build is for ${CK_TILE_ARCHS}")
    return()
  endif()

  if(CK_TILE_DEVICE_CODE_ONLY)
    _ck_tile_add_device_code_objects(${name} "${_archs}" ${ARG_SOURCES})
    return()
  endif()

  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE ck_tile)
  ck_tile_use_pch(${name})
  if(CK_TILE_INSTANCES STREQUAL "full")
    target_compile_definitions(${name} PRIVATE CK_TILE_INSTANCES_FULL=1)
  endif()
  if(ARG_GROUP)
    add_dependencies(${ARG_GROUP} ${name})
  endif()
endfunction()

# One device-only compile per arch with the configured clang: no ROCm headers or libraries.
# A target with several sources is compiled as one translation unit that includes them all (the
# device pass links no objects: it must see every kernel at once). clang writes no dependency
# file in device-only mode, so a host-only preprocessing pass lists the headers for Ninja/Make.
function(_ck_tile_add_device_code_objects name archs)
  set(_srcs "")
  foreach(_src IN LISTS ARGN)
    get_filename_component(_abs ${_src} ABSOLUTE BASE_DIR ${CMAKE_CURRENT_SOURCE_DIR})
    list(APPEND _srcs ${_abs})
  endforeach()
  list(LENGTH _srcs _nsrcs)
  if(_nsrcs GREATER 1)
    set(_unit ${CMAKE_BINARY_DIR}/device/${name}.all.cpp)
    set(_text "// generated: the sources of ${name}, as one translation unit for the device-only compile\n")
    foreach(_src IN LISTS _srcs)
      string(APPEND _text "#include \"${_src}\"\n")
    endforeach()
    file(GENERATE OUTPUT ${_unit} CONTENT "${_text}")
  else()
    set(_unit ${_srcs})
  endif()

  set(_flags -x hip -std=c++20 -O3 -nogpuinc -nogpulib -DCK_TILE_BACKEND_HIP=1 -DCK_TILE_DEVICE_CODE_ONLY=1
             -I${PROJECT_SOURCE_DIR}/include -I${PROJECT_SOURCE_DIR})
  if(CK_TILE_INSTANCES STREQUAL "full")
    list(APPEND _flags -DCK_TILE_INSTANCES_FULL=1)
  endif()
  set(_outputs "")
  foreach(_arch IN LISTS archs)
    set(_out ${CMAKE_BINARY_DIR}/device/${name}.${_arch}.co)
    add_custom_command(
      OUTPUT ${_out}
      COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/device
      COMMAND ${CMAKE_CXX_COMPILER} ${_flags} --offload-arch=${_arch} --offload-host-only -MM -MF ${_out}.d -MT ${_out}
              ${_unit}
      COMMAND ${CMAKE_CXX_COMPILER} ${_flags} --offload-arch=${_arch} --offload-device-only --no-gpu-bundle-output
              -fuse-ld=lld ${_unit} -o ${_out}
      DEPENDS ${_srcs}
      DEPFILE ${_out}.d
      COMMENT "Device code of ${name} for ${_arch}"
      VERBATIM)
    list(APPEND _outputs ${_out})
  endforeach()
  add_custom_target(${name}_device_code DEPENDS ${_outputs})
  add_dependencies(device_code_objects ${name}_device_code)
endfunction()

# ck_tile_use_pch(<target>): the target's sources start from one precompiled header of
# ck_tile/core.hpp and ck_tile/host.hpp (the emulator runtime included), compiled once per build
# dir, instead of each parsing those headers again: 3 to 6 s of the compiler per translation unit.
# Emulator builds with clang only; -DCK_TILE_PCH=OFF turns it off.
option(CK_TILE_PCH "emulator: share one precompiled header of ck_tile/core.hpp and ck_tile/host.hpp" ON)
function(ck_tile_use_pch target)
  if(NOT CK_TILE_PCH OR NOT CK_TILE_BACKEND STREQUAL "emulator" OR NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    return()
  endif()
  if(NOT TARGET ck_tile_pch)
    add_library(ck_tile_pch OBJECT ${PROJECT_SOURCE_DIR}/cmake/ck_tile_pch.cpp)
    target_link_libraries(ck_tile_pch PRIVATE ck_tile)
    target_precompile_headers(ck_tile_pch PRIVATE <ck_tile/core.hpp> <ck_tile/host.hpp>)
    # no build time in the header, so that ccache can cache it (with the sloppiness CMakeLists.txt sets)
    target_compile_options(ck_tile_pch PRIVATE -Xclang -fno-pch-timestamp)
  endif()
  target_precompile_headers(${target} REUSE_FROM ck_tile_pch)
endfunction()
