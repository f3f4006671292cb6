from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

from ck_tile_nox.console import render_plain_table
from ck_tile_nox.report import CaseResult, counts_line, write_json, write_junit


def results() -> list[CaseResult]:
    return [
        CaseResult("emulator", "copy", "small", "gfx942", passed=True, kind="pass", seconds=0.5),
        CaseResult(
            "emulator", "gemm", "big", "gfx942", {"CK_TILE_X": 1},
            kind="timeout", reason="timeout after 1 s", seconds=1.0,
            command=["bin/gemm", "-m=1"], tail="partial\x00output\x1b[0m",
        ),
        CaseResult(
            "emulator", "gemm", "big", "gfx950", {"CK_TILE_X": 0},
            kind="fail", reason="missing 'valid:y'", seconds=0.25, tail="valid:n",
        ),
    ]  # fmt: skip


def test_junit_is_well_formed_with_right_counts(tmp_path: Path):
    path = tmp_path / "reports" / "junit.xml"
    write_junit(results(), path)
    root = ET.parse(path).getroot()
    assert root.tag == "testsuites"
    assert (root.get("tests"), root.get("failures")) == ("3", "2")
    suites = {s.get("name"): s for s in root.findall("testsuite")}
    assert set(suites) == {"emulator.copy", "emulator.gemm"}
    assert (suites["emulator.gemm"].get("tests"), suites["emulator.gemm"].get("failures")) == (
        "2",
        "2",
    )
    cases = root.findall(".//testcase")
    assert [c.get("name") for c in cases] == [
        "small[gfx942]",
        "big[gfx942,CK_TILE_X=1]",
        "big[gfx950,CK_TILE_X=0]",
    ]
    failures = root.findall(".//failure")
    assert [f.get("message") for f in failures] == ["timeout after 1 s", "missing 'valid:y'"]
    assert failures[0].get("type") == "timeout"
    assert "$ bin/gemm -m=1" in failures[0].text and "partial?output" in failures[0].text


def test_json(tmp_path: Path):
    path = tmp_path / "results.json"
    write_json(results(), path, {"backend": "emulator"})
    data = json.loads(path.read_text())
    assert data["summary"] == {"passed": 1, "failed": 2, "total": 3}
    assert data["meta"]["backend"] == "emulator"
    assert data["results"][1]["entry"] == "gfx942,CK_TILE_X=1"


def test_counts_line():
    assert counts_line(results()) == "1 passed, 2 failed"
    assert counts_line([]) == "0 passed, 0 failed"


def test_plain_table():
    text = render_plain_table("T", ("a", "n"), [("x", "1"), ("longer", "22")], right=("n",))
    assert text.splitlines() == ["T", "a        n", "------  --", "x        1", "longer  22"]
