"""Configure and build one CMake + Ninja build dir with a progress bar; tools; build times.

Configuring is skipped when the build dir holds a cache made with the same arguments (kept in
``ck_tile_nox.configure.json``); other arguments reconfigure it with ``--fresh``. Ninja runs
with ``-k 0`` so one broken target does not hide the others; afterwards ``ninja -n <target>``
tells which targets are up to date. Output goes to ``<build dir>/ck_tile_nox.log``. Each
target's build time is read from ninja's ``.ninja_log`` (the sum of the steps of its objects
and binary run by this build; a ccache hit shows as a short step, an up-to-date target as none).

A build holds a lock on its build dir (pytest-xdist's workers: one builds, the others wait and
find it up to date). A hip-cpu build dir that links another's hip-cpu libraries
(``runtime_from``) builds those first.

Missing tools are never installed here: :func:`require` names them with the one command that
installs everything (``bash script/install-deps.sh``).
"""

from __future__ import annotations

import fcntl
import json
import re
import shutil
import subprocess
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from ck_tile_nox.matrix import RUNTIME_TARGETS, BuildDir

INSTALL = "bash script/install-deps.sh"
LOG = "ck_tile_nox.log"
LOCK = "ck_tile_nox.lock"
STAMP = "ck_tile_nox.configure.json"
PROFILES = ("ci", "full")
console = Console(stderr=True, highlight=False)


class ToolError(Exception):
    """A required tool is missing."""


def require(*names: str) -> dict[str, str]:
    """``{name: path}``; each name may be ``a|b`` (first found). ToolError names the fix."""
    found, missing = {}, []
    for name in names:
        path = next((p for c in name.split("|") if (p := shutil.which(c))), None)
        if path:
            found[name.split("|")[0]] = path
        else:
            missing.append(name.replace("|", " or "))
    if missing:
        raise ToolError(f"not found: {', '.join(missing)}; to install them: {INSTALL}")
    return found


@dataclass
class Result:
    """What happened to one build dir; ``failed`` maps target -> reason."""

    path: Path
    failed: dict[str, str] = field(default_factory=dict)
    tail: str = ""
    times: dict[str, float] = field(default_factory=dict)

    def ok(self, target: str | None = None) -> bool:
        return not self.failed if target is None else target not in self.failed


def preset(bdir: BuildDir) -> str:
    """The configure preset of CMakePresets.json that ``bdir`` starts from."""
    if bdir.backend == "emulator":
        return f"emulator-{bdir.arch}"
    return "hip-cpu" if bdir.runtime == "cpu" else "hip"


def configure_args(
    repo: Path, bdir: BuildDir, compiler: str, cxx_flags: str = "", extra: Sequence[str] = ()
) -> list[str]:
    """The preset of ``bdir`` (generator, build type, backend, runtime), and what this build dir
    sets itself: its path, archs, instance profile, compiler, axes and flags."""
    flags = " ".join(f for f in (cxx_flags.strip(), *bdir.defines) if f)
    gpu_targets = ";".join(bdir.gpu_targets or (bdir.arch,))
    runtime_path = bdir.runtime_from.path if bdir.runtime_from else None
    return [
        "--preset", preset(bdir), "-S", str(repo), "-B", str(bdir.path),
        f"-DGPU_TARGETS={gpu_targets}", f"-DCK_TILE_INSTANCES={bdir.instances}",
        f"-DCMAKE_CXX_COMPILER={compiler}",
        *([f"-DCK_TILE_HIP_CPU_RUNTIME_FROM={runtime_path}"] if runtime_path else []),
        *([f"-DCMAKE_CXX_FLAGS={flags}"] if flags else []), *extra,
    ]  # fmt: skip


def _stream(cmd: Sequence[str], log: Path, progress: Progress, task: object) -> int:
    """Run ``cmd`` into ``log``; ninja's ``[done/total]`` lines move the bar."""
    with log.open("a", encoding="utf-8", errors="replace") as fh:
        fh.write(f"$ {' '.join(cmd)}\n")
        fh.flush()
        proc = subprocess.Popen(
            cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace"
        )
        for line in proc.stdout or ():
            fh.write(line)
            if m := re.match(r"^\[(\d+)/(\d+)\]", line):
                progress.update(task, completed=int(m[1]), total=int(m[2]))  # type: ignore[arg-type]
        return proc.wait()


def _tail(log: Path, lines: int = 40) -> str:
    text = log.read_text(encoding="utf-8", errors="replace").splitlines()
    first = next(
        (i for i, ln in enumerate(text) if ln.startswith(("FAILED:", "CMake Error"))), None
    )
    return "\n".join(text[first : first + lines] if first is not None else text[-lines:])


def ninja_log_lines(path: Path) -> int:
    log = path / ".ninja_log"
    return len(log.read_text().splitlines()) if log.is_file() else 0


def ninja_times(path: Path, targets: Sequence[str], since: int = 1) -> dict[str, float]:
    """Seconds of each target's steps run in this build (``.ninja_log`` v5 lines from ``since``
    on; a target with none was up to date)."""
    last: dict[str, float] = {}
    log = path / ".ninja_log"
    for line in log.read_text().splitlines()[max(since, 1) :] if log.is_file() else ():
        parts = line.split("\t")
        if len(parts) == 5:  # start, end (ms), mtime, output, hash; later lines win
            last[parts[3]] = (int(parts[1]) - int(parts[0])) / 1000
    times: dict[str, float] = defaultdict(float)
    for output, seconds in last.items():
        for t in targets:
            if f"CMakeFiles/{t}.dir/" in output or output.endswith(f"bin/{t}"):
                times[t] += seconds
    return dict(times)


def build(
    repo: Path,
    bdir: BuildDir,
    targets: Sequence[str],
    *,
    compiler: str,
    jobs: int,
    cxx_flags: str = "",
    extra: Sequence[str] = (),
) -> Result:
    """Configure (when needed) and build ``targets`` in ``bdir``, showing a progress bar."""
    if bdir.runtime_from:  # hip-cpu's libraries first, in the build dir they come from
        res = build(repo, bdir.runtime_from, RUNTIME_TARGETS, compiler=compiler, jobs=jobs)
        if not res.ok():
            return Result(bdir.path, dict.fromkeys(targets, "hip-cpu's libraries failed"), res.tail)
    bdir.path.mkdir(parents=True, exist_ok=True)
    with (bdir.path / LOCK).open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        return _build_locked(repo, bdir, targets, compiler, jobs, cxx_flags, extra)


def _build_locked(
    repo: Path,
    bdir: BuildDir,
    targets: Sequence[str],
    compiler: str,
    jobs: int,
    cxx_flags: str,
    extra: Sequence[str],
) -> Result:
    tools = require("cmake", "ninja|ninja-build")
    path = bdir.path
    log = path / LOG
    log.write_text("")
    result = Result(path)
    args = [tools["cmake"], *configure_args(repo, bdir, compiler, cxx_flags, extra)]
    stamp, cache = path / STAMP, path / "CMakeCache.txt"
    logged = ninja_log_lines(path)
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn())
    with Progress(*columns, TimeElapsedColumn(), console=console, transient=True) as progress:
        task = progress.add_task(f"{bdir.name}: {', '.join(targets)}", total=None)
        if not (cache.is_file() and stamp.is_file() and stamp.read_text() == json.dumps(args)):
            stamp.unlink(missing_ok=True)
            fresh = ["--fresh"] if cache.is_file() else []
            if _stream([args[0], *fresh, *args[1:]], log, progress, task) != 0:
                return Result(path, dict.fromkeys(targets, "configure failed"), _tail(log))
            stamp.write_text(json.dumps(args))
        cmd = [tools["cmake"], "--build", str(path), "-j", str(jobs), "--target", *targets]
        if _stream([*cmd, "--", "-k", "0"], log, progress, task) != 0:
            for t in targets:
                dry = subprocess.run(
                    [tools["ninja"], "-C", str(path), "-n", t],
                    capture_output=True,
                    text=True,
                    check=False,
                )
                if dry.returncode != 0 or "no work to do" not in dry.stdout:
                    result.failed[t] = "build failed" if dry.returncode == 0 else "no such target"
            result.failed = result.failed or dict.fromkeys(targets, "build failed")
            result.tail = _tail(log)
    result.times = ninja_times(path, targets, since=logged)
    return result
