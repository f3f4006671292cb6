"""Shared helpers for the ck_tile_nox tests.

One skip policy for missing tools: :func:`need` skips a test whose tool is not installed, except
under CI (``CI`` set), where it fails, naming the one install command.
"""

from __future__ import annotations

import os
import shutil
import textwrap
from pathlib import Path

import pytest

DATA = Path(__file__).parent / "data"
pytest_plugins = ["pytester"]


def need(*names: str) -> str:
    """The path of the first of ``names`` on PATH; skip (fail under CI) when there is none."""
    path = next((p for n in names if (p := shutil.which(n))), None)
    if path is None:
        message = f"{' or '.join(names)} not found; to install it: bash script/install-deps.sh"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return path


@pytest.fixture
def data_dir() -> Path:
    return DATA


@pytest.fixture
def write_cases(tmp_path: Path):
    """Write ``text`` (dedented) as ``<tmp>/<folder>/cases.toml``; return its path."""

    def write(folder: str, text: str) -> Path:
        path = tmp_path / folder / "cases.toml"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
        return path

    return write
