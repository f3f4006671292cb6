"""Benchmarks: the cases declared with ``bench = true``, run through pytest-benchmark.

The ``bench`` command builds what the bench cases need, writes a manifest (one entry per target,
case and matrix entry) and runs pytest on :mod:`ck_tile_nox.bench_suite` with the plugin
:mod:`ck_tile_nox.bench_plugin` in a subprocess. Each benchmark is
``benchmark.pedantic(run, rounds=N, iterations=1)``: a round runs the binary once (the binary does
its own warm-up and repeats), checks the case's expectations and parses the kernel's own figures
from its ``Perf:`` line::

    Perf: 0.0421 ms, 99.6 GB/s                     (a copy kernel)
    Perf: 1.2e+01 ms, 0.0223 TFlops, 0.131 GB/s    (a GEMM)

pytest-benchmark times the whole process (start-up, host reference, verification), so its stats
are wall times; the figures that matter are the kernel's, stored per round and as the median in
each benchmark's ``extra_info``:

    target, case, arch, matrix, id, backend, emulated, note, binary, args, rounds,
    kernel_ms, kernel_tflops, kernel_gbs                 (one value per round; null when absent)
    kernel_ms_median, kernel_tflops_median, kernel_gbs_median,
    commit, commit_dirty, compiler, compiler_version, machine {cpu, cores, system, machine}

The JSON (``--benchmark-json``, default ``build/reports/bench.json``; also autosaved under
``build/reports/benchmarks/``) holds pytest-benchmark's layout plus a top-level ``ck_tile`` object:
backend, emulated, note, archs, rounds, commit, compiler, machine, and ``failures`` (id ->
reason). Failed benchmarks are not in ``benchmarks``. On the emulator the figures are CPU figures
of the emulator, not GPU performance; ``emulated`` and ``note`` say so.
"""

from __future__ import annotations

import json
import math
import os
import platform
import re
import statistics
import subprocess
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any, Protocol

from ck_tile_nox import expect
from ck_tile_nox.cases import Case, Target
from ck_tile_nox.console import UI
from ck_tile_nox.matrix import Run
from ck_tile_nox.runner import run_command

DEFAULT_ROUNDS = 3
EMULATOR_NOTE = "emulator: CPU figures of the emulator, not GPU performance"
FIGURES_NOTE = (
    "kernel_* are the binary's own 'Perf:' figures; pytest-benchmark's stats are the wall time "
    "of the whole process (start-up, host reference, verification)"
)
MANIFEST_OPTION = "--ck-bench-manifest"

# ---- the Perf line --------------------------------------------------------------------------

_NUM = r"[-+]?(?:(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?|inf(?:inity)?|nan)"
_PERF = re.compile(
    rf"Perf:\s*(?P<ms>{_NUM})\s*ms\b"
    rf"(?:\s*,\s*(?P<tflops>{_NUM})\s*TFlop(?:s|/s)\b)?"
    rf"(?:\s*,\s*(?P<gbs>{_NUM})\s*GB/s)?",
    re.IGNORECASE,
)


class PerfError(ValueError):
    """The output has no usable ``Perf:`` line."""


@dataclass(frozen=True)
class Perf:
    """The figures of one ``Perf:`` line; TFLOP/s and GB/s are None when the line has none."""

    ms: float
    tflops: float | None = None
    gbs: float | None = None


def parse_perf_lines(text: str) -> list[Perf]:
    """Every ``Perf: X ms[, Y TFlops][, Z GB/s]`` in ``text``, in order."""

    def num(value: str | None) -> float | None:
        return None if value is None else float(value)

    return [Perf(float(m["ms"]), num(m["tflops"]), num(m["gbs"])) for m in _PERF.finditer(text)]


def parse_perf(text: str) -> Perf:
    """The last ``Perf:`` line of ``text`` (a binary's final figures); PerfError if none."""
    found = parse_perf_lines(text)
    if found:
        return found[-1]
    odd = [line.strip() for line in text.splitlines() if "perf:" in line.lower()]
    if odd:
        raise PerfError(f"cannot read the Perf line {odd[-1][:80]!r} (expected 'Perf: X ms, ...')")
    raise PerfError("no 'Perf: X ms[, Y TFlops], Z GB/s' line in the output")


# ---- selection ------------------------------------------------------------------------------


def bench_targets(targets: Iterable[Target]) -> list[Target]:
    """The targets with at least one ``bench = true`` case, each keeping only those cases."""
    out = []
    for target in targets:
        cases = tuple(c for c in target.cases if c.bench)
        if cases:
            out.append(replace(target, cases=cases))
    return out


# ---- what a run records ---------------------------------------------------------------------


def machine_description(cpuinfo: Path = Path("/proc/cpuinfo")) -> dict[str, Any]:
    """CPU model, core count, OS and ISA; nothing that names the host."""
    cpu = ""
    try:
        for line in cpuinfo.read_text(errors="replace").splitlines():
            key, _, value = line.partition(":")
            if key.strip().lower() in ("model name", "cpu model", "hardware") and value.strip():
                cpu = value.strip()
                break
    except OSError:
        pass
    return {
        "cpu": cpu or platform.processor() or "unknown",
        "cores": os.cpu_count(),
        "system": platform.system(),
        "machine": platform.machine(),
    }


def git_commit(repo: Path) -> tuple[str | None, bool | None]:
    """``(commit, dirty)`` of the checkout at ``repo``; ``(None, None)`` outside git."""

    def git(*args: str) -> str | None:
        try:
            out = subprocess.run(
                ["git", "-C", str(repo), *args],
                capture_output=True,
                text=True,
                check=False,
                timeout=30,
            )
        except (OSError, subprocess.TimeoutExpired):
            return None
        return out.stdout if out.returncode == 0 else None

    commit = git("rev-parse", "HEAD")
    if not commit:
        return None, None
    status = git("status", "--porcelain", "--untracked-files=no")
    return commit.strip(), None if status is None else bool(status.strip())


def run_meta(
    *,
    backend: str,
    archs: Sequence[str],
    compiler: str,
    compiler_version: str,
    rounds: int,
    repo: Path,
    shard: str = "",
    machine: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """What every benchmark of this run shares (the JSON's top-level ``ck_tile`` object)."""
    commit, dirty = git_commit(repo)
    emulated = backend == "emulator"
    return {
        "backend": backend,
        "emulated": emulated,
        "note": EMULATOR_NOTE if emulated else "",
        "figures": FIGURES_NOTE,
        "archs": list(archs),
        "rounds": rounds,
        "commit": commit,
        "commit_dirty": dirty,
        "compiler": Path(compiler).name,
        "compiler_version": compiler_version,
        "machine": dict(machine) if machine is not None else machine_description(),
        "shard": shard or None,
    }


def case_to_dict(case: Case) -> dict[str, Any]:
    data = asdict(case)
    data["source"] = str(case.source)
    data["matrix"] = {k: list(v) for k, v in case.matrix.items()}
    return data


def case_from_dict(data: Mapping[str, Any]) -> Case:
    def tup(value: Any) -> Any:
        return None if value is None else tuple(value)

    return Case(
        name=data["name"],
        target=data["target"],
        source=Path(data["source"]),
        args=tuple(data["args"]),
        emulator_args=tup(data["emulator_args"]),
        expect=tuple(data["expect"]),
        expect_regex=tuple(data["expect_regex"]),
        reject=tuple(data["reject"]),
        returncode=data["returncode"],
        stderr_lines=data["stderr_lines"],
        timeout=float(data["timeout"]),
        archs=tup(data["archs"]),
        matrix={k: tuple(v) for k, v in data["matrix"].items()},
        bench=bool(data["bench"]),
    )


class _Built(Protocol):
    failed: dict[str, str]

    def target_ok(self, target: str) -> bool: ...


def bench_items(
    runs: Iterable[Run], backend: str, build_root: Path, builds: Mapping[Path, _Built | None]
) -> list[dict[str, Any]]:
    """One manifest entry per run; ``problem`` is set when its binary was not built."""
    items = []
    for run in runs:
        res = builds.get(run.build_dir.path)
        problem = None
        if res is None:
            problem = "not built"
        elif not res.target_ok(run.target.name):
            problem = f"not built: {res.failed.get(run.target.name, 'build failed')}"
        binary = run.binary
        try:
            shown = str(binary.relative_to(build_root))
        except ValueError:
            shown = binary.name
        items.append(
            {
                "id": run.id,
                "target": run.target.name,
                "case": run.case.name,
                "arch": run.entry.arch,
                "matrix": run.entry.axes_dict,
                "binary": str(binary),
                "binary_shown": shown,
                "args": list(run.case.args_for(backend)),
                "cwd": str(run.build_dir.path),
                "problem": problem,
                "spec": case_to_dict(run.case),
            }
        )
    return items


# ---- one benchmark (called inside pytest) ---------------------------------------------------


class BenchFailure(Exception):
    """A round failed its case's checks or had no Perf line (an Exception, so that
    pytest-benchmark marks the benchmark as errored and leaves it out of the JSON)."""


class _Benchmark(Protocol):
    extra_info: dict[str, Any]

    def pedantic(
        self, target: Callable[[], Any], *, rounds: int, iterations: int, warmup_rounds: int
    ) -> Any: ...


def _finite(value: float | None) -> float | None:
    return value if value is not None and math.isfinite(value) else None


def _median(values: Sequence[float | None]) -> float | None:
    known = [v for v in values if v is not None]
    return statistics.median(known) if known else None


def static_info(item: Mapping[str, Any], meta: Mapping[str, Any]) -> dict[str, Any]:
    """The extra_info fields known before the benchmark runs."""
    return {
        "id": item["id"],
        "target": item["target"],
        "case": item["case"],
        "arch": item["arch"],
        "matrix": dict(item["matrix"]),
        "backend": meta["backend"],
        "emulated": meta["emulated"],
        "note": meta["note"],
        "binary": item["binary_shown"],
        "args": list(item["args"]),
        "rounds": meta["rounds"],
        "commit": meta["commit"],
        "commit_dirty": meta["commit_dirty"],
        "compiler": meta["compiler"],
        "compiler_version": meta["compiler_version"],
        "machine": dict(meta["machine"]),
    }


def kernel_figures(perfs: Sequence[Perf]) -> dict[str, Any]:
    """Per-round figures and their medians (non-finite values become null)."""
    out: dict[str, Any] = {}
    for key in ("ms", "tflops", "gbs"):
        values = [_finite(getattr(p, key)) for p in perfs]
        out[f"kernel_{key}"] = values
        out[f"kernel_{key}_median"] = _median(values)
    return out


def run_benchmark(
    benchmark: _Benchmark, item: Mapping[str, Any], meta: Mapping[str, Any]
) -> list[Perf]:
    """Run ``item``'s binary ``meta["rounds"]`` times under ``benchmark``; BenchFailure if a
    round fails its checks or prints no Perf line."""
    benchmark.extra_info.update(static_info(item, meta))
    if item.get("problem"):
        raise BenchFailure(item["problem"])
    case = case_from_dict(item["spec"])
    cmd = [item["binary"], *item["args"]]
    cwd = Path(item["cwd"])
    perfs: list[Perf] = []

    def once() -> None:
        out = run_command(cmd, timeout=case.timeout, cwd=cwd)
        reasons = expect.check(case, out)
        if not reasons:
            try:
                perfs.append(parse_perf(out.output))
            except PerfError as exc:
                reasons.append(str(exc))
        if reasons:
            shown = " ".join([item["binary_shown"], *item["args"]])
            raise BenchFailure(
                f"round {len(perfs) + 1}: {'; '.join(reasons)}\n$ {shown}\n{out.tail(20)}"
            )

    benchmark.pedantic(once, rounds=meta["rounds"], iterations=1, warmup_rounds=0)
    benchmark.extra_info.update(kernel_figures(perfs))
    return perfs


# ---- the pytest run -------------------------------------------------------------------------


@dataclass
class Row:
    """One benchmark's line of the table."""

    id: str
    target: str
    arch: str
    matrix: dict[str, Any]
    case: str
    passed: bool
    reason: str = ""
    ms: float | None = None
    tflops: float | None = None
    gbs: float | None = None
    wall: float | None = None

    @property
    def matrix_label(self) -> str:
        return ",".join(f"{k}={v}" for k, v in self.matrix.items()) or "-"


@dataclass
class BenchRun:
    returncode: int
    json_path: Path
    meta: dict[str, Any]
    rows: list[Row] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.returncode == 0 and bool(self.rows) and all(r.passed for r in self.rows)


def pytest_command(
    manifest: Path, json_path: Path, storage: Path, extra: Sequence[str] = ()
) -> list[str]:
    from ck_tile_nox import bench_suite  # noqa: PLC0415 (only the path is needed)

    return [
        sys.executable, "-m", "pytest", str(Path(bench_suite.__file__)),
        "-p", "ck_tile_nox.bench_plugin", f"{MANIFEST_OPTION}={manifest}",
        "-p", "no:cacheprovider",
        f"--benchmark-json={json_path}",
        f"--benchmark-storage=file://{storage}",
        "--benchmark-autosave",
        "--benchmark-sort=name",
        "--benchmark-columns=median,min,max,rounds",
        *extra,
    ]  # fmt: skip


def load_json(path: Path) -> dict[str, Any] | None:
    """A bench JSON file, or None when it is missing, empty or not JSON."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def run_suite(
    items: Sequence[Mapping[str, Any]],
    meta: Mapping[str, Any],
    *,
    reports: Path,
    json_path: Path,
    cwd: Path,
    pytest_args: Sequence[str] = (),
) -> BenchRun:
    """Write the manifest, run pytest-benchmark over it, read the results back."""
    reports.mkdir(parents=True, exist_ok=True)
    json_path.parent.mkdir(parents=True, exist_ok=True)
    manifest = reports / "bench-manifest.json"
    outcomes = reports / "bench-outcomes.json"
    for stale in (json_path, outcomes):
        stale.unlink(missing_ok=True)
    manifest.write_text(
        json.dumps(
            {"meta": dict(meta), "outcomes": str(outcomes), "benchmarks": list(items)}, indent=2
        )
        + "\n",
        encoding="utf-8",
    )
    cmd = pytest_command(manifest, json_path, reports / "benchmarks", pytest_args)
    rc = subprocess.run(cmd, cwd=cwd, check=False).returncode
    data = load_json(json_path) or {}
    results = load_json(outcomes) or {}
    return BenchRun(rc, json_path, dict(meta), rows_of(items, data, results))


def _by_id(data: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    out = {}
    for bench in data.get("benchmarks", []):
        info = bench.get("extra_info") or {}
        if "id" in info:
            out[info["id"]] = bench
    return out


def rows_of(
    items: Sequence[Mapping[str, Any]], data: Mapping[str, Any], outcomes: Mapping[str, Any]
) -> list[Row]:
    """The table rows, in manifest order: figures from the JSON, reasons from the outcomes."""
    found = _by_id(data)
    rows = []
    for item in items:
        row = Row(
            item["id"], item["target"], item["arch"], dict(item["matrix"]), item["case"], False
        )
        outcome = outcomes.get(item["id"], {})
        bench = found.get(item["id"])
        if bench is not None and outcome.get("outcome") == "passed":
            info = bench["extra_info"]
            row.passed = True
            row.ms = info.get("kernel_ms_median")
            row.tflops = info.get("kernel_tflops_median")
            row.gbs = info.get("kernel_gbs_median")
            row.wall = (bench.get("stats") or {}).get("median")
        else:
            row.reason = outcome.get("reason") or item.get("problem") or "did not run"
        rows.append(row)
    return rows


# ---- output ---------------------------------------------------------------------------------


def fmt(value: float | None) -> str:
    """A figure with 4 significant digits, ``-`` when absent."""
    if value is None:
        return "-"
    if value == 0 or 1e-3 <= abs(value) < 1e6:
        return f"{value:.4g}"
    return f"{value:.3e}"


def title(meta: Mapping[str, Any]) -> str:
    text = (
        f"bench: {meta['backend']} {', '.join(meta['archs'])}, "
        f"kernel figures: median of {meta['rounds']} round(s)"
    )
    if meta.get("emulated"):
        text += f"  [{EMULATOR_NOTE.upper()}]"
    return text


def print_results(ui: UI, run: BenchRun) -> None:
    rows = [
        (
            r.target, r.arch, r.matrix_label, r.case, fmt(r.ms), fmt(r.tflops), fmt(r.gbs),
            fmt(r.wall), "ok" if r.passed else f"FAIL {r.reason.splitlines()[0][:70]}",
        )
        for r in run.rows
    ]  # fmt: skip
    styles = [None if r.passed else "bold red" for r in run.rows]
    ui.table(
        title(run.meta),
        ("target", "arch", "matrix", "case", "kernel ms", "TFLOP/s", "GB/s", "wall s", "result"),
        rows,
        styles,
        right=("kernel ms", "TFLOP/s", "GB/s", "wall s"),
    )
    ui.line(
        "kernel ms, TFLOP/s, GB/s: the binary's own 'Perf:' figures (median over rounds); "
        "wall s and pytest-benchmark's table: the whole process (start-up, host reference, "
        "verification)"
    )
    if run.meta.get("emulated"):
        ui.line(f"note: {EMULATOR_NOTE}", "bold yellow")


# ---- compare --------------------------------------------------------------------------------


def _key(info: Mapping[str, Any]) -> tuple[str, str, str, str]:
    matrix = ",".join(f"{k}={v}" for k, v in sorted((info.get("matrix") or {}).items())) or "-"
    return (info["target"], info["arch"], matrix, info["case"])


def figures(data: Mapping[str, Any]) -> dict[tuple[str, str, str, str], dict[str, Any]]:
    """(target, arch, matrix, case) -> extra_info of each benchmark of a bench JSON."""
    out = {}
    for bench in data.get("benchmarks", []):
        info = bench.get("extra_info") or {}
        if {"target", "arch", "case"} <= info.keys():
            out[_key(info)] = info
    return out


def change(old: float | None, new: float | None) -> str:
    """The relative change from ``old`` to ``new`` as ``+12.3%``; ``-`` when unknown."""
    if old is None or new is None or old == 0:
        return "-"
    return f"{(new - old) / old * 100:+.1f}%"


def compare_rows(old: Mapping[str, Any], new: Mapping[str, Any]) -> list[tuple[str, ...]]:
    """One row per benchmark of either file: target, arch, matrix, case, old/new ms and
    change, old/new TFLOP/s, old/new GB/s."""
    a, b = figures(old), figures(new)
    keys = list(b) + [k for k in a if k not in b]
    rows = []
    for key in keys:
        o, n = a.get(key, {}), b.get(key, {})
        rows.append(
            (
                *key,
                fmt(o.get("kernel_ms_median")), fmt(n.get("kernel_ms_median")),
                change(o.get("kernel_ms_median"), n.get("kernel_ms_median"))
                if o and n else ("new" if n else "gone"),
                fmt(o.get("kernel_tflops_median")), fmt(n.get("kernel_tflops_median")),
                fmt(o.get("kernel_gbs_median")), fmt(n.get("kernel_gbs_median")),
            )
        )  # fmt: skip
    return rows


def _describe(data: Mapping[str, Any]) -> str:
    meta = data.get("ck_tile") or {}
    commit = (meta.get("commit") or (data.get("commit_info") or {}).get("id") or "?")[:10]
    dirty = "+dirty" if meta.get("commit_dirty") else ""
    cpu = (meta.get("machine") or {}).get("cpu", "?")
    return f"{meta.get('backend', '?')}, commit {commit}{dirty}, {cpu}"


def compare_warnings(old: Mapping[str, Any], new: Mapping[str, Any]) -> list[str]:
    a, b = old.get("ck_tile") or {}, new.get("ck_tile") or {}
    out = []
    if a.get("backend") != b.get("backend"):
        out.append(f"different backends: {a.get('backend')} vs {b.get('backend')}")
    if (a.get("machine") or {}).get("cpu") != (b.get("machine") or {}).get("cpu"):
        out.append("different machines: the figures are not comparable one to one")
    if a.get("emulated") or b.get("emulated"):
        out.append(EMULATOR_NOTE)
    return out


def print_compare(ui: UI, old: Mapping[str, Any], new: Mapping[str, Any], names: str) -> None:
    ui.table(
        f"compare {names}: old = {_describe(old)}; new = {_describe(new)}",
        ("target", "arch", "matrix", "case", "old ms", "new ms", "change", "old TFLOP/s",
         "new TFLOP/s", "old GB/s", "new GB/s"),
        compare_rows(old, new),
        right=("old ms", "new ms", "change", "old TFLOP/s", "new TFLOP/s", "old GB/s",
               "new GB/s"),
    )  # fmt: skip
    for line in compare_warnings(old, new):
        ui.line(f"note: {line}", "yellow")
    ui.line("change: relative change of the kernel's median ms (negative is faster)")


def compare_files(ui: UI, old_path: Path, new_path: Path) -> int:
    """Print the comparison of two bench JSON files; 2 when one cannot be read."""
    old, new = load_json(old_path), load_json(new_path)
    if old is None or new is None:
        ui.error(f"cannot read a bench JSON at {old_path if old is None else new_path}")
        return 2
    print_compare(ui, old, new, f"{old_path.name} -> {new_path.name}")
    return 0
