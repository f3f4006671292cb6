"""build and test end to end on a stand-in CMake project whose "binaries" are Python scripts."""

from __future__ import annotations

import json
import shutil
import sys
import textwrap
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from ck_tile_nox import cli
from ck_tile_nox.discovery import find_compiler

pytestmark = pytest.mark.skipif(
    not (shutil.which("cmake") and shutil.which("ninja") and find_compiler("emulator")),
    reason="needs cmake, ninja and a C++ compiler on PATH",
)

CMAKELISTS = """
cmake_minimum_required(VERSION 3.20)
project(stand_in NONE)
# A "binary" is a Python script that reports the flags and arch it was configured with.
function(stand_in name script)
  set(FLAGS "${CMAKE_CXX_FLAGS}")
  configure_file(${CMAKE_SOURCE_DIR}/${script} ${CMAKE_BINARY_DIR}/gen/${name} @ONLY)
  add_custom_command(
    OUTPUT ${CMAKE_BINARY_DIR}/bin/${name}
    COMMAND ${CMAKE_COMMAND} -E copy ${CMAKE_BINARY_DIR}/gen/${name} ${CMAKE_BINARY_DIR}/bin/${name}
    DEPENDS ${CMAKE_BINARY_DIR}/gen/${name})
  add_custom_target(${name} DEPENDS ${CMAKE_BINARY_DIR}/bin/${name})
endfunction()
stand_in(tile_copy tutorial/copy/main.py)
stand_in(tile_gemm tutorial/gemm/main.py)
add_custom_target(tile_broken COMMAND ${CMAKE_COMMAND} -E false)
"""

SCRIPT = """#!{python}
import sys, time
print("arch: @GPU_TARGETS@ backend: @CK_TILE_BACKEND@ flags: @FLAGS@")
if "-hang" in sys.argv:
    time.sleep(60)
if "-bad" in sys.argv:
    print("error: bad argument", file=sys.stderr)
    sys.exit(1)
print("valid:y")
"""


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    (tmp_path / "CMakeLists.txt").write_text(CMAKELISTS)
    for name in ("copy", "gemm", "broken"):
        (tmp_path / "tutorial" / name).mkdir(parents=True)
    for name in ("copy", "gemm"):
        script = tmp_path / "tutorial" / name / "main.py"
        script.write_text(SCRIPT.format(python=sys.executable))
        script.chmod(0o755)
    (tmp_path / "tutorial/copy/cases.toml").write_text(
        textwrap.dedent(
            """
            [target]
            name = "tile_copy"
            [[case]]
            name = "ok"
            args = ["-hip"]
            emulator_args = ["-emu"]
            expect = ["valid:y", "backend: emulator"]
            [[case]]
            name = "bad_input"
            args = ["-bad"]
            returncode = "nonzero"
            stderr_lines = 1
            [[case]]
            name = "hangs"
            args = ["-hang"]
            timeout = 1
            """
        )
    )
    (tmp_path / "tutorial/gemm/cases.toml").write_text(
        textwrap.dedent(
            """
            [target]
            name = "tile_gemm"
            archs = ["gfx950"]
            [target.matrix]
            CK_TILE_ENABLE_TRANSPOSED_C_DISTRIBUTION = [0, 1]
            [[case]]
            name = "flags"
            expect = ["arch: gfx950", "-DCK_TILE_ENABLE_TRANSPOSED_C_DISTRIBUTION=1"]
            matrix = { CK_TILE_ENABLE_TRANSPOSED_C_DISTRIBUTION = 1 }
            [[case]]
            name = "user_flags"
            expect_regex = ['flags: -DUSER=1 -DCK_TILE_ENABLE_TRANSPOSED_C_DISTRIBUTION=[01]$']
            """
        )
    )
    (tmp_path / "tutorial/broken/cases.toml").write_text(
        '[target]\nname = "tile_broken"\n[[case]]\nname = "never"\n'
    )
    return tmp_path


def main(repo: Path, *args: str) -> int:
    common = ["--repo", str(repo), "--backend", "emulator", "--archs", "gfx942,gfx950", "--plain"]
    return cli.main([args[0], *common, "--cxx-flags=-DUSER=1", *args[1:]])


def test_build_then_test(repo: Path, capsys):
    assert main(repo, "build", "--targets", "tile_copy,tile_gemm") == 0
    out = capsys.readouterr().out
    assert "ok    emulator-gfx950-transposed_c_distribution_1: 1 target(s)" in out
    assert (repo / "build/emulator-gfx942/bin/tile_copy").is_file()
    assert not (repo / "build/emulator-gfx942-transposed_c_distribution_0").exists()

    assert main(repo, "test") == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[-1] == "7 passed, 4 failed"
    text = "\n".join(lines)
    assert "FAIL  emulator-gfx942: 1 of 2 target(s) failed (tile_broken: build failed" in text
    assert "TIMEOUT tile_copy/hangs[gfx942]" in text
    assert "tile_broken: build failed" in text

    data = json.loads((repo / "build/reports/results.json").read_text())
    assert data["summary"] == {"passed": 7, "failed": 4, "total": 11}
    by_id = {f"{r['target']}/{r['case']}[{r['entry']}]": r for r in data["results"]}
    assert by_id["tile_copy/hangs[gfx950]"]["kind"] == "timeout"
    assert by_id["tile_broken/never[gfx942]"]["kind"] == "build"
    assert by_id["tile_copy/ok[gfx942]"]["command"][-1] == "-emu"
    root = ET.parse(repo / "build/reports/junit.xml").getroot()
    assert (root.get("tests"), root.get("failures")) == ("11", "4")


def test_filters_and_nothing_to_run(repo: Path, capsys):
    assert main(repo, "test", "--cases", "ok,flags") == 0
    assert capsys.readouterr().out.splitlines()[-1] == "3 passed, 0 failed"
    assert main(repo, "test", "--targets", "nothing*") == 1
    assert capsys.readouterr().out.splitlines()[-1] == "0 passed, 0 failed"


def test_invalid_cases_file_is_exit_2(repo: Path, capsys):
    (repo / "tutorial/copy/cases.toml").write_text('[target]\nname = "tile_copy"\nwhat = 1\n')
    assert main(repo, "build") == 2
    assert "tutorial/copy/cases.toml: target.what: unknown key" in capsys.readouterr().out


def test_two_shards_run_every_case_once(repo: Path, capsys):
    seen: list[str] = []
    for shard in ("1/2", "2/2"):
        main(repo, "test", "--shard", shard)
        out = capsys.readouterr().out
        assert f"shard     {shard}: " in out
        data = json.loads((repo / "build/reports/results.json").read_text())
        assert data["meta"]["shard"] == shard
        seen += [f"{r['target']}/{r['case']}[{r['entry']}]" for r in data["results"]]
    assert len(seen) == 11 and len(set(seen)) == 11
