"""Expand targets over the build matrix and group them into build dirs.

A matrix entry is an arch plus one value for each of a target's own axes. The entries of a
target are ``archs x product(axis values)``, restricted to the archs the target is valid on.
Targets that share an entry (same arch and same axis assignment, including "no axes") share a
build dir, so each build dir is configured once and builds only the targets it needs.

Build dir names (under the build root, ``build/`` by default)::

    <backend>-<arch>                                     targets without axes
    <backend>-<arch>-<short>_<value>[-<short>_<value>]   one segment per axis, sorted by axis name

where ``<short>`` is the axis name lowercased, without a leading ``CK_TILE_`` and then without a
leading ``ENABLE_`` (``CK_TILE_ENABLE_TRANSPOSED_C_DISTRIBUTION = 1`` gives
``emulator-gfx942-transposed_c_distribution_1``). If two axes would get the same short name, both
keep their whole lowercased name. Axis values are integers or strings of ``[A-Za-z0-9_.+-]``, so
the names are safe on every filesystem and in every shell. The axes reach the compiler as
``-DNAME=VALUE`` in ``CMAKE_CXX_FLAGS``.

Sharding (``--shard I/N``, 1-based) splits a plan across N runners so that each builds only what
it runs. The unit of work is a target in a build dir (one compile). Units are sorted by
``(build dir name, target)``; with at least N units, unit k goes to shard ``k % N + 1`` and
carries all of its cases. With fewer units than shards, shard j works on unit ``(j-1) % U``, and
the shards that share a unit take its cases round-robin in sorted case-id order (each of them
builds that target). Either way every case runs on exactly one shard, the split depends only on
the plan (not on timing or machine), and shards with nothing to do say so and succeed.
"""

from __future__ import annotations

import fnmatch
import itertools
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from ck_tile_nox.cases import Case, Scalar, Target

Axes = tuple[tuple[str, Scalar], ...]


@dataclass(frozen=True)
class MatrixEntry:
    """An arch and one value per axis (sorted by axis name)."""

    arch: str
    axes: Axes = ()

    @property
    def axes_dict(self) -> dict[str, Scalar]:
        return dict(self.axes)

    @property
    def axes_label(self) -> str:
        """``NAME=VALUE,...`` or ``-`` when the entry has no axes."""
        return ",".join(f"{k}={v}" for k, v in self.axes) or "-"

    @property
    def label(self) -> str:
        return self.arch if not self.axes else f"{self.arch},{self.axes_label}"


@dataclass
class BuildDir:
    """One CMake build dir: a backend, an arch, an axis assignment and the targets to build."""

    path: Path
    backend: str
    arch: str
    axes: Axes = ()
    targets: list[str] = field(default_factory=list)

    @property
    def name(self) -> str:
        return self.path.name

    @property
    def defines(self) -> list[str]:
        """The axes as compiler flags, ``-DNAME=VALUE``."""
        return [f"-D{k}={v}" for k, v in self.axes]

    def binary(self, target: str) -> Path:
        return self.path / "bin" / target


@dataclass(frozen=True)
class Run:
    """One case of one target for one matrix entry."""

    target: Target
    case: Case
    entry: MatrixEntry
    build_dir: BuildDir

    @property
    def id(self) -> str:
        return f"{self.target.name}/{self.case.name}[{self.entry.label}]"

    @property
    def binary(self) -> Path:
        return self.build_dir.binary(self.target.name)


@dataclass
class Plan:
    """Everything a build or test command works through."""

    targets: list[Target]
    build_dirs: list[BuildDir]
    runs: list[Run]


def target_entries(target: Target, archs: Sequence[str]) -> list[MatrixEntry]:
    """The matrix entries of ``target``: its valid archs times the product of its axes."""
    names = sorted(target.matrix)
    combos = list(itertools.product(*(target.matrix[n] for n in names)))
    return [
        MatrixEntry(arch, tuple(zip(names, combo, strict=True)))
        for arch in archs
        if target.valid_on(arch)
        for combo in combos
    ]


def short_axis_names(axis_names: Iterable[str]) -> dict[str, str]:
    """Map each axis name to the short form used in build dir names (see the module doc)."""

    def shorten(name: str) -> str:
        s = name.removeprefix("CK_TILE_")
        s = s.removeprefix("ENABLE_") or s
        return s.lower()

    names = sorted(set(axis_names))
    short = {n: shorten(n) for n in names}
    clashes = {s for s in short.values() if list(short.values()).count(s) > 1}
    return {n: (n.lower() if s in clashes else s) for n, s in short.items()}


def build_dir_name(
    backend: str, arch: str, axes: Axes, short: Mapping[str, str] | None = None
) -> str:
    """The directory name of the build dir for ``backend``, ``arch`` and ``axes``."""
    short = short or short_axis_names(k for k, _ in axes)
    parts = [backend, arch, *(f"{short[k]}_{v}" for k, v in sorted(axes))]
    return "-".join(parts)


def matches(name: str, globs: Sequence[str]) -> bool:
    """Whether ``name`` matches one of ``globs`` (an empty list matches everything)."""
    return not globs or any(fnmatch.fnmatchcase(name, g) for g in globs)


def expand(
    targets: Sequence[Target],
    *,
    backend: str,
    archs: Sequence[str],
    build_root: Path,
    target_globs: Sequence[str] = (),
    case_globs: Sequence[str] = (),
) -> Plan:
    """Expand ``targets`` over ``archs`` and their axes into build dirs and runs.

    ``target_globs`` filters targets by name; ``case_globs`` filters cases by name (or by
    ``target/case``), and with it only the targets that keep a case are built.
    """
    selected = [t for t in targets if matches(t.name, target_globs)]
    short = short_axis_names(axis for t in selected for axis in t.matrix)
    dirs: dict[tuple[str, Axes], BuildDir] = {}
    runs: list[Run] = []
    kept: list[Target] = []
    for target in selected:
        cases = [
            c
            for c in target.cases
            if not case_globs
            or matches(c.name, case_globs)
            or matches(f"{target.name}/{c.name}", case_globs)
        ]
        if case_globs and not cases:
            continue
        kept.append(target)
        for entry in target_entries(target, archs):
            key = (entry.arch, entry.axes)
            bdir = dirs.get(key)
            if bdir is None:
                name = build_dir_name(backend, entry.arch, entry.axes, short)
                bdir = dirs[key] = BuildDir(build_root / name, backend, entry.arch, entry.axes)
            if target.name not in bdir.targets:
                bdir.targets.append(target.name)
            runs.extend(
                Run(target, c, entry, bdir)
                for c in cases
                if c.applies_to(entry.arch, entry.axes_dict)
            )
    arch_order = {a: i for i, a in enumerate(archs)}
    ordered = sorted(dirs.values(), key=lambda d: (arch_order[d.arch], len(d.axes), d.name))
    for d in ordered:
        d.targets.sort()
    return Plan(targets=kept, build_dirs=ordered, runs=runs)


# ---- sharding -------------------------------------------------------------------------------

_SHARD = re.compile(r"\s*(\d+)\s*/\s*(\d+)\s*")


def parse_shard(text: str) -> tuple[int, int]:
    """``"2/3"`` -> ``(2, 3)``; raises ValueError unless ``1 <= I <= N``."""
    m = _SHARD.fullmatch(text)
    if not m:
        raise ValueError(f"expected I/N with 1 <= I <= N (e.g. 1/2), got {text!r}")
    index, count = int(m.group(1)), int(m.group(2))
    if count < 1 or not 1 <= index <= count:
        raise ValueError(f"expected I/N with 1 <= I <= N (e.g. 1/2), got {text!r}")
    return index, count


def shard_plan(plan: Plan, index: int, count: int) -> Plan:
    """The part of ``plan`` that shard ``index`` of ``count`` (1-based) builds and runs.

    See the module doc for the rule. Build dirs keep their paths; each keeps only the targets
    that this shard runs (or, for a target without cases there, that this shard builds).
    """
    if not 1 <= index <= count:
        raise ValueError(f"shard {index}/{count}: expected 1 <= I <= N")
    if count == 1:
        return plan
    units = sorted((d.name, t) for d in plan.build_dirs for t in d.targets)
    runs_of: dict[tuple[str, str], list[Run]] = {u: [] for u in units}
    for run in plan.runs:
        runs_of[(run.build_dir.name, run.target.name)].append(run)
    me = index - 1
    mine: dict[tuple[str, str], set[str] | None] = {}  # unit -> its run ids here (None: all)
    if len(units) >= count:
        mine = {u: None for k, u in enumerate(units) if k % count == me}
    elif units:
        k = me % len(units)
        unit = units[k]
        sharing = list(range(k, count, len(units)))  # the shards that work on this unit
        pos = sharing.index(me)
        ids = sorted(r.id for r in runs_of[unit])
        picked = {rid for n, rid in enumerate(ids) if n % len(sharing) == pos}
        if picked or (not ids and pos == 0):
            mine = {unit: picked}
    dirs: list[BuildDir] = []
    by_name: dict[str, BuildDir] = {}
    for d in plan.build_dirs:
        targets = [t for t in d.targets if (d.name, t) in mine]
        if targets:
            by_name[d.name] = replace(d, targets=targets)
            dirs.append(by_name[d.name])
    runs = [
        replace(r, build_dir=by_name[r.build_dir.name])
        for r in plan.runs
        if (unit := (r.build_dir.name, r.target.name)) in mine
        and (mine[unit] is None or r.id in mine[unit])  # type: ignore[operator]
    ]
    names = {t for _, t in mine}
    return Plan(targets=[t for t in plan.targets if t.name in names], build_dirs=dirs, runs=runs)
