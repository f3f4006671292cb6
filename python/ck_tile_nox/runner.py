"""Run one binary with a timeout, capturing stdout and stderr.

The child runs in its own process group; when the timeout passes the whole group is killed
(SIGKILL), so a hung binary and anything it started are gone before the next case runs.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

KILL_GRACE = 5.0


@dataclass
class RunOutput:
    command: list[str]
    returncode: int | None
    stdout: str
    stderr: str
    seconds: float
    timed_out: bool = False
    error: str | None = None  # set when the command could not be started

    @property
    def output(self) -> str:
        """stdout followed by stderr (what expectations are checked against)."""
        if self.stdout and self.stderr and not self.stdout.endswith("\n"):
            return f"{self.stdout}\n{self.stderr}"
        return self.stdout + self.stderr

    def tail(self, lines: int = 30) -> str:
        text = self.output if self.error is None else f"{self.output}{self.error}\n"
        return "\n".join(text.splitlines()[-lines:])


def _decode(data: bytes | str | None) -> str:
    if data is None:
        return ""
    if isinstance(data, str):
        return data
    return data.decode("utf-8", errors="replace")


def run_command(
    cmd: Sequence[str],
    *,
    timeout: float,
    cwd: Path | None = None,
    env: Mapping[str, str] | None = None,
) -> RunOutput:
    """Run ``cmd``; kill its process group after ``timeout`` seconds."""
    start = time.monotonic()
    try:
        proc = subprocess.Popen(
            list(cmd),
            cwd=cwd,
            env=None if env is None else dict(env),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )
    except OSError as exc:
        return RunOutput(list(cmd), None, "", "", time.monotonic() - start, error=str(exc))
    try:
        out, err = proc.communicate(timeout=timeout)
        timed_out = False
    except subprocess.TimeoutExpired:
        timed_out = True
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        try:
            out, err = proc.communicate(timeout=KILL_GRACE)
        except subprocess.TimeoutExpired:  # a pipe held open by an escaped grandchild
            proc.kill()
            out, err = b"", b""
            proc.wait()
    return RunOutput(
        command=list(cmd),
        returncode=proc.returncode,
        stdout=_decode(out),
        stderr=_decode(err),
        seconds=time.monotonic() - start,
        timed_out=timed_out,
    )
