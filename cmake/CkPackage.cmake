# SPDX-License-Identifier: MIT
# `cmake --install`: the headers (include/ck_tile, include/ck) and the CMake package
# composable_kernel (lib/cmake/composable_kernel), whose config carries this build's backend, GPU
# targets, compile definitions and flags (cmake/composable_kernelConfig.cmake.in). A hip build on
# hip-cpu also installs the runtime: its two static libraries (lib/) and its HIP headers
# (include/ck_tile_hip_cpu/hip), which the package's targets then carry, with libLLVM-22.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/ck_tile ${PROJECT_SOURCE_DIR}/include/ck
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})

# the backend's settings, read off the ck_tile target (CkTileBackend.cmake)
function(_ck_pkg_property out prop)
  get_target_property(_v ck_tile ${prop})
  if(NOT _v)
    set(_v "")
  endif()
  set(${out} "${_v}" PARENT_SCOPE)
endfunction()
_ck_pkg_property(_ck_pkg_defs INTERFACE_COMPILE_DEFINITIONS)
_ck_pkg_property(_ck_pkg_opts INTERFACE_COMPILE_OPTIONS)
_ck_pkg_property(_ck_pkg_link_opts INTERFACE_LINK_OPTIONS)
set(_ck_pkg_archs "${CK_TILE_ARCHS}")
set(_ck_pkg_hip_cpu_libs "")
if(CK_TILE_BUILD_HIP_CPU)
  foreach(_lib ck_tile_hip_cpu ck_tile_hip_cpu_engine)
    install(FILES $<TARGET_FILE:${_lib}> DESTINATION ${CMAKE_INSTALL_LIBDIR}) # built here or imported
  endforeach()
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/library/hip_cpu/include/hip
          DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/ck_tile_hip_cpu)
  # in link order: the runtime, the engine it drives, then libLLVM (the decoder)
  foreach(_lib ck_tile_hip_cpu ck_tile_hip_cpu_engine)
    list(APPEND _ck_pkg_hip_cpu_libs ${CMAKE_STATIC_LIBRARY_PREFIX}${_lib}${CMAKE_STATIC_LIBRARY_SUFFIX})
  endforeach()
  set(_ck_pkg_libllvm "${CK_TILE_LIBLLVM}")
endif()

set(_ck_pkg_dir ${CMAKE_INSTALL_LIBDIR}/cmake/composable_kernel)
configure_file(${PROJECT_SOURCE_DIR}/cmake/composable_kernelConfig.cmake.in
               ${CMAKE_BINARY_DIR}/package/composable_kernelConfig.cmake @ONLY)
write_basic_package_version_file(${CMAKE_BINARY_DIR}/package/composable_kernelConfigVersion.cmake
                                 VERSION 1.1.0 COMPATIBILITY AnyNewerVersion)
install(FILES ${CMAKE_BINARY_DIR}/package/composable_kernelConfig.cmake
              ${CMAKE_BINARY_DIR}/package/composable_kernelConfigVersion.cmake
        DESTINATION ${_ck_pkg_dir})
