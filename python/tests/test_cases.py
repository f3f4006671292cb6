from __future__ import annotations

from pathlib import Path

import pytest

from ck_tile_nox.cases import CasesError, load_targets, parse_cases_file

REPO = Path(__file__).resolve().parents[2]
HEAD = '[target]\nname = "t"\narchs = ["gfx942", "gfx950"]\nmatrix = { AXIS = [0, 1] }\n'


def test_defaults_fill_what_a_case_does_not_say(write_cases):
    path = write_cases(
        "a",
        HEAD
        + """
[defaults]
expect = ["valid:y"]
timeout = 5
[[case]]
name = "one"
[[case]]
name = "two"
expect = []
""",
    )
    (t,) = parse_cases_file(path)
    assert [(c.name, c.expect, c.timeout) for c in t.cases] == [
        ("one", ["valid:y"], 5.0),
        ("two", [], 5.0),
    ]


def test_a_product_expands_in_order_and_splices_lists(write_cases):
    path = write_cases(
        "a",
        HEAD
        + """
[[product]]
name = "{p}_{m}x{n}"
args = ["-p={p}", "{more}", "-m={m}"]
vary.p = ["x", "y"]
vary.size = [{ m = 1, n = 2, more = [] }, { m = 3, n = 4, more = ["-a", "-b"] }]
""",
    )
    (t,) = parse_cases_file(path)
    assert [(c.name, c.args) for c in t.cases] == [
        ("x_1x2", ["-p=x", "-m=1"]),
        ("x_3x4", ["-p=x", "-a", "-b", "-m=3"]),
        ("y_1x2", ["-p=y", "-m=1"]),
        ("y_3x4", ["-p=y", "-a", "-b", "-m=3"]),
    ]


@pytest.mark.parametrize(
    ("body", "where"),
    [
        (
            '[[case]]\nname = "a"\n\n[[case]]\nname = "b"\nrejct = ["x"]\n',
            ":10: case.1.rejct: unknown key",
        ),
        ('[[case]]\nname = "a"\ntimeout = -1\n', ":7: case.0.timeout"),
        ('[[case]]\nname = "a"\narchs = ["gfx1"]\n', ":7: case.0.archs"),
        ('[[case]]\nname = "a"\nmatrix = { AXIS = 2 }\n', "not among [0, 1]"),
        ('[[case]]\nname = "a"\n[[case]]\nname = "a"\n', "duplicate case name"),
        ('[[product]]\nname = "{q}"\nvary.p = [1]\n', ":6: product.0.name"),
        ('[[case]]\nname = "a"\nexpect_regex = ["("]\n', "expect_regex"),
        ("[frobs]\n", ":5: frobs: unknown key"),
    ],
)
def test_errors_name_the_file_and_line(write_cases, body: str, where: str):
    path = write_cases("a", HEAD + body)
    with pytest.raises(CasesError) as exc:
        parse_cases_file(path, "a/cases.toml")
    assert where in str(exc.value), str(exc.value)
    assert str(exc.value).startswith("a/cases.toml:")


def test_every_error_of_every_file_is_reported(tmp_path, write_cases):
    write_cases("tutorial/a", HEAD + "[[case]]\nname = 1\n")
    write_cases("tutorial/b", HEAD.replace('"t"', '"u"') + '[[case]]\nname = "x"\nbench = 3\n')
    with pytest.raises(CasesError) as exc:
        load_targets(tmp_path)
    assert len(exc.value.errors) == 2


def test_the_repository_files_load():
    counts = {t.name: len(t.cases) for t in load_targets(REPO)}
    assert (
        counts["tile_example_gemm_basic"] == 250
    )  # fp16/fp8 x 4 layouts x 2 pipelines x 4 sizes + bf16 8 + 12 + bf8/int8 24 + smoke 40 + split-K 57 + 45
    assert all(counts.values())


def test_the_schema_file_is_the_models():
    from ck_tile_nox.cases import SCHEMA_FILE, schema_text

    assert SCHEMA_FILE.read_text() == schema_text(), (
        "python/ck_tile_nox/cases.schema.json is out of date: "
        "python -m ck_tile_nox schema > python/ck_tile_nox/cases.schema.json"
    )


def test_the_schema_describes_what_a_file_may_say():
    from ck_tile_nox.cases import CaseFields, Target, json_schema

    schema = json_schema()
    defs = schema["$defs"]
    assert set(schema["properties"]) == {"target", "defaults", "case", "product"}
    assert schema["properties"]["case"]["items"] == {"$ref": "#/$defs/Case"}
    # a case: every case key and its name; not what the loader adds
    assert set(defs["Case"]["properties"]) == set(CaseFields.model_fields) | {"name"}
    assert set(defs["Target"]["properties"]) == set(Target.model_fields) - {"source", "cases"}
    # unknown keys are errors, as in the loader
    assert defs["Case"]["additionalProperties"] is False


def test_every_cases_file_names_the_schema_for_editors():
    from ck_tile_nox.cases import SCHEMA_FILE, find_cases_files

    files = find_cases_files(REPO)
    assert len(files) > 20
    for path in files:
        first = path.read_text().splitlines()[0]
        assert first.startswith("#:schema "), f"{path}: first line {first!r}"
        named = (path.parent / first.removeprefix("#:schema ")).resolve()
        assert named == SCHEMA_FILE.resolve(), path
