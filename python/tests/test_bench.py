from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from ck_tile_nox import bench
from ck_tile_nox.cases import Case
from ck_tile_nox.run import run


@pytest.mark.parametrize(
    ("line", "figures"),
    [
        ("Perf: 0.0421 ms, 99.6 GB/s", (0.0421, None, 99.6)),
        ("x\nPerf: 1 ms\nPerf: 1.2e+01 ms, 0.0223 TFlops, 0.131 GB/s", (12.0, 0.0223, 0.131)),
    ],
)
def test_parse_perf(line: str, figures: tuple):
    assert tuple(bench.parse_perf(line).values()) == figures


def test_no_perf_line():
    with pytest.raises(ValueError, match="no 'Perf"):
        bench.parse_perf("valid:y")


class FakeBenchmark:
    def __init__(self) -> None:
        self.extra_info: dict = {}

    def pedantic(self, fn, rounds: int, iterations: int, warmup_rounds: int) -> None:
        for _ in range(rounds):
            fn()


def _once(ms: list[str]):
    return lambda: run([sys.executable, "-c", f"print('valid:y Perf: {ms.pop(0)} ms, 2 GB/s')"], 30)


def test_measure_records_medians():
    b = FakeBenchmark()
    bench.measure(b, Case(name="c", expect=["valid:y"]), _once(["3", "1", "2"]), 3, {"x": 1})
    assert b.extra_info["kernel_ms"] == [3.0, 1.0, 2.0] and b.extra_info["kernel_ms_median"] == 2
    assert b.extra_info["kernel_tflops_median"] is None and b.extra_info["x"] == 1


def test_a_failing_round_fails():
    with pytest.raises(AssertionError, match="round 1: missing 'nope'"):
        bench.measure(FakeBenchmark(), Case(name="c", expect=["nope"]), _once(["1"]), 1, {})


def test_compare(tmp_path: Path, capsys):
    def info(case: str, ms: float) -> dict:
        return {"extra_info": {"target": "t", "arch": "gfx942", "case": case, "matrix": {},
                               "kernel_ms_median": ms}}  # fmt: skip

    old, new = tmp_path / "old.json", tmp_path / "new.json"
    old.write_text(json.dumps({"benchmarks": [info("a", 2.0), info("gone", 1.0)]}))
    new.write_text(json.dumps({"benchmarks": [info("a", 1.0), info("new", 1.0)]}))
    rows = bench.compare_rows(bench.load(old), bench.load(new))
    assert [(r[3], r[6]) for r in rows] == [("a", "-50.0%"), ("new", "new"), ("gone", "gone")]
    assert bench.compare_files(old, new) == 0 and "-50.0%" in capsys.readouterr().out
    assert bench.compare_files(old, tmp_path / "missing.json") == 2
