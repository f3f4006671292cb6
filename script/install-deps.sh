#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The one place that installs what the project needs on Debian 12 / Ubuntu (the nox sessions, CI
# and the container images all call it):
#   system packages: clang-22 + lld-22 + llvm-22 (host compiler for the emulator, device-code
#                    compiler for gfx942/gfx950, llvm-readelf/objdump for the device check),
#                    cmake, ninja, ccache, doctest (C++ unit tests), clang-format-22
#   Python tools:    nox (it creates its own virtual environments for everything else)
# Run it as root (or with sudo available). It skips what is already installed, so it is cheap to
# run again. Set CK_TILE_SKIP_APT=1 to skip the system packages.
set -euo pipefail

packages=(clang-22 lld-22 llvm-22 clang-format-22 cmake ninja-build ccache doctest-dev)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [[ "${CK_TILE_SKIP_APT:-0}" != 1 && ${#missing[@]} -gt 0 ]]; then
  if [[ $(id -u) -eq 0 ]]; then
    sudo_cmd=()
  elif command -v sudo >/dev/null; then
    sudo_cmd=(sudo)
  else
    echo "install-deps: missing packages: ${missing[*]}" >&2
    echo "install-deps: run as root: apt-get update && apt-get install -y ${missing[*]}" >&2
    exit 1
  fi
  echo "install-deps: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_cmd[@]}" apt-get update -qq
  "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

python=${PYTHON:-python3}
if ! "$python" -m nox --version >/dev/null 2>&1; then
  echo "install-deps: installing nox for $python"
  "$python" -m pip install --quiet --disable-pip-version-check nox
fi
echo "install-deps: ready ($("$python" -m nox --version 2>&1 | tail -n 1) nox, $(clang++-22 --version | head -n 1))"
