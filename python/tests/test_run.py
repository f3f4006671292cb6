from __future__ import annotations

import sys

import pytest

from ck_tile_nox.cases import Case
from ck_tile_nox.run import check, run

PY = sys.executable


def _case(**kw) -> Case:
    return Case(name="c", **kw)


def test_pass_and_expectations():
    out = run([PY, "-c", "import sys; print('valid:y Perf'); print('oops', file=sys.stderr)"], 30)
    assert check(_case(expect=["valid:y"], expect_regex=["^oops$"], stderr_lines=1), out) == []
    reasons = check(_case(expect=["nope"], reject=["Perf"], stderr_lines=0, returncode=1), out)
    assert reasons == ["exit status 0, expected 1", "missing 'nope'", "found rejected 'Perf'",
                       "1 stderr line(s), expected 0"]  # fmt: skip


def test_nonzero_and_signals():
    assert check(_case(returncode="nonzero"), run([PY, "-c", "exit(3)"], 30)) == []
    killed = run([PY, "-c", "import os; os.kill(os.getpid(), 9)"], 30)
    assert check(_case(returncode="nonzero"), killed) == ["killed by SIGKILL"]


def test_timeout_kills_the_process_group():
    out = run([PY, "-c", "import time; time.sleep(30)"], 0.5)
    assert out.timed_out and check(_case(timeout=0.5), out) == ["timeout after 0.5 s"]


def test_a_missing_binary_raises():
    with pytest.raises(OSError):
        run(["/nonexistent/binary"], 1)


def test_env_is_added_to_the_environment(monkeypatch):
    monkeypatch.setenv("CK_TILE_TEST_KEPT", "kept")
    code = "import os; print(os.environ['CK_TILE_TEST_ADDED'], os.environ['CK_TILE_TEST_KEPT'])"
    out = run([sys.executable, "-c", code], 30, env={"CK_TILE_TEST_ADDED": "added"})
    assert out.returncode == 0 and out.stdout.split() == ["added", "kept"]
    case = Case(name="c", env={"CK_TILE_FMHA_LLC_CACHE_MB": "1"})
    assert case.env == {"CK_TILE_FMHA_LLC_CACHE_MB": "1"}
