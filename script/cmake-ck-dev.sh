#!/bin/sh
# SPDX-License-Identifier: MIT
# Configures a build dir the way upstream's script of the same name does, run from the (new) build dir:
#   sh ../script/cmake-ck-dev.sh <source dir> [<arch>[;<arch>...]] [extra cmake arguments...]
#   make <target> -j                       (CMake's default generator)
#   ../script/cmake-ck-dev.sh .. gfx942 -G Ninja && ninja <target>
# With ROCm present (amdclang++ under $ROCM_PATH, default /opt/rocm) it configures the hip backend
# for the given archs; otherwise the emulator for the first one, with clang++-22 (or clang++).
# Without an arch, every arch of the arch table (include/ck_tile/core/arch/arch_table.def). The
# build has the full instance set (everything the READMEs document); pass -D CK_TILE_INSTANCES=ci
# for CI's smaller one. Binaries land in bin/.
#
# POSIX sh: upstream's README runs it with `sh`, which is dash on Debian and Ubuntu.
set -eu
usage() {
  echo "usage: $0 <source dir> [<arch>[;<arch>...]] [cmake args...]" >&2
  exit 1
}
[ $# -ge 1 ] || usage
case $1 in -*) usage ;; esac
src=$1
shift
archs=
if [ $# -ge 1 ]; then
  case $1 in
    -*) ;;
    *) archs=$1; shift ;;
  esac
fi
# an empty arch list: every arch of the table
[ -z "$archs" ] || set -- -D "GPU_TARGETS=$archs" "$@"
# a fresh configure, as upstream's script does (the generator may change between runs)
rm -rf CMakeCache.txt CMakeFiles
rocm=${ROCM_PATH:-/opt/rocm}
if [ -x "$rocm/bin/amdclang++" ]; then
  exec cmake -D CMAKE_CXX_COMPILER="$rocm/bin/amdclang++" -D CMAKE_BUILD_TYPE=Release \
    -D CK_TILE_BACKEND=hip "$@" "$src"
fi
compiler=$(command -v clang++-22 || command -v clang++ || true)
if [ -z "$compiler" ]; then
  echo "error: no clang++-22 (the emulator's compiler); run script/install-deps.sh" >&2
  exit 1
fi
exec cmake -D CMAKE_CXX_COMPILER="$compiler" -D CMAKE_BUILD_TYPE=Release \
  -D CK_TILE_BACKEND=emulator "$@" "$src"
