"""Shared helpers for the ck_tile_nox tests."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

DATA = Path(__file__).parent / "data"


@pytest.fixture
def data_dir() -> Path:
    return DATA


@pytest.fixture
def write_cases(tmp_path: Path):
    """Write ``text`` (dedented) as ``<tmp repo>/<folder>/cases.toml``; return its path."""

    def write(folder: str, text: str) -> Path:
        path = tmp_path / folder / "cases.toml"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
        return path

    return write
