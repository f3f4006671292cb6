"""``tests``: the C++ tests' build dirs, one per arch: the tests that do not depend on the emulated
arch built in the first only, and hip-cpu's libraries shared with the hip builds (the build and
ctest are stand-ins; nothing is compiled)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from ck_tile_nox import build, cli
from ck_tile_nox.build import Result


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> dict[str, list]:
    seen: dict[str, list] = {"build": [], "run": []}

    def fake_build(repo, bdir, targets, *, compiler, jobs, cxx_flags="", extra=()):
        seen["build"].append((bdir, list(targets), list(extra)))
        failed = dict.fromkeys(targets, "failed") if bdir.name in seen.get("fail", []) else {}
        return Result(bdir.path, failed, "")

    def fake_run(cmd, check=False, **_):
        seen["run"].append(cmd)
        return subprocess.CompletedProcess(cmd, 0)

    monkeypatch.setattr(build, "build", fake_build)
    monkeypatch.setattr(build, "require", lambda *names: {n: n for n in names})
    monkeypatch.setattr(subprocess, "run", fake_run)
    return seen


def test_arch_neutral_tests_and_the_runtime_in_the_first_dir_only(calls, tmp_path: Path):
    assert cli.tests(["--build-root", str(tmp_path), "--archs", "gfx950,gfx942"]) == 0
    runtime, first, second = calls["build"]
    assert runtime[0].name == "hip-cpu-runtime" and "ck_tile_hip_cpu" in runtime[1]
    assert first[0].name == "tests-gfx950" and "-DCK_TILE_TESTS_ARCH_NEUTRAL=ON" in first[2]
    assert first[0].runtime_from == runtime[0]
    assert second[0].name == "tests-gfx942" and "-DCK_TILE_TESTS_ARCH_NEUTRAL=OFF" in second[2]
    assert second[0].runtime_from is None
    # pytest, then ctest in each dir
    assert [c[2] for c in calls["run"][1:]] == [str(first[0].path), str(second[0].path)]


def test_without_hip_cpu_libraries_the_tests_still_run(calls, tmp_path: Path, capsys):
    calls["fail"] = ["hip-cpu-runtime"]
    assert cli.tests(["--build-root", str(tmp_path), "--archs", "gfx942"]) == 0
    assert "hip-cpu's libraries did not build" in capsys.readouterr().out
    (_, _, _), (first, _, _) = calls["build"]
    assert first.runtime_from is None
