"""``python -m ck_tile_nox <command> [args]``: what the nox sessions run.

- ``test [pytest args]``: every case as a pytest item (:mod:`ck_tile_nox.plugin`, whose options
  are pytest options: ``--racecheck`` runs the binaries with the emulator's race detection,
  CK_TILE_EMU_RACECHECK=1; JUnit in ``<build root>/reports/junit.xml`` unless ``--no-junit`` or
  ``--junitxml=...``), one pytest-xdist worker per core (``-n 0``: one process);
  e.g. ``nox -s test -- -k gemm --shard 1/2``.
- ``build [pytest args]``: the same selection, built and not run (``--build-only``).
- ``bench [pytest args]``: the ``bench = true`` cases under pytest-benchmark, ``--rounds N``,
  JSON in ``<build root>/reports/bench.json``, ``--compare OLD.json``;
  ``bench --no-run --compare OLD.json [NEW.json]`` only compares two files;
  ``bench --backend emulator,hip``: one run per backend (``bench-<backend>.json``), then the
  second beside the first (without a GPU ``hip`` is hip-cpu: the same cases on both CPU engines).
- ``tests [--python-only] [--archs A,B] [--pytest ARGS...]``: the project's own tests (pytest on
  python/tests, then the C++ tests through ctest on the emulator for each arch, its JUnit report in
  ``<build root>/reports/ctest-<arch>.xml``; those that do not depend on the emulated arch only in
  the first arch's build dir).
- ``device-check [--archs A,B] [--targets GLOB]``: see :mod:`ck_tile_nox.device_check`.
- ``profile <target> [args...] [--archs A] [--backend hip]``: build one binary for the emulator
  (or hip-cpu) and run it under its profile (CK_TILE_EMU_PROFILE=1); see
  :mod:`ck_tile_nox.profile`.
- ``schema``: the JSON schema of ``cases.toml`` (:func:`ck_tile_nox.cases.json_schema`), as
  ``python/ck_tile_nox/cases.schema.json`` holds it.

Options a command has no use for are ignored, so one ``nox -s a b -- <args>`` suits all.
Exit status: pytest's (0 ok, 1 failures, 2 interrupted or bad cases files, 4 usage, 5 nothing
collected), 2 for a missing tool; ``profile``: the binary's.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

import pytest

from ck_tile_nox import build, device_check, profile
from ck_tile_nox.archs import ARCH_NAMES
from ck_tile_nox.bench import compare_files
from ck_tile_nox.cases import SEARCH_DIRS, schema_text
from ck_tile_nox.matrix import RUNTIME_TARGETS, BuildDir, runtime_dir

PLUGIN = ["-p", "ck_tile_nox.plugin"]


def _known(argv: list[str], *options: str) -> argparse.Namespace:
    """The given ``--options`` (with a value each) out of ``argv``; the rest is ignored."""
    p = argparse.ArgumentParser(add_help=False)
    for opt in options:
        p.add_argument(opt, action="append" if opt == "--targets" else "store")
    p.add_argument("--build-root", type=Path, default=Path("build"))
    return p.parse_known_args(argv)[0]


def _paths(argv: list[str]) -> list[str]:
    """The case folders unless the arguments name paths themselves."""
    named = [a for a in argv if a.startswith(SEARCH_DIRS) and Path(a.split("::")[0]).exists()]
    return [] if named else [d for d in SEARCH_DIRS if Path(d).is_dir()]


def _pytest(argv: list[str], *extra: str) -> int:
    return int(pytest.main([*PLUGIN, *extra, *_paths(argv), *argv]))


def _backends(argv: list[str]) -> tuple[list[str], list[str]]:
    """The ``--backend`` values (``a,b`` allowed) and ``argv`` without that option."""
    backends, rest, it = [], [], iter(argv)
    for a in it:
        if a == "--backend":
            backends += next(it, "").split(",")
        elif a.startswith("--backend="):
            backends += a.split("=", 1)[1].split(",")
        else:
            rest.append(a)
    return [b.strip() for b in backends if b.strip()], rest


def _bench_run(argv: list[str], json_path: Path, root: Path) -> int:
    return _pytest(
        argv,
        "--benchmark-only",
        f"--benchmark-json={json_path}",
        f"--benchmark-storage=file://{(root / 'reports' / 'benchmarks').resolve()}",
        "--benchmark-autosave",
        "--benchmark-columns=median,min,max,rounds",
    )


def bench(argv: list[str]) -> int:
    root = _known(argv).build_root
    backends, rest = _backends(argv)
    if len(backends) > 1 and "--no-run" not in argv:
        # the same bench cases on each backend, then the others beside the first
        jsons, status = [], 0
        for b in backends:
            jsons.append(root / "reports" / f"bench-{b}.json")
            status = max(status, _bench_run([*rest, "--backend", b], jsons[-1], root))
        for other in jsons[1:]:
            if jsons[0].is_file() and other.is_file():
                compare_files(jsons[0], other)
        return status
    if "--no-run" in argv:
        rest = [a for a in argv if a != "--no-run"]
        opts = argparse.ArgumentParser(prog="bench --no-run")
        opts.add_argument("--compare", type=Path, required=True)
        opts.add_argument("new", type=Path, nargs="?", default=root / "reports" / "bench.json")
        args = opts.parse_known_args(rest)[0]
        return compare_files(args.compare, args.new)
    return _bench_run(argv, root / "reports" / "bench.json", root)


def tests(argv: list[str]) -> int:
    cut = argv.index("--pytest") if "--pytest" in argv else len(argv)
    own, pytest_args = argv[:cut], argv[cut + 1 :]
    rc = subprocess.run(
        [sys.executable, "-m", "pytest", "python/tests", *pytest_args], check=False
    ).returncode
    if "--python-only" in own:
        return rc
    opts = _known(own, "--archs", "--jobs")
    try:
        tools = build.require("ctest")
        cxx = build.require("clang++-22|clang++")
    except build.ToolError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    ok = rc == 0
    compiler, jobs = next(iter(cxx.values())), int(opts.jobs or 2)
    # test_ck_tile_hip_cpu links hip-cpu's libraries from the dir the hip builds link them from
    # (built once for both); where they do not build (no libLLVM-22), it says why it is skipped
    rt = runtime_dir(opts.build_root.resolve())
    built = build.build(Path.cwd(), rt, RUNTIME_TARGETS, compiler=compiler, jobs=jobs).ok()
    runtime: BuildDir | None = rt if built else None
    if not built:
        print(f"note: hip-cpu's libraries did not build (log: {rt.path / build.LOG})")
    for n, arch in enumerate(opts.archs.split(",") if opts.archs else ARCH_NAMES):
        # the tests that do not depend on the emulated arch: in the first arch's dir only
        neutral = "ON" if n == 0 else "OFF"
        bdir = BuildDir((opts.build_root / f"tests-{arch}").resolve(), "emulator", arch,
                        runtime_from=runtime if n == 0 else None)  # fmt: skip
        res = build.build(
            Path.cwd(),
            bdir,
            ["tests"],
            compiler=compiler,
            jobs=jobs,
            extra=["-DCK_TILE_BUILD_TESTS=ON", f"-DCK_TILE_TESTS_ARCH_NEUTRAL={neutral}"],
        )
        if not res.ok():
            print(f"FAILED building the tests for {arch} (log: {bdir.path / build.LOG})")
            print(res.tail)
            ok = False
            continue
        junit = (opts.build_root / "reports" / f"ctest-{arch}.xml").resolve()  # ctest's own report
        junit.parent.mkdir(parents=True, exist_ok=True)
        ctest = [tools["ctest"], "--test-dir", str(bdir.path), "--output-on-failure", "-j2",
                 "--output-junit", str(junit)]  # fmt: skip
        ok &= subprocess.run(ctest, check=False).returncode == 0
    return 0 if ok else 1


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    commands = ("build", "test", "bench", "tests", "device-check", "profile", "schema")
    if not argv or argv[0] not in commands:
        print(__doc__)
        return 2
    command, rest = argv[0], argv[1:]
    if command == "schema":
        sys.stdout.write(schema_text())
        return 0
    if command == "test":  # bench cases run once, as plain cases; on every core (xdist)
        return _pytest(rest, "--benchmark-disable", "--numprocesses=auto")
    if command == "build":
        # no tests run: the builds' progress lines go straight to the terminal
        return _pytest(rest, "--build-only", "--benchmark-disable", "--capture=no")
    if command == "bench":
        return bench(rest)
    if command == "tests":
        return tests(rest)
    if command == "profile":
        return profile.main(rest)
    opts = _known(rest, "--archs", "--targets", "--jobs")
    return device_check.main(opts)
