"""The pytest plugin on a tiny repository whose 'build' is seeded (no CMake needed)."""

from __future__ import annotations

import sys

import pytest

CASES = """
[target]
name = "tool"
matrix = { AXIS = [0, 1] }
[defaults]
expect = ["ok"]
[[case]]
name = "plain"
args = ["ok"]
[[case]]
name = "fails"
args = ["nope"]
[[case]]
name = "only_1"
args = ["ok"]
matrix = { AXIS = 1 }
[[case]]
name = "big"
args = ["ok"]
instances = "full"
"""


@pytest.fixture
def repo(pytester: pytest.Pytester) -> pytest.Pytester:
    (pytester.path / "tutorial" / "tool").mkdir(parents=True)
    (pytester.path / "tutorial" / "tool" / "cases.toml").write_text(CASES)
    # a 'binary' in every build dir, and a conftest that marks those dirs built
    for axis in (0, 1):
        binary = pytester.path / "build" / f"emulator-gfx942-axis_{axis}" / "bin" / "tool"
        binary.parent.mkdir(parents=True)
        binary.write_text(f"#!{sys.executable}\nimport sys\nprint(sys.argv[1])\n")
        binary.chmod(0o755)
    pytester.makeconftest("""
import pytest
from ck_tile_nox import build, plugin

@pytest.fixture(scope="session")
def ck_builder(request):
    ctx = request.config.stash[plugin._CTX]
    return {b: build.Result(b.path) for b in ctx.needed}
""")
    return pytester


def _run(repo: pytest.Pytester, *args: str) -> pytest.RunResult:
    return repo.runpytest("-p", "ck_tile_nox.plugin", "--backend", "emulator", "--archs",
                          "gfx942", "tutorial", *args)  # fmt: skip


def test_items_run_and_check(repo: pytest.Pytester):
    result = _run(repo, "-ra")
    result.assert_outcomes(passed=3, failed=2, skipped=2)
    result.stdout.fnmatch_lines(
        ["*needs CK_TILE_INSTANCES=full*", "FAILED *fails*gfx942-axis_0*missing*"]
    )


def test_selection_and_ids(repo: pytest.Pytester):
    result = _run(repo, "--co", "-q", "-k", "only_1 or plain and axis_0")
    result.stdout.fnmatch_lines([
        "tutorial/tool/cases.toml::tool::plain[[]gfx942-axis_0[]]",
        "tutorial/tool/cases.toml::tool::only_1[[]gfx942-axis_1[]]",
        "2/7 tests collected*",
    ])  # fmt: skip
    assert "no tests" in _run(repo, "--co", "--cases", "x*").stdout.str()


def test_shards_split_the_items(repo: pytest.Pytester):
    one = _run(repo, "--co", "-q", "--shard", "1/2").stdout.str()
    two = _run(repo, "--co", "-q", "--shard", "2/2").stdout.str()
    assert "3/7 tests collected" in one and "4/7 tests collected" in two
    assert "axis_1" not in one and "axis_0" not in two  # one build dir each
    empty = _run(repo, "--shard", "3/3", "-k", "plain and axis_0")
    assert empty.ret == 0 and "nothing to do" in empty.stdout.str()


def test_xdist_workers_run_the_cases(repo: pytest.Pytester):
    result = _run(repo, "-n", "2", "-ra")
    result.assert_outcomes(passed=3, failed=2, skipped=2)
    result.stdout.fnmatch_lines(["*2 workers*", "FAILED *fails*gfx942-axis_0*missing*"])
    empty = _run(repo, "-n", "2", "--shard", "3/3", "-k", "plain and axis_0")
    assert empty.ret == 0 and "nothing to do" in empty.stdout.str()  # told by the workers
    assert _run(repo, "-n", "2", "-k", "nomatch").ret == pytest.ExitCode.NO_TESTS_COLLECTED


def test_nothing_collected_is_not_success(repo: pytest.Pytester):
    assert _run(repo, "-k", "nomatch").ret == pytest.ExitCode.NO_TESTS_COLLECTED


def test_a_bad_cases_file_names_the_line(repo: pytest.Pytester):
    (repo.path / "tutorial" / "tool" / "cases.toml").write_text(CASES + "[[case]]\nnme = 1\n")
    result = _run(repo, "--co")
    assert result.ret == pytest.ExitCode.INTERRUPTED
    result.stdout.fnmatch_lines(["*tutorial/tool/cases.toml:22: case.4.nme: unknown key*"])


def test_build_only_fails_when_a_build_dir_does_not_build(repo: pytest.Pytester):
    repo.makeconftest("""
from ck_tile_nox import build, plugin

def fake_build(ctx, bdir):
    failed = {"tool": "compile error"} if bdir.name.endswith("axis_1") else {}
    return build.Result(bdir.path, failed=failed, tail="the last lines of the log")

plugin._build = fake_build
""")
    result = _run(repo, "--build-only", "-s")
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    said = result.stderr.str()  # the build console's
    assert "FAILED" in said and "axis_1" in said and "the last lines of the log" in said
    assert _run(repo, "--build-only", "-s", "-k", "axis_0").ret == pytest.ExitCode.OK


def test_racecheck_and_the_junit_report_are_options(repo: pytest.Pytester):
    # the 'binary' prints the variable race detection reads; -k: one case, one build dir
    binary = repo.path / "build" / "emulator-gfx942-axis_0" / "bin" / "tool"
    binary.write_text(
        f"#!{sys.executable}\nimport os\nprint(os.environ.get('CK_TILE_EMU_RACECHECK'))\n"
    )
    (repo.path / "tutorial" / "tool" / "cases.toml").write_text(
        '[target]\nname = "tool"\nmatrix = { AXIS = [0] }\n[[case]]\nname = "race"\nexpect = ["1"]\n'
    )
    assert _run(repo, "--racecheck").ret == pytest.ExitCode.OK
    assert _run(repo).ret == pytest.ExitCode.TESTS_FAILED  # without it, unset
    assert (repo.path / "build" / "reports" / "junit.xml").is_file()  # by default
    (repo.path / "build" / "reports" / "junit.xml").unlink()
    assert _run(repo, "--no-junit", "--racecheck").ret == pytest.ExitCode.OK
    assert not (repo.path / "build" / "reports" / "junit.xml").exists()
