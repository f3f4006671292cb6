# SPDX-License-Identifier: MIT
# The supported archs and their facts, read from include/ck_tile/core/arch/arch_table.def (the one
# place they are written). Sets:
#   CK_TILE_SUPPORTED_ARCHS          every arch of the table, in table order
#   CK_TILE_ARCH_<arch>_WAVE         lanes per wave
#   CK_TILE_ARCH_<arch>_LDS_BYTES    LDS bytes per workgroup
#   CK_TILE_ARCH_<arch>_FP8          fnuz or ocp
#   CK_TILE_ARCH_<arch>_MFMA         cdna3 or cdna4
#   CK_TILE_ARCH_<arch>_LDS_TR       1 if the arch has LDS transpose reads
set(_ck_arch_table ${PROJECT_SOURCE_DIR}/include/ck_tile/core/arch/arch_table.def)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${_ck_arch_table})
file(STRINGS ${_ck_arch_table} _ck_arch_rows REGEX "^CK_TILE_ARCH\\(")
set(CK_TILE_SUPPORTED_ARCHS "")
foreach(_row IN LISTS _ck_arch_rows)
  string(REGEX REPLACE "^CK_TILE_ARCH\\(([^)]*)\\).*$" "\\1" _fields "${_row}")
  string(REPLACE " " "" _fields "${_fields}")
  string(REPLACE "," ";" _fields "${_fields}")
  list(LENGTH _fields _n)
  if(NOT _n EQUAL 6)
    message(FATAL_ERROR "ck_tile: ${_ck_arch_table}: a row needs 6 fields: ${_row}")
  endif()
  list(GET _fields 0 _arch)
  list(GET _fields 1 CK_TILE_ARCH_${_arch}_WAVE)
  list(GET _fields 2 _kib)
  math(EXPR CK_TILE_ARCH_${_arch}_LDS_BYTES "${_kib} * 1024")
  list(GET _fields 3 CK_TILE_ARCH_${_arch}_FP8)
  list(GET _fields 4 CK_TILE_ARCH_${_arch}_MFMA)
  list(GET _fields 5 CK_TILE_ARCH_${_arch}_LDS_TR)
  list(APPEND CK_TILE_SUPPORTED_ARCHS ${_arch})
endforeach()
if(NOT CK_TILE_SUPPORTED_ARCHS)
  message(FATAL_ERROR "ck_tile: no arch rows in ${_ck_arch_table}")
endif()
