"""``profile <target> [args...]``: one binary under the emulator's access profile.

Builds ``<target>`` in the emulator build dir of one arch, ``<build root>/emulator-<arch>`` (the
dir ``nox -s build`` uses for a target without matrix axes), runs it with
``CK_TILE_EMU_PROFILE=1`` and lets its output through: after each kernel launch the emulator
prints the launch's profile on stderr (README.md, "Access profile"). The arch is the first that
discovery gives for the emulator (``CK_TILE_ARCHS``, else the arch table's first), or the first of
``--archs``.

Options of this command (anywhere; ``--`` ends them, everything after it goes to the binary):
``--archs A[,B]``, ``--build-root DIR`` (default ``build``), ``--jobs N`` (default 2). Every
other argument after the target is the binary's, e.g. ``-m=1024``.

Exit status: the binary's (128 + N when signal N ended it); 2 when there is no target, no
compiler, or the build failed.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ck_tile_nox import build, discovery
from ck_tile_nox.matrix import BuildDir

ENV = "CK_TILE_EMU_PROFILE"
_VALUED = ("--archs", "--build-root", "--jobs")


@dataclass
class Request:
    target: str
    args: list[str] = field(default_factory=list)
    archs: str | None = None
    build_root: Path = Path("build")
    jobs: int = 2


def parse(argv: Sequence[str]) -> Request:
    """The target, its arguments and this command's options; ValueError when unusable."""
    opts: dict[str, str] = {}
    rest: list[str] = []
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == "--":
            rest += argv[i + 1 :]
            break
        name, eq, value = a.partition("=")
        if name in _VALUED:
            if not eq:
                if i + 1 >= len(argv):
                    raise ValueError(f"{name} needs a value")
                i += 1
                value = argv[i]
            opts[name] = value
        else:
            rest.append(a)
        i += 1
    if not rest or rest[0].startswith("-"):
        raise ValueError("usage: profile <target> [args...]")
    try:
        jobs = int(opts.get("--jobs", "2"))
    except ValueError:
        raise ValueError(f"--jobs needs a number, not {opts['--jobs']!r}") from None
    root = Path(opts.get("--build-root", "build"))
    return Request(rest[0], rest[1:], opts.get("--archs"), root, jobs)


def exit_status(rc: int) -> int:
    """A subprocess return code as a shell reports it (a signal N: 128 + N)."""
    return 128 - rc if rc < 0 else rc


def run(
    req: Request,
    *,
    builder: Callable[..., build.Result] = build.build,
    runner: Callable[..., subprocess.CompletedProcess] = subprocess.run,
) -> int:
    """Build and run ``req`` under the profile; the binary's exit status (2: nothing ran)."""
    try:
        plat = discovery.discover(backend="emulator", archs=req.archs, log=lambda _: None)
    except discovery.DiscoveryError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    arch = plat.archs[0]
    compiler = discovery.find_compiler("emulator")
    if compiler is None:
        names = " or ".join(discovery.compiler_candidates("emulator"))
        print(f"error: no compiler ({names}); to install it: {build.INSTALL}", file=sys.stderr)
        return 2
    bdir = BuildDir((req.build_root / f"emulator-{arch}").resolve(), "emulator", arch)
    try:
        res = builder(Path.cwd(), bdir, [req.target], compiler=compiler.path, jobs=req.jobs)
    except build.ToolError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if not res.ok():
        why = res.failed.get(req.target, "build failed")
        print(f"FAILED building {req.target} for {arch}: {why} (log: {bdir.path / build.LOG})")
        print(res.tail)
        return 2
    binary = bdir.path / "bin" / req.target
    print(f"$ {ENV}=1 {binary} {' '.join(req.args)}".rstrip(), flush=True)
    env = {**os.environ, ENV: "1"}
    return exit_status(runner([str(binary), *req.args], env=env, check=False).returncode)


def main(argv: Sequence[str]) -> int:
    try:
        req = parse(argv)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return run(req)
