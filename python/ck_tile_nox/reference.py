"""One CPU core's figure on a bench case's work, measured in the same bench run.

A bench case may say what its work is as plain CPU code::

    bench_reference = { kind = "memcpy", bytes = 2097152, target = 0.30 }
    bench_reference = { kind = "gemm", m = 512, n = 512, k = 512, target = 0.5 }

``nox -s bench`` then compiles ``bench_reference.cpp`` (beside this module) with the host
compiler, ``-O3 -march=native``, runs it once per distinct reference and prints each case's figure
as a ratio of it: GB/s against a memcpy of the same bytes, TFLOP/s against an fp32 i-k-j loop of
the same GEMM, both on one core. On the emulator this makes a slowdown of the emulator visible in
every bench run, whatever the machine; ``target`` is the ratio the case aims at (shown, not
enforced: a bench on a busy machine must not fail a build).
"""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from ck_tile_nox.perf import parse_perf

SOURCE = Path(__file__).with_name("bench_reference.cpp")
FLAGS = ("-O3", "-march=native", "-std=c++17")
# the kernel figure each kind is compared on (one of perf.FIGURES)
FIGURE = {"memcpy": "gbs", "gemm": "tflops"}


class BenchReference(BaseModel):
    """A memcpy of ``bytes``, or an fp32 ``m`` x ``n`` x ``k`` GEMM; ``target``: the aimed ratio."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    kind: Literal["memcpy", "gemm"]
    bytes: Annotated[int, Field(gt=0)] | None = None
    m: Annotated[int, Field(gt=0)] | None = None
    n: Annotated[int, Field(gt=0)] | None = None
    k: Annotated[int, Field(gt=0)] | None = None
    target: Annotated[float, Field(gt=0)] | None = None

    @model_validator(mode="after")
    def _sizes(self) -> BenchReference:
        need = ("bytes",) if self.kind == "memcpy" else ("m", "n", "k")
        have = {f for f in ("bytes", "m", "n", "k") if getattr(self, f) is not None}
        if have != set(need):
            raise ValueError(f"a {self.kind} reference takes {', '.join(need)}, got {sorted(have)}")
        return self

    def argv(self) -> list[str]:
        sizes = [self.bytes] if self.kind == "memcpy" else [self.m, self.n, self.k]
        return [self.kind, *map(str, sizes)]

    def label(self) -> str:
        return " ".join(self.argv())


def compile_reference(compiler: str, out_dir: Path) -> Path:
    """The reference binary in ``out_dir``, (re)compiled when missing or older than the source;
    RuntimeError with the compiler's output when it does not compile."""
    exe = out_dir / "bench_reference"
    if exe.is_file() and exe.stat().st_mtime >= SOURCE.stat().st_mtime:
        return exe
    out_dir.mkdir(parents=True, exist_ok=True)
    cmd = [compiler, *FLAGS, str(SOURCE), "-o", str(exe)]
    res = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if res.returncode != 0:
        raise RuntimeError(f"$ {' '.join(cmd)}\n{res.stdout}{res.stderr}")
    return exe


def run_reference(exe: Path, ref: BenchReference) -> dict[str, float | None]:
    """The reference's figures (ms, tflops, gbs) as its ``Perf:`` line gives them."""
    res = subprocess.run(
        [str(exe), *ref.argv()], capture_output=True, text=True, check=False, timeout=300
    )
    if res.returncode != 0:
        raise RuntimeError(f"bench_reference {ref.label()} failed: {res.stderr.strip()}")
    return parse_perf(res.stdout)


class References:
    """Measures each distinct reference once per session (the first bench case that needs it)."""

    def __init__(self, compiler: str | None, out_dir: Path) -> None:
        self.compiler, self.out_dir = compiler, out_dir
        self._figures: dict[str, dict[str, float | None]] = {}

    def figures(self, ref: BenchReference) -> dict[str, float | None]:
        if ref.label() not in self._figures:
            if self.compiler is None:
                raise RuntimeError("no host compiler for the bench reference")
            exe = compile_reference(self.compiler, self.out_dir)
            self._figures[ref.label()] = run_reference(exe, ref)
        return self._figures[ref.label()]

    def annotate(self, benchmark: Any, ref: BenchReference | None) -> None:
        """Adds the reference's figure and the case's ratio to a benchmark's ``extra_info``
        (nothing when the benchmark is disabled: ``nox -s test`` runs bench cases once)."""
        if ref is None or getattr(benchmark, "disabled", False):
            return
        info = benchmark.extra_info
        key = FIGURE[ref.kind]
        value = self.figures(ref)[key]
        mine = info.get(f"kernel_{key}_median")
        info["reference"] = ref.label()
        info["reference_figure"] = key
        info["reference_value"] = value
        info["reference_ratio"] = mine / value if mine is not None and value else None
        info["reference_target"] = ref.target


def ratio_text(info: dict[str, Any]) -> str:
    """``0.42 of memcpy 2097152 (target 0.30, below)`` for a bench table; ``-`` without one."""
    ratio = info.get("reference_ratio")
    if ratio is None:
        return "-"
    text = f"{ratio:.2f} of {info['reference']}"
    if (target := info.get("reference_target")) is not None:
        text += f" (target {target:.2f}{', below' if ratio < target else ''})"
    return text
