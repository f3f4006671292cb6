#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Configures a build dir the way upstream's script of the same name does:
#   script/cmake-ck-dev.sh <source dir> <arch>[;<arch>...] [extra cmake arguments...]
# run from the (new) build dir. With ROCm present (hipcc or amdclang++ found) it configures the
# hip backend for the given archs; otherwise the emulator for the first arch.
set -euo pipefail
if [[ $# -lt 1 ]]; then
  echo "usage: $0 <source dir> [gfx942|gfx950|'gfx942;gfx950'] [cmake args...]" >&2
  exit 1
fi
src=$1
archs=${2:-gfx942;gfx950}
shift $(( $# >= 2 ? 2 : 1 ))
rm -f CMakeCache.txt
rocm=${ROCM_PATH:-/opt/rocm}
if [[ -x "$rocm/bin/amdclang++" ]]; then
  exec cmake -G Ninja -D CMAKE_CXX_COMPILER="$rocm/bin/amdclang++" -D CMAKE_BUILD_TYPE=Release \
    -D CK_TILE_BACKEND=hip -D GPU_TARGETS="$archs" "$@" "$src"
fi
compiler=$(command -v clang++-22 || command -v clang++ || command -v g++)
exec cmake -G Ninja -D CMAKE_CXX_COMPILER="$compiler" -D CMAKE_BUILD_TYPE=Release \
  -D CK_TILE_BACKEND=emulator -D GPU_TARGETS="${archs%%;*}" "$@" "$src"
