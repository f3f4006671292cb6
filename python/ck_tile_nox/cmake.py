"""Configure and build one CMake + Ninja build dir, streaming the output into a log file.

Configuring is skipped when the build dir already holds a cache made with the same arguments
(recorded in ``ck_tile_nox.configure.json``); with other arguments it is reconfigured with
``--fresh``. Building uses ``ninja -k 0`` so that one broken target does not hide the others;
afterwards ``ninja -n <target>`` tells which targets are up to date (built) and which are not.
"""

from __future__ import annotations

import json
import re
import subprocess
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ck_tile_nox.matrix import BuildDir

STAMP = "ck_tile_nox.configure.json"
LOG = "ck_tile_nox.log"
_NINJA_STEP = re.compile(r"^\[(\d+)/(\d+)\]")
_UNKNOWN_TARGET = re.compile(r"unknown target '([^']+)'")

OnLine = Callable[[str], None]


@dataclass
class BuildResult:
    """What happened to one build dir; ``failed`` maps target -> reason."""

    path: Path
    targets: list[str]
    configured: bool = True
    failed: dict[str, str] = field(default_factory=dict)
    seconds: float = 0.0
    log: Path | None = None
    tail: str = ""
    skipped_configure: bool = False

    @property
    def ok(self) -> bool:
        return self.configured and not self.failed

    def target_ok(self, target: str) -> bool:
        return self.configured and target not in self.failed


def configure_args(
    repo: Path,
    bdir: BuildDir,
    *,
    compiler: str | None = None,
    cxx_flags: str = "",
    extra: Sequence[str] = (),
    build_type: str = "Release",
) -> list[str]:
    """The ``cmake`` arguments that configure ``bdir`` (without the leading ``cmake``)."""
    args = [
        "-S", str(repo), "-B", str(bdir.path), "-G", "Ninja",
        f"-DCMAKE_BUILD_TYPE={build_type}",
        f"-DCK_TILE_BACKEND={bdir.backend}",
        f"-DGPU_TARGETS={bdir.arch}",
    ]  # fmt: skip
    if compiler:
        args.append(f"-DCMAKE_CXX_COMPILER={compiler}")
    flags = " ".join(f for f in (cxx_flags.strip(), *bdir.defines) if f)
    if flags:
        args.append(f"-DCMAKE_CXX_FLAGS={flags}")
    args.extend(extra)
    return args


def stream(
    cmd: Sequence[str], log: Path, on_line: OnLine | None = None, cwd: Path | None = None
) -> int:
    """Run ``cmd``, appending its merged stdout/stderr to ``log`` and passing each line on."""
    with log.open("a", encoding="utf-8", errors="replace") as fh:
        fh.write(f"$ {' '.join(cmd)}\n")
        fh.flush()
        try:
            proc = subprocess.Popen(
                cmd,
                cwd=cwd,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                text=True,
                errors="replace",
                bufsize=1,
            )
        except OSError as exc:
            fh.write(f"cannot run {cmd[0]}: {exc}\n")
            return 127
        for line in proc.stdout or ():
            fh.write(line)
            if on_line is not None:
                on_line(line.rstrip("\n"))
        return proc.wait()


def log_tail(log: Path, lines: int = 40) -> str:
    """The part of a log that explains a failure: from the first error, else the end."""
    try:
        text = log.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return ""
    for i, line in enumerate(text):
        if line.startswith("FAILED:") or "CMake Error" in line:
            return "\n".join(text[i : i + lines])
    return "\n".join(text[-lines:])


def configure(
    cmake: str, args: Sequence[str], path: Path, on_line: OnLine | None = None
) -> tuple[bool, bool]:
    """Configure unless an identical configuration exists; return (ok, skipped)."""
    path.mkdir(parents=True, exist_ok=True)
    stamp = path / STAMP
    cache = path / "CMakeCache.txt"
    wanted = json.dumps([cmake, *args])
    if cache.is_file() and stamp.is_file() and stamp.read_text() == wanted:
        return True, True
    fresh = ["--fresh"] if cache.is_file() else []
    stamp.unlink(missing_ok=True)
    rc = stream([cmake, *fresh, *args], path / LOG, on_line)
    if rc == 0:
        stamp.write_text(wanted)
    return rc == 0, False


def build_targets(
    cmake: str,
    ninja: str,
    path: Path,
    targets: Sequence[str],
    jobs: int,
    on_line: OnLine | None = None,
) -> dict[str, str]:
    """Build ``targets`` in ``path``; return the failed ones with a reason."""
    failed: dict[str, str] = {}
    pending = list(targets)
    while pending:
        unknown: list[str] = []

        def watch(line: str, unknown: list[str] = unknown) -> None:
            m = _UNKNOWN_TARGET.search(line)
            if m:
                unknown.append(m.group(1))
            if on_line is not None:
                on_line(line)

        cmd = [cmake, "--build", str(path), "--target", *pending, "-j", str(jobs), "--", "-k", "0"]
        rc = stream(cmd, path / LOG, watch)
        if rc == 0:
            break
        known = [t for t in pending if t not in unknown]
        if unknown and known != pending:
            for t in pending:
                if t in unknown:
                    failed[t] = "not a target of this CMake configuration"
            pending = known
            continue
        broken = [t for t in pending if not up_to_date(ninja, path, t)]
        failed.update(dict.fromkeys(broken or pending, f"build failed (exit status {rc})"))
        break
    return failed


def up_to_date(ninja: str, path: Path, target: str) -> bool:
    """Whether ninja has nothing left to do for ``target`` (so its last build succeeded)."""
    out = subprocess.run(
        [ninja, "-C", str(path), "-n", target], capture_output=True, text=True, check=False
    )
    return out.returncode == 0 and "no work to do" in out.stdout


def configure_and_build(
    *,
    cmake: str,
    ninja: str,
    path: Path,
    args: Sequence[str],
    targets: Sequence[str],
    jobs: int,
    on_step: Callable[[int, int], None] | None = None,
) -> BuildResult:
    """Configure (if needed) and build ``targets``; ``on_step(done, total)`` follows ninja."""
    start = time.monotonic()
    path.mkdir(parents=True, exist_ok=True)
    log = path / LOG
    log.write_text("")
    result = BuildResult(path=path, targets=list(targets), log=log)

    ok, result.skipped_configure = configure(cmake, args, path)
    if not ok:
        result.configured = False
        result.failed = dict.fromkeys(targets, "configure failed")
    else:

        def on_line(line: str) -> None:
            m = _NINJA_STEP.match(line)
            if m and on_step is not None:
                on_step(int(m.group(1)), int(m.group(2)))

        result.failed = build_targets(cmake, ninja, path, targets, jobs, on_line)
    if not result.ok:
        result.tail = log_tail(log)
    result.seconds = time.monotonic() - start
    return result
