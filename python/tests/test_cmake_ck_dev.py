"""script/cmake-ck-dev.sh, upstream's configure script, under every shell upstream's READMEs use.

Upstream's example README runs it as ``sh ../script/cmake-ck-dev.sh ../ gfx942`` (dash on Debian
and Ubuntu) and as ``../script/cmake-ck-dev.sh`` (its bash shebang). A stand-in ``cmake`` on
``PATH`` records the arguments it was given, so the test checks what the script asks of CMake.
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "script" / "cmake-ck-dev.sh"
SHELLS = [s for s in ("sh", "dash", "bash") if shutil.which(s)]


def _run(shell: str, tmp_path: Path, *args: str, compilers: tuple[str, ...] = ("clang++-22",)):
    bindir = tmp_path / "bin"
    bindir.mkdir(exist_ok=True)
    tools = {"cmake": 'for a in "$@"; do echo "$a"; done > "$CMAKE_ARGS_OUT"\n'}
    tools |= {c: "exit 0\n" for c in compilers}
    for name, body in tools.items():
        tool = bindir / name
        tool.write_text("#!/bin/sh\n" + body)
        tool.chmod(tool.stat().st_mode | stat.S_IEXEC)
    rm = bindir / "rm"  # the only other program the script runs; PATH has nothing else
    if not rm.exists():
        rm.symlink_to(shutil.which("rm") or "/bin/rm")
    build = tmp_path / "build"
    build.mkdir(exist_ok=True)
    (build / "CMakeCache.txt").write_text("stale\n")
    out = tmp_path / "cmake-args"
    env = {
        "PATH": str(bindir),
        "CMAKE_ARGS_OUT": str(out),
        "ROCM_PATH": str(tmp_path / "no-rocm"),
    }
    res = subprocess.run(
        [shutil.which(shell) or shell, str(SCRIPT), *args],
        cwd=build,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    recorded = out.read_text().splitlines() if out.exists() else None
    return res, recorded, build


@pytest.mark.parametrize("shell", SHELLS)
def test_configures_the_emulator_with_clang(shell, tmp_path):
    res, args, build = _run(shell, tmp_path, "..", "gfx942", "-G", "Ninja")
    assert res.returncode == 0, res.stderr
    assert args is not None
    assert args[-1] == ".."  # the source dir last, as cmake takes it
    assert args[args.index("-D") + 1].startswith("CMAKE_CXX_COMPILER=")
    assert args[args.index("-D") + 1].endswith("/clang++-22")
    assert "CK_TILE_BACKEND=emulator" in args and "GPU_TARGETS=gfx942" in args
    assert args[-3:-1] == ["-G", "Ninja"]  # extra arguments passed on, in order
    assert not (build / "CMakeCache.txt").exists()  # a fresh configure


@pytest.mark.parametrize("shell", SHELLS)
def test_without_an_arch_every_arch_and_extra_args(shell, tmp_path):
    res, args, _ = _run(shell, tmp_path, "../src", "-DCK_TILE_INSTANCES=ci")
    assert res.returncode == 0, res.stderr
    assert args is not None
    assert not any(a.startswith("GPU_TARGETS=") for a in args)
    assert args[-2:] == ["-DCK_TILE_INSTANCES=ci", "../src"]


@pytest.mark.parametrize("shell", SHELLS)
def test_refusals(shell, tmp_path):
    res, args, _ = _run(shell, tmp_path)
    assert res.returncode == 1 and "usage:" in res.stderr and args is None
    (tmp_path / "gxx").mkdir()
    res, args, _ = _run(shell, tmp_path / "gxx", "..", "gfx942", compilers=("g++",))
    assert res.returncode == 1 and args is None
    assert "clang++-22" in res.stderr and "install-deps.sh" in res.stderr


@pytest.mark.skipif(
    not (shutil.which("cmake") and shutil.which("g++")), reason="needs cmake and g++"
)
def test_plain_cmake_refuses_gxx_for_the_emulator(tmp_path):
    """``cmake -B build`` on Debian picks g++ when CXX is unset: one line names clang++-22."""
    env = {**os.environ, "CXX": "g++"}
    res = subprocess.run(
        ["cmake", "-S", str(REPO), "-B", str(tmp_path / "b"), "-DGPU_TARGETS=gfx942"],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert res.returncode != 0
    assert "the emulator needs clang++-22" in res.stderr
    assert "-DCMAKE_CXX_COMPILER=clang++-22" in res.stderr
