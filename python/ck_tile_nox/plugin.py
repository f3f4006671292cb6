"""The pytest plugin (``-p ck_tile_nox.plugin``): every case of every ``cases.toml`` is an item.

One item per (build dir, target, case), with the node id
``<folder>/cases.toml::<target>::<case>[<arch>[-<axis>_<value>]]``, so ``-k``, ``--lf``, ``-x``,
``--junitxml`` and ``--durations`` work as usual. A build dir is configured and built by the
session fixture ``ck_builder`` when the first item that needs it runs, with only the targets the
selected items need. ``--shard I/N`` is a collection hook (the rule: :mod:`ck_tile_nox.matrix`).
Bench cases take pytest-benchmark's ``benchmark`` fixture (see :mod:`ck_tile_nox.bench`).
``--build-only`` builds what the selected items need and runs nothing (``nox -s build``).

Cases run in parallel under pytest-xdist (``-n auto``, which ``nox -s test`` passes): each
worker builds a build dir on first use as above, under a lock on the dir
(:mod:`ck_tile_nox.build`), so the first worker builds it and the others find it up to date.
Building (``--build-only``) and benchmarking stay in one process: they turn the distribution off.
"""

from __future__ import annotations

import os
import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from ck_tile_nox import bench, build, cases, discovery, reference
from ck_tile_nox.matrix import BuildDir, entries, globs, matches, parse_shard, shard
from ck_tile_nox.run import check, run

_CTX = pytest.StashKey["Context"]()


@dataclass
class Work:
    target: cases.Target
    case: cases.Case
    bdir: BuildDir


@dataclass
class Context:
    opts: Any
    repo: Path
    root: Path
    platform: discovery.Platform
    instances: str
    needed: dict[BuildDir, list[str]]
    built: dict[BuildDir, build.Result]
    references: reference.References
    shard_emptied: bool = False
    builds_failed: int = 0  # --build-only: build dirs that did not build
    bench_infos: list[dict[str, Any]] = field(default_factory=list)  # the bench cases' extra_info


def pytest_addoption(parser: pytest.Parser) -> None:
    g = parser.getgroup("ck_tile", "CK Tile cases")
    g.addoption("--backend", choices=discovery.BACKENDS, help="else $CK_TILE_BACKEND, detection")
    g.addoption("--archs", help="comma list; else $CK_TILE_ARCHS, else detection")
    g.addoption("--targets", action="append", metavar="GLOB", help="name globs (!GLOB: all but)")
    g.addoption("--cases", action="append", metavar="GLOB", help="case (or target/case) globs")
    g.addoption("--jobs", type=int, default=os.cpu_count() or 2, help="parallel build jobs")
    g.addoption("--build-root", type=Path, help="build dirs (default: <repo>/build)")
    g.addoption("--cxx-flags", default=os.environ.get("CXXFLAGS", ""), help="CMAKE_CXX_FLAGS")
    g.addoption("--cmake-arg", action="append", default=[], metavar="ARG")
    g.addoption("--instances", choices=build.PROFILES, help="else $CK_TILE_INSTANCES, else ci")
    g.addoption("--shard", type=parse_shard, metavar="I/N", help="run shard I of N")
    g.addoption("--build-only", action="store_true", help="build what is selected, run nothing")
    g.addoption("--rounds", type=int, default=3, help="bench rounds (kernel figures: median)")
    g.addoption("--compare", type=Path, metavar="OLD.json", help="bench: compare with a run")
    g.addoption("--racecheck", action="store_true", help="emulator: CK_TILE_EMU_RACECHECK=1")
    g.addoption("--no-junit", action="store_true", help="no <build root>/reports/junit.xml")


@pytest.hookimpl(tryfirst=True)  # before junitxml's: the default report path
def pytest_configure(config: pytest.Config) -> None:
    o = config.option
    if o.build_only or config.getoption("benchmark_only", False):
        # one process: a build needs every selected item, a bench a machine of its own
        o.dist, o.numprocesses, o.tx = "no", 0, []
    try:
        plat = discovery.discover(backend=o.backend, archs=o.archs, log=lambda _: None)
    except discovery.DiscoveryError as exc:
        raise pytest.UsageError(str(exc)) from None
    instances = o.instances or os.environ.get("CK_TILE_INSTANCES") or "ci"
    if instances not in build.PROFILES:
        raise pytest.UsageError(f"CK_TILE_INSTANCES must be ci or full, not {instances!r}")
    repo = config.rootpath
    root = (o.build_root or repo / "build").resolve()
    if not (o.xmlpath or o.no_junit or o.build_only or o.collectonly):
        o.xmlpath = str(root / "reports" / "junit.xml")
    host = discovery.find_compiler("emulator")  # the host compiler, for the bench reference
    refs = reference.References(host.path if host else None, root / "reports")
    config.stash[_CTX] = Context(o, repo, root, plat, instances, {}, {}, refs)


def pytest_report_header(config: pytest.Config) -> list[str]:
    ctx = config.stash[_CTX]
    cxx = discovery.find_compiler(ctx.platform.backend, runtime=ctx.platform.runtime)
    return [
        f"ck_tile: {ctx.platform.name} {', '.join(ctx.platform.archs)} ({ctx.platform.reason})",
        f"ck_tile: compiler {cxx.path if cxx else 'not found'}; ccache "
        f"{shutil.which('ccache') or 'not found'}; instances {ctx.instances}; build {ctx.root}",
    ]


class CaseItem(pytest.Function):
    work: Work

    def reportinfo(self) -> tuple[Path, int, str]:  # the cases file, not the plugin's code
        return self.path, 0, self.nodeid


class TargetNode(pytest.Collector):
    def __init__(self, *, target: cases.Target, **kw: Any) -> None:
        super().__init__(**kw)
        self.target = target

    def collect(self) -> list[pytest.Item]:
        ctx, t = self.config.stash[_CTX], self.target
        wanted = globs(ctx.opts.cases)
        items: list[pytest.Item] = []
        plat = ctx.platform
        for bdir in entries(t, plat.archs, plat.backend, ctx.root, ctx.instances, plat.runtime):
            for case in t.cases:
                if not case.applies_to(bdir.arch, dict(bdir.axes)):
                    continue
                if wanted and not (
                    matches(case.name, wanted) or matches(f"{t.name}/{case.name}", wanted)
                ):
                    continue
                fn = _run_bench if case.bench else _run_case
                item = CaseItem.from_parent(self, name=f"{case.name}[{bdir.label}]", callobj=fn)
                item.work = Work(t, case, bdir)
                item.keywords[bdir.arch] = True
                if case.instances == "full" and ctx.instances != "full":
                    item.add_marker(pytest.mark.skip(reason="needs CK_TILE_INSTANCES=full"))
                items.append(item)
        return items


class CasesFile(pytest.File):
    def collect(self) -> list[TargetNode]:
        ctx = self.config.stash[_CTX]
        shown = str(self.path.relative_to(ctx.repo)) if self.path.is_relative_to(ctx.repo) else None
        targets = cases.parse_cases_file(self.path, shown)
        wanted = globs(ctx.opts.targets)
        return [
            TargetNode.from_parent(self, name=t.name, target=t)
            for t in targets
            if matches(t.name, wanted)
        ]

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> Any:
        if isinstance(excinfo.value, cases.CasesError):
            return str(excinfo.value)
        return super().repr_failure(excinfo)


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> CasesFile | None:
    return CasesFile.from_parent(parent, path=file_path) if file_path.name == "cases.toml" else None


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """After -k/-m: keep this shard's items; note which build dirs and targets they need."""
    ctx = config.stash[_CTX]
    if config.getoption("benchmark_only", False):  # nox -s bench: only the bench cases
        others = [i for i in items if isinstance(i, CaseItem) and not i.work.case.bench]
        config.hook.pytest_deselected(items=others)
        items[:] = [i for i in items if i not in others]
    mine = [i for i in items if isinstance(i, CaseItem)]
    if ctx.opts.shard and mine:
        keep = shard(
            [((i.work.bdir.name, i.work.target.name), i.nodeid) for i in mine], *ctx.opts.shard
        )
        config.hook.pytest_deselected(items=[i for i in mine if i.nodeid not in keep])
        items[:] = [i for i in items if not isinstance(i, CaseItem) or i.nodeid in keep]
        ctx.shard_emptied = not items
    for item in items:
        if isinstance(item, CaseItem) and not item.get_closest_marker("skip"):
            needed = ctx.needed.setdefault(item.work.bdir, [])
            if item.work.target.name not in needed:
                needed.append(item.work.target.name)


def _build(ctx: Context, bdir: BuildDir) -> build.Result:
    compiler = discovery.find_compiler(ctx.platform.backend, runtime=ctx.platform.runtime)
    if compiler is None:
        names = " or ".join(
            discovery.compiler_candidates(ctx.platform.backend, runtime=ctx.platform.runtime)
        )
        raise build.ToolError(f"no compiler ({names}); to install it: {build.INSTALL}")
    start = time.monotonic()
    res = build.build(
        ctx.repo,
        bdir,
        ctx.needed[bdir],
        compiler=compiler.path,
        jobs=ctx.opts.jobs,
        cxx_flags=ctx.opts.cxx_flags,
        extra=ctx.opts.cmake_arg,
    )
    times = ", ".join(f"{t} {s:.1f} s" for t, s in sorted(res.times.items()))
    state = "built" if res.ok() else f"FAILED ({', '.join(res.failed)})"
    took = f"{time.monotonic() - start:.1f} s"
    build.console.print(f"{state} {bdir.name} in {took} [{times or 'up to date'}]", markup=False)
    return res


@pytest.fixture(scope="session")
def ck_builder(request: pytest.FixtureRequest) -> dict[BuildDir, build.Result]:
    """The build results so far; :func:`ck_binary` adds a build dir on first use."""
    return request.config.stash[_CTX].built


@pytest.fixture
def ck_binary(
    request: pytest.FixtureRequest,
    ck_builder: dict[BuildDir, build.Result],
    capsys: pytest.CaptureFixture[str],
) -> Path:
    ctx, work = request.config.stash[_CTX], request.node.work
    if work.bdir not in ck_builder:
        try:
            with capsys.disabled():  # the build's progress line, where the runner shows it
                ck_builder[work.bdir] = _build(ctx, work.bdir)
        except build.ToolError as exc:
            pytest.exit(str(exc), returncode=2)
    res = ck_builder[work.bdir]
    if not res.ok(work.target.name):
        log = res.path / build.LOG
        pytest.fail(f"not built: {res.failed[work.target.name]} (log: {log})\n{res.tail}", False)
    return work.bdir.path / "bin" / work.target.name


def _execute(request: pytest.FixtureRequest, binary: Path) -> Any:
    work: Work = request.node.work
    cmd = [str(binary), *work.case.args_for(request.config.stash[_CTX].platform.emulated)]
    env = dict(work.case.env)
    if request.config.option.racecheck:  # the emulator's race detection in every binary
        env["CK_TILE_EMU_RACECHECK"] = "1"
    if work.bdir.runtime == "cpu":  # which arch's code object hip-cpu runs
        env["CK_TILE_HIP_CPU_ARCH"] = work.bdir.arch
    return lambda: run(cmd, work.case.timeout, cwd=work.bdir.path, env=env)


def _run_case(request: pytest.FixtureRequest, ck_binary: Path) -> None:
    out = _execute(request, ck_binary)()
    if reasons := check(request.node.work.case, out):
        pytest.fail(f"{'; '.join(reasons)}\n$ {' '.join(out.command)}\n{out.tail(40)}", False)


def _run_bench(request: pytest.FixtureRequest, ck_binary: Path, benchmark: Any) -> None:
    ctx, work = request.config.stash[_CTX], request.node.work
    plat = ctx.platform
    info = dict(target=work.target.name, case=work.case.name, arch=work.bdir.arch,
                matrix=dict(work.bdir.axes), backend=plat.name, emulated=plat.emulated,
                args=list(work.case.args_for(plat.emulated)))  # fmt: skip
    bench.measure(benchmark, work.case, _execute(request, ck_binary), ctx.opts.rounds, info)
    ctx.references.annotate(benchmark, work.case.bench_reference)
    ctx.bench_infos.append(benchmark.extra_info)


@pytest.hookimpl(tryfirst=True)
def pytest_runtestloop(session: pytest.Session) -> bool | None:
    """``--build-only``: build every needed build dir, run nothing."""
    ctx = session.config.stash[_CTX]
    if not ctx.opts.build_only or session.config.option.collectonly:
        return None
    try:
        for bdir in ctx.needed:
            ctx.built[bdir] = _build(ctx, bdir)
    except build.ToolError as exc:
        raise pytest.UsageError(str(exc)) from None
    failed = [r for r in ctx.built.values() if not r.ok()]
    for res in failed:
        build.console.print(f"[bold red]FAILED {res.path} (log: {res.path / build.LOG})")
        build.console.print(res.tail, markup=False)
    ctx.builds_failed = len(failed)  # the exit status: pytest_sessionfinish
    return True


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    ctx = session.config.stash[_CTX]
    if hasattr(session.config, "workeroutput"):  # an xdist worker tells the controller
        session.config.workeroutput["ck_tile_shard_emptied"] = ctx.shard_emptied
    if ctx.shard_emptied and exitstatus == pytest.ExitCode.NO_TESTS_COLLECTED:
        session.exitstatus = pytest.ExitCode.OK  # a shard with nothing to do is not a failure
    if ctx.builds_failed:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: Any) -> None:
    """xdist's controller: a worker's shard was emptied (every worker selects the same)."""
    output = getattr(node, "workeroutput", {})
    node.config.stash[_CTX].shard_emptied |= bool(output.get("ck_tile_shard_emptied"))


@pytest.hookimpl(optionalhook=True)
def pytest_benchmark_update_machine_info(config: pytest.Config, machine_info: dict) -> None:
    machine_info.pop("node", None)  # the host name stays out of the reports


@pytest.hookimpl(optionalhook=True)
def pytest_benchmark_update_json(config: pytest.Config, benchmarks: list, output_json: dict):
    ctx = config.stash[_CTX]
    plat = ctx.platform
    emulated, note = plat.emulated, bench.EMULATOR_NOTE if plat.emulated else ""
    output_json["ck_tile"] = dict(backend=plat.name, archs=plat.archs, emulated=emulated,
                                  rounds=ctx.opts.rounds, note=note)  # fmt: skip


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    """The build times, and for bench runs the kernel figures (and the comparison)."""
    ctx = config.stash[_CTX]
    if ctx.shard_emptied:
        terminalreporter.write_line(f"shard {ctx.opts.shard}: nothing to do here")
    infos = ctx.bench_infos  # empty unless bench cases ran (pytest-benchmark on, one process)
    if not infos or config.getoption("benchmark_disable", False):
        return
    note = f"  [{bench.EMULATOR_NOTE}]" if ctx.platform.emulated else ""
    title = f"kernel figures, median of {ctx.opts.rounds} round(s){note}"
    bench.table(title, bench.BENCH_COLUMNS, bench.bench_rows(infos))
    if ctx.opts.compare:
        try:
            old = bench.load(ctx.opts.compare)
        except ValueError as exc:
            terminalreporter.write_line(str(exc), red=True)
            return
        rows = bench.compare_rows(old, [{"extra_info": i} for i in infos])
        bench.table(f"compare with {ctx.opts.compare.name}", bench.COMPARE_COLUMNS, rows)
