"""The supported GPU archs and their facts, read from the arch table.

``include/ck_tile/core/arch/arch_table.def`` is the one place the archs are written; C++ and CMake
read the same rows. ``ARCHS`` lists them in table order; ``ARCH_NAMES`` their names.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TABLE = ROOT / "include" / "ck_tile" / "core" / "arch" / "arch_table.def"
_ROW = re.compile(r"^CK_TILE_ARCH\(([^)]*)\)")


@dataclass(frozen=True)
class Arch:
    name: str
    wave_size: int
    lds_bytes: int
    fp8: str  # "fnuz" or "ocp"
    mfma: str  # "cdna3" or "cdna4"
    lds_transpose_read: bool


def read_table(path: Path = TABLE) -> tuple[Arch, ...]:
    """Every row of the table, checked."""
    archs = []
    for lineno, line in enumerate(path.read_text().splitlines(), 1):
        m = _ROW.match(line)
        if not m:
            continue
        fields = [f.strip() for f in m.group(1).split(",")]
        if len(fields) != 6:
            raise ValueError(f"{path}:{lineno}: a row needs 6 fields: {line}")
        name, wave, lds_kib, fp8, mfma, lds_tr = fields
        if fp8 not in ("fnuz", "ocp"):
            raise ValueError(f"{path}:{lineno}: fp8 must be fnuz or ocp, not {fp8!r}")
        archs.append(Arch(name, int(wave), int(lds_kib) * 1024, fp8, mfma, lds_tr != "0"))
    if not archs:
        raise ValueError(f"{path}: no CK_TILE_ARCH rows")
    return tuple(archs)


ARCHS = read_table()
ARCH_NAMES = tuple(a.name for a in ARCHS)
BY_NAME = {a.name: a for a in ARCHS}


if __name__ == "__main__":  # the arch names as JSON, for CI matrices: python3 -m ck_tile_nox.archs
    import json

    print(json.dumps(list(ARCH_NAMES)))
