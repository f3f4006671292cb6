"""The expected mapping lines of the tile-distribution tutorials agree with the hardware data.

``tutorial/ck_tile/tile_distribution/cases.toml`` expects exact lines such as
``standard lane 33: (4,1) (5,1) ...``: the (row, col) of each register of one lane or thread.
These tests check them without building anything:

- every ``standard lane L`` line of tutorial 3 is the D layout of ``v_mfma_f32_32x32x8_f16`` in
  ``test/data/mfma_layouts/cdna3_gfx942.json``, and every ``transposed lane L`` line its transpose;
- every mapping line of every target is what the encoding line its case expects
  (``encoding: Rs=<> Hs=... Ps=... Ys=...``) gives, evaluated here independently of the C++ code.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from ck_tile_nox.cases import Case, parse_cases_file

ROOT = Path(__file__).resolve().parents[2]
CASES = ROOT / "tutorial" / "ck_tile" / "tile_distribution" / "cases.toml"
LAYOUTS = ROOT / "test" / "data" / "mfma_layouts" / "cdna3_gfx942.json"
MFMA = "v_mfma_f32_32x32x8_f16"
TUTORIAL_3 = "tile_tutorial_tile_distribution_3"

_PAIR = re.compile(r"\((\d+),(\d+)\)")
_LANE_LINE = re.compile(r"^(standard|transposed) lane (\d+): ((?:\(\d+,\d+\) ?)+)$")
_THREAD_LINE = re.compile(r"^thread (\d+) \(warp (\d+), lane (\d+)\): ((?:\(\d+,\d+\) ?)+)$")
_ENCODING = re.compile(
    r"^(?:(standard|transposed) )?encoding: Rs=<([\d,]*)> Hs=(<[\d,]+>(?:,<[\d,]+>)*) "
    r"Ps=\(([^)]*)\)/\(([^)]*)\) Ys=<([\d,]*)>/<([\d,]*)>$"
)


def _coords(text: str) -> list[tuple[int, int]]:
    return [(int(r), int(c)) for r, c in _PAIR.findall(text)]


def _seq(text: str) -> list[int]:
    return [int(x) for x in text.split(",") if x]


def _seqs(text: str) -> list[list[int]]:
    return [_seq(s) for s in re.findall(r"<([\d,]*)>", text)]


class Encoding:
    """A tile_distribution_encoding read from its printed form, evaluated in Python."""

    def __init__(self, rs, hs, ps_major, ps_minor, ys_major, ys_minor) -> None:
        self.rs, self.hs = rs, hs
        self.ps = [
            list(zip(ma, mi, strict=True)) for ma, mi in zip(ps_major, ps_minor, strict=True)
        ]
        self.ys = list(zip(ys_major, ys_minor, strict=True))

    @classmethod
    def parse(cls, line: str) -> tuple[str | None, Encoding]:
        m = _ENCODING.match(line)
        assert m, f"not an encoding line: {line!r}"
        name, rs, hs, ps_major, ps_minor, ys_major, ys_minor = m.groups()
        enc = cls(
            _seq(rs), _seqs(hs), _seqs(ps_major), _seqs(ps_minor), _seq(ys_major), _seq(ys_minor)
        )
        return name, enc

    def length(self, major: int, minor: int) -> int:
        return self.rs[minor] if major == 0 else self.hs[major - 1][minor]

    def stride(self, major: int, minor: int) -> int:
        out = 1
        for n in self.hs[major - 1][minor + 1 :]:
            out *= n
        return out

    def registers(self, ps: list[int]) -> list[tuple[int, ...]]:
        """(x0, x1, ...) of each register of the thread with P index ``ps``, in register order."""
        base = [0] * len(self.hs)
        for p, comps in zip(ps, self.ps, strict=True):
            rest = p
            for major, minor in reversed(comps):  # a P index is a merge, the last component fastest
                rest, c = divmod(rest, self.length(major, minor))
                if major > 0:
                    base[major - 1] += c * self.stride(major, minor)
            assert rest == 0, "P index out of range"
        lengths = [self.length(ma, mi) for ma, mi in self.ys]
        total = 1
        for n in lengths:
            total *= n
        out = []
        for d in range(total):  # registers are row-major over the Y lengths
            x, rest = list(base), d
            for (major, minor), n in reversed(list(zip(self.ys, lengths, strict=True))):
                rest, y = divmod(rest, n)
                if major > 0:
                    x[major - 1] += y * self.stride(major, minor)
            out.append(tuple(x))
        return out


def _cases() -> list[Case]:
    return [case for target in parse_cases_file(CASES) for case in target.cases]


def _mapping_lines(case: Case) -> Iterator[str]:
    for line in case.expect:
        if _LANE_LINE.match(line) or _THREAD_LINE.match(line):
            yield line


def _encodings(case: Case) -> dict[str | None, Encoding]:
    return dict(Encoding.parse(line) for line in case.expect if "encoding: " in line)


@pytest.fixture(scope="module")
def d_layout() -> list[list[tuple[int, int]]]:
    if not LAYOUTS.is_file():
        pytest.fail(f"{LAYOUTS.relative_to(ROOT)} is missing (the MFMA layout test data)")
    data = json.loads(LAYOUTS.read_text())
    instr = data["instructions"][MFMA]
    assert instr["blocks"] == 1 and instr["M"] == 32 and instr["N"] == 32
    lanes = [[(r, c) for r, c in regs] for regs in instr["D"]["lanes"]]
    assert len(lanes) == 64 and all(len(regs) == 16 for regs in lanes)
    return lanes


def test_cases_file_has_the_three_targets() -> None:
    names = [t.name for t in parse_cases_file(CASES)]
    assert names == [f"tile_tutorial_tile_distribution_{i}" for i in (1, 2, 3)]


def test_tutorial_3_lines_are_the_mfma_d_layout(d_layout) -> None:
    seen = {"standard": set(), "transposed": set()}
    for case in _cases():
        if case.target != TUTORIAL_3:
            continue
        for line in _mapping_lines(case):
            kind, lane, regs = _LANE_LINE.match(line).groups()
            lane = int(lane)
            want = d_layout[lane]
            if kind == "transposed":
                want = [(c, r) for r, c in want]
            assert _coords(regs) == want, (
                f"{case.name}: {kind} lane {lane} differs from {MFMA}'s D layout"
            )
            seen[kind].add(lane)
    # the lane of the README's example, and the standard layout of every lane, are pinned
    assert 33 in seen["standard"] and 33 in seen["transposed"]
    assert seen["standard"] == set(range(64))


def test_lines_follow_the_expected_encoding() -> None:
    checked = 0
    for case in _cases():
        lines = list(_mapping_lines(case))
        if not lines:
            continue
        encodings = _encodings(case)
        for line in lines:
            if m := _LANE_LINE.match(line):
                kind, lane, regs = m.groups()
                assert kind in encodings, f"{case.name}: no '{kind} encoding:' line expected"
                ps = [int(lane)]
                enc = encodings[kind]
            else:
                thread, warp, lane, regs = _THREAD_LINE.match(line).groups()
                assert int(thread) == 64 * int(warp) + int(lane), f"{case.name}: {line[:30]}"
                assert None in encodings, f"{case.name}: no 'encoding:' line expected"
                enc = encodings[None]
                ps = [int(warp), int(lane)] if len(enc.ps) == 2 else [int(thread)]
            assert _coords(regs) == enc.registers(ps), f"{case.name}: {line[:40]}..."
            checked += 1
    assert checked > 0


def test_encoding_reader_knows_the_mfma_layout(d_layout) -> None:
    """The Python reading of the encoding matches the hardware table for every lane."""
    _, enc = Encoding.parse(
        "standard encoding: Rs=<> Hs=<4,2,4>,<32> Ps=(<1,2>)/(<1,0>) Ys=<1,1>/<0,2>"
    )
    assert [enc.registers([lane]) for lane in range(64)] == d_layout
