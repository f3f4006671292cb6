#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Configures a build dir the way upstream's script of the same name does, run from the (new) build dir:
#   ../script/cmake-ck-dev.sh <source dir> [<arch>[;<arch>...]] [extra cmake arguments...]
#   make <target> -j                       (CMake's default generator)
#   ../script/cmake-ck-dev.sh .. gfx942 -G Ninja && ninja <target>
# With ROCm present (amdclang++ under $ROCM_PATH, default /opt/rocm) it configures the hip backend
# for the given archs; otherwise the emulator for the first one. Without an arch, every arch of the
# arch table (include/ck_tile/core/arch/arch_table.def). Binaries land in bin/.
set -euo pipefail
if [[ $# -lt 1 || $1 == -* ]]; then
  echo "usage: $0 <source dir> [<arch>[;<arch>...]] [cmake args...]" >&2
  exit 1
fi
src=$1
shift
targets=()
if [[ $# -ge 1 && $1 != -* ]]; then
  [[ -n $1 ]] && targets=(-D "GPU_TARGETS=$1") # an empty arch list: every arch of the table
  shift
fi
# a fresh configure, as upstream's script does (the generator may change between runs)
rm -rf CMakeCache.txt CMakeFiles
rocm=${ROCM_PATH:-/opt/rocm}
if [[ -x "$rocm/bin/amdclang++" ]]; then
  exec cmake -D CMAKE_CXX_COMPILER="$rocm/bin/amdclang++" -D CMAKE_BUILD_TYPE=Release \
    -D CK_TILE_BACKEND=hip "${targets[@]}" "$@" "$src"
fi
compiler=$(command -v clang++-22 || command -v clang++ || command -v g++ || true)
if [[ -z $compiler ]]; then
  echo "error: no C++ compiler found (clang++-22, clang++ or g++); run script/install-deps.sh" >&2
  exit 1
fi
exec cmake -D CMAKE_CXX_COMPILER="$compiler" -D CMAKE_BUILD_TYPE=Release \
  -D CK_TILE_BACKEND=emulator "${targets[@]}" "$@" "$src"
