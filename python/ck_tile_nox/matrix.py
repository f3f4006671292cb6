"""The build matrix: arch x a target's axes, grouped into build dirs; and the shard rule.

A matrix entry is an arch plus one value per axis of a target. Targets that share an entry
share a build dir, named ``<backend>-<arch>[-<short>_<value>...]`` (``<short>``: the axis
lowercased without ``CK_TILE_`` and ``ENABLE_``, e.g.
``emulator-gfx942-transposed_c_distribution_1``), with ``-full`` appended under the full instance
profile. Axes reach the compiler as ``-DNAME=VALUE``. On hip-cpu one build serves every arch (one
code object per arch): the entries of the archs share ``hip-cpu[-<short>_<value>...]`` (with the
archs in the name when they are not all of the arch table's), whose GPU_TARGETS lists them all,
and a case runs once per arch. A target whose binary computes with 8-bit floats (``fp8 = true``
in its cases file) is built once per 8-bit float encoding instead: a build has one ``fp8_t``, FNUZ
unless every arch of the build computes with OCP (as on ROCm), so gfx942 (FNUZ) and gfx950 (OCP)
get ``hip-cpu-gfx942`` and ``hip-cpu-gfx950``. Every hip-cpu build dir links hip-cpu's libraries
from one more, ``hip-cpu-runtime``, which builds only them (:func:`runtime_dir`).

Sharding (``--shard I/N``): the unit of work is one target in one build dir (one compile). Units
are sorted; with at least N units, unit k goes to shard ``k % N + 1`` with all its cases. With
fewer units than shards, shard j works on unit ``(j-1) % U`` and the shards sharing a unit take
its cases round-robin in sorted id order. Every case runs on exactly one shard, and the split
depends only on what was selected, never on timing.
"""

from __future__ import annotations

import fnmatch
import itertools
import re
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from ck_tile_nox.archs import ARCH_NAMES, BY_NAME
from ck_tile_nox.cases import Scalar, Target

Axes = tuple[tuple[str, Scalar], ...]


@dataclass(frozen=True, eq=False)
class BuildDir:
    """One matrix entry: the build dir it is built in and the arch its cases run on. Entries
    that share a dir (hip-cpu's archs) compare and hash equal: a dir is built once."""

    path: Path
    backend: str
    arch: str
    axes: Axes = ()
    instances: str = "ci"
    runtime: str = ""  # "cpu": hip-cpu
    gpu_targets: tuple[str, ...] = ()  # GPU_TARGETS when not just ``arch``
    runtime_from: BuildDir | None = None  # the build dir whose hip-cpu libraries this one links

    def __eq__(self, other: object) -> bool:
        return isinstance(other, BuildDir) and self.path == other.path

    def __hash__(self) -> int:
        return hash(self.path)

    @property
    def name(self) -> str:
        return self.path.name

    @property
    def defines(self) -> list[str]:
        return [f"-D{k}={v}" for k, v in self.axes]

    @property
    def variant(self) -> str:
        """The axes' values, ``transposed_c_distribution_1`` (empty without axes)."""
        return "-".join(f"{_short(k)}_{v}" for k, v in self.axes)

    @property
    def label(self) -> str:
        """``gfx942`` or ``gfx942-transposed_c_distribution_1``: the entry in test ids."""
        return "-".join([self.arch, *([self.variant] if self.axes else [])])


RUNTIME_TARGETS = ("ck_tile_hip_cpu", "ck_tile_hip_cpu_engine", "hip_cpu_instructions")


def runtime_dir(root: Path) -> BuildDir:
    """The build dir of hip-cpu's libraries (and its instruction list): configured alike
    whichever hip-cpu build dir needs it first."""
    return BuildDir(root / "hip-cpu-runtime", "hip", ARCH_NAMES[0], runtime="cpu",
                    gpu_targets=ARCH_NAMES)  # fmt: skip


def _short(axis: str) -> str:
    return (axis.removeprefix("CK_TILE_").removeprefix("ENABLE_") or axis).lower()


def entries(
    target: Target,
    archs: Sequence[str],
    backend: str,
    root: Path,
    instances: str = "ci",
    runtime: str = "",
) -> list[BuildDir]:
    """The build dirs of ``target``: its valid archs times the product of its axes."""
    names = sorted(target.matrix)
    out = []
    for arch in (a for a in archs if target.valid_on(a)):
        for combo in itertools.product(*(target.matrix[n] for n in names)):
            axes = tuple(zip(names, combo, strict=True))
            # hip-cpu: one dir for the archs of the build (named after them unless all)
            group = [a for a in archs if not target.fp8 or BY_NAME[a].fp8 == BY_NAME[arch].fp8]
            subset = [] if tuple(group) == ARCH_NAMES else group
            head = ["hip-cpu", *subset] if runtime == "cpu" else [backend, arch]
            parts = [*head, *(f"{_short(k)}_{v}" for k, v in axes)]
            parts += ["full"] if instances == "full" else []
            gpu_targets = tuple(group) if runtime == "cpu" else ()
            path = root / "-".join(parts)
            shared = runtime_dir(root) if runtime == "cpu" else None
            out.append(BuildDir(path, backend, arch, axes, instances, runtime, gpu_targets, shared))
    return out


def matches(name: str, globs: Sequence[str]) -> bool:
    """Whether ``name`` matches ``globs``: one of the plain globs (none: everything) and none of
    the ``!`` ones (``["tile_*", "!tile_example_copy"]``)."""
    keep = [g for g in globs if not g.startswith("!")]
    drop = [g[1:] for g in globs if g.startswith("!")]
    return (not keep or any(fnmatch.fnmatchcase(name, g) for g in keep)) and not any(
        fnmatch.fnmatchcase(name, g) for g in drop
    )


def globs(values: Iterable[str] | None) -> list[str]:
    """``["a,b", "c"]`` -> ``["a", "b", "c"]``."""
    return [g.strip() for v in values or () for g in v.split(",") if g.strip()]


def parse_shard(text: str) -> tuple[int, int]:
    """``"2/3"`` -> ``(2, 3)``; ValueError unless ``1 <= I <= N``."""
    m = re.fullmatch(r"\s*(\d+)\s*/\s*(\d+)\s*", text)
    if not m or not 1 <= int(m[1]) <= int(m[2]):
        raise ValueError(f"expected I/N with 1 <= I <= N (e.g. 1/2), got {text!r}")
    return int(m[1]), int(m[2])


def shard(work: Sequence[tuple[Hashable, str]], index: int, count: int) -> set[str]:
    """The ids of ``work`` (``(unit, id)`` pairs) that shard ``index`` of ``count`` runs."""
    units = sorted({u for u, _ in work}, key=str)
    me = index - 1
    if len(units) >= count:
        mine = {u for k, u in enumerate(units) if k % count == me}
        return {i for u, i in work if u in mine}
    if not units:
        return set()
    k = me % len(units)
    sharing = list(range(k, count, len(units)))
    ids = sorted(i for u, i in work if u == units[k])
    return {i for n, i in enumerate(ids) if n % len(sharing) == sharing.index(me)}
