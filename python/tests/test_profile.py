"""``profile``: argument handling, the build dir and environment it uses, its exit status (the
build and the binary are stand-ins; nothing is compiled)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from ck_tile_nox import cli, discovery
from ck_tile_nox.archs import ARCH_NAMES
from ck_tile_nox.build import Result
from ck_tile_nox.profile import Request, exit_status, parse, run


def test_parse_target_and_its_arguments():
    req = parse(["tile_tutorial_copy_kernel", "-m=1024", "-n=1024"])
    assert req == Request("tile_tutorial_copy_kernel", ["-m=1024", "-n=1024"])


def test_parse_own_options_anywhere_and_double_dash():
    req = parse(["--archs", "gfx950", "t", "1", "--jobs=4", "--build-root", "b", "--", "--jobs"])
    assert (req.target, req.args, req.archs, req.jobs) == ("t", ["1", "--jobs"], "gfx950", 4)
    assert req.build_root == Path("b")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        ([], "usage"),
        (["-v"], "usage"),
        (["t", "--archs"], "needs a value"),
        (["t", "--jobs=x"], "number"),
        (["t", "--backend", "cuda"], "emulator or hip"),
    ],
)
def test_parse_refuses(argv: list[str], message: str):
    with pytest.raises(ValueError, match=message):
        parse(argv)


def test_exit_status():
    assert exit_status(0) == 0
    assert exit_status(3) == 3
    assert exit_status(-11) == 139


class Fake:
    """Records the build and the run; the run returns ``rc``."""

    def __init__(self, rc: int = 0, ok: bool = True):
        self.rc, self.ok = rc, ok
        self.built: list[tuple] = []
        self.ran: list[tuple] = []

    def builder(self, repo, bdir, targets, **kw):
        self.built.append((bdir, list(targets)))
        return Result(bdir.path, {} if self.ok else {targets[0]: "build failed"}, "tail")

    def runner(self, cmd, **kw):
        self.ran.append((cmd, kw["env"]))
        return subprocess.CompletedProcess(cmd, self.rc)


@pytest.fixture
def compiler(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.delenv("CK_TILE_ARCHS", raising=False)
    found = discovery.Compiler("/usr/bin/clang++", "clang", "clang version 22")
    monkeypatch.setattr(discovery, "find_compiler", lambda backend, runtime="": found)


def test_run_builds_the_first_arch_and_sets_the_profile(tmp_path: Path, compiler):
    fake = Fake(rc=7)
    req = Request("tile_tutorial_naive_gemm", ["1", "512"], build_root=tmp_path)
    assert run(req, builder=fake.builder, runner=fake.runner) == 7
    ((bdir, targets),) = fake.built
    assert targets == ["tile_tutorial_naive_gemm"]
    assert (bdir.backend, bdir.arch, bdir.path) == (
        "emulator",
        ARCH_NAMES[0],
        tmp_path / f"emulator-{ARCH_NAMES[0]}",
    )
    ((cmd, env),) = fake.ran
    assert cmd == [str(bdir.path / "bin" / "tile_tutorial_naive_gemm"), "1", "512"]
    assert env["CK_TILE_EMU_PROFILE"] == "1"


def test_run_with_archs_picks_the_first_given(tmp_path: Path, compiler):
    fake = Fake()
    req = Request("t", archs="gfx950,gfx942", build_root=tmp_path)
    assert run(req, builder=fake.builder, runner=fake.runner) == 0
    assert fake.built[0][0].arch == "gfx950"


def test_run_on_hip_cpu_uses_the_targets_hip_build_dir(tmp_path: Path, compiler):
    # the build dir nox -s build -- --backend hip uses: the shared one, or the arch's own for a
    # target that computes with 8-bit floats; hip-cpu is told the arch
    fake = Fake()
    req = Request(
        "tile_example_layernorm2d_fwd", archs="gfx950", build_root=tmp_path, backend="hip"
    )
    assert run(req, builder=fake.builder, runner=fake.runner) == 0
    req = Request("tile_example_gemm_basic", archs="gfx950", build_root=tmp_path, backend="hip")
    assert run(req, builder=fake.builder, runner=fake.runner) == 0
    assert [(b.path.name, b.arch, b.runtime) for b, _ in fake.built] == [
        ("hip-cpu", "gfx950", "cpu"), ("hip-cpu-gfx950", "gfx950", "cpu"),
    ]  # fmt: skip
    assert all(env["CK_TILE_HIP_CPU_ARCH"] == "gfx950" for _, env in fake.ran)
    assert run(Request("nope", build_root=tmp_path, backend="hip"), builder=fake.builder) == 2


def test_run_build_failure_runs_nothing(tmp_path: Path, compiler, capsys: pytest.CaptureFixture):
    fake = Fake(ok=False)
    assert run(Request("t", build_root=tmp_path), builder=fake.builder, runner=fake.runner) == 2
    assert fake.ran == []
    assert "FAILED building t" in capsys.readouterr().out


def test_cli_usage_error(capsys: pytest.CaptureFixture):
    assert cli.main(["profile"]) == 2
    assert "usage: profile <target>" in capsys.readouterr().err
