from __future__ import annotations

from pathlib import Path

from ck_tile_nox.cases import Case, Target
from ck_tile_nox.matrix import (
    MatrixEntry,
    build_dir_name,
    expand,
    short_axis_names,
    target_entries,
)

AXIS = "CK_TILE_ENABLE_TRANSPOSED_C_DISTRIBUTION"
SRC = Path("cases.toml")


def make_targets() -> list[Target]:
    gemm = Target(
        name="gemm",
        source=SRC,
        matrix={AXIS: (0, 1)},
        cases=(
            Case(name="both", target="gemm", source=SRC),
            Case(name="only0", target="gemm", source=SRC, matrix={AXIS: (0,)}),
            Case(name="only950", target="gemm", source=SRC, archs=("gfx950",)),
        ),
    )
    copy = Target(name="copy", source=SRC, cases=(Case(name="small", target="copy", source=SRC),))
    return [gemm, copy]


def test_entries_of_a_target():
    gemm, copy = make_targets()
    assert target_entries(gemm, ["gfx942", "gfx950"]) == [
        MatrixEntry("gfx942", ((AXIS, 0),)),
        MatrixEntry("gfx942", ((AXIS, 1),)),
        MatrixEntry("gfx950", ((AXIS, 0),)),
        MatrixEntry("gfx950", ((AXIS, 1),)),
    ]
    assert target_entries(copy, ["gfx942"]) == [MatrixEntry("gfx942")]
    only950 = Target(name="x", source=SRC, archs=("gfx950",))
    assert [e.arch for e in target_entries(only950, ["gfx942", "gfx950"])] == ["gfx950"]


def test_build_dirs_are_grouped_and_named(tmp_path: Path):
    plan = expand(
        make_targets(), backend="emulator", archs=["gfx942", "gfx950"], build_root=tmp_path
    )
    names = [d.name for d in plan.build_dirs]
    assert names == [
        "emulator-gfx942",
        "emulator-gfx942-transposed_c_distribution_0",
        "emulator-gfx942-transposed_c_distribution_1",
        "emulator-gfx950",
        "emulator-gfx950-transposed_c_distribution_0",
        "emulator-gfx950-transposed_c_distribution_1",
    ]
    by_name = {d.name: d for d in plan.build_dirs}
    assert by_name["emulator-gfx942"].targets == ["copy"]
    assert by_name["emulator-gfx950-transposed_c_distribution_1"].targets == ["gemm"]
    assert by_name["emulator-gfx942-transposed_c_distribution_1"].defines == [f"-D{AXIS}=1"]
    assert all(d.path.parent == tmp_path for d in plan.build_dirs)


def test_runs_follow_case_restrictions(tmp_path: Path):
    plan = expand(
        make_targets(), backend="emulator", archs=["gfx942", "gfx950"], build_root=tmp_path
    )
    ids = sorted(r.id for r in plan.runs)
    assert ids == sorted(
        [
            f"gemm/both[gfx942,{AXIS}=0]",
            f"gemm/both[gfx942,{AXIS}=1]",
            f"gemm/both[gfx950,{AXIS}=0]",
            f"gemm/both[gfx950,{AXIS}=1]",
            f"gemm/only0[gfx942,{AXIS}=0]",
            f"gemm/only0[gfx950,{AXIS}=0]",
            f"gemm/only950[gfx950,{AXIS}=0]",
            f"gemm/only950[gfx950,{AXIS}=1]",
            "copy/small[gfx942]",
            "copy/small[gfx950]",
        ]
    )
    run = next(r for r in plan.runs if r.id == "copy/small[gfx950]")
    assert run.binary == tmp_path / "emulator-gfx950" / "bin" / "copy"


def test_filters(tmp_path: Path):
    targets = make_targets()
    plan = expand(
        targets, backend="hip", archs=["gfx942"], build_root=tmp_path, target_globs=["co*"]
    )
    assert [d.name for d in plan.build_dirs] == ["hip-gfx942"]
    assert [r.id for r in plan.runs] == ["copy/small[gfx942]"]
    plan = expand(
        targets, backend="hip", archs=["gfx942"], build_root=tmp_path, case_globs=["only*"]
    )
    assert [t.name for t in plan.targets] == ["gemm"]
    assert {r.case.name for r in plan.runs} == {"only0"}
    plan = expand(
        targets, backend="hip", archs=["gfx942"], build_root=tmp_path, case_globs=["copy/*"]
    )
    assert [r.id for r in plan.runs] == ["copy/small[gfx942]"]


def test_short_names_and_clashes():
    assert short_axis_names(["CK_TILE_ENABLE_FOO", "BAR_BAZ"]) == {
        "CK_TILE_ENABLE_FOO": "foo",
        "BAR_BAZ": "bar_baz",
    }
    assert short_axis_names(["CK_TILE_FOO", "FOO"]) == {"CK_TILE_FOO": "ck_tile_foo", "FOO": "foo"}
    assert build_dir_name("emulator", "gfx950", (("B", "x"), ("A", 1))) == "emulator-gfx950-a_1-b_x"
