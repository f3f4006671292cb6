"""The commands behind the nox sessions: build, test, bench, tests, device-check, lint.

Each takes the parsed options (see :mod:`ck_tile_nox.cli`) and a :class:`~ck_tile_nox.console.UI`
and returns the exit status: 0 success, 1 failures, 2 bad input (cases files, options, tools).
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ck_tile_nox import bench as bench_mod
from ck_tile_nox import cmake, discovery, expect, tools
from ck_tile_nox import device_check as dc
from ck_tile_nox import lint as lint_mod
from ck_tile_nox.cases import CasesError, Target, load_targets
from ck_tile_nox.console import UI
from ck_tile_nox.matrix import BuildDir, Plan, Run, expand, matches, shard_plan
from ck_tile_nox.report import (
    CaseResult,
    counts_line,
    print_summary,
    write_json,
    write_junit,
)
from ck_tile_nox.runner import run_command

Say = Callable[[str, str | None], None]
DEVICE_ARCHS = ("gfx942", "gfx950")
TESTS_ARCHS = ("gfx942", "gfx950")


@dataclass
class Setup:
    platform: discovery.Platform
    compiler: discovery.Compiler
    cmake: str
    ninja: str
    plan: Plan
    shard: str = ""  # "I/N" when this is one shard of the plan

    def empty_shard(self, ui: UI) -> bool:
        """Whether this shard has nothing to do although the whole plan has (said, not an error)."""
        if self.shard and not self.plan.build_dirs:
            ui.line(f"shard {self.shard}: nothing to do here (fewer cases than shards)")
            return True
        return False


def _first_line(cmd: list[str]) -> str:
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, check=False, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return "?"
    lines = (out.stdout or out.stderr).strip().splitlines()
    return lines[0] if lines else "?"


def _load(opts: argparse.Namespace, ui: UI) -> list[Target] | None:
    try:
        return load_targets(opts.repo)
    except CasesError as exc:
        ui.error(f"{len(exc.errors)} problem(s) in the cases files:")
        for err in exc.errors:
            ui.line(f"  {err}")
        return None


def _ensure(
    ui: UI, opts: argparse.Namespace, reqs: list[tools.Requirement]
) -> dict[str, str] | None:
    try:
        return tools.ensure(reqs, repo=opts.repo, log=ui.line)
    except tools.ToolError as exc:
        for line in str(exc).splitlines():
            ui.error(line)
        return None


def _setup(
    opts: argparse.Namespace,
    ui: UI,
    select: Callable[[list[Target]], list[Target]] | None = None,
) -> Setup | int:
    """Discover platform and cases, check tools, plan; an int is an exit status.

    ``select`` narrows the targets (and their cases) before the plan is made."""
    try:
        plat = discovery.discover(backend=opts.backend, archs=opts.archs, log=ui.line)
    except discovery.DiscoveryError as exc:
        ui.error(str(exc))
        return 2
    targets = _load(opts, ui)
    if targets is None:
        return 2
    if select is not None:
        targets = select(targets)
    plan = expand(
        targets,
        backend=plat.backend,
        archs=plat.archs,
        build_root=opts.build_root,
        target_globs=opts.targets,
        case_globs=opts.cases,
    )
    full = plan
    shard = ""
    if getattr(opts, "shard", None) and plan.build_dirs:
        index, count = opts.shard
        plan = shard_plan(plan, index, count)
        shard = f"{index}/{count}"
    candidates = discovery.compiler_candidates(plat.backend)
    found = _ensure(
        ui, opts, [tools.CMAKE, tools.NINJA, tools.compiler_requirement(plat.backend, candidates)]
    )
    if found is None:
        return 2
    compiler = discovery.find_compiler(plat.backend)
    if compiler is None:  # the check above found one, so this only happens on a race
        ui.error("no compiler found")
        return 2
    ccache = shutil.which("ccache")
    ui.heading("ck_tile_nox")
    ui.line(f"backend   {plat.backend} ({plat.reason})")
    ui.line(f"archs     {', '.join(plat.archs)}")
    ui.line(f"compiler  {compiler.path} [{compiler.kind}] {compiler.version}")
    ui.line(f"cmake     {_first_line([found['cmake'], '--version'])}")
    ui.line(f"ninja     {_first_line([found['ninja'], '--version'])}")
    ui.line(f"ccache    {ccache or 'not found (apt-get install -y ccache speeds up rebuilds)'}")
    ui.line(f"build     {opts.build_root}  (-j {opts.jobs})")
    ui.line(
        f"plan      {len(plan.targets)} target(s), {len(plan.build_dirs)} build dir(s), "
        f"{len(plan.runs)} run(s)"
    )
    if shard:
        units = sum(len(d.targets) for d in plan.build_dirs)
        all_units = sum(len(d.targets) for d in full.build_dirs)
        ui.line(
            f"shard     {shard}: {len(plan.runs)} of {len(full.runs)} run(s), "
            f"{units} of {all_units} target build(s)"
        )
    return Setup(plat, compiler, found["cmake"], found["ninja"], plan, shard)


def _build_all(opts: argparse.Namespace, ui: UI, setup: Setup) -> dict[Path, cmake.BuildResult]:
    results: dict[Path, cmake.BuildResult] = {}
    dirs = setup.plan.build_dirs
    with ui.progress() as progress:
        overall = progress.add("build dirs", total=len(dirs))
        for bdir in dirs:
            if progress.plain:  # no live bar: say what starts
                progress.log(f"building {bdir.name}: {', '.join(bdir.targets)}")
            step = progress.add(f"{bdir.name}", total=None)

            def on_step(done: int, total: int, step: object = step) -> None:
                progress.update(step, completed=done, total=total)  # type: ignore[arg-type]

            args = cmake.configure_args(
                opts.repo,
                bdir,
                compiler=setup.compiler.path,
                cxx_flags=opts.cxx_flags,
                extra=opts.cmake_arg,
            )
            res = cmake.configure_and_build(
                cmake=setup.cmake,
                ninja=setup.ninja,
                path=bdir.path,
                args=args,
                targets=bdir.targets,
                jobs=opts.jobs,
                on_step=on_step,
            )
            progress.remove(step)
            progress.advance(overall)
            results[bdir.path] = res
            _report_build(progress.log, bdir, res, opts.repo)
    return results


def _rel(path: Path, base: Path) -> str:
    try:
        return str(path.relative_to(base))
    except ValueError:
        return str(path)


def _report_build(say: Say, bdir: BuildDir, res: cmake.BuildResult, repo: Path) -> None:
    n = len(bdir.targets)
    if res.ok:
        cfg = "" if res.skipped_configure else ", configured"
        say(f"ok    {bdir.name}: {n} target(s) in {res.seconds:.1f} s{cfg}", "green")
        return
    if not res.configured:
        what = "configure failed"
    else:
        what = "; ".join(f"{t}: {why}" for t, why in res.failed.items())
        what = f"{len(res.failed)} of {n} target(s) failed ({what})"
    logpath = _rel(res.log, repo) if res.log else "?"
    say(f"FAIL  {bdir.name}: {what} in {res.seconds:.1f} s; log: {logpath}", "bold red")
    for line in res.tail.splitlines():
        say(f"      {line}", "red")


# ---- build ----------------------------------------------------------------------------------


def build(opts: argparse.Namespace, ui: UI) -> int:
    setup = _setup(opts, ui)
    if isinstance(setup, int):
        return setup
    if setup.empty_shard(ui):
        return 0
    if not setup.plan.build_dirs:
        ui.error("nothing to build: no cases.toml found, or none matched --targets/--cases")
        return 1
    results = _build_all(opts, ui, setup)
    failed = [r for r in results.values() if not r.ok]
    total_targets = sum(len(r.targets) for r in results.values())
    bad_targets = sum(len(r.failed) for r in results.values())
    ui.line(
        f"build: {len(results) - len(failed)} of {len(results)} build dir(s) ok, "
        f"{total_targets - bad_targets} of {total_targets} target build(s) ok"
    )
    return 1 if failed else 0


# ---- test -----------------------------------------------------------------------------------


def _run_one(run: Run, backend: str, res: cmake.BuildResult | None) -> CaseResult:
    base = CaseResult(
        backend=backend,
        target=run.target.name,
        case=run.case.name,
        arch=run.entry.arch,
        axes=run.entry.axes_dict,
    )
    if res is None or not res.target_ok(run.target.name):
        why = "not built" if res is None else res.failed.get(run.target.name, "build failed")
        base.kind, base.reason = "build", f"not built: {why}"
        base.tail = res.tail if res else ""
        return base
    binary = run.binary
    cmd = [str(binary), *run.case.args_for(backend)]
    base.command = cmd
    if not binary.is_file():
        base.kind, base.reason = "error", f"no binary at {_rel(binary, run.build_dir.path)}"
        return base
    out = run_command(cmd, timeout=run.case.timeout, cwd=run.build_dir.path)
    reasons = expect.check(run.case, out)
    base.seconds = out.seconds
    base.returncode = out.returncode
    base.passed = not reasons
    base.kind = "pass" if base.passed else ("timeout" if out.timed_out else "fail")
    base.reason = "; ".join(reasons)
    base.tail = out.tail(40)
    return base


def test(opts: argparse.Namespace, ui: UI) -> int:
    setup = _setup(opts, ui)
    if isinstance(setup, int):
        return setup
    if setup.empty_shard(ui):
        return 0
    plan = setup.plan
    builds = _build_all(opts, ui, setup) if plan.build_dirs else {}
    backend = setup.platform.backend
    results: list[CaseResult] = []
    ui.heading(f"running {len(plan.runs)} case(s)")
    with ui.progress() as progress:
        task = progress.add("cases", total=len(plan.runs))
        for run in plan.runs:
            progress.update(task, description=run.id)
            r = _run_one(run, backend, builds.get(run.build_dir.path))
            results.append(r)
            progress.advance(task)
            mark = "PASS" if r.passed else r.kind.upper()
            line = f"{mark:<7} {run.id}  {r.seconds:.2f} s"
            progress.log(line + (f"  {r.reason}" if r.reason else ""), None if r.passed else "red")
    if results:
        print_summary(ui, results, title=f"{backend}: {', '.join(setup.platform.archs)}")
    for r in results:
        if not r.passed and r.kind != "build" and r.tail:
            ui.line(f"--- {r.target}/{r.name}: {r.reason}", "bold red")
            for line in r.tail.splitlines()[-15:]:
                ui.line(f"    {line}")
    reports = opts.build_root / "reports"
    write_junit(results, reports / "junit.xml")
    write_json(
        results,
        reports / "results.json",
        {
            "backend": backend,
            "archs": list(setup.platform.archs),
            "platform_reason": setup.platform.reason,
            "compiler": setup.compiler.path,
            "compiler_version": setup.compiler.version,
            "shard": setup.shard or None,
            "time": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        },
    )
    ui.line(
        f"reports: {_rel(reports / 'junit.xml', opts.repo)}, "
        f"{_rel(reports / 'results.json', opts.repo)}"
    )
    if not results:
        ui.error("no case ran")
    print(counts_line(results), flush=True)
    return 0 if results and all(r.passed for r in results) else 1


# ---- bench ----------------------------------------------------------------------------------


def bench(opts: argparse.Namespace, ui: UI) -> int:
    """Build the bench cases' targets, run them through pytest-benchmark, print the table."""
    json_path = (opts.json or opts.build_root / "reports" / "bench.json").resolve()
    compare = opts.compare.resolve() if opts.compare else None
    if compare is not None and not compare.is_file():
        ui.error(f"--compare: no file at {compare}")
        return 2
    if opts.no_run:
        if compare is None:
            ui.error("--no-run needs --compare OLD.json (compared with --json, the last run)")
            return 2
        return bench_mod.compare_files(ui, compare, json_path)
    setup = _setup(opts, ui, select=bench_mod.bench_targets)
    if isinstance(setup, int):
        return setup
    if setup.empty_shard(ui):
        return 0
    plan = setup.plan
    if not plan.runs:
        ui.error("no bench case: none has bench = true, or none matched --targets/--cases")
        return 1
    builds = _build_all(opts, ui, setup)
    backend = setup.platform.backend
    meta = bench_mod.run_meta(
        backend=backend,
        archs=setup.platform.archs,
        compiler=setup.compiler.path,
        compiler_version=setup.compiler.version,
        rounds=opts.rounds,
        repo=opts.repo,
        shard=setup.shard,
    )
    items = bench_mod.bench_items(plan.runs, backend, opts.build_root, builds)
    ui.heading(f"pytest-benchmark: {len(items)} benchmark(s), {opts.rounds} round(s) each")
    if meta["emulated"]:
        ui.line(f"note: {bench_mod.EMULATOR_NOTE}", "bold yellow")
    run = bench_mod.run_suite(
        items,
        meta,
        reports=opts.build_root / "reports",
        json_path=json_path,
        cwd=opts.repo,
        pytest_args=opts.pytest_args,
    )
    bench_mod.print_results(ui, run)
    saved = _rel(json_path, opts.repo) if json_path.is_file() else "nothing (no benchmark passed)"
    history = _rel(opts.build_root / "reports" / "benchmarks", opts.repo)
    ui.line(f"saved: {saved}; autosaved history: {history} (pytest-benchmark compare)")
    if compare is not None and json_path.is_file():
        bench_mod.compare_files(ui, compare, json_path)
    passed = sum(1 for r in run.rows if r.passed)
    print(f"{passed} passed, {len(run.rows) - passed} failed", flush=True)
    return 0 if run.ok else 1


# ---- tests (the project's own) -------------------------------------------------------------


def tests(opts: argparse.Namespace, ui: UI) -> int:
    ui.heading("pytest")
    cmd = [sys.executable, "-m", "pytest", "python/tests", *opts.pytest_args]
    py_ok = subprocess.run(cmd, cwd=opts.repo, check=False).returncode == 0
    if opts.python_only:
        return 0 if py_ok else 1
    try:
        archs = discovery.parse_archs(opts.archs) if opts.archs else TESTS_ARCHS
    except discovery.DiscoveryError as exc:
        ui.error(str(exc))
        return 2
    candidates = discovery.compiler_candidates("emulator")
    found = _ensure(
        ui,
        opts,
        [tools.CMAKE, tools.NINJA, tools.CTEST, tools.compiler_requirement("emulator", candidates)],
    )
    compiler = discovery.find_compiler("emulator")
    if found is None or compiler is None:
        return 2
    ok = py_ok
    for arch in archs:
        bdir = BuildDir(opts.build_root / f"tests-{arch}", "emulator", arch)
        ui.heading(f"C++ tests: emulator {arch} ({_rel(bdir.path, opts.repo)})")
        args = cmake.configure_args(
            opts.repo,
            bdir,
            compiler=compiler.path,
            cxx_flags=opts.cxx_flags,
            extra=["-DCK_TILE_BUILD_TESTS=ON", *opts.cmake_arg],
        )
        with ui.progress() as progress:
            step = progress.add(f"building tests for {arch}", total=None)
            res = cmake.configure_and_build(
                cmake=found["cmake"],
                ninja=found["ninja"],
                path=bdir.path,
                args=args,
                targets=["tests"],
                jobs=opts.jobs,
                on_step=lambda d, t, s=step: progress.update(s, completed=d, total=t),
            )
            progress.remove(step)
            _report_build(progress.log, bdir, res, opts.repo)
        if not res.ok:
            ok = False
            continue
        ctest = [found["ctest"], "--test-dir", str(bdir.path), "--output-on-failure", "-j2"]
        ok &= subprocess.run(ctest, cwd=opts.repo, check=False).returncode == 0
    return 0 if ok else 1


# ---- device check ---------------------------------------------------------------------------


def device_check(opts: argparse.Namespace, ui: UI) -> int:
    try:
        archs = discovery.parse_archs(opts.archs) if opts.archs else DEVICE_ARCHS
    except discovery.DiscoveryError as exc:
        ui.error(str(exc))
        return 2
    targets = _load(opts, ui)
    if targets is None:
        return 2
    found = _ensure(ui, opts, [tools.CMAKE, tools.NINJA, tools.DEVICE_CLANG])
    clang = discovery.find_device_clang()
    if found is None or clang is None:
        return 2
    major = discovery.Compiler(clang, "clang", discovery.compiler_version(clang)).major
    readelf = discovery.find_versioned_tool("llvm-readelf", major)
    objdump = discovery.find_versioned_tool("llvm-objdump", major)
    cxxfilt = discovery.find_versioned_tool("llvm-cxxfilt", major) or shutil.which("c++filt")
    if readelf is None:
        if _ensure(ui, opts, [tools.READELF]) is None:
            return 2
        readelf = discovery.find_versioned_tool("llvm-readelf", major)
        objdump = discovery.find_versioned_tool("llvm-objdump", major)
    if readelf is None:
        return 2
    ui.heading("device-code check")
    ui.line(f"compiler  {clang} ({discovery.compiler_version(clang)})")
    ui.line(f"tools     {readelf}, {objdump or 'no llvm-objdump'}, {cxxfilt or 'no demangler'}")

    path = opts.build_root / "device-check"
    args = [
        "-S", str(opts.repo), "-B", str(path), "-G", "Ninja",
        "-DCMAKE_BUILD_TYPE=Release",
        "-DCK_TILE_BACKEND=hip",
        "-DCK_TILE_DEVICE_CODE_ONLY=ON",
        f"-DGPU_TARGETS={';'.join(archs)}",
        f"-DCMAKE_CXX_COMPILER={clang}",
        *opts.cmake_arg,
    ]  # fmt: skip
    with ui.progress() as progress:
        step = progress.add("device_code_objects", total=None)
        res = cmake.configure_and_build(
            cmake=found["cmake"],
            ninja=found["ninja"],
            path=path,
            args=args,
            targets=["device_code_objects"],
            jobs=opts.jobs,
            on_step=lambda d, t: progress.update(step, completed=d, total=t),
        )
        progress.remove(step)
        bdir = BuildDir(path, "hip", ",".join(archs), targets=["device_code_objects"])
        _report_build(progress.log, bdir, res, opts.repo)
    if not res.ok:
        return 1
    return check_device_dir(
        ui,
        path / "device",
        targets=targets,
        archs=archs,
        target_globs=opts.targets,
        readelf=readelf,
        objdump=objdump,
        cxxfilt=cxxfilt,
        report=opts.build_root / "reports" / "device_check.json",
    )


def check_device_dir(
    ui: UI,
    device_dir: Path,
    *,
    targets: list[Target],
    archs: tuple[str, ...] | list[str],
    target_globs: list[str],
    readelf: str,
    objdump: str | None,
    cxxfilt: str | None,
    report: Path | None = None,
) -> int:
    """Check every code object in ``device_dir``; print the table; return the exit status."""
    by_name = {t.name: t for t in targets}
    objects = [
        (p, t, a) for p, t, a in dc.find_code_objects(device_dir)
        if a in archs and matches(t, target_globs)
    ]  # fmt: skip
    checked: list[dc.CodeObject] = []
    for path, tname, arch in objects:
        target = by_name.get(tname)
        required = target.instructions_for(arch) if target else ()
        checked.append(
            dc.inspect(path, tname, arch, readelf=readelf, objdump=objdump, required=required)
        )
    kernels = [k for co in checked for k in co.kernels]
    names = dc.demangle(sorted({k.name for k in kernels}), cxxfilt)
    for k in kernels:
        k.display = dc.shorten(names.get(k.name, k.name))
    rows, styles = [], []
    for k in kernels:
        status = "; ".join(k.problems) or "ok"
        rows.append(
            (
                k.target, k.arch, k.display, k.vgpr, "-" if k.agpr is None else k.agpr, k.sgpr,
                k.scratch, f"{k.vgpr_spill}/{k.sgpr_spill}", k.lds, status,
            )
        )  # fmt: skip
        styles.append("bold red" if k.problems else None)
    if rows:
        ui.table(
            "kernels",
            ("target", "arch", "kernel", "VGPRs", "AGPRs", "SGPRs", "scratch B", "spills v/s",
             "LDS B", "status"),
            rows,
            styles,
            right=("VGPRs", "AGPRs", "SGPRs", "scratch B", "spills v/s", "LDS B"),
        )  # fmt: skip
    problems = [f"{co.target} {co.arch}: {p}" for co in checked for p in co.problems]
    wanted = {
        t.name: [a for a in archs if t.valid_on(a) and t.instructions_for(a)]
        for t in targets
        if matches(t.name, target_globs)
    }
    present = [(co.target, co.arch) for co in checked]
    problems += [
        f"{t} {a}: no code object (it has required instructions)"
        for t, a in dc.missing_code_objects(present, wanted)
    ]
    for p in problems:
        ui.line(f"FAIL  {p}", "bold red")
    bad_kernels = sum(1 for k in kernels if k.problems)
    failed_objects = sum(1 for co in checked if not co.ok)
    if not checked:
        problems.append(f"no code objects in {device_dir}")
        ui.error(problems[-1])
    if report is not None:
        report.parent.mkdir(parents=True, exist_ok=True)
        data = {
            "code_objects": [
                {
                    "path": str(co.path),
                    "target": co.target,
                    "arch": co.arch,
                    "problems": co.problems,
                    "kernels": [{**vars(k), "demangled": names[k.name]} for k in co.kernels],
                }
                for co in checked
            ],
            "problems": problems,
        }
        report.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    ui.line(
        f"device check: {len(kernels)} kernel(s) in {len(checked)} code object(s); "
        f"{bad_kernels} kernel(s) over budget, {failed_objects} code object(s) failed"
    )
    return 1 if problems or bad_kernels else 0


# ---- lint -----------------------------------------------------------------------------------


def lint(opts: argparse.Namespace, ui: UI) -> int:
    ui.heading("ruff")
    ok = lint_mod.run_ruff(opts.repo)
    ui.heading("clang-format")
    files = lint_mod.cpp_files(opts.repo)
    if not (opts.repo / ".clang-format").is_file():
        ui.line("skipped: the repository has no .clang-format yet")
    elif not files:
        ui.line("no C++ files")
    else:
        found = _ensure(ui, opts, [tools.CLANG_FORMAT])
        if found is None:
            return 2
        ui.line(f"{found['clang-format']}: {len(files)} file(s)")
        ok &= lint_mod.run_clang_format(opts.repo, found["clang-format"], files)
    ui.line("lint: ok" if ok else "lint: FAILED")
    return 0 if ok else 1
