# SPDX-License-Identifier: MIT
# The client examples from the top-level build, built as upstream builds them: against the
# installed package. Each client target here (client_wrapper_basic_gemm, ...) installs this build
# into <build>/install (headers and the composable_kernel package: cmake --install), configures
# client_example/ as its own CMake project against it in <build>/client_example, and builds the
# target there; the binary lands in <build>/bin like every other one. So `ninja
# client_wrapper_basic_gemm` in a configured build dir, and nox's build session, exercise the
# installed package.
include(${PROJECT_SOURCE_DIR}/client_example/client_targets.cmake) # CK_CLIENT_EXAMPLE_TARGETS

# a device-code-only build compiles the client examples' device code like every other target's
# (the device-code check); nothing is installed or linked there
if(CK_TILE_DEVICE_CODE_ONLY)
  foreach(_t IN LISTS CK_CLIENT_EXAMPLE_TARGETS)
    if(NOT _t STREQUAL "client_tensor_transform_using_wrapper") # host only: no device code
      ck_tile_add_executable(${_t} SOURCES ${PROJECT_SOURCE_DIR}/client_example/${CK_CLIENT_EXAMPLE_SOURCE_${_t}} WAVE 64)
    endif()
  endforeach()
  return()
endif()

set(_ck_client_prefix ${CMAKE_BINARY_DIR}/install)
set(_ck_client_dir ${CMAKE_BINARY_DIR}/client_example)
set(_ck_client_args -DCMAKE_PREFIX_PATH=${_ck_client_prefix} -DCMAKE_CXX_COMPILER=${CMAKE_CXX_COMPILER}
                    -DCMAKE_BUILD_TYPE=${CMAKE_BUILD_TYPE} -DCMAKE_RUNTIME_OUTPUT_DIRECTORY=${CMAKE_BINARY_DIR}/bin)
if(CMAKE_CXX_COMPILER_LAUNCHER)
  # this build's launcher, a list when it is ccache with its sloppiness: one -D argument
  string(REPLACE ";" "$<SEMICOLON>" _ck_client_launcher "${CMAKE_CXX_COMPILER_LAUNCHER}")
  list(APPEND _ck_client_args "-DCMAKE_CXX_COMPILER_LAUNCHER=${_ck_client_launcher}")
endif()
add_custom_target(client_example_package
  COMMAND ${CMAKE_COMMAND} --install ${CMAKE_BINARY_DIR} --prefix ${_ck_client_prefix}
  COMMAND ${CMAKE_COMMAND} -S ${PROJECT_SOURCE_DIR}/client_example -B ${_ck_client_dir} -G ${CMAKE_GENERATOR}
          ${_ck_client_args}
  COMMENT "Installing composable_kernel into ${_ck_client_prefix}; configuring client_example against it"
  VERBATIM)
if(CK_TILE_BUILD_HIP_CPU) # the package installs hip-cpu's libraries: built first
  add_dependencies(client_example_package ck_tile_hip_cpu ck_tile_hip_cpu_engine)
endif()
add_custom_target(client_examples)
foreach(_t IN LISTS CK_CLIENT_EXAMPLE_TARGETS)
  add_custom_target(${_t}
    COMMAND ${CMAKE_COMMAND} --build ${_ck_client_dir} --target ${_t}
    COMMENT "Building ${_t} against the installed package"
    VERBATIM)
  add_dependencies(${_t} client_example_package)
  add_dependencies(client_examples ${_t})
endforeach()
