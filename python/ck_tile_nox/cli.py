"""Command line: ``python -m ck_tile_nox <command> [options]`` (what the nox sessions run).

Commands: ``build``, ``test``, ``bench``, ``tests``, ``device-check``, ``lint``. Options (a nox
session's posargs, after ``--``; every command accepts them all and ignores those it has no use
for; ``device-check`` uses ``--archs``, ``--targets``, ``--jobs``, ``--build-root``,
``--cmake-arg``)::

    --backend hip|emulator    force the backend (else $CK_TILE_BACKEND, else detection)
    --archs gfx942,gfx950     force the archs (else $CK_TILE_ARCHS, else detection)
    --targets GLOB[,GLOB]     only targets whose name matches (repeatable)
    --cases GLOB[,GLOB]       only cases whose name (or target/case) matches (repeatable)
    --jobs N                  parallel build jobs (default: CPU count)
    --build-root DIR          where build dirs and reports go (default: <repo>/build)
    --cxx-flags=FLAGS         extra CMAKE_CXX_FLAGS (default: $CXXFLAGS), merged with the axes
    --cmake-arg=ARG           extra argument for every cmake configure (repeatable)
    --shard I/N               build and test only shard I of N (1-based; for CI runners):
                              each shard builds only what it runs, together they run every
                              case once (see ck_tile_nox.matrix)
    --plain                   plain lines instead of rich output (also CK_TILE_PLAIN=1)

``tests`` takes ``--python-only`` (skip the CMake tests) and passes anything after ``--pytest``
to pytest. ``bench`` (the ``bench = true`` cases through pytest-benchmark, see
:mod:`ck_tile_nox.bench`) takes::

    --rounds N                runs of each binary (default 3); the kernel figures are the median
    --json PATH               the pytest-benchmark JSON (default: <build-root>/reports/bench.json)
    --compare OLD.json        afterwards, print old vs new kernel figures and the change
    --no-run                  only compare --compare OLD.json with --json (no build, no run)
    --pytest ARGS...          the rest goes to pytest (e.g. --pytest -x --benchmark-verbose)
 Values that start with ``-`` need the ``--option=value`` form.
Exit status: 0 success, 1 failures, 2 bad input (cases files, options, tools).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from ck_tile_nox import commands
from ck_tile_nox.bench import DEFAULT_ROUNDS
from ck_tile_nox.console import UI
from ck_tile_nox.matrix import parse_shard


def _globs(values: list[str] | None) -> list[str]:
    return [g.strip() for v in values or [] for g in v.split(",") if g.strip()]


def _shard(text: str) -> tuple[int, int]:
    try:
        return parse_shard(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}")
    return value


def _common(p: argparse.ArgumentParser) -> None:
    """Options every command accepts, so that one ``nox -s a b -- <posargs>`` suits all sessions;
    a command ignores those it has no use for."""
    p.add_argument("--repo", type=Path, default=None, help="repository root (default: cwd)")
    p.add_argument("--build-root", type=Path, default=None, help="default: <repo>/build")
    p.add_argument("--backend", choices=("hip", "emulator"), default=None)
    p.add_argument("--archs", default=None, help="comma list of GPU archs")
    p.add_argument("--targets", action="append", metavar="GLOB", help="target name globs")
    p.add_argument("--cases", action="append", metavar="GLOB", help="case name globs")
    p.add_argument("--jobs", "-j", type=int, default=None, help="parallel build jobs")
    p.add_argument("--cxx-flags", default=None, help="extra CMAKE_CXX_FLAGS")
    p.add_argument("--cmake-arg", action="append", default=[], metavar="ARG")
    p.add_argument("--shard", type=_shard, default=None, metavar="I/N", help="shard I of N")
    p.add_argument("--plain", action="store_true", help="plain output, no rich")


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="ck_tile_nox", description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="command", required=True)
    _common(sub.add_parser("build", help="configure and build the matrix"))
    _common(sub.add_parser("test", help="build what is needed, run and check every case"))
    tests = sub.add_parser("tests", help="pytest, then the CMake tests on the emulator")
    _common(tests)
    tests.add_argument("--python-only", action="store_true", help="skip the CMake tests")
    tests.add_argument("--pytest", nargs=argparse.REMAINDER, default=[], dest="pytest_args")
    bench = sub.add_parser("bench", help="the bench = true cases through pytest-benchmark")
    _common(bench)
    bench.add_argument("--rounds", type=_positive, default=DEFAULT_ROUNDS, metavar="N")
    bench.add_argument("--json", type=Path, default=None, metavar="PATH", help="bench JSON")
    bench.add_argument("--compare", type=Path, default=None, metavar="OLD.json")
    bench.add_argument("--no-run", action="store_true", help="only --compare with --json")
    bench.add_argument("--pytest", nargs=argparse.REMAINDER, default=[], dest="pytest_args")
    _common(sub.add_parser("device-check", help="register/scratch/LDS budgets of device code"))
    _common(sub.add_parser("lint", help="ruff and clang-format"))
    return p


def main(argv: Sequence[str] | None = None) -> int:
    opts = parser().parse_args(argv)
    opts.repo = (opts.repo or Path.cwd()).resolve()
    opts.build_root = (opts.build_root or opts.repo / "build").resolve()
    opts.jobs = opts.jobs or os.cpu_count() or 2
    opts.targets = _globs(opts.targets)
    opts.cases = _globs(opts.cases)
    if opts.cxx_flags is None:
        opts.cxx_flags = os.environ.get("CXXFLAGS", "")
    ui = UI(plain=True if opts.plain else None)
    handler = {
        "build": commands.build,
        "test": commands.test,
        "bench": commands.bench,
        "tests": commands.tests,
        "device-check": commands.device_check,
        "lint": commands.lint,
    }[opts.command]
    try:
        return handler(opts, ui)
    except KeyboardInterrupt:
        ui.error("interrupted")
        return 130


if __name__ == "__main__":
    sys.exit(main())
