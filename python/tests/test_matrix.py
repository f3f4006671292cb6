from __future__ import annotations

from pathlib import Path

import pytest

from ck_tile_nox.archs import ARCH_NAMES
from ck_tile_nox.build import configure_args
from ck_tile_nox.cases import Target
from ck_tile_nox.matrix import entries, globs, matches, parse_shard, runtime_dir, shard


def test_entries_are_archs_times_axes():
    t = Target(name="t", archs=["gfx950"], matrix={"CK_TILE_ENABLE_X": [0, 1]})
    dirs = entries(t, ["gfx942", "gfx950"], "emulator", Path("b"))
    assert [d.name for d in dirs] == ["emulator-gfx950-x_0", "emulator-gfx950-x_1"]
    assert dirs[1].defines == ["-DCK_TILE_ENABLE_X=1"] and dirs[1].label == "gfx950-x_1"
    full = entries(Target(name="t"), ["gfx942"], "hip", Path("b"), "full")
    assert [(d.name, d.label, d.instances) for d in full] == [("hip-gfx942-full", "gfx942", "full")]


def test_hip_cpu_entries_share_one_build_dir():
    # hip-cpu: one build for every arch (GPU_TARGETS lists them), a case per arch
    t = Target(name="t", matrix={"CK_TILE_ENABLE_X": [0, 1]})
    dirs = entries(t, ["gfx942", "gfx950"], "hip", Path("b"), runtime="cpu")
    assert [(d.name, d.label) for d in dirs] == [
        ("hip-cpu-x_0", "gfx942-x_0"), ("hip-cpu-x_1", "gfx942-x_1"),
        ("hip-cpu-x_0", "gfx950-x_0"), ("hip-cpu-x_1", "gfx950-x_1"),
    ]  # fmt: skip
    assert dirs[0] == dirs[2] and len(set(dirs)) == 2  # one build per dir, whatever the arch
    assert dirs[0].gpu_targets == ("gfx942", "gfx950") and dirs[0].runtime == "cpu"
    only = entries(
        Target(name="t", archs=["gfx950"]), ["gfx942", "gfx950"], "hip", Path("b"), runtime="cpu"
    )
    assert [(d.name, d.arch) for d in only] == [("hip-cpu", "gfx950")]
    one = entries(Target(name="t"), ["gfx942"], "hip", Path("b"), runtime="cpu")
    assert [(d.name, d.gpu_targets) for d in one] == [("hip-cpu-gfx942", ("gfx942",))]


def test_hip_cpu_builds_fp8_targets_once_per_encoding():
    # a build has one fp8_t: FNUZ unless every arch computes with OCP, so gfx942 (FNUZ) and gfx950
    # (OCP) each get a build of a target that computes with 8-bit floats
    dirs = entries(
        Target(name="t", fp8=True), ["gfx942", "gfx950"], "hip", Path("b"), runtime="cpu"
    )
    assert [(d.name, d.arch, d.gpu_targets) for d in dirs] == [
        ("hip-cpu-gfx942", "gfx942", ("gfx942",)), ("hip-cpu-gfx950", "gfx950", ("gfx950",)),
    ]  # fmt: skip
    emu = entries(Target(name="t", fp8=True), ["gfx942", "gfx950"], "emulator", Path("b"))
    assert [d.name for d in emu] == ["emulator-gfx942", "emulator-gfx950"]


def test_hip_cpu_build_dirs_link_one_runtime_build():
    # every hip-cpu dir links hip-cpu's libraries from hip-cpu-runtime, configured alike whichever
    # dir asks first; other backends build no runtime
    t = Target(name="t", fp8=True, matrix={"CK_TILE_ENABLE_X": [0, 1]})
    dirs = entries(t, ["gfx942", "gfx950"], "hip", Path("b"), runtime="cpu")
    shared = runtime_dir(Path("b"))
    assert {d.runtime_from for d in dirs} == {shared}
    assert shared.path == Path("b/hip-cpu-runtime") and shared.runtime_from is None
    assert shared.gpu_targets == ARCH_NAMES and not shared.axes
    args = configure_args(Path("r"), dirs[0], "clang++-22")
    assert "-DCK_TILE_HIP_CPU_RUNTIME_FROM=b/hip-cpu-runtime" in args
    assert not any("RUNTIME_FROM" in a for a in configure_args(Path("r"), shared, "clang++-22"))
    assert all(d.runtime_from is None for d in entries(t, ["gfx942"], "emulator", Path("b")))


def test_globs():
    assert globs(["a,b", " c "]) == ["a", "b", "c"]
    assert matches("tile_x", []) and matches("tile_x", ["tile_*"]) and not matches("x", ["y*"])
    assert not matches("tile_x", ["!tile_x"]) and matches("tile_y", ["!tile_x"])
    assert matches("tile_y", ["tile_*", "!tile_x"]) and not matches("tile_x", ["tile_*", "!*x"])


@pytest.mark.parametrize("text", ["0/2", "3/2", "1", "a/b"])
def test_bad_shards(text: str):
    with pytest.raises(ValueError, match="I/N"):
        parse_shard(text)


@pytest.mark.parametrize(("units", "cases", "count"), [(5, 3, 2), (5, 1, 5), (2, 7, 5), (1, 3, 4)])
def test_shards_run_every_case_once(units: int, cases: int, count: int):
    work = [((f"dir{u}", "t"), f"u{u}c{c}") for u in range(units) for c in range(cases)]
    parts = [shard(work, i, count) for i in range(1, count + 1)]
    assert sorted(i for p in parts for i in p) == sorted(i for _, i in work)
    if units >= count:  # each unit (one compile) on one shard only
        for p in parts:
            assert {i[: i.index("c")] for i in p}.isdisjoint(
                {i[: i.index("c")] for q in parts if q is not p for i in q}
            )


def test_hip_cpu_configure_args():
    from ck_tile_nox.build import configure_args

    (d, *_) = entries(Target(name="t"), ["gfx942", "gfx950"], "hip", Path("b"), runtime="cpu")
    args = configure_args(Path("repo"), d, "clang++-22")
    assert "-DGPU_TARGETS=gfx942;gfx950" in args and args[:2] == ["--preset", "hip-cpu"]
    (e, *_) = entries(Target(name="t"), ["gfx942"], "emulator", Path("b"))
    args = configure_args(Path("repo"), e, "clang++-22")
    assert "-DGPU_TARGETS=gfx942" in args and args[:2] == ["--preset", "emulator-gfx942"]


def test_bench_backends_option():
    from ck_tile_nox.cli import _backends

    assert _backends(["-q", "--backend", "emulator,hip", "--rounds", "1"]) == (
        ["emulator", "hip"],
        ["-q", "--rounds", "1"],
    )
    assert _backends(["--backend=hip"]) == (["hip"], [])


def test_every_build_dir_starts_from_a_preset_of_its_kind():
    import json

    presets = json.loads((Path(__file__).resolve().parents[2] / "CMakePresets.json").read_text())
    by_name = {p["name"]: p for p in presets["configurePresets"]}

    def cache(name: str) -> dict[str, str]:  # a preset's variables, its parents' first
        p = by_name[name]
        parent = cache(p["inherits"]) if "inherits" in p else {}
        return {**parent, **p.get("cacheVariables", {})}

    t = Target(name="t", matrix={"CK_TILE_ENABLE_X": [0, 1]})
    dirs = [
        *entries(t, list(ARCH_NAMES), "emulator", Path("b")),
        *entries(t, list(ARCH_NAMES), "hip", Path("b"), runtime="cpu"),
        *entries(t, list(ARCH_NAMES), "hip", Path("b"), runtime="rocm"),
        runtime_dir(Path("b")),
    ]
    for d in dirs:
        args = configure_args(Path("r"), d, "clang++-22")
        name = args[args.index("--preset") + 1]
        want = {
            "CK_TILE_BACKEND": d.backend,
            **({"CK_TILE_HIP_RUNTIME": d.runtime} if d.runtime else {}),
        }
        assert want.items() <= cache(name).items(), (d.name, name)
        assert (
            f"-DGPU_TARGETS={';'.join(d.gpu_targets or (d.arch,))}" in args
        )  # the dir's own archs
    assert {f"emulator-{a}" for a in ARCH_NAMES} <= set(by_name)  # one per arch of the arch table
