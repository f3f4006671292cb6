from __future__ import annotations

from pathlib import Path

import pytest

from ck_tile_nox import tools


def test_all_present(tmp_path: Path):
    found = tools.ensure([tools.CMAKE, tools.NINJA], repo=tmp_path, which=lambda n: f"/bin/{n}")
    assert found == {"cmake": "/bin/cmake", "ninja": "/bin/ninja"}


def test_missing_without_root_names_the_install_command(tmp_path: Path):
    calls: list[list[str]] = []
    with pytest.raises(tools.ToolError) as info:
        tools.ensure(
            [tools.CMAKE, tools.NINJA],
            repo=tmp_path,
            which=lambda n: "/bin/cmake" if n == "cmake" else None,
            run=lambda cmd, **kw: calls.append(cmd),
            root=False,
        )
    assert calls == []
    message = str(info.value)
    assert "ninja not found" in message
    assert "sudo apt-get install -y ninja-build" in message
    assert "cmake" not in message.splitlines()[0]


def test_root_prefers_the_install_script(tmp_path: Path):
    script = tmp_path / "script" / "install-deps.sh"
    script.parent.mkdir()
    script.write_text("#!/bin/sh\n")
    installed: set[str] = set()
    calls: list[list[str]] = []

    def run(cmd, **kw):
        calls.append(cmd)
        installed.add("ninja")

    found = tools.ensure(
        [tools.NINJA],
        repo=tmp_path,
        which=lambda n: f"/usr/bin/{n}" if n in installed else None,
        run=run,
        root=True,
        log=lambda _: None,
    )
    assert calls == [["bash", str(script)]]
    assert found == {"ninja": "/usr/bin/ninja"}


def test_root_falls_back_to_apt_get(tmp_path: Path):
    installed: set[str] = {"apt-get"}
    calls: list[list[str]] = []

    def run(cmd, **kw):
        calls.append(cmd)
        if cmd[:2] == ["apt-get", "install"]:
            installed.update({"clang++-22", "cmake"})

    req = tools.compiler_requirement("emulator", ["clang++-22", "g++"])
    found = tools.ensure(
        [tools.CMAKE, req],
        repo=tmp_path,
        which=lambda n: f"/usr/bin/{n}" if n in installed else None,
        run=run,
        root=True,
        log=lambda _: None,
    )
    assert calls == [
        ["apt-get", "update"],
        ["apt-get", "install", "-y", "cmake", "clang-22", "lld-22"],
    ]
    assert found["C++ compiler"] == "/usr/bin/clang++-22"


def test_rocm_compiler_is_never_installed(tmp_path: Path):
    req = tools.compiler_requirement("hip", ["/opt/rocm/bin/hipcc"])
    with pytest.raises(tools.ToolError, match="install ROCm"):
        tools.ensure([req], repo=tmp_path, which=lambda n: None, run=None, root=True)


def test_hip_backend_runs_the_script_in_rocm_mode(tmp_path: Path):
    script = tmp_path / "script" / "install-deps.sh"
    script.parent.mkdir()
    script.write_text("#!/bin/sh\n")
    calls: list[list[str]] = []
    rocm = tools.compiler_requirement("hip", ["/opt/rocm/bin/amdclang++"])
    with pytest.raises(tools.ToolError, match="ninja not found"):
        tools.ensure(
            [tools.NINJA, rocm],
            repo=tmp_path,
            which=lambda n: "/opt/rocm/bin/amdclang++" if "rocm" in n else None,
            run=lambda cmd, **kw: calls.append(cmd),
            root=True,
            log=lambda _: None,
        )
    assert calls[0] == ["bash", str(script), "--rocm"]
