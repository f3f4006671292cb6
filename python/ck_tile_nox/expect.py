"""Check one run's output against what its case expects.

Checks, in order: the command started; it finished within the timeout; the exit status
(an integer, or ``"nonzero"``; a death by signal is named); every ``expect`` substring and
``expect_regex`` pattern (``re.search``, MULTILINE) occurs in stdout+stderr; no ``reject``
substring occurs; and stderr has exactly ``stderr_lines`` non-empty lines when that is given.
"""

from __future__ import annotations

import re
import signal

from ck_tile_nox.cases import Case
from ck_tile_nox.runner import RunOutput


def _status(returncode: int) -> str:
    if returncode < 0:
        try:
            return f"killed by {signal.Signals(-returncode).name}"
        except ValueError:
            return f"killed by signal {-returncode}"
    return f"exit status {returncode}"


def _short(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def check(case: Case, out: RunOutput) -> list[str]:
    """The reasons the run fails its case; an empty list means it passed."""
    if out.error is not None:
        return [f"cannot run: {out.error}"]
    if out.timed_out:
        return [f"timeout after {case.timeout:g} s"]
    reasons: list[str] = []
    rc = out.returncode if out.returncode is not None else -1
    if case.returncode == "nonzero":
        if rc == 0:
            reasons.append("exit status 0, expected nonzero")
        elif rc < 0:
            reasons.append(_status(rc))
    elif rc != case.returncode:
        reasons.append(f"{_status(rc)}, expected {case.returncode}")

    text = out.output
    reasons += [f"missing {_short(s)!r}" for s in case.expect if s not in text]
    reasons += [
        f"no match for /{_short(p)}/"
        for p in case.expect_regex
        if not re.search(p, text, re.MULTILINE)
    ]
    reasons += [f"found rejected {_short(s)!r}" for s in case.reject if s in text]
    if case.stderr_lines is not None:
        n = sum(1 for line in out.stderr.splitlines() if line.strip())
        if n != case.stderr_lines:
            reasons.append(f"{n} stderr line(s), expected {case.stderr_lines}")
    return reasons
