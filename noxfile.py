"""Sessions of the CK Tile monorepo.

Each session installs the task-runner package (python/ck_tile_nox) into its virtualenv and runs
one of its commands; the options after ``--`` are passed on (``python -m ck_tile_nox --help``).

    nox -s build test            build the matrix, run every case, write build/reports/
    nox -s test -- --archs gfx942 --cases 'fp16*'
    nox -s bench -- --archs gfx942   the bench = true cases through pytest-benchmark
    nox -s tests                 pytest, then the C++ unit tests on the emulator
    nox -s device_check          registers, spills, scratch and LDS of the device code
    nox -s lint                  ruff, ruff format, clang-format
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import nox

nox.needs_version = ">=2024.4.15"
nox.options.default_venv_backend = "uv|virtualenv"
nox.options.reuse_venv = "yes"
nox.options.sessions = ["build", "test"]

PYPROJECT = Path(__file__).parent / "pyproject.toml"
# build and test see the system's site-packages, so that a hip-python installed with ROCm
# is found by the GPU detection.
SYSTEM_SITE = ["--system-site-packages"]


def _install(session: nox.Session, extras: str) -> None:
    """Install the package (editable) unless this venv already has this pyproject's version."""
    spec = f".[{extras}]" if extras else "."
    stamp = Path(session.virtualenv.location) / ".ck_tile_nox-installed"
    key = hashlib.sha256(PYPROJECT.read_bytes() + spec.encode()).hexdigest()
    if stamp.is_file() and stamp.read_text() == key:
        return
    session.install("-e", spec)
    stamp.write_text(key)


def _command(session: nox.Session, command: str, extras: str = "") -> None:
    _install(session, extras)
    session.run("python", "-m", "ck_tile_nox", command, *session.posargs)


@nox.session(venv_params=SYSTEM_SITE)
def build(session: nox.Session) -> None:
    """Configure and build every target of the build matrix."""
    _command(session, "build")


@nox.session(venv_params=SYSTEM_SITE)
def test(session: nox.Session) -> None:
    """Build what is needed, run every case, check it; JUnit and JSON in build/reports/."""
    _command(session, "test")


@nox.session(venv_params=SYSTEM_SITE)
def bench(session: nox.Session) -> None:
    """Build the bench cases, run them through pytest-benchmark; build/reports/bench.json."""
    _command(session, "bench", extras="test")


@nox.session
def tests(session: nox.Session) -> None:
    """The project's own tests: pytest, then the C++ tests (ctest) on the emulator."""
    _command(session, "tests", extras="test")


@nox.session
def device_check(session: nox.Session) -> None:
    """Compile device code for gfx942/gfx950 and check each kernel's resource budget."""
    _command(session, "device-check")


@nox.session
def lint(session: nox.Session) -> None:
    """ruff check, ruff format --check, clang-format --dry-run -Werror."""
    _command(session, "lint", extras="lint")
