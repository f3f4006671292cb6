"""Results of the test command: the summary table, JUnit XML, JSON and the closing count line.

JUnit layout: one ``<testsuite>`` per target (named ``<backend>.<target>``), one ``<testcase>``
per case and matrix entry, named ``<case>[<arch>,<NAME>=<VALUE>...]``. A failing testcase holds a
``<failure>`` whose message is the reason and whose text is the tail of the output.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from ck_tile_nox.console import UI

# Characters XML 1.0 cannot hold; binaries may print anything.
_XML_BAD = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


@dataclass
class CaseResult:
    backend: str
    target: str
    case: str
    arch: str
    axes: dict[str, Any] = field(default_factory=dict)
    passed: bool = False
    kind: str = "fail"  # pass | fail | timeout | build | error
    reason: str = ""
    seconds: float = 0.0
    command: list[str] = field(default_factory=list)
    returncode: int | None = None
    tail: str = ""

    @property
    def entry(self) -> str:
        axes = ",".join(f"{k}={v}" for k, v in self.axes.items())
        return f"{self.arch},{axes}" if axes else self.arch

    @property
    def matrix(self) -> str:
        return ",".join(f"{k}={v}" for k, v in self.axes.items()) or "-"

    @property
    def name(self) -> str:
        return f"{self.case}[{self.entry}]"


def counts(results: Sequence[CaseResult]) -> tuple[int, int]:
    passed = sum(1 for r in results if r.passed)
    return passed, len(results) - passed


def counts_line(results: Sequence[CaseResult]) -> str:
    """``N passed, M failed``: the last line of the test command, read by CI."""
    passed, failed = counts(results)
    return f"{passed} passed, {failed} failed"


def print_summary(ui: UI, results: Sequence[CaseResult], title: str = "Cases") -> None:
    rows = [
        (
            r.target,
            r.arch,
            r.matrix,
            r.case,
            "PASS" if r.passed else r.kind.upper(),
            f"{r.seconds:.2f}",
            r.reason,
        )
        for r in results
    ]
    styles = ["green" if r.passed else "bold red" for r in results]
    ui.table(
        title,
        ("target", "arch", "matrix", "case", "result", "seconds", "reason"),
        rows,
        styles,
        right=("seconds",),
    )


def _clean(text: str) -> str:
    return _XML_BAD.sub("?", text)


def junit_tree(results: Sequence[CaseResult], name: str = "ck_tile") -> ET.ElementTree:
    """A JUnit XML tree: one testsuite per target, one testcase per case and matrix entry."""
    root = ET.Element("testsuites", name=name)
    suites: dict[str, list[CaseResult]] = {}
    for r in results:
        suites.setdefault(f"{r.backend}.{r.target}", []).append(r)
    total_time = 0.0
    for suite_name, items in suites.items():
        _, failed = counts(items)
        seconds = sum(r.seconds for r in items)
        total_time += seconds
        suite = ET.SubElement(
            root,
            "testsuite",
            name=suite_name,
            tests=str(len(items)),
            failures=str(failed),
            errors="0",
            skipped="0",
            time=f"{seconds:.3f}",
        )
        for r in items:
            case = ET.SubElement(
                suite,
                "testcase",
                classname=suite_name,
                name=_clean(r.name),
                time=f"{r.seconds:.3f}",
            )
            if not r.passed:
                failure = ET.SubElement(case, "failure", message=_clean(r.reason), type=r.kind)
                command = " ".join(r.command)
                failure.text = _clean(f"$ {command}\n{r.tail}" if command else r.tail)
    _, failed = counts(results)
    root.set("tests", str(len(results)))
    root.set("failures", str(failed))
    root.set("errors", "0")
    root.set("time", f"{total_time:.3f}")
    return ET.ElementTree(root)


def write_junit(results: Sequence[CaseResult], path: Path, name: str = "ck_tile") -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tree = junit_tree(results, name)
    ET.indent(tree)
    tree.write(path, encoding="utf-8", xml_declaration=True)


def write_json(results: Sequence[CaseResult], path: Path, meta: Mapping[str, Any]) -> None:
    """``{"meta": ..., "summary": {"passed", "failed", "total"}, "results": [...]}``."""
    passed, failed = counts(results)
    data = {
        "meta": dict(meta),
        "summary": {"passed": passed, "failed": failed, "total": len(results)},
        "results": [{**asdict(r), "entry": r.entry} for r in results],
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
