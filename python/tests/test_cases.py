from __future__ import annotations

from pathlib import Path

import pytest

from ck_tile_nox.cases import CasesError, find_cases_files, load_targets, parse_cases_file

FULL = """
[target]
name = "tile_tutorial_copy_kernel"
archs = ["gfx942", "gfx950"]
[target.matrix]
CK_TILE_ENABLE_TRANSPOSED_C_DISTRIBUTION = [0, 1]
[target.device_check]
require_instructions = ["v_mfma_f32_32x32x8_f16"]

[[case]]
name = "fp16_256x512"
args = ["-m=256", "-n=512", "-prec=fp16", "-v=1"]
emulator_args = ["-m=64", "-n=64", "-prec=fp16", "-v=1"]
expect = ["valid:y"]
expect_regex = ['Perf: [0-9.]+ ms']
reject = ["valid:n"]
returncode = 0
timeout = 120
archs = ["gfx950"]
matrix = { CK_TILE_ENABLE_TRANSPOSED_C_DISTRIBUTION = 0 }
bench = true

[[case]]
name = "bad_input"
args = ["-m=-1"]
returncode = "nonzero"
stderr_lines = 1
"""


def errors_of(write_cases, text: str) -> list[str]:
    path = write_cases("tutorial/x", text)
    with pytest.raises(CasesError) as info:
        parse_cases_file(path)
    assert all(e.startswith(f"{path}: ") for e in info.value.errors)
    return info.value.errors


def test_full_file_parses(write_cases):
    (target,) = parse_cases_file(write_cases("tutorial/ck_tile/00_copy", FULL))
    assert target.name == "tile_tutorial_copy_kernel"
    assert target.archs == ("gfx942", "gfx950")
    assert target.matrix == {"CK_TILE_ENABLE_TRANSPOSED_C_DISTRIBUTION": (0, 1)}
    assert target.instructions_for("gfx942") == ("v_mfma_f32_32x32x8_f16",)
    first, second = target.cases
    assert first.args_for("hip") == ("-m=256", "-n=512", "-prec=fp16", "-v=1")
    assert first.args_for("emulator") == ("-m=64", "-n=64", "-prec=fp16", "-v=1")
    assert first.timeout == 120.0 and first.bench is True
    assert first.applies_to("gfx950", {"CK_TILE_ENABLE_TRANSPOSED_C_DISTRIBUTION": 0})
    assert not first.applies_to("gfx950", {"CK_TILE_ENABLE_TRANSPOSED_C_DISTRIBUTION": 1})
    assert not first.applies_to("gfx942", {"CK_TILE_ENABLE_TRANSPOSED_C_DISTRIBUTION": 0})
    assert second.returncode == "nonzero" and second.stderr_lines == 1
    assert second.timeout == 300.0 and second.emulator_args is None
    assert second.args_for("emulator") == ("-m=-1",)


def test_minimal_file_defaults(write_cases):
    (target,) = parse_cases_file(write_cases("example/a", '[target]\nname = "t"\n'))
    assert target.archs is None and target.valid_on("gfx90a")
    assert target.matrix == {} and target.cases == ()


def test_discovery_walks_the_three_trees(tmp_path: Path, write_cases):
    write_cases("tutorial/ck_tile/00_copy", '[target]\nname = "a"\n')
    write_cases("example/ck_tile/03_gemm", '[target]\nname = "b"\n')
    write_cases("client_example/25_wrapper", '[target]\nname = "c"\n')
    write_cases("include/not_here", '[target]\nname = "d"\n')
    assert len(find_cases_files(tmp_path)) == 3
    assert [t.name for t in load_targets(tmp_path)] == ["c", "b", "a"]


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ('[target]\nname = "t"\nnmae = "x"\n', "target.nmae: unknown key"),
        (
            '[target]\nname = "t"\n[[case]]\nname = "c"\nexpct = ["x"]\n',
            "case[0] 'c'.expct: unknown key",
        ),
        (
            '[target]\nname = "t"\n[[case]]\nname = "c"\nargs = "-m=1"\n',
            "case[0] 'c'.args: must be a list of strings",
        ),
        (
            '[target]\nname = "t"\n[[case]]\nname = "c"\nreturncode = "bad"\n',
            'returncode: must be an integer or "nonzero"',
        ),
        (
            '[target]\nname = "t"\n[[case]]\nname = "c"\nreturncode = true\n',
            "returncode: must be an integer",
        ),
        (
            '[target]\nname = "t"\n[[case]]\nname = "c"\ntimeout = -1\n',
            "timeout: must be a positive number",
        ),
        (
            '[target]\nname = "t"\n[[case]]\nname = "c"\nstderr_lines = "1"\n',
            "stderr_lines: must be an integer",
        ),
        ('[target]\nname = "t"\n[[case]]\nname = "c"\nbench = 1\n', "bench: must be true or false"),
        (
            '[target]\nname = "t"\n[[case]]\nname = "c"\nexpect_regex = ["(unclosed"]\n',
            "expect_regex[0]: invalid regex",
        ),
        ('[target]\nname = "t"\narchs = ["sm_90"]\n', "target.archs: invalid value"),
        (
            '[target]\nname = "t"\narchs = ["gfx942"]\n[[case]]\nname = "c"\narchs = ["gfx950"]\n',
            "not among the target's archs",
        ),
        (
            '[target]\nname = "t"\n[target.matrix]\nA = 0\n',
            "target.matrix.A: must be a non-empty list",
        ),
        ('[target]\nname = "t"\n[target.matrix]\nA = [0, 0]\n', "lists a value twice"),
        ('[target]\nname = "t"\n[target.matrix]\n"-bad" = [0]\n', "C identifier"),
        (
            '[target]\nname = "t"\n[target.matrix]\nA = [0, 1]\n[[case]]\nname = "c"\nmatrix = { B = 0 }\n',
            "case[0] 'c'.matrix.B: not an axis",
        ),
        (
            '[target]\nname = "t"\n[target.matrix]\nA = [0, 1]\n[[case]]\nname = "c"\nmatrix = { A = 2 }\n',
            "[2] not among the axis values",
        ),
        (
            '[target]\nname = "t"\n[target.device_check]\nrequire = ["x"]\n',
            "target.device_check.require: unknown key",
        ),
        (
            '[target]\nname = "t"\n[[case]]\nname = "c"\n[[case]]\nname = "c"\n',
            "duplicate case name 'c'",
        ),
        ('[[case]]\nname = "c"\n', "target: missing"),
        ('[target]\nname = "t"\n[other]\n', "other: unknown top-level key"),
        ("[target]\nname = 3\n", "target.name: must be a non-empty string"),
        ('[target]\nname = "t"\n[[case]]\nargs = []\n', "case[0].name: must be a non-empty string"),
    ],
)
def test_validation_errors_name_file_and_key(write_cases, text: str, needle: str):
    errors = errors_of(write_cases, text)
    assert any(needle in e for e in errors), errors


def test_every_error_is_reported(write_cases):
    text = '[target]\nname = "t"\nbogus = 1\n[[case]]\nname = "c"\nargs = 1\ntimeout = "x"\n'
    assert len(errors_of(write_cases, text)) == 3


def test_toml_syntax_error(write_cases):
    (error,) = errors_of(write_cases, "[target\nname = 1\n")
    assert "cases.toml: not valid TOML" in error


def test_duplicate_target_across_files(tmp_path: Path, write_cases):
    write_cases("tutorial/a", '[target]\nname = "same"\n')
    write_cases("tutorial/b", '[target]\nname = "same"\n')
    with pytest.raises(CasesError) as info:
        load_targets(tmp_path)
    (error,) = info.value.errors
    assert error.startswith(str(Path("tutorial/b/cases.toml")))
    assert "already declared in tutorial/a/cases.toml" in error


def test_several_targets_in_one_folder(write_cases):
    text = """
    [[target]]
    name = "tile_example_gemm_basic"
    [[target]]
    name = "tile_example_gemm_universal"
    [target.device_check.require_instructions]
    gfx950 = ["v_mfma_f32_32x32x16_f16"]

    [[case]]
    name = "basic"
    target = "tile_example_gemm_basic"
    [[case]]
    name = "universal"
    target = "tile_example_gemm_universal"
    """
    basic, universal = parse_cases_file(write_cases("example/ck_tile/03_gemm", text))
    assert [c.name for c in basic.cases] == ["basic"]
    assert [c.name for c in universal.cases] == ["universal"]
    assert universal.instructions_for("gfx950") == ("v_mfma_f32_32x32x16_f16",)
    assert universal.instructions_for("gfx942") == ()


def test_several_targets_need_case_target(write_cases):
    text = '[[target]]\nname = "a"\n[[target]]\nname = "b"\n[[case]]\nname = "c"\n'
    assert any("case[0] 'c'.target: required" in e for e in errors_of(write_cases, text))
    text = '[[target]]\nname = "a"\n[[target]]\nname = "b"\n[[case]]\nname = "c"\ntarget = "z"\n'
    assert any("no target named 'z'" in e for e in errors_of(write_cases, text))
