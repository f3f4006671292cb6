"""Lint: ruff (check and format) on the Python code, clang-format on the C++ code.

clang-format runs as ``--dry-run -Werror`` with the repository's ``.clang-format`` over the C++
files under ``include/``, ``tutorial/``, ``example/``, ``client_example/`` and ``test/``
(``clang-format-22`` when present, else ``clang-format``). Files are listed with
``git ls-files`` (tracked and untracked, not ignored) when the repository is a git checkout.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

PY_PATHS = ("python", "noxfile.py")
CPP_DIRS = ("include", "tutorial", "example", "client_example", "test")
CPP_SUFFIXES = (".hpp", ".cpp", ".h", ".hip", ".inc", ".cc", ".cxx", ".ipp")
CHUNK = 200


def cpp_files(repo: Path) -> list[Path]:
    """The C++ sources clang-format checks, sorted."""
    dirs = [d for d in CPP_DIRS if (repo / d).is_dir()]
    if not dirs:
        return []
    files: list[Path] = []
    try:
        out = subprocess.run(
            ["git", "ls-files", "-co", "--exclude-standard", "--", *dirs],
            cwd=repo,
            capture_output=True,
            text=True,
            check=True,
        )
        files = [repo / line for line in out.stdout.splitlines() if line]
    except (OSError, subprocess.CalledProcessError):
        files = [p for d in dirs for p in (repo / d).rglob("*") if p.is_file()]
    return sorted(p for p in files if p.suffix in CPP_SUFFIXES and p.is_file())


def ruff_command() -> list[str]:
    ruff = shutil.which("ruff")
    return [ruff] if ruff else [sys.executable, "-m", "ruff"]


def run_ruff(repo: Path, paths: Sequence[str] = PY_PATHS) -> bool:
    paths = [p for p in paths if (repo / p).exists()]
    ok = True
    for args in (["check", *paths], ["format", "--check", "--diff", *paths]):
        cmd = [*ruff_command(), *args]
        print(f"$ {' '.join(['ruff', *args])}", flush=True)
        ok &= subprocess.run(cmd, cwd=repo, check=False).returncode == 0
    return ok


def run_clang_format(repo: Path, clang_format: str, files: Sequence[Path]) -> bool:
    ok = True
    for i in range(0, len(files), CHUNK):
        chunk = [str(f.relative_to(repo)) for f in files[i : i + CHUNK]]
        cmd = [clang_format, "--dry-run", "-Werror", "--style=file", *chunk]
        ok &= subprocess.run(cmd, cwd=repo, check=False).returncode == 0
    return ok
