"""Run one case's binary with a timeout and check its output against the case.

The child runs in its own process group, killed whole (SIGKILL) when the timeout passes, so a
hung binary and anything it started are gone before the next case. Checks, in order: it
started; it finished in time; the exit status (an integer, or ``"nonzero"``; a death by signal
is named); every ``expect`` substring and ``expect_regex`` pattern occurs in stdout+stderr; no
``reject`` substring occurs; stderr has ``stderr_lines`` non-empty lines when that is given.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from ck_tile_nox.cases import Case


@dataclass
class Output:
    command: list[str]
    returncode: int
    stdout: str
    stderr: str
    seconds: float
    timed_out: bool = False

    @property
    def text(self) -> str:
        """stdout then stderr: what the expectations are checked against."""
        sep = "\n" if self.stdout and not self.stdout.endswith("\n") and self.stderr else ""
        return self.stdout + sep + self.stderr

    def tail(self, lines: int = 30) -> str:
        return "\n".join(self.text.splitlines()[-lines:])


def run(
    cmd: Sequence[str],
    timeout: float,
    cwd: Path | None = None,
    env: Mapping[str, str] | None = None,
) -> Output:
    """Run ``cmd`` (with ``env`` added to the environment); kill its process group after
    ``timeout`` seconds. OSError if it cannot start."""
    start = time.monotonic()
    proc = subprocess.Popen(
        list(cmd),
        cwd=cwd,
        env={**os.environ, **env} if env else None,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    timed_out = False
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        timed_out = True
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        try:
            out, err = proc.communicate(timeout=5)
        except subprocess.TimeoutExpired:  # a pipe held open by an escaped grandchild
            proc.kill()
            out, err = b"", b""
    stdout, stderr = (b.decode("utf-8", errors="replace") for b in (out, err))
    return Output(list(cmd), proc.wait(), stdout, stderr, time.monotonic() - start, timed_out)


def _status(rc: int) -> str:
    if rc >= 0:
        return f"exit status {rc}"
    with contextlib.suppress(ValueError):
        return f"killed by {signal.Signals(-rc).name}"
    return f"killed by signal {-rc}"


def check(case: Case, out: Output) -> list[str]:
    """Why the run fails its case; empty when it passes."""
    if out.timed_out:
        return [f"timeout after {case.timeout:g} s"]
    reasons = []
    rc = out.returncode
    if case.returncode == "nonzero":
        if rc <= 0:
            reasons.append(_status(rc) + ("" if rc else ", expected nonzero"))
    elif rc != case.returncode:
        reasons.append(f"{_status(rc)}, expected {case.returncode}")
    reasons += [f"missing {s!r}" for s in case.expect if s not in out.text]
    reasons += [
        f"no match for /{p}/" for p in case.expect_regex if not re.search(p, out.text, re.M)
    ]
    reasons += [f"found rejected {s!r}" for s in case.reject if s in out.text]
    if case.stderr_lines is not None:
        n = sum(1 for line in out.stderr.splitlines() if line.strip())
        if n != case.stderr_lines:
            reasons.append(f"{n} stderr line(s), expected {case.stderr_lines}")
    return reasons
