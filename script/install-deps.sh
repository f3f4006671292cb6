#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The one place that installs what the project needs on Debian 12 / Ubuntu. Everything calls it:
# .ci/run, the nox sessions (when a tool is missing and they run as root), the images under
# docker/ and the workflows under .github/workflows/. Nothing else installs system packages or
# Python tools.
#
#   bash script/install-deps.sh [--rocm] [--rocm-version X.Y[.Z]] [--clean] [--list]
#
# Without options (the emulator and the device-code check; what .ci/run runs):
#   system packages: clang-22 + lld-22 + llvm-22 (host compiler of the emulator, device-code
#                    compiler for gfx942/gfx950, llvm-readelf/objdump for the device check),
#                    clang-tools-22 + llvm-22-dev (the hip build on hip-cpu: clang-offload-bundler,
#                    and libLLVM for hip-cpu's decoder), clang-format-22, cmake, ninja, ccache,
#                    doctest (C++ unit tests), and python3 + pip + venv when the Python in use
#                    lacks them
#   Python tools:    nox (each nox session installs its own packages into its own virtualenv)
# --rocm             for a machine or image with ROCm (e.g. FROM the ROCm development image):
#                    ROCm's clang builds the device code, so clang-22/lld-22/llvm-22/
#                    clang-tools-22/llvm-22-dev/clang-format-22 are left out; cmake, ninja,
#                    ccache, doctest, python and nox as above, plus hip-python matching the
#                    ROCm version (GPU discovery).
#                    hip-python is best effort: when no matching version installs, one message
#                    says so and the rest still succeeds (nox then needs --backend hip --archs).
# --rocm-version V   the ROCm version for hip-python (default: $ROCM_PATH/.info/version)
# --clean            afterwards remove apt's package lists and use no pip cache (for images)
# --list             print what this mode installs and exit (no root needed, changes nothing)
#
# Environment: PYTHON (the interpreter that gets nox, default python3), ROCM_PATH (default
# /opt/rocm), CK_TILE_SKIP_APT=1 (skip the system packages).
#
# Run it as root, or as a user with sudo for apt-get. It needs only bash and apt-get, which the
# debian:12 and ROCm (Ubuntu) base images have, so there is no bootstrap step before it. It skips
# what is already installed, so running it again is cheap. Where the system Python is marked as
# externally managed (PEP 668: Debian 12, Ubuntu 24.04), nox is installed outside a virtualenv
# with pip's --break-system-packages, as root system-wide, else for the user (--user).
set -euo pipefail

NOX_REQUIREMENT="nox>=2025.2.9"    # noxfile.py: nox.needs_version
NOX_MIN=(2025 2 9)

usage() {
  sed -n '3,/^set -euo/p' "$0" | sed -e '/^set -euo/d' -e 's/^# \{0,1\}//'
}

rocm=0 rocm_version="" clean=0 list=0
while (($#)); do
  case $1 in
    --rocm) rocm=1 ;;
    --rocm-version) [[ $# -ge 2 ]] || { echo "install-deps: --rocm-version needs a value" >&2; exit 2; }
                    rocm_version=$2; shift ;;
    --rocm-version=*) rocm_version=${1#*=} ;;
    --clean) clean=1 ;;
    --list) list=1 ;;
    -h | --help) usage; exit 0 ;;
    *) echo "install-deps: unknown option '$1' (see --help)" >&2; exit 2 ;;
  esac
  shift
done
if [[ -n $rocm_version && ! $rocm_version =~ ^[0-9]+\.[0-9]+(\.[0-9]+)?$ ]]; then
  echo "install-deps: --rocm-version: expected X.Y or X.Y.Z, got '$rocm_version'" >&2
  exit 2
fi

llvm_packages=(
  clang-22 lld-22 llvm-22 clang-format-22
  clang-tools-22 # clang-offload-bundler: clang bundles a hip build's per-arch code objects with it
  llvm-22-dev    # libLLVM-22's headers and link library: hip-cpu decodes the code objects with it
)
common_packages=(cmake ninja-build ccache doctest-dev)
python_packages=(python3 python3-pip python3-venv)
python=${PYTHON:-python3}
rocm_path=${ROCM_PATH:-/opt/rocm}

# The ROCm version as X.Y.Z: the option, else the installed ROCm's .info/version ("7.0.2-56").
rocm_release() {
  if [[ -n $rocm_version ]]; then
    echo "$rocm_version"
  elif [[ -r $rocm_path/.info/version ]]; then
    sed -E -n '1s/^([0-9]+\.[0-9]+(\.[0-9]+)?).*/\1/p' "$rocm_path/.info/version"
  fi
}

if ((list)); then
  if ((rocm)); then
    echo "apt: ${common_packages[*]} ${python_packages[*]}"
    echo "pip: $NOX_REQUIREMENT"
    release=$(rocm_release)
    echo "pip (best effort): hip-python==${release:-<ROCm version>}.*"
  else
    echo "apt: ${llvm_packages[*]} ${common_packages[*]} ${python_packages[*]}"
    echo "pip: $NOX_REQUIREMENT"
  fi
  exit 0
fi

# ---- system packages ------------------------------------------------------------------------
packages=("${common_packages[@]}")
((rocm)) || packages=("${llvm_packages[@]}" "${packages[@]}")
if ! command -v "$python" >/dev/null 2>&1; then
  packages+=("${python_packages[@]}")
elif ! "$python" -m pip --version >/dev/null 2>&1; then
  packages+=(python3-pip python3-venv)
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [[ "${CK_TILE_SKIP_APT:-0}" != 1 && ${#missing[@]} -gt 0 ]]; then
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "install-deps: no apt-get here (Debian 12 or Ubuntu expected); install: ${missing[*]}" >&2
    exit 1
  fi
  if [[ $(id -u) -eq 0 ]]; then
    sudo_cmd=()
  elif command -v sudo >/dev/null 2>&1; then
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
if ((clean)) && [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null 2>&1; then
  apt-get clean
  rm -rf /var/lib/apt/lists/*
fi

# ---- Python tools ---------------------------------------------------------------------------
if ! command -v "$python" >/dev/null 2>&1; then
  echo "install-deps: $python not found (set PYTHON to the interpreter to use)" >&2
  exit 1
fi

# pip's flags for this interpreter: inside a virtualenv none; outside one, --break-system-packages
# where the distribution marks its Python as externally managed, and --user for a non-root user
# who cannot write to site-packages.
pip_flags() {
  "$python" - <<'EOF'
import os, sys, sysconfig
flags = []
if sys.prefix == sys.base_prefix:
    if os.path.isfile(os.path.join(sysconfig.get_path("stdlib"), "EXTERNALLY-MANAGED")):
        flags.append("--break-system-packages")
    site = sysconfig.get_path("purelib")
    while not os.path.isdir(site) and os.path.dirname(site) != site:
        site = os.path.dirname(site)
    if os.geteuid() != 0 and not os.access(site, os.W_OK):
        flags.append("--user")
print(" ".join(flags))
EOF
}

pip_install() {
  local flags
  read -r -a flags <<<"$(pip_flags)"
  ((clean)) && flags+=(--no-cache-dir)
  PIP_ROOT_USER_ACTION=ignore "$python" -m pip install --quiet --disable-pip-version-check \
    "${flags[@]}" "$@"
}

# Whether the installed distribution $1 is at least version $2.$3.$4 (numeric parts only).
has_version() {
  "$python" - "$@" <<'EOF'
import importlib.metadata as md, re, sys
name, *want = sys.argv[1:]
try:
    have = md.version(name)
except md.PackageNotFoundError:
    sys.exit(1)
parts = [int(p) for p in re.findall(r"\d+", have)[: len(want)]]
sys.exit(0 if parts >= [int(w) for w in want] else 1)
EOF
}

if ! has_version nox "${NOX_MIN[@]}" || ! "$python" -m nox --version >/dev/null 2>&1; then
  echo "install-deps: installing $NOX_REQUIREMENT for $python"
  pip_install "$NOX_REQUIREMENT"
fi

hip_python_note=""
if ((rocm)); then
  release=$(rocm_release)
  if [[ -z $release ]]; then
    hip_python_note="hip-python not installed: ROCm version unknown (no $rocm_path/.info/version; pass --rocm-version X.Y)"
  else
    IFS=. read -r -a want <<<"$release"
    if has_version hip-python "${want[@]}" && ! has_version hip-python "${want[0]}" "$((want[1] + 1))"; then
      hip_python_note="hip-python $("$python" -m pip show hip-python 2>/dev/null | sed -n 's/^Version: //p') present"
    elif pip_install "hip-python==$release.*"; then
      hip_python_note="hip-python==$release.* installed"
    else
      hip_python_note="hip-python==$release.* could not be installed for $python; GPU discovery is off, pass --backend hip --archs gfxNNN to nox"
    fi
  fi
  if [[ ! -x $rocm_path/bin/amdclang++ && ! -x $rocm_path/llvm/bin/clang++ && ! -x $rocm_path/bin/hipcc ]]; then
    echo "install-deps: note: no ROCm compiler under $rocm_path (install ROCm or set ROCM_PATH)" >&2
  fi
fi

compiler_line() {
  local cxx=clang++-22
  ((rocm)) && cxx=$rocm_path/bin/amdclang++
  if command -v "$cxx" >/dev/null 2>&1; then "$cxx" --version | head -n 1; else echo "no $cxx"; fi
}

echo "install-deps: ${hip_python_note:+$hip_python_note; }ready (nox $("$python" -m nox --version 2>&1 | tail -n 1), $(compiler_line))"
