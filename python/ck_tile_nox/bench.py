"""Bench cases (``bench = true``) under pytest-benchmark's fixture, and comparing two runs.

A bench case is the same pytest item as in ``nox -s test``; with ``--benchmark-disable`` (the
test session) it runs once, in ``nox -s bench`` it runs ``--rounds`` times through
``benchmark.pedantic``. Each round checks the case and reads the kernel's own ``Perf:`` line::

    Perf: 0.0421 ms, 99.6 GB/s                     (a copy kernel)
    Perf: 1.2e+01 ms, 0.0223 TFlops, 0.131 GB/s    (a GEMM)

pytest-benchmark times the whole process, so its stats are wall times; the kernel figures go
into each benchmark's ``extra_info``: target, case, arch, matrix, backend, emulated, args and
``kernel_ms``/``kernel_tflops``/``kernel_gbs`` (per round) with their ``*_median``, and with a
``bench_reference`` the ratio to one core (:mod:`ck_tile_nox.reference`). On the
emulator they are CPU figures of the emulator, not GPU performance.
"""

from __future__ import annotations

import json
import math
import statistics
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from ck_tile_nox.cases import Case
from ck_tile_nox.perf import FIGURES, parse_perf
from ck_tile_nox.reference import ratio_text
from ck_tile_nox.run import Output, check

EMULATOR_NOTE = "emulator: CPU figures of the emulator, not GPU performance"


def _finite(v: float | None) -> float | None:
    return v if v is not None and math.isfinite(v) else None


def measure(
    benchmark: Any, case: Case, once: Callable[[], Output], rounds: int, info: dict[str, Any]
) -> None:
    """Run ``once`` for each round under ``benchmark``; every round must pass its case and print
    a Perf line (else AssertionError). The kernel figures go to ``benchmark.extra_info``."""
    perfs: list[dict[str, float | None]] = []

    def round_() -> None:
        out = once()
        reasons = check(case, out)
        if not reasons:
            try:
                perfs.append(parse_perf(out.text))
            except ValueError as exc:
                reasons.append(str(exc))
        if reasons:
            raise AssertionError(f"round {len(perfs) + 1}: {'; '.join(reasons)}\n{out.tail(20)}")

    benchmark.extra_info.update(info)
    benchmark.pedantic(round_, rounds=rounds, iterations=1, warmup_rounds=0)
    for key in FIGURES:
        values = [_finite(p[key]) for p in perfs]
        known = [v for v in values if v is not None]
        benchmark.extra_info[f"kernel_{key}"] = values
        benchmark.extra_info[f"kernel_{key}_median"] = statistics.median(known) if known else None


# ---- tables -----------------------------------------------------------------------------------


def fmt(value: float | None) -> str:
    """4 significant digits, ``-`` when absent."""
    if value is None:
        return "-"
    return f"{value:.4g}" if value == 0 or 1e-3 <= abs(value) < 1e6 else f"{value:.3e}"


def change(old: float | None, new: float | None) -> str:
    """Relative change ``+12.3%``; ``-`` when unknown."""
    return "-" if not old or new is None else f"{(new - old) / old * 100:+.1f}%"


def _key(info: Mapping[str, Any]) -> tuple[str, ...]:
    matrix = ",".join(f"{k}={v}" for k, v in sorted((info.get("matrix") or {}).items())) or "-"
    return (info["target"], info["arch"], matrix, info["case"])


def figures(benchmarks: Sequence[Mapping[str, Any]]) -> dict[tuple[str, ...], Mapping[str, Any]]:
    """(target, arch, matrix, case) -> extra_info, for pytest-benchmark's ``benchmarks`` list."""
    infos = [b.get("extra_info") or {} for b in benchmarks]
    return {_key(i): i for i in infos if {"target", "arch", "case"} <= i.keys()}


BENCH_COLUMNS = ("target", "arch", "matrix", "case", "kernel ms", "TFLOP/s", "GB/s", "vs one core")
COMPARE_COLUMNS = ("target", "arch", "matrix", "case", "old ms", "new ms", "change",
                   "old TFLOP/s", "new TFLOP/s", "old GB/s", "new GB/s")  # fmt: skip


def bench_rows(infos: Sequence[Mapping[str, Any]]) -> list[tuple[str, ...]]:
    return [
        (*_key(i), *(fmt(i.get(f"kernel_{k}_median")) for k in FIGURES), ratio_text(dict(i)))
        for i in infos
    ]


def compare_rows(old: Sequence[Mapping[str, Any]], new: Sequence[Mapping[str, Any]]) -> list[tuple]:
    """One row per benchmark of either run (new ones first), old vs new medians."""
    a, b = figures(old), figures(new)
    rows = []
    for key in [*b, *(k for k in a if k not in b)]:
        o, n = a.get(key, {}), b.get(key, {})
        ms = (o.get("kernel_ms_median"), n.get("kernel_ms_median"))
        rows.append(
            (*key, fmt(ms[0]), fmt(ms[1]), change(*ms) if o and n else ("new" if n else "gone"),
             *(fmt(d.get(f"kernel_{k}_median")) for k in ("tflops", "gbs") for d in (o, n)))
        )  # fmt: skip
    return rows


def load(path: Path) -> list[dict[str, Any]]:
    """The ``benchmarks`` of a pytest-benchmark JSON file; ValueError when unreadable."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))["benchmarks"]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise ValueError(f"cannot read a bench JSON at {path}: {exc}") from None


def table(title: str, columns: tuple[str, ...], rows: list[tuple]) -> None:
    out = Table(title=title, title_justify="left")
    for col in columns:
        out.add_column(col, justify="left" if col in BENCH_COLUMNS[:4] else "right")
    for row in rows:
        out.add_row(*map(str, row))
    Console(highlight=False, width=200).print(out)


def compare_files(old: Path, new: Path) -> int:
    """Print old vs new kernel figures of two bench JSON files; 2 when one is unreadable."""
    try:
        rows = compare_rows(load(old), load(new))
    except ValueError as exc:
        print(f"error: {exc}")
        return 2
    table(f"compare {old.name} -> {new.name} (change: of the median ms)", COMPARE_COLUMNS, rows)
    return 0
