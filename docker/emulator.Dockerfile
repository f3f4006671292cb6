# syntax=docker/dockerfile:1
# SPDX-License-Identifier: MIT
# The emulator and device-code-check image: Debian 12 with what script/install-deps.sh installs
# (the same script, with the same default mode, that .ci/run runs).
#
#   docker build -f docker/emulator.Dockerfile -t ck-tile-emulator .
#   docker run --rm ck-tile-emulator                                   # python3 -m nox -s tests
#   docker run --rm ck-tile-emulator python3 -m nox -s device_check build test
FROM debian:12

SHELL ["/bin/bash", "-o", "pipefail", "-c"]
ENV DEBIAN_FRONTEND=noninteractive \
    LANG=C.UTF-8 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_NO_CACHE_DIR=1

# A non-root user owns the work tree; the tools go in as root first, in a layer of their own
# that only changes when the install script does.
RUN useradd --create-home --uid 1000 --shell /bin/bash ck \
    && install -d -o 1000 -g 1000 /src
WORKDIR /src
COPY script/install-deps.sh script/install-deps.sh
RUN bash script/install-deps.sh --clean

COPY --chown=1000:1000 . .
USER 1000:1000
# Create the nox sessions' virtualenvs now, so that the container runs without a network.
RUN python3 -m nox --install-only -s tests lint build test device_check

CMD ["python3", "-m", "nox", "-s", "tests"]
