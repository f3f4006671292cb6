# SPDX-License-Identifier: MIT
# The backend: an interface library `ck_tile` carrying the include path, the backend and arch
# macros and the compile flags, and CK_TILE_ARCHS, the archs this build dir builds for.

include(CkTileArchs)
set(_ck_supported_archs ${CK_TILE_SUPPORTED_ARCHS})
foreach(_arch IN LISTS GPU_TARGETS)
  if(NOT _arch IN_LIST _ck_supported_archs)
    message(FATAL_ERROR "ck_tile: GPU_TARGETS contains '${_arch}'; supported archs: ${_ck_supported_archs}")
  endif()
endforeach()
if(NOT GPU_TARGETS)
  message(FATAL_ERROR "ck_tile: GPU_TARGETS is empty; supported archs: ${_ck_supported_archs}")
endif()

include(CkTileHostIsa) # CK_TILE_HOST_ISA, ck_tile_host_isa_flags
# Host code: F16C and SSE4.1 where the host has them. prefix: what passes a flag to the host compile
# only ("" for the emulator, -Xarch_host for hip).
function(_ck_tile_host_isa prefix)
  ck_tile_host_isa_flags(_flags f16c sse4.1)
  foreach(_flag IN LISTS _flags)
    target_compile_options(ck_tile INTERFACE "$<$<COMPILE_LANGUAGE:CXX>:SHELL:${prefix} ${_flag}>")
  endforeach()
endfunction()

add_library(ck_tile INTERFACE)
target_include_directories(ck_tile INTERFACE ${PROJECT_SOURCE_DIR}/include)
# the headers are C++20: a consumer that links ck_tile compiles as C++20 at least, whatever its
# own default (the installed package's target says the same)
target_compile_features(ck_tile INTERFACE cxx_std_20)

if(CK_TILE_BACKEND STREQUAL "emulator")
  # The emulator is written for clang (its fibers, vector types and builtins); g++ is refused here
  # rather than failing later in some example or running the kernels at a fraction of the speed.
  # (The leading space keeps CMake from wrapping the message: it stays one line.)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR " ck_tile: the emulator needs clang++-22 (run script/install-deps.sh, then configure a new build dir with -DCMAKE_CXX_COMPILER=clang++-22 or CXX=clang++-22); this build dir's compiler is ${CMAKE_CXX_COMPILER_ID} ${CMAKE_CXX_COMPILER_VERSION}")
  endif()
  list(LENGTH GPU_TARGETS _n)
  list(GET GPU_TARGETS 0 _arch)
  if(_n GREATER 1)
    message(STATUS "ck_tile: the emulator builds one arch per build dir; this one emulates ${_arch} "
                   "(pass -DGPU_TARGETS=<arch> to choose)")
  endif()
  set(CK_TILE_ARCHS ${_arch})
  string(TOUPPER ${_arch} _ARCH)
  find_package(Threads REQUIRED)
  target_compile_definitions(ck_tile INTERFACE CK_TILE_BACKEND_EMULATOR=1 CK_TILE_EMULATE_${_ARCH}=1)
  target_link_libraries(ck_tile INTERFACE Threads::Threads)
  _ck_tile_host_isa("")
  # <hip/hip_runtime.h> for HIP sources written for hipcc; hip builds get ROCm's own
  target_include_directories(ck_tile INTERFACE ${PROJECT_SOURCE_DIR}/include/ck_tile/core/arch/emulator/hip_include)
  message(STATUS "ck_tile: backend emulator, emulating ${_arch}, compiler ${CMAKE_CXX_COMPILER_ID} ${CMAKE_CXX_COMPILER_VERSION}")
elseif(CK_TILE_BACKEND STREQUAL "hip")
  set(CK_TILE_ARCHS ${GPU_TARGETS})
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "ck_tile: the hip backend needs clang (ROCm's amdclang++/hipcc, or clang-22 on hip-cpu "
                        "or with CK_TILE_DEVICE_CODE_ONLY=ON); CMAKE_CXX_COMPILER is ${CMAKE_CXX_COMPILER_ID}")
  endif()
  target_compile_definitions(ck_tile INTERFACE CK_TILE_BACKEND_HIP=1)
  if(CK_TILE_DEVICE_CODE_ONLY)
    target_compile_definitions(ck_tile INTERFACE CK_TILE_DEVICE_CODE_ONLY=1)
    add_custom_target(device_code_objects ALL)
    message(STATUS "ck_tile: backend hip, device code only, archs ${GPU_TARGETS}")
  else()
    foreach(_arch IN LISTS GPU_TARGETS)
      target_compile_options(ck_tile INTERFACE $<$<COMPILE_LANGUAGE:CXX>:--offload-arch=${_arch}>)
    endforeach()
    target_compile_options(ck_tile INTERFACE $<$<COMPILE_LANGUAGE:CXX>:-x hip>)
    # fp8_t must be one type in host code and in every arch's device code: OCP when every target
    # computes with OCP, else FNUZ (see numeric/float8.hpp)
    set(_fp8_ocp 1)
    foreach(_arch IN LISTS GPU_TARGETS)
      if(NOT CK_TILE_ARCH_${_arch}_FP8 STREQUAL "ocp")
        set(_fp8_ocp 0)
      endif()
    endforeach()
    target_compile_definitions(ck_tile INTERFACE CK_TILE_FP8_OCP=${_fp8_ocp})
    _ck_tile_host_isa(-Xarch_host)
    if(CK_TILE_HIP_RUNTIME STREQUAL "cpu")
      # hip-cpu (library/hip_cpu) serves the HIP headers and the runtime: no ROCm headers
      # (-nogpuinc), device libraries (-nogpulib) or amdhip64 (no --hip-link). ck_tile_hip_cpu
      # brings its include dir; the top-level CMakeLists.txt adds it (CK_TILE_BUILD_HIP_CPU).
      target_compile_options(ck_tile INTERFACE $<$<COMPILE_LANGUAGE:CXX>:-nogpuinc> $<$<COMPILE_LANGUAGE:CXX>:-nogpulib>)
      # clang bundles each object's per-arch code objects with the clang-offload-bundler beside it
      get_filename_component(_ck_cxx_dir "${CMAKE_CXX_COMPILER}" REALPATH)
      get_filename_component(_ck_cxx_dir "${_ck_cxx_dir}" DIRECTORY)
      find_program(CK_TILE_OFFLOAD_BUNDLER clang-offload-bundler HINTS ${_ck_cxx_dir} NO_DEFAULT_PATH)
      if(NOT CK_TILE_OFFLOAD_BUNDLER)
        message(FATAL_ERROR " ck_tile: a hip build needs clang-offload-bundler in ${_ck_cxx_dir} (Debian/Ubuntu: clang-tools-22); run script/install-deps.sh")
      endif()
      target_link_libraries(ck_tile INTERFACE ck_tile_hip_cpu)
      target_compile_definitions(ck_tile INTERFACE CK_TILE_HIP_RUNTIME_CPU=1) # config.hpp: CK_TILE_RUNS_ON_CPU
      set(CK_TILE_BUILD_HIP_CPU ON)
      message(STATUS "ck_tile: backend hip, archs ${GPU_TARGETS}, runtime cpu (hip-cpu)")
    else()
      target_link_options(ck_tile INTERFACE --hip-link)
      message(STATUS "ck_tile: backend hip, archs ${GPU_TARGETS}")
    endif()
  endif()
else()
  message(FATAL_ERROR "ck_tile: CK_TILE_BACKEND must be 'hip' or 'emulator', not '${CK_TILE_BACKEND}'")
endif()
