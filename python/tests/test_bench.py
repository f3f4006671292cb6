"""The bench command: Perf lines, selection of bench cases, extra_info, compare, end to end."""

from __future__ import annotations

import json
import shutil
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from ck_tile_nox import bench, cli
from ck_tile_nox.bench import Perf, PerfError, parse_perf
from ck_tile_nox.cases import load_targets
from ck_tile_nox.cmake import BuildResult
from ck_tile_nox.console import UI
from ck_tile_nox.discovery import find_compiler
from ck_tile_nox.matrix import expand

MACHINE = {"cpu": "Test CPU 9000", "cores": 2, "system": "Linux", "machine": "x86_64"}

# A stand-in for a tutorial binary: prints what the real ones print, driven by its arguments.
STAND_IN = """#!{python}
import sys
args = sys.argv[1:]
if "-noperf" not in args:
    if "-gemm" in args:
        print("Perf: 2.5e+01 ms, 1.25E-02 TFlops, 0.5 GB/s")
    else:
        print("Perf: 0.125 ms, 1.6e+03 GB/s")
print("valid:n" if "-wrong" in args else "valid:y")
"""


def stand_in(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(STAND_IN.format(python=sys.executable))
    path.chmod(0o755)
    return path


# ---- the Perf line --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "perf"),
    [
        ("Perf: 0.0421 ms, 99.6 GB/s", Perf(0.0421, None, 99.6)),
        ("Perf: 12.5 ms, 0.0223 TFlops, 0.131 GB/s", Perf(12.5, 0.0223, 0.131)),
        ("Perf: 1.5e-01 ms, 2E+3 GB/s", Perf(0.15, None, 2000.0)),
        ("Perf: 3e+00 ms, 1.2e-05 TFlops, 4.5E+02 GB/s", Perf(3.0, 1.2e-05, 450.0)),
        ("  Perf:7 ms,8 TFLOP/s,9 GB/s", Perf(7.0, 8.0, 9.0)),
        ("Perf: 2 ms", Perf(2.0)),
        ("Perf: .5 ms, inf GB/s", Perf(0.5, None, float("inf"))),
    ],
)
def test_parse_perf_forms(text: str, perf: Perf):
    assert parse_perf(f"grid 1, block 256\n{text}\nvalid:y\n") == perf


def test_parse_perf_takes_the_last_line():
    assert parse_perf("Perf: 1 ms, 2 GB/s\nPerf: 3 ms, 4 GB/s\n") == Perf(3.0, None, 4.0)
    assert len(bench.parse_perf_lines("Perf: 1 ms, 2 GB/s\nPerf: 3 ms, 4 GB/s\n")) == 2


def test_parse_perf_missing_or_unreadable_is_an_error():
    with pytest.raises(PerfError, match=r"no 'Perf: X ms"):
        parse_perf("valid:y\n")
    with pytest.raises(PerfError, match=r"cannot read the Perf line 'Perf: n/a'"):
        parse_perf("Perf: n/a\nvalid:y\n")


# ---- selection ------------------------------------------------------------------------------


def test_bench_cases_only_expanded_over_the_matrix(tmp_path: Path, write_cases):
    write_cases(
        "tutorial/gemm",
        """
        [target]
        name = "tile_gemm"
        archs = ["gfx942", "gfx950"]
        [target.matrix]
        CK_TILE_X = [0, 1]
        [[case]]
        name = "big"
        bench = true
        [[case]]
        name = "only_x1"
        bench = true
        matrix = { CK_TILE_X = 1 }
        archs = ["gfx950"]
        [[case]]
        name = "check_only"
        [[case]]
        name = "not_bench"
        bench = false
        """,
    )
    write_cases("tutorial/copy", '[target]\nname = "tile_copy"\n[[case]]\nname = "small"\n')
    targets = bench.bench_targets(load_targets(tmp_path))
    assert [t.name for t in targets] == ["tile_gemm"]
    assert [c.name for c in targets[0].cases] == ["big", "only_x1"]
    plan = expand(targets, backend="emulator", archs=("gfx942", "gfx950"), build_root=tmp_path)
    assert [r.id for r in plan.runs] == [
        "tile_gemm/big[gfx942,CK_TILE_X=0]",
        "tile_gemm/big[gfx942,CK_TILE_X=1]",
        "tile_gemm/big[gfx950,CK_TILE_X=0]",
        "tile_gemm/big[gfx950,CK_TILE_X=1]",
        "tile_gemm/only_x1[gfx950,CK_TILE_X=1]",
    ]
    assert len(plan.build_dirs) == 4


# ---- extra_info -----------------------------------------------------------------------------


class FakeBenchmark:
    """What run_benchmark uses of pytest-benchmark's fixture."""

    def __init__(self) -> None:
        self.extra_info: dict[str, Any] = {}
        self.calls: list[dict[str, int]] = []

    def pedantic(self, target, *, rounds: int, iterations: int, warmup_rounds: int) -> None:
        self.calls.append({"rounds": rounds, "iterations": iterations, "warmup": warmup_rounds})
        for _ in range(rounds):
            target()


def items_for(tmp_path: Path, cases_toml: str, backend: str = "emulator") -> list[dict]:
    """Manifest entries for ``cases_toml`` (one target tile_fake), its binaries stand-ins."""
    (tmp_path / "tutorial/fake").mkdir(parents=True, exist_ok=True)
    (tmp_path / "tutorial/fake/cases.toml").write_text(textwrap.dedent(cases_toml))
    targets = bench.bench_targets(load_targets(tmp_path))
    root = tmp_path / "build"
    plan = expand(targets, backend=backend, archs=("gfx942",), build_root=root)
    builds = {}
    for bdir in plan.build_dirs:
        stand_in(bdir.binary("tile_fake"))
        builds[bdir.path] = BuildResult(bdir.path, list(bdir.targets))
    return bench.bench_items(plan.runs, backend, root, builds)


FAKE = """
[target]
name = "tile_fake"
[target.matrix]
CK_TILE_X = [0, 1]
[[case]]
name = "gemm"
args = ["-gemm"]
expect = ["valid:y"]
reject = ["valid:n"]
bench = true
[[case]]
name = "copy"
args = ["-copy"]
expect = ["valid:y"]
bench = true
matrix = { CK_TILE_X = 0 }
[[case]]
name = "noperf"
args = ["-noperf"]
expect = ["valid:y"]
bench = true
matrix = { CK_TILE_X = 1 }
[[case]]
name = "wrong"
args = ["-wrong"]
reject = ["valid:n"]
bench = true
matrix = { CK_TILE_X = 1 }
[[case]]
name = "not_a_benchmark"
"""


def meta(tmp_path: Path, backend: str = "emulator", rounds: int = 2) -> dict[str, Any]:
    return bench.run_meta(
        backend=backend,
        archs=["gfx942"],
        compiler="/opt/some/clang++-22",
        compiler_version="clang version 22.1.8",
        rounds=rounds,
        repo=tmp_path,
        machine=MACHINE,
    )


def test_extra_info_fields(tmp_path: Path):
    items = {i["id"]: i for i in items_for(tmp_path, FAKE)}
    assert set(items) == {
        "tile_fake/gemm[gfx942,CK_TILE_X=0]",
        "tile_fake/gemm[gfx942,CK_TILE_X=1]",
        "tile_fake/copy[gfx942,CK_TILE_X=0]",
        "tile_fake/noperf[gfx942,CK_TILE_X=1]",
        "tile_fake/wrong[gfx942,CK_TILE_X=1]",
    }
    fake = FakeBenchmark()
    perfs = bench.run_benchmark(fake, items["tile_fake/gemm[gfx942,CK_TILE_X=1]"], meta(tmp_path))
    assert perfs == [Perf(25.0, 0.0125, 0.5)] * 2
    assert fake.calls == [{"rounds": 2, "iterations": 1, "warmup": 0}]
    info = fake.extra_info
    assert {k: info[k] for k in ("target", "case", "arch", "matrix", "backend")} == {
        "target": "tile_fake",
        "case": "gemm",
        "arch": "gfx942",
        "matrix": {"CK_TILE_X": 1},
        "backend": "emulator",
    }
    assert info["emulated"] is True
    assert info["note"] == bench.EMULATOR_NOTE
    assert "not GPU performance" in info["note"]
    assert info["binary"] == "emulator-gfx942-x_1/bin/tile_fake"
    assert info["args"] == ["-gemm"]
    assert info["rounds"] == 2
    assert info["kernel_ms"] == [25.0, 25.0] and info["kernel_ms_median"] == 25.0
    assert info["kernel_tflops"] == [0.0125, 0.0125] and info["kernel_tflops_median"] == 0.0125
    assert info["kernel_gbs_median"] == 0.5
    assert info["compiler"] == "clang++-22"  # the name, not where it is
    assert info["compiler_version"] == "clang version 22.1.8"
    assert info["machine"] == MACHINE
    assert info["commit"] is None  # not a git checkout
    json.dumps(info)  # serialisable as it is

    copy = FakeBenchmark()
    bench.run_benchmark(copy, items["tile_fake/copy[gfx942,CK_TILE_X=0]"], meta(tmp_path))
    assert copy.extra_info["kernel_tflops"] == [None, None]
    assert copy.extra_info["kernel_tflops_median"] is None
    assert copy.extra_info["kernel_gbs_median"] == 1600.0


def test_hip_run_has_no_emulator_note(tmp_path: Path):
    data = meta(tmp_path, backend="hip")
    assert data["emulated"] is False and data["note"] == ""


def test_failures_raise(tmp_path: Path):
    items = {i["case"]: i for i in items_for(tmp_path, FAKE)}
    with pytest.raises(bench.BenchFailure, match=r"round 1: no 'Perf: X ms"):
        bench.run_benchmark(FakeBenchmark(), items["noperf"], meta(tmp_path))
    with pytest.raises(bench.BenchFailure, match=r"found rejected 'valid:n'"):
        bench.run_benchmark(FakeBenchmark(), items["wrong"], meta(tmp_path))
    broken = {**items["copy"], "problem": "not built: build failed"}
    with pytest.raises(bench.BenchFailure, match="not built"):
        bench.run_benchmark(FakeBenchmark(), broken, meta(tmp_path))


def test_figures_are_finite_or_null():
    out = bench.kernel_figures([Perf(0.0, None, float("inf")), Perf(2.0, None, 4.0)])
    assert out["kernel_gbs"] == [None, 4.0] and out["kernel_gbs_median"] == 4.0
    assert out["kernel_ms_median"] == 1.0


def test_machine_description_names_no_host(tmp_path: Path):
    cpuinfo = tmp_path / "cpuinfo"
    cpuinfo.write_text("processor\t: 0\nmodel name\t: Some CPU @ 2.0GHz\nflags\t: sse\n")
    desc = bench.machine_description(cpuinfo)
    assert desc["cpu"] == "Some CPU @ 2.0GHz"
    assert desc["cores"] >= 1
    assert set(desc) == {"cpu", "cores", "system", "machine"}


# ---- compare --------------------------------------------------------------------------------


def bench_json(backend: str, cpu: str, commit: str, figures: dict[str, float]) -> dict:
    return {
        "machine_info": {},
        "benchmarks": [
            {
                "name": f"test_kernel[{case}]",
                "stats": {"median": 1.0},
                "extra_info": {
                    "target": "tile_fake",
                    "case": case,
                    "arch": "gfx942",
                    "matrix": {"CK_TILE_X": 0},
                    "kernel_ms_median": ms,
                    "kernel_tflops_median": None,
                    "kernel_gbs_median": 1000.0 / ms,
                },
            }
            for case, ms in figures.items()
        ],
        "ck_tile": {
            "backend": backend,
            "emulated": backend == "emulator",
            "commit": commit,
            "machine": {"cpu": cpu},
        },
    }


def test_compare_two_files(tmp_path: Path, capsys):
    old, new = tmp_path / "old.json", tmp_path / "new.json"
    old.write_text(json.dumps(bench_json("hip", "CPU A", "a" * 40, {"big": 2.0, "gone": 1.0})))
    new.write_text(json.dumps(bench_json("hip", "CPU A", "b" * 40, {"big": 2.2, "new": 5.0})))
    assert bench.compare_files(UI(plain=True), old, new) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == (
        "compare old.json -> new.json: old = hip, commit aaaaaaaaaa, CPU A; "
        "new = hip, commit bbbbbbbbbb, CPU A"
    )
    rows = {line.split()[3]: line.split() for line in lines[3:6]}
    assert rows["big"][4:8] == ["2", "2.2", "+10.0%", "-"]
    assert rows["big"][9:] == ["500", "454.5"]
    assert rows["new"][4:7] == ["-", "5", "new"]
    assert rows["gone"][4:7] == ["1", "-", "gone"]
    assert not any(line.startswith("note:") for line in lines)


def test_compare_warns_about_backend_machine_and_emulator(tmp_path: Path, capsys):
    old, new = tmp_path / "old.json", tmp_path / "new.json"
    old.write_text(json.dumps(bench_json("hip", "CPU A", "a" * 40, {"big": 2.0})))
    new.write_text(json.dumps(bench_json("emulator", "CPU B", "b" * 40, {"big": 1.0})))
    assert bench.compare_files(UI(plain=True), old, new) == 0
    out = capsys.readouterr().out
    assert "-50.0%" in out
    assert "note: different backends: hip vs emulator" in out
    assert "note: different machines" in out
    assert f"note: {bench.EMULATOR_NOTE}" in out


def test_compare_through_the_cli(tmp_path: Path, capsys):
    old, new = tmp_path / "old.json", tmp_path / "new.json"
    old.write_text(json.dumps(bench_json("hip", "CPU A", "a" * 40, {"big": 2.0})))
    new.write_text(json.dumps(bench_json("hip", "CPU A", "b" * 40, {"big": 1.0})))
    common = ["bench", "--repo", str(tmp_path), "--plain", "--no-run"]
    assert cli.main([*common, "--compare", str(old), "--json", str(new)]) == 0
    assert "-50.0%" in capsys.readouterr().out
    assert cli.main(common) == 2
    assert cli.main([*common, "--compare", str(tmp_path / "missing.json")]) == 2
    new.write_text("")
    assert cli.main([*common, "--compare", str(old), "--json", str(new)]) == 2


# ---- end to end through pytest-benchmark ----------------------------------------------------


def test_run_suite_writes_the_json(tmp_path: Path, capsys):
    items = items_for(tmp_path, FAKE)
    reports = tmp_path / "build/reports"
    json_path = reports / "bench.json"
    run = bench.run_suite(items, meta(tmp_path), reports=reports, json_path=json_path, cwd=tmp_path)
    assert run.returncode == 1 and not run.ok
    data = json.loads(json_path.read_text())

    assert "node" not in data["machine_info"]
    assert data["machine_info"]["ck_tile"] == MACHINE
    top = data["ck_tile"]
    assert top["backend"] == "emulator" and top["emulated"] is True
    assert top["note"] == bench.EMULATOR_NOTE
    assert top["rounds"] == 2 and top["archs"] == ["gfx942"]
    assert set(top["failures"]) == {
        "tile_fake/noperf[gfx942,CK_TILE_X=1]",
        "tile_fake/wrong[gfx942,CK_TILE_X=1]",
    }
    assert "no 'Perf: X ms" in top["failures"]["tile_fake/noperf[gfx942,CK_TILE_X=1]"]

    benches = {b["extra_info"]["id"]: b for b in data["benchmarks"]}
    assert set(benches) == {
        "tile_fake/gemm[gfx942,CK_TILE_X=0]",
        "tile_fake/gemm[gfx942,CK_TILE_X=1]",
        "tile_fake/copy[gfx942,CK_TILE_X=0]",
    }
    gemm = benches["tile_fake/gemm[gfx942,CK_TILE_X=0]"]
    assert gemm["stats"]["rounds"] == 2
    assert gemm["params"] == {"bench_id": "tile_fake/gemm[gfx942,CK_TILE_X=0]"}
    assert gemm["extra_info"]["kernel_ms"] == [25.0, 25.0]
    assert gemm["extra_info"]["kernel_tflops_median"] == 0.0125
    assert gemm["extra_info"]["emulated"] is True
    assert list((reports / "benchmarks").rglob("*.json"))  # autosaved for pytest-benchmark compare

    rows = {r.id: r for r in run.rows}
    assert rows["tile_fake/copy[gfx942,CK_TILE_X=0]"].gbs == 1600.0
    assert rows["tile_fake/gemm[gfx942,CK_TILE_X=1]"].passed
    assert not rows["tile_fake/noperf[gfx942,CK_TILE_X=1]"].passed
    bench.print_results(UI(plain=True), run)
    out = capsys.readouterr().out
    assert "[EMULATOR: CPU FIGURES OF THE EMULATOR, NOT GPU PERFORMANCE]" in out
    assert "FAIL round 1: no 'Perf: X ms" in out


CMAKELISTS = """
cmake_minimum_required(VERSION 3.20)
project(bench_stand_in NONE)
add_custom_target(tile_fake
  COMMAND ${CMAKE_COMMAND} -E copy ${CMAKE_SOURCE_DIR}/fake.py ${CMAKE_BINARY_DIR}/bin/tile_fake)
"""


@pytest.mark.skipif(
    not (shutil.which("cmake") and shutil.which("ninja") and find_compiler("emulator")),
    reason="needs cmake, ninja and a C++ compiler on PATH",
)
def test_bench_command(tmp_path: Path, capsys):
    (tmp_path / "CMakeLists.txt").write_text(CMAKELISTS)
    stand_in(tmp_path / "fake.py")
    (tmp_path / "tutorial/fake").mkdir(parents=True)
    (tmp_path / "tutorial/fake/cases.toml").write_text(
        '[target]\nname = "tile_fake"\n[[case]]\nname = "gemm"\nargs = ["-gemm"]\n'
        'expect = ["valid:y"]\nbench = true\n[[case]]\nname = "check"\n'
    )
    args = ["--repo", str(tmp_path), "--backend", "emulator", "--archs", "gfx950", "--plain"]
    assert cli.main(["bench", *args, "--rounds", "1"]) == 0
    out = capsys.readouterr().out
    assert "plan      1 target(s), 1 build dir(s), 1 run(s)" in out
    assert "tile_fake  gfx950  -       gemm" in out
    assert out.splitlines()[-1] == "1 passed, 0 failed"
    data = json.loads((tmp_path / "build/reports/bench.json").read_text())
    assert [b["extra_info"]["kernel_ms"] for b in data["benchmarks"]] == [[25.0]]
    assert data["ck_tile"]["emulated"] is True

    old = tmp_path / "old.json"
    shutil.copy(tmp_path / "build/reports/bench.json", old)
    assert cli.main(["bench", *args, "--rounds", "1", "--compare", str(old)]) == 0
    assert "+0.0%" in capsys.readouterr().out
    assert cli.main(["bench", *args, "--cases", "nothing"]) == 1
