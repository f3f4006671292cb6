"""--shard I/N: the shards of a plan together run every case exactly once, each builds only what
it runs, and bad values are rejected with exit status 2."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from ck_tile_nox import cli
from ck_tile_nox.cases import Case, Target, load_targets
from ck_tile_nox.matrix import Plan, expand, parse_shard, shard_plan

REPO = Path(__file__).resolve().parents[2]
AXIS = "CK_TILE_ENABLE_TRANSPOSED_C_DISTRIBUTION"
SRC = Path("cases.toml")


def synthetic_targets() -> list[Target]:
    gemm = Target(
        name="gemm",
        source=SRC,
        matrix={AXIS: (0, 1)},
        cases=tuple(Case(name=f"g{i}", target="gemm", source=SRC) for i in range(5)),
    )
    copy = Target(
        name="copy",
        source=SRC,
        cases=tuple(Case(name=f"c{i}", target="copy", source=SRC) for i in range(7)),
    )
    only950 = Target(
        name="only950",
        source=SRC,
        archs=("gfx950",),
        cases=(Case(name="x", target="only950", source=SRC),),
    )
    no_cases = Target(name="no_cases", source=SRC)
    return [gemm, copy, only950, no_cases]


def plans(tmp_path: Path) -> dict[str, Plan]:
    """Plans of several shapes: many units, one unit, and the repository's own cases."""
    out = {}
    for archs in (["gfx942", "gfx950"], ["gfx942"]):
        out[f"synthetic-{'+'.join(archs)}"] = expand(
            synthetic_targets(), backend="emulator", archs=archs, build_root=tmp_path
        )
    out["one-unit"] = expand(
        synthetic_targets(),
        backend="emulator",
        archs=["gfx942"],
        build_root=tmp_path,
        target_globs=["copy"],
    )
    repo_targets = load_targets(REPO)
    for arch in ("gfx942", "gfx950"):
        out[f"repo-{arch}"] = expand(
            repo_targets, backend="emulator", archs=[arch], build_root=tmp_path
        )
    out["repo-both"] = expand(
        repo_targets, backend="emulator", archs=["gfx942", "gfx950"], build_root=tmp_path
    )
    return out


def check_cover(plan: Plan, count: int) -> list[Plan]:
    shards = [shard_plan(plan, i, count) for i in range(1, count + 1)]
    ran = Counter(r.id for s in shards for r in s.runs)
    assert sorted(ran) == sorted(r.id for r in plan.runs), "every case runs"
    assert set(ran.values()) <= {1}, f"a case runs twice: {[k for k, v in ran.items() if v > 1]}"
    built = {(d.name, t) for s in shards for d in s.build_dirs for t in d.targets}
    assert built == {(d.name, t) for d in plan.build_dirs for t in d.targets}, "all is built"
    for s in shards:
        units = {(d.name, t) for d in s.build_dirs for t in d.targets}
        needed = {(r.build_dir.name, r.target.name) for r in s.runs}
        assert needed <= units, "a shard builds what it runs"
        no_runs = units - needed
        assert all(not any(r.target.name == t for r in plan.runs if r.build_dir.name == d)
                   for d, t in no_runs), "and nothing else, except targets without cases"  # fmt: skip
        for r in s.runs:
            assert r.build_dir in s.build_dirs and r.target.name in r.build_dir.targets
    return shards


@pytest.mark.parametrize("count", [1, 2, 3, 4, 7])
def test_shards_cover_every_case_exactly_once(tmp_path: Path, count: int):
    for name, plan in plans(tmp_path).items():
        assert plan.runs, name
        check_cover(plan, count)


def test_two_shards_of_the_repository_cases(tmp_path: Path):
    plan = plans(tmp_path)["repo-both"]
    one, two = check_cover(plan, 2)
    assert one.runs and two.runs
    assert len(one.runs) + len(two.runs) == len(plan.runs)
    assert not {r.id for r in one.runs} & {r.id for r in two.runs}


def test_three_shards_split_units_and_balance(tmp_path: Path):
    plan = plans(tmp_path)["synthetic-gfx942+gfx950"]
    shards = check_cover(plan, 3)
    units = [sum(len(d.targets) for d in s.build_dirs) for s in shards]
    total = sum(len(d.targets) for d in plan.build_dirs)
    assert sum(units) == total and max(units) - min(units) <= 1


def test_fewer_units_than_shards_split_the_cases(tmp_path: Path):
    plan = plans(tmp_path)["one-unit"]
    assert len(plan.build_dirs) == 1 and len(plan.runs) == 7
    shards = check_cover(plan, 3)
    assert [len(s.runs) for s in shards] == [3, 2, 2]
    assert all(s.build_dirs[0].targets == ["copy"] for s in shards)
    # more shards than cases: the extra shards have nothing to do
    shards = check_cover(plan, 9)
    assert [len(s.runs) for s in shards] == [1] * 7 + [0, 0]
    assert shards[8].build_dirs == []


def test_deterministic(tmp_path: Path):
    plan = plans(tmp_path)["synthetic-gfx942+gfx950"]
    again = expand(
        list(reversed(synthetic_targets())),
        backend="emulator",
        archs=["gfx942", "gfx950"],
        build_root=tmp_path,
    )
    for i in (1, 2, 3):
        assert {r.id for r in shard_plan(plan, i, 3).runs} == {
            r.id for r in shard_plan(again, i, 3).runs
        }


def test_parse_shard():
    assert parse_shard("1/2") == (1, 2)
    assert parse_shard(" 3 / 3 ") == (3, 3)
    for bad in ("0/2", "3/2", "abc", "1/0", "-1/2", "1/", "/2", "1/2/3", "1.5/2", ""):
        with pytest.raises(ValueError, match="expected I/N"):
            parse_shard(bad)


@pytest.mark.parametrize("bad", ["0/2", "3/2", "abc"])
def test_bad_shard_option_exits_2(bad: str, capsys):
    with pytest.raises(SystemExit) as info:
        cli.main(["test", "--backend", "emulator", "--shard", bad])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert "argument --shard: expected I/N with 1 <= I <= N (e.g. 1/2)" in err
    assert repr(bad) in err


def test_shard_option_reaches_every_command():
    for command in ("build", "test", "tests", "device-check", "lint"):
        assert cli.parser().parse_args([command, "--shard", "2/3"]).shard == (2, 3)
