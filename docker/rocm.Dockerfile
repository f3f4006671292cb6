# syntax=docker/dockerfile:1
# SPDX-License-Identifier: MIT
# The ROCm image: the official ROCm development image plus what script/install-deps.sh --rocm
# installs (cmake, ninja, ccache, doctest, python, nox, hip-python for this ROCm release). The
# hip backend compiles with ROCm's clang and runs on the GPUs passed into the container.
#
#   docker build -f docker/rocm.Dockerfile --build-arg ROCM_VERSION=7.0 -t ck-tile-rocm:7.0 .
#   docker run --rm --device /dev/kfd --device /dev/dri --group-add video \
#       --security-opt seccomp=unconfined ck-tile-rocm:7.0
ARG ROCM_VERSION=7.0
FROM rocm/dev-ubuntu-24.04:${ROCM_VERSION}
ARG ROCM_VERSION
ARG GPU_TARGETS=""

SHELL ["/bin/bash", "-o", "pipefail", "-c"]
# GPU_TARGETS: the archs script/cmake-ck-dev.sh builds for in this image; empty (the default):
# every arch of the arch table (include/ck_tile/core/arch/arch_table.def). nox takes the GPU's
# arch from hip-python, or --archs.
ENV DEBIAN_FRONTEND=noninteractive \
    LANG=C.UTF-8 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_NO_CACHE_DIR=1 \
    ROCM_PATH=/opt/rocm \
    HIP_PATH=/opt/rocm \
    ROCM_VERSION=${ROCM_VERSION} \
    GPU_TARGETS=${GPU_TARGETS} \
    CK_TILE_BACKEND=hip \
    PATH=/opt/rocm/bin:${PATH}

WORKDIR /src
COPY script/install-deps.sh script/install-deps.sh
RUN bash script/install-deps.sh --rocm --clean

# Root stays the user: the devices' groups are added at run time (--group-add video), and CI
# container jobs check out into the container as root.
COPY . .
RUN python3 -m nox --install-only -s tests build test

CMD ["python3", "-m", "nox", "-s", "build", "test"]
