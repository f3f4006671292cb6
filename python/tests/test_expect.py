"""Expectation checks, with small Python and shell commands standing in for binaries."""

from __future__ import annotations

import shutil
import sys
import time
from pathlib import Path

import pytest

from ck_tile_nox.cases import Case
from ck_tile_nox.expect import check
from ck_tile_nox.runner import run_command

SRC = Path("cases.toml")


def py(code: str) -> list[str]:
    return [sys.executable, "-c", code]


def outcome(code: str, **case_fields) -> list[str]:
    case = Case(name="c", target="t", source=SRC, **case_fields)
    return check(case, run_command(py(code), timeout=case.timeout))


def test_pass_with_substring_and_regex():
    code = "print('valid:y'); print('Perf: 1.25 ms, 3 TFlops')"
    assert outcome(code, expect=["valid:y"], expect_regex=[r"^Perf: [0-9.]+ ms"]) == []


def test_missing_substring_and_regex():
    reasons = outcome("print('valid:n')", expect=["valid:y"], expect_regex=[r"Perf: \d+"])
    assert reasons == ["missing 'valid:y'", r"no match for /Perf: \d+/"]


def test_expectations_see_stderr_too():
    assert outcome("import sys; sys.stderr.write('valid:y\\n')", expect=["valid:y"]) == []


def test_reject():
    assert outcome("print('valid:n')", reject=["valid:n"]) == ["found rejected 'valid:n'"]


def test_returncode_exact_and_nonzero():
    assert outcome("raise SystemExit(3)") == ["exit status 3, expected 0"]
    assert outcome("raise SystemExit(3)", returncode=3) == []
    assert outcome("raise SystemExit(2)", returncode="nonzero") == []
    assert outcome("pass", returncode="nonzero") == ["exit status 0, expected nonzero"]


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_crash_is_named_even_when_nonzero_is_expected():
    code = "import os, signal; os.kill(os.getpid(), signal.SIGSEGV)"
    assert outcome(code) == ["killed by SIGSEGV, expected 0"]
    assert outcome(code, returncode="nonzero") == ["killed by SIGSEGV"]


def test_stderr_lines():
    bad_input = "import sys; sys.stderr.write('error: -m must be positive\\n\\n'); sys.exit(1)"
    assert outcome(bad_input, returncode="nonzero", stderr_lines=1) == []
    noisy = "import sys; sys.stderr.write('a\\nb\\n'); sys.exit(1)"
    assert outcome(noisy, returncode="nonzero", stderr_lines=1) == ["2 stderr line(s), expected 1"]


def test_timeout_kills_the_process():
    start = time.monotonic()
    reasons = outcome("import time; print('started', flush=True); time.sleep(60)", timeout=0.5)
    assert reasons == ["timeout after 0.5 s"]
    assert time.monotonic() - start < 10


@pytest.mark.skipif(shutil.which("sh") is None, reason="needs sh")
def test_timeout_kills_the_whole_process_group():
    start = time.monotonic()
    out = run_command(["sh", "-c", "sleep 60 & sleep 60; wait"], timeout=0.5)
    assert out.timed_out
    assert time.monotonic() - start < 10


def test_missing_binary():
    case = Case(name="c", target="t", source=SRC)
    out = run_command(["/nonexistent/ck_tile_binary"], timeout=5)
    (reason,) = check(case, out)
    assert reason.startswith("cannot run:")


def test_output_and_tail():
    out = run_command(py("import sys; print('a'); print('b', file=sys.stderr)"), timeout=10)
    assert out.output == "a\nb\n"
    assert out.tail(1) == "b"
